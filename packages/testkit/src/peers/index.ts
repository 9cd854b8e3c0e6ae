export * from './faults.js';
export * from './eventbridge/index.js';
export * from './pubsub/index.js';
export * from './fauxqs.js';
