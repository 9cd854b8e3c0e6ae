/**
 * An append-only log of what a peer received, with event-driven waiting: tests await a count
 * instead of sleeping and polling.
 */
export class Arrivals<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<Waiter>();

  push(...items: T[]): void {
    this.items.push(...items);
    for (const waiter of [...this.waiters]) {
      if (this.items.length >= waiter.count) this.settle(waiter, undefined);
    }
  }

  /** Resolves with the items once at least `count` arrived; rejects after `timeoutMs` or on `close`. */
  waitFor(count: number, timeoutMs: number, what: string): Promise<T[]> {
    if (this.items.length >= count) return Promise.resolve(this.items.slice());
    return new Promise<T[]>((resolve, reject) => {
      const waiter: Waiter = {
        count,
        finish: (error) => (error ? reject(error) : resolve(this.items.slice())),
        timer: setTimeout(() => {
          this.settle(waiter, new Error(`timed out after ${timeoutMs} ms waiting for ${count} ${what}; ${this.items.length} arrived`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Fails every pending wait (the peer stopped: nothing more can arrive). */
  close(reason: string): void {
    for (const waiter of [...this.waiters]) this.settle(waiter, new Error(reason));
  }

  private settle(waiter: Waiter, error: Error | undefined): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    waiter.finish(error);
  }
}

interface Waiter {
  readonly count: number;
  readonly finish: (error: Error | undefined) => void;
  readonly timer: NodeJS.Timeout;
}
