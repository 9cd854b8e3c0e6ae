import { sleep, type Clock } from '../clock.js';

/**
 * Service Bus abandon and Pub/Sub nack redeliver at once. A delivery deferred because another
 * instance holds it would then bounce straight back (and, on Service Bus, burn its delivery count
 * towards the dead-letter queue), so the source holds the message (its lock / lease is extended by
 * the SDK) for the requested delay first, up to `maxHoldMs`, and cut short by `signal` on stop.
 */
export function holdBeforeRetry(clock: Clock, retryAfterMs: number, maxHoldMs: number, signal: AbortSignal): Promise<void> {
  const delay = Math.min(Math.max(0, retryAfterMs), maxHoldMs);
  return delay === 0 ? Promise.resolve() : sleep(clock, delay, signal);
}
