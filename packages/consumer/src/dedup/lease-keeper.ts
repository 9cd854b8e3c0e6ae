import type { Clock, TimerHandle } from '../clock.js';
import type { Logger } from '../logger.js';
import type { DedupStore } from './dedup-store.js';

/**
 * A delivery whose lease this process may hold (the consumer's in-process work). The keeper marks
 * the ones it holds instead of keeping a registry of its own: the consumer already has every
 * delivery in process by key, and a second map written and cleared per delivery cost as much as
 * the rest of the bookkeeping.
 */
export interface LeaseHolder {
  readonly key: string;
  /** Held by this process: the handler runs under the lease. Written by the keeper only. */
  holding: boolean;
  /** Made when the handler asks for its signal, or when the lease is found lost. Written by the keeper only. */
  abort: AbortController | undefined;
}

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
  private holding = 0;
  /** Aborted when the consumer starts closing. */
  private readonly closing = new AbortController();
  private timer: TimerHandle | undefined;

  /** `candidates()` lists every holder that may be `holding` (the consumer's deliveries in process). */
  constructor(
    private readonly deps: { readonly store: DedupStore; readonly clock: Clock; readonly logger: Logger },
    private readonly owner: string,
    private readonly candidates: () => Iterable<LeaseHolder>,
  ) {}

  hold(lease: LeaseHolder): void {
    if (lease.holding) return;
    lease.holding = true;
    this.holding++;
    if (this.timer === undefined) this.arm();
  }

  /**
   * A handler's abort signal: its own while its lease is held, else (fail open, lease dropped, or
   * asked for first after the consumer began closing) the consumer's closing signal.
   */
  signalFor(lease: LeaseHolder): AbortSignal {
    if (!lease.holding || (lease.abort === undefined && this.closing.signal.aborted)) return this.closing.signal;
    lease.abort ??= new AbortController();
    return lease.abort.signal;
  }

  drop(lease: LeaseHolder): void {
    if (!lease.holding) return;
    lease.holding = false;
    this.holding--;
    if (this.holding === 0) {
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
    for (const lease of this.held()) lease.abort?.abort(reason);
  }

  stop(): void {
    this.abortAll();
    this.timer?.cancel();
    this.timer = undefined;
    for (const lease of this.held()) this.drop(lease);
  }

  private held(): LeaseHolder[] {
    const held: LeaseHolder[] = [];
    for (const lease of this.candidates()) if (lease.holding) held.push(lease);
    return held;
  }

  private arm(): void {
    this.timer = this.deps.clock.setTimeout(() => void this.renewAll(), Math.floor(this.deps.store.leaseMs / 3));
  }

  private async renewAll(): Promise<void> {
    this.timer = undefined;
    const leases = this.held();
    if (leases.length === 0) return;
    this.arm();
    try {
      const renewed = await this.deps.store.renew(leases.map((lease) => ({ key: lease.key, owner: this.owner })));
      renewed.forEach((stillOwned, index) => {
        const lease = leases[index] as LeaseHolder;
        if (stillOwned || !lease.holding) return;
        this.deps.logger.warn({ dedupKey: lease.key }, 'lease lost while the handler ran; another instance may run it too');
        lease.abort ??= new AbortController();
        lease.abort.abort(new Error('lease lost'));
      });
    } catch (error) {
      // The next round tries again; a lease survives two missed renewals.
      this.deps.logger.warn({ err: error }, 'lease renewal failed');
    }
  }
}
