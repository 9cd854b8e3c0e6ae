export * from './faults.js';
export * from './eventbridge/index.js';
export * from './pubsub/index.js';
export * from './fauxqs.js';
export * from './service-bus/index.js';
export * from './event-grid/index.js';
export * from './lambda/index.js';
