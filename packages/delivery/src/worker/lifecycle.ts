import { Waker } from './waker.js';

/**
 * Whether the worker runs, the sleeps its loops can be woken from, and the signal that aborts
 * in-flight sends once the shutdown grace has passed. Shared by the loops; only `stop` ends it.
 */
export class WorkerLifecycle {
  private isRunning = true;
  /** Between two routing rounds when idle or after an error; outbox signals wake it. */
  readonly routerWaker = new Waker();
  /** The router's linger under load: cut short only by stop, never by an outbox signal. */
  readonly lingerWaker = new Waker();
  readonly senderWaker = new Waker();
  readonly maintenanceWaker = new Waker();
  private readonly shutdown = new AbortController();

  get running(): boolean {
    return this.isRunning;
  }

  /** Aborted when the shutdown grace is over: sends still in flight then are given back. */
  get shutdownSignal(): AbortSignal {
    return this.shutdown.signal;
  }

  /** Sleeps until `until` (a `performance.now()` time) unless the worker stops first. */
  async lingerUntil(until: number): Promise<void> {
    const ms = until - performance.now();
    if (ms > 0 && this.isRunning) await this.lingerWaker.wait(ms);
  }

  /**
   * Ends the loops (each finishes its round and returns) and awaits them; sends still in flight
   * after `graceMs` are aborted, which gives their deliveries back.
   */
  async stopLoops(loops: Promise<unknown>, graceMs: number): Promise<void> {
    this.isRunning = false;
    for (const waker of [this.routerWaker, this.lingerWaker, this.senderWaker, this.maintenanceWaker]) waker.wake();
    const grace = setTimeout(() => this.shutdown.abort(new Error('delivery worker stopping')), graceMs);
    try {
      await loops;
    } finally {
      clearTimeout(grace);
    }
  }
}
