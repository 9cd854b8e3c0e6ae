/**
 * Deadlines of the statements in flight, watched by one timer for all of them.
 *
 * node-postgres bounds a statement with `query_timeout` by a timer of its own per statement, and
 * with it every result it reads was promoted to V8's old generation: at a projection page's rate
 * each young-generation collection copied ~5 MB and took 20–30 ms instead of 1, which was the
 * page's p99 (docs/benchmarks.md, issue 28). Here a statement registers its deadline in a set; a
 * single unref'd timer waits for the earliest one, and is re-armed only when a statement with an
 * earlier deadline arrives (with one bound for every statement, never) or when it fires.
 */
export interface Deadline {
  readonly at: number;
  readonly expire: () => void;
}

export class StatementDeadlines {
  private readonly pending = new Set<Deadline>();
  private timer: NodeJS.Timeout | undefined;
  private armedAt = Number.POSITIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Calls `expire` once `timeoutMs` have passed, unless `clear` came first. */
  watch(timeoutMs: number, expire: () => void): Deadline {
    const deadline: Deadline = { at: this.now() + timeoutMs, expire };
    this.pending.add(deadline);
    if (deadline.at < this.armedAt) this.arm(deadline.at);
    return deadline;
  }

  clear(deadline: Deadline): void {
    this.pending.delete(deadline);
  }

  /** Statements being watched (for tests). */
  get size(): number {
    return this.pending.size;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - this.now()));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const deadline of this.pending) {
      if (deadline.at <= now) {
        this.pending.delete(deadline);
        deadline.expire();
      } else if (deadline.at < next) {
        next = deadline.at;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}
