/**
 * The database read behind the scrape-time gauges, bounded: it walks the whole `deliveries` table
 * (millions of rows during a destination outage), so it must not run once per scrape per scraper.
 *
 * - Single flight: a scrape that arrives while a read is running waits for that read.
 * - Minimum age: a snapshot read less than `refreshMs` ago (monotonic clock, from the end of its
 *   read) is served from memory, so a process reads at most once per `refreshMs` plus the read's
 *   own duration, however many scrapers it has.
 * - Failures are never cached: the next scrape reads again. Meanwhile the last good snapshot is
 *   served, however old (issue 25: a database outage must not blank the per-subscription series,
 *   which resolved every alert on them with nothing fixed and restarted their `for` timers after
 *   recovery); `ageMs()` tells how old it is, and the metrics export that age so that dashboards
 *   and rules can tell last known figures from fresh ones.
 */
export interface ScrapeSnapshotOptions {
  refreshMs: number;
  /**
   * A scrape waits at most this long for a read (default `DEFAULT_SCRAPE_WAIT_MS`); then it is
   * served the last snapshot and the read goes on for the next scrape. A database that stopped
   * answering must not hold the scrape past Prometheus's scrape timeout (10 s by default): the
   * target would look down, and every series on it vanish, instead of the database showing down.
   */
  waitMs?: number;
}

/** Default bound of a scrape's wait for a read (5 s, half of Prometheus's default scrape timeout). */
export const DEFAULT_SCRAPE_WAIT_MS = 5_000;

export interface FailedRead {
  error: unknown;
  /** Age of the snapshot served instead, or undefined when none was ever read (the gauges are empty). */
  servedAgeMs: number | undefined;
}

const WAITED: unique symbol = Symbol('waited');

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

  /** The snapshot for this scrape: the last one read (fresh, or the last good one while reads fail); undefined before any. */
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
    return this.withinWait(this.inFlight);
  }

  private async withinWait(read: Promise<T | undefined>): Promise<T | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<typeof WAITED>((resolve) => {
      timer = setTimeout(() => resolve(WAITED), this.options.waitMs ?? DEFAULT_SCRAPE_WAIT_MS);
    });
    try {
      const first = await Promise.race([read, waited]);
      return first === WAITED ? this.last?.value : first;
    } finally {
      clearTimeout(timer);
    }
  }

  private async refresh(): Promise<T | undefined> {
    try {
      const value = await this.read();
      this.last = { value, readAt: this.monotonicNow() };
      return value;
    } catch (error) {
      this.onFailure({ error, servedAgeMs: this.ageMs() });
      return this.last?.value;
    }
  }

  /** Milliseconds since the last successful read ended (monotonic); undefined before the first. */
  ageMs(): number | undefined {
    return this.last === undefined ? undefined : this.monotonicNow() - this.last.readAt;
  }
}
