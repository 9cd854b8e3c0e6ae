/**
 * Told to the handler (`context.gap`) when a delivery is released although its predecessor never
 * arrived within `maxWaitMs`. What was skipped is between `lastReleased` and `released`
 * (sequenceNumbers exclusive for messages; for changes, the versions in between are unknown).
 */
export interface GapNotice {
  /**
   * `timeout`: the predecessor did not arrive in time. `unknown-start`: nothing was known about the
   * resource (no stored position) and the first delivery seen was not its start (sequenceNumber 1 /
   * ResourceCreated) — typical for resources that existed before the subscription.
   */
  readonly reason: 'timeout' | 'unknown-start';
  readonly lane: 'messages' | 'changes';
  /** sequenceNumber (messages) or version (changes) last released; undefined when unknown. */
  readonly lastReleased?: number;
  /** sequenceNumber or version of the delivery being released. */
  readonly released: number;
  /** How long the oldest waiting delivery of the lane waited. */
  readonly waitedMs: number;
}
