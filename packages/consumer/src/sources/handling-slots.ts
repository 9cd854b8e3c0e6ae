import { sleep, type Clock } from '../clock.js';
import type { Consumer } from '../consumer/types.js';

/** How often a source with no free slot looks whether deliveries moved into the reorder buffer. */
const RECHECK_MS = 50;

/**
 * The received messages a source is handling, bounded by `limit`. Messages whose deliveries wait
 * in the consumer's reorder buffer for a predecessor do not take a slot (the buffer's own capacity
 * bounds them): otherwise a backlog that arrives out of order (after a destination outage, say)
 * fills every slot with deliveries waiting for predecessors still in the queue, and the source
 * stops receiving exactly the messages that would unblock them.
 */
export class HandlingSlots {
  private readonly work = new Set<Promise<void>>();
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly consumer: Pick<Consumer, 'bufferedCount'>,
    private readonly clock: Clock,
    readonly limit: number,
  ) {}

  /** Received messages not settled yet, buffered ones included. */
  get inFlight(): number {
    return this.work.size;
  }

  get free(): number {
    return this.limit - Math.max(0, this.work.size - this.consumer.bufferedCount);
  }

  /** Resolves once a slot is free (or `signal` aborts). */
  async whenFree(signal?: AbortSignal): Promise<void> {
    while (this.free <= 0 && !signal?.aborted) {
      // A slot frees when work settles, or when a delivery moves into the reorder buffer (no event
      // for that: look again shortly).
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      this.waiters.add(wake);
      await Promise.race([woken, sleep(this.clock, RECHECK_MS, signal)]);
      // Not left behind when the recheck wins: all slots may stay full for a long time.
      this.waiters.delete(wake);
    }
  }

  /**
   * Waits for a free slot, then starts `start()` in it and counts it. The check and the start
   * happen together: several callers woken for one free slot would all pass `whenFree()`.
   */
  async admit(start: () => Promise<void>, signal?: AbortSignal): Promise<void> {
    while (this.free <= 0 && !signal?.aborted) await this.whenFree(signal);
    this.track(start());
  }

  /** Counts `work` until it settles. */
  track(work: Promise<void>): void {
    this.work.add(work);
    void work.finally(() => {
      this.work.delete(work);
      this.wakeAll();
    });
  }

  /** Wakes whoever waits for a slot (they look again; used on stop). */
  wakeAll(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves when every tracked message has settled, including ones tracked meanwhile. */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.all([...this.work]);
  }
}
