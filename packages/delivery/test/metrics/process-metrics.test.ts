/**
 * Issue 25, "a database outage is not resolved" and "no worker at all": every Herald process
 * exports whether its database answers (probed at each scrape, so an idle API with a dead
 * database shows it), the outbox backlog and its routing lag, build info and prom-client's default
 * process metrics. A real database, made to fail or hang behind a wrapper.
 */
import { DocumentStore, type Database, type Queryable, type QueryOptions, type QueryResult } from '@herald/store';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerProcessMetrics } from '../../src/metrics/process-metrics.js';
import { PROCESS_METRIC } from '../../src/metrics/names.js';
import { createProject, driverName, engineDatabaseUrls, ManualClock, openTestDatabase, writeStores, type TestDatabase } from '../engine/support.js';
import { parseExposition, type Sample } from './exposition.js';

/** A database that can be made to fail every statement, or never answer them. */
class FaultyDatabase implements Database {
  mode: 'working' | 'failing' | 'hanging' = 'working';

  constructor(private readonly inner: Database) {}

  get driver(): Database['driver'] {
    return this.inner.driver;
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<Row>> {
    if (this.mode === 'failing') return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    if (this.mode === 'hanging') return new Promise(() => undefined);
    return this.inner.query<Row>(sql, params, options);
  }

  exec(sql: string): Promise<void> {
    return this.inner.exec(sql);
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.inner.transaction(work);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

describe.each(engineDatabaseUrls())('process metrics on %s', (serverUrl) => {
  const driver = driverName(serverUrl);
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
  });

  afterAll(async () => {
    await database?.close();
  });

  function setup() {
    const db = new FaultyDatabase(database.db);
    const registry = new Registry();
    const clock = new ManualClock(new Date());
    const time = { monotonic: 0 };
    registerProcessMetrics(
      { registry, db, version: '1.2.3', clock, monotonicNow: () => time.monotonic },
      { probeTimeoutMs: 200, outboxRefreshMs: 0, scrapeWaitMs: 300 },
    );
    const scrape = async (): Promise<Sample[]> => parseExposition(await registry.metrics());
    const one = (samples: Sample[], name: string): number | undefined => samples.find((s) => s.name === name)?.value;
    return { db, registry, clock, scrape, one };
  }

  it('exports herald_database_up: 1 while the database answers, 0 when it refuses or does not answer within the bound', async () => {
    const { db, scrape, one } = setup();
    expect(one(await scrape(), PROCESS_METRIC.databaseUp)).toBe(1);
    db.mode = 'failing';
    expect(one(await scrape(), PROCESS_METRIC.databaseUp)).toBe(0);
    db.mode = 'hanging';
    const started = performance.now();
    expect(one(await scrape(), PROCESS_METRIC.databaseUp)).toBe(0);
    // The scrape answers (Prometheus would otherwise time out and see the target down, not the database).
    expect(performance.now() - started).toBeLessThan(5_000);
    db.mode = 'working';
    expect(one(await scrape(), PROCESS_METRIC.databaseUp)).toBe(1);
  });

  it('exports the outbox depth and the age of its oldest row, and keeps the last read while the database is down', async () => {
    const { db, clock, scrape, one } = setup();
    const projectKey = `${driver}-outbox-${Date.now()}`;
    await createProject(database.db, clock, projectKey);
    const before = one(await scrape(), PROCESS_METRIC.outboxDepth) ?? 0;
    // Written, never routed (no worker runs here): a message and a change per store.
    await writeStores(new DocumentStore(database.db, clock), projectKey, 3);
    const oldest = await database.db.query<{ committed_at: Date | string }>('SELECT committed_at FROM outbox ORDER BY seq LIMIT 1');
    clock.set(new Date(new Date(oldest.rows[0]?.committed_at as Date | string).getTime() + 42_000));
    const samples = await scrape();
    expect(one(samples, PROCESS_METRIC.outboxDepth)).toBe(before + 6);
    expect(one(samples, PROCESS_METRIC.outboxOldestAge)).toBeCloseTo(42, 3);

    db.mode = 'failing';
    clock.advance(60_000);
    const down = await scrape();
    expect(one(down, PROCESS_METRIC.outboxDepth)).toBe(before + 6);
    expect(one(down, PROCESS_METRIC.outboxOldestAge)).toBeCloseTo(102, 3);
    await database.db.query('DELETE FROM outbox WHERE project_key = $1', [projectKey]);
  });

  it('exports build info and the default process metrics (event loop lag, heap, GC), once per registry', async () => {
    const { registry, db, scrape } = setup();
    // herald serve with in-process delivery registers for the gateway and for its worker.
    registerProcessMetrics({ registry, db, version: '9.9.9' });
    const samples = await scrape();
    expect(samples.filter((s) => s.name === PROCESS_METRIC.buildInfo)).toEqual([
      { name: PROCESS_METRIC.buildInfo, labels: { version: '1.2.3', nodejs_version: process.version }, value: 1 },
    ]);
    const names = new Set(samples.map((s) => s.name));
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total', 'process_resident_memory_bytes']) {
      expect(names.has(name), name).toBe(true);
    }
    expect((await registry.getMetricsAsJSON()).some((metric) => metric.name === 'nodejs_gc_duration_seconds')).toBe(true);
  });
});
