/**
 * The database read behind the scrape-time gauges, bounded: it walks the whole `deliveries` table
 * (millions of rows during a destination outage), so it must not run once per scrape per scraper.
 *
 * - Single flight: a scrape that arrives while a read is running waits for that read.
 * - Minimum age: a snapshot read less than `refreshMs` ago (monotonic clock, from the end of its
 *   read) is served from memory, so a process reads at most once per `refreshMs` plus the read's
 *   own duration, however many scrapers it has.
 * - Failures are never cached: the next scrape reads again. Meanwhile the last good snapshot is
 *   served while it is at most `maxStaleMs` old (a single timed-out statement neither blanks the
 *   gauges nor restarts the `for` timers of the alerts on them); older, there is none, so the
 *   gauges export no series until a read succeeds, rather than figures frozen for as long as the
 *   database is unreachable.
 */
export interface ScrapeSnapshotOptions {
  refreshMs: number;
  maxStaleMs: number;
}

export interface FailedRead {
  error: unknown;
  /** Age of the snapshot served instead, or undefined when none is (the gauges go empty). */
  servedAgeMs: number | undefined;
}

export class ScrapeSnapshot<T> {
  private last: { value: T; readAt: number } | undefined;
  private inFlight: Promise<T | undefined> | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    /** Monotonic milliseconds (`performance.now()`): wall-clock jumps do not age a snapshot. */
    private readonly monotonicNow: () => number,
    private readonly options: ScrapeSnapshotOptions,
    private readonly onFailure: (failure: FailedRead) => void = () => undefined,
  ) {}

  /** The snapshot for this scrape; undefined when none was read or the last is too old to serve. */
  get(): Promise<T | undefined> {
    const last = this.last;
    if (this.inFlight === undefined && last !== undefined && this.monotonicNow() - last.readAt < this.options.refreshMs) {
      return Promise.resolve(last.value);
    }
    // Set synchronously, so that the collectors of one scrape, which prom-client starts together,
    // and any scrape arriving before the read ends all share it.
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async refresh(): Promise<T | undefined> {
    try {
      const value = await this.read();
      this.last = { value, readAt: this.monotonicNow() };
      return value;
    } catch (error) {
      const last = this.last;
      const ageMs = last === undefined ? undefined : this.monotonicNow() - last.readAt;
      const served = last !== undefined && ageMs !== undefined && ageMs <= this.options.maxStaleMs ? last : undefined;
      this.onFailure({ error, servedAgeMs: served === undefined ? undefined : ageMs });
      return served?.value;
    }
  }
}
