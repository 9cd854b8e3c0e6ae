// The manual clock is part of the public test helpers (`@herald/consumer/testing`).
export { ClockScope, ManualClock } from '../../src/testing/manual-clock.js';
