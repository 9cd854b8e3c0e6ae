export * from './services/index.js';
export * from './peers/index.js';
export * from './load/index.js';
export * from './reference/index.js';
