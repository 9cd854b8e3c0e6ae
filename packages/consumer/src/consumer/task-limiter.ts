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
  /**
   * True while `done` starts waiting tasks. A task that ends synchronously calls `done` from inside
   * `start`; that call only frees its slot and the loop below starts the next task, so thousands
   * of synchronous tasks queued behind a slow one run in a loop, not in a recursion per task.
   */
  private draining = false;
  private idleWaiters: (() => void)[] = [];

  /** `start` must lead to exactly one `done()` call when the task ends (possibly within `start`). */
  constructor(
    private readonly limit: number,
    private readonly start: (task: Task) => void,
  ) {}

  schedule(task: Task): void {
    // While draining, the loop takes tasks in order; starting this one here would jump the queue.
    if (this.running >= this.limit || this.draining) {
      this.waiting.push(task);
      return;
    }
    this.running++;
    this.start(task);
  }

  done(): void {
    this.running--;
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.running < this.limit && this.waitingHead < this.waiting.length) {
        const next = this.waiting[this.waitingHead] as Task;
        this.waiting[this.waitingHead] = undefined;
        this.waitingHead++;
        if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
          this.waiting.splice(0, this.waitingHead);
          this.waitingHead = 0;
        }
        this.running++;
        this.start(next);
      }
    } finally {
      this.draining = false;
    }
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
