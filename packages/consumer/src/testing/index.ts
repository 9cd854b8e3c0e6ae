/**
 * Helpers for your own tests of code that uses the consumer: `import { HandlerSpy, InMemorySource,
 * ManualClock } from '@herald/consumer/testing'`. They use no network and no timers of their own
 * (but `HandlerSpy.waitFor`'s timeout).
 */
export { HandlerSpy, type SpyRecord, type SpyState } from './handler-spy.js';
export { InMemorySource, type SettledInput } from './in-memory-source.js';
export { ClockScope, ManualClock } from './manual-clock.js';
