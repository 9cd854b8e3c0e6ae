/**
 * Runs at most `limit` tasks at once, the rest in arrival order. A minimal limiter instead of
 * p-queue on the hot path: tasks are plain values handed to one `start` function, so a task costs
 * no closure, promise or async-context bookkeeping (p-queue measured a few µs per delivery, a
 * tenth of the whole per-delivery budget).
 */
export class TaskLimiter<Task> {
  private running = 0;
  private readonly waiting: (Task | undefined)[] = [];
  private waitingHead = 0;
  private idleWaiters: (() => void)[] = [];

  /** `start` must lead to exactly one `done()` call when the task ends. */
  constructor(
    private readonly limit: number,
    private readonly start: (task: Task) => void,
  ) {}

  schedule(task: Task): void {
    if (this.running < this.limit) {
      this.running++;
      this.start(task);
      return;
    }
    this.waiting.push(task);
  }

  done(): void {
    if (this.waitingHead < this.waiting.length) {
      const next = this.waiting[this.waitingHead] as Task;
      this.waiting[this.waitingHead] = undefined;
      this.waitingHead++;
      if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
        this.waiting.splice(0, this.waitingHead);
        this.waitingHead = 0;
      }
      this.start(next);
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
