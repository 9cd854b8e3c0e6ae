/**
 * Runs at most `limit` tasks at once, the rest in arrival order. A minimal limiter instead of
 * p-queue on the hot path: one closure per task and no promise or async-context bookkeeping per
 * task (p-queue measured a few µs per delivery, a tenth of the whole per-delivery budget).
 */
export class TaskLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private waitingHead = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Calls `start` when a slot is free; the task must call `done()` exactly once when it ends. */
  schedule(start: () => void): void {
    if (this.running < this.limit) {
      this.running++;
      start();
      return;
    }
    this.waiting.push(start);
  }

  done(): void {
    if (this.waitingHead < this.waiting.length) {
      const next = this.waiting[this.waitingHead] as () => void;
      this.waiting[this.waitingHead] = undefined as unknown as () => void;
      this.waitingHead++;
      if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
        this.waiting.splice(0, this.waitingHead);
        this.waitingHead = 0;
      }
      next();
      return;
    }
    this.running--;
    if (this.running === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves when nothing runs and nothing waits. */
  onIdle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
