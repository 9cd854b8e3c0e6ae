import { settlesWithin, systemClock, type Clock } from '@herald/model';
import type { Database } from '@herald/store';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client';
import { DEFAULT_GAUGE_REFRESH_MS } from './delivery-metrics.js';
import { PROCESS_METRIC } from './names.js';
import { ScrapeSnapshot, type ScrapeSnapshotOptions } from './scrape-snapshot.js';

/**
 * Bound of the scrape's database probe (2 s, as `/readyz`): a `SELECT 1` answers in milliseconds,
 * and the scrape must finish well within Prometheus's scrape timeout (10 s by default) while a
 * database hangs.
 */
export const DATABASE_PROBE_TIMEOUT_MS = 2_000;

export interface ProcessMetricsDeps {
  registry: Registry;
  db: Database;
  /** The package version for `herald_build_info`. */
  version: string;
  clock?: Clock;
  monotonicNow?: () => number;
  logger?: Logger;
}

export interface ProcessMetricsOptions {
  /** Bound of the `herald_database_up` probe (default `DATABASE_PROBE_TIMEOUT_MS`). */
  probeTimeoutMs?: number;
  /** The outbox gauges are read at most once per this long (default 10 s, as the delivery gauges). */
  outboxRefreshMs?: number;
  /** A scrape waits at most this long for the outbox read, then shows the last one (default 5 s). */
  scrapeWaitMs?: number;
  /** prom-client's default process metrics (event loop lag, heap, GC, CPU, handles); default true. */
  defaultMetrics?: boolean;
}

interface OutboxRead {
  depth: number;
  oldestCommittedAt: Date | undefined;
}

/**
 * What every Herald process exports about itself and the database it shares with the others
 * (issue 25): whether the database answers (`herald_database_up`, so that an idle API with a dead
 * database still shows it), the outbox backlog and its routing lag (rows nobody routes: no worker,
 * or workers that cannot keep up), build info and prom-client's default process metrics.
 *
 * Registered once per registry: `herald serve` with in-process delivery calls it for the gateway
 * and for its worker on one registry; the second call does nothing.
 */
export function registerProcessMetrics(deps: ProcessMetricsDeps, options: ProcessMetricsOptions = {}): void {
  const { registry, db } = deps;
  if (registry.getSingleMetric(PROCESS_METRIC.buildInfo) !== undefined) return;
  const registers = [registry];
  new Gauge({
    name: PROCESS_METRIC.buildInfo,
    help: 'Build of this Herald process (value 1).',
    labelNames: ['version', 'nodejs_version'] as const,
    registers,
  }).set({ version: deps.version, nodejs_version: process.version }, 1);

  const probeTimeoutMs = options.probeTimeoutMs ?? DATABASE_PROBE_TIMEOUT_MS;
  new Gauge({
    name: PROCESS_METRIC.databaseUp,
    help: `1 when the database answered a SELECT 1 within ${probeTimeoutMs} ms at this scrape, else 0.`,
    registers,
    async collect() {
      this.set((await databaseAnswers(db, probeTimeoutMs)) ? 1 : 0);
    },
  });
  registerOutboxGauges(deps, registers, {
    refreshMs: options.outboxRefreshMs ?? DEFAULT_GAUGE_REFRESH_MS,
    ...(options.scrapeWaitMs === undefined ? {} : { waitMs: options.scrapeWaitMs }),
  });
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
}

async function databaseAnswers(db: Database, timeoutMs: number): Promise<boolean> {
  // The statement's own timeout frees a connection that stopped answering; the timer bounds the
  // wait for a connection too.
  const probe = db.query('SELECT 1', [], { timeoutMs });
  if (!(await settlesWithin(probe, timeoutMs))) return false;
  return probe.then(
    () => true,
    () => false,
  );
}

function registerOutboxGauges(deps: ProcessMetricsDeps, registers: Registry[], timing: ScrapeSnapshotOptions): void {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger;
  const outbox = new ScrapeSnapshot<OutboxRead>(
    () => readOutbox(deps.db),
    deps.monotonicNow ?? (() => performance.now()),
    timing,
    logger === undefined ? undefined : ({ error }) => logger.warn({ err: error }, 'reading the outbox gauges failed: serving the last read'),
  );
  new Gauge({
    name: PROCESS_METRIC.outboxDepth,
    help: 'Outbox rows not yet routed to subscriptions (cluster-wide, read from the database).',
    registers,
    async collect() {
      const read = await outbox.get();
      this.reset();
      if (read !== undefined) this.set(read.depth);
    },
  });
  new Gauge({
    name: PROCESS_METRIC.outboxOldestAge,
    help: 'Age of the oldest outbox row not yet routed (the routing lag); 0 when the outbox is empty.',
    registers,
    async collect() {
      const read = await outbox.get();
      this.reset();
      if (read === undefined) return;
      // Measured at the scrape, so that it keeps growing while a read is reused or reads fail.
      const oldest = read.oldestCommittedAt;
      this.set(oldest === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000));
    },
  });
}

async function readOutbox(db: Database): Promise<OutboxRead> {
  // The oldest row by `seq` (its primary key): one index probe. The count walks the rows, which is
  // why reads are shared and spaced like the delivery gauges'.
  const result = await db.query<{ depth: number; oldest: Date | string | null }>(
    `SELECT (SELECT count(*)::int FROM outbox) AS depth,
       (SELECT committed_at FROM outbox ORDER BY seq LIMIT 1) AS oldest`,
  );
  const row = result.rows[0];
  return {
    depth: row?.depth ?? 0,
    oldestCommittedAt: row?.oldest === null || row?.oldest === undefined ? undefined : new Date(row.oldest),
  };
}
