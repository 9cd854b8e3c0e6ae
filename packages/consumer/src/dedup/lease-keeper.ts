import type { Clock, TimerHandle } from '../clock.js';
import type { Logger } from '../logger.js';
import type { DedupStore } from './dedup-store.js';

/**
 * Keeps the leases of running handlers alive: one batched renewal every `leaseMs / 3` for all of
 * them (not a timer per delivery). A lease found lost (it expired and another instance claimed
 * the delivery) aborts that handler's signal: its work is now a duplicate in the making. Closing
 * the consumer aborts every handler's signal, so handlers that honour it end and close() returns.
 * The AbortController is made only when a handler asks for its signal (they cost microseconds),
 * and a handler's signal is that one controller's, not `AbortSignal.any` with a consumer-wide
 * signal: on Node 20 each `any` call adds an entry to the long-lived signal that is never removed
 * (nodejs/node#55351; measured on 20.20), a leak of one entry per delivery.
 */
export class LeaseKeeper {
  private readonly held = new Map<string, AbortController | null>();
  /** Aborted when the consumer starts closing. */
  private readonly closing = new AbortController();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly deps: { readonly store: DedupStore; readonly clock: Clock; readonly logger: Logger },
    private readonly owner: string,
  ) {}

  /** The signal of a handler that runs without a lease (fail open): only closing aborts it. */
  get closingSignal(): AbortSignal {
    return this.closing.signal;
  }

  hold(key: string): void {
    this.held.set(key, null);
    if (this.timer === undefined) this.arm();
  }

  /** The abort signal of a held lease (the closing signal once it is dropped or the consumer closes). */
  signalFor(key: string): AbortSignal {
    let controller = this.held.get(key);
    if (controller === undefined || (controller === null && this.closing.signal.aborted)) return this.closing.signal;
    if (controller === null) {
      controller = new AbortController();
      this.held.set(key, controller);
    }
    return controller.signal;
  }

  drop(key: string): void {
    this.held.delete(key);
    if (this.held.size === 0) {
      this.timer?.cancel();
      this.timer = undefined;
    }
  }

  /**
   * The consumer is closing: aborts the signals handed out and those asked for from now on. The
   * leases are still renewed until their handlers end (`drop`) or `stop`.
   */
  abortAll(): void {
    const reason = new Error('consumer closed');
    this.closing.abort(reason);
    for (const controller of this.held.values()) controller?.abort(reason);
  }

  stop(): void {
    this.abortAll();
    this.timer?.cancel();
    this.timer = undefined;
    this.held.clear();
  }

  private arm(): void {
    this.timer = this.deps.clock.setTimeout(() => void this.renewAll(), Math.floor(this.deps.store.leaseMs / 3));
  }

  private async renewAll(): Promise<void> {
    this.timer = undefined;
    const keys = [...this.held.keys()];
    if (keys.length === 0) return;
    this.arm();
    try {
      const renewed = await this.deps.store.renew(keys.map((key) => ({ key, owner: this.owner })));
      renewed.forEach((stillOwned, index) => {
        const key = keys[index] as string;
        if (stillOwned || !this.held.has(key)) return;
        this.deps.logger.warn({ dedupKey: key }, 'lease lost while the handler ran; another instance may run it too');
        let controller = this.held.get(key);
        if (!controller) {
          controller = new AbortController();
          this.held.set(key, controller);
        }
        controller.abort(new Error('lease lost'));
      });
    } catch (error) {
      // The next round tries again; a lease survives two missed renewals.
      this.deps.logger.warn({ err: error }, 'lease renewal failed');
    }
  }
}
