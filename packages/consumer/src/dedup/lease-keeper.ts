import type { Clock, TimerHandle } from '../clock.js';
import type { Logger } from '../logger.js';
import type { DedupStore } from './dedup-store.js';

/**
 * Keeps the leases of running handlers alive: one batched renewal every `leaseMs / 3` for all of
 * them (not a timer per delivery). A lease found lost (it expired and another instance claimed
 * the delivery) aborts that handler's signal: its work is now a duplicate in the making.
 * The AbortController is made only when a handler asks for its signal (they cost microseconds).
 */
export class LeaseKeeper {
  private readonly held = new Map<string, AbortController | null>();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly deps: { readonly store: DedupStore; readonly clock: Clock; readonly logger: Logger },
    private readonly owner: string,
  ) {}

  hold(key: string): void {
    this.held.set(key, null);
    if (this.timer === undefined) this.arm();
  }

  /** The abort signal of a held lease (a fresh never-aborted one once it is dropped). */
  signalFor(key: string): AbortSignal {
    if (!this.held.has(key)) return new AbortController().signal;
    let controller = this.held.get(key);
    if (!controller) {
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

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (const controller of this.held.values()) controller?.abort(new Error('consumer closed'));
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
