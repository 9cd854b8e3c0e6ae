/**
 * An append-only log of what a peer received, with event-driven waiting: `waitFor(count)` settles
 * when the log reaches that length, so tests await an arrival instead of sleeping and polling.
 */
export class Arrivals<T> {
  private readonly list: T[] = [];
  private readonly waiters = new Set<Waiter>();

  /** The live log (the same array for the peer's lifetime). */
  get items(): readonly T[] {
    return this.list;
  }

  push(...items: readonly T[]): void {
    this.list.push(...items);
    for (const waiter of [...this.waiters]) if (this.list.length >= waiter.count) this.settle(waiter, undefined);
  }

  /** Resolves with a copy of the log once it holds `count` items; rejects after `timeoutMs` or on `close`. */
  waitFor(count: number, timeoutMs: number, what: string): Promise<T[]> {
    if (this.list.length >= count) return Promise.resolve([...this.list]);
    return new Promise<T[]>((resolve, reject) => {
      const waiter: Waiter = {
        count,
        finish: (error) => (error === undefined ? resolve([...this.list]) : reject(error)),
        timer: setTimeout(
          () => this.settle(waiter, new Error(`timed out after ${timeoutMs} ms waiting for ${count} ${what}; ${this.list.length} arrived`)),
          timeoutMs,
        ),
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
