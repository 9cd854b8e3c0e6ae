export * from './services/index.js';
export * from './peers/index.js';
