/**
 * Counts the deliveries of messages this process saw fail, for transports whose own count is
 * missing: Pub/Sub sets `deliveryAttempt` only on subscriptions with a dead-letter policy. Without a
 * count every retry would look like the first, and the failure backoff would never grow. The count
 * is this process's (a redelivery to another instance starts again at 1) and bounded: beyond
 * `capacity` messages the longest-known are forgotten.
 */
export class AttemptCounter {
  private readonly attempts = new Map<string, number>();

  constructor(private readonly capacity = 10_000) {}

  /** This delivery's attempt: 1 for a message not seen before, one more than last time otherwise. */
  next(messageId: string): number {
    const attempt = (this.attempts.get(messageId) ?? 0) + 1;
    // Re-inserted, so that the map's order is the order of last delivery (oldest first).
    this.attempts.delete(messageId);
    this.attempts.set(messageId, attempt);
    if (this.attempts.size > this.capacity) {
      const oldest = this.attempts.keys().next().value;
      if (oldest !== undefined) this.attempts.delete(oldest);
    }
    return attempt;
  }

  /** The message was acknowledged: it will not come back. */
  forget(messageId: string): void {
    this.attempts.delete(messageId);
  }
}
