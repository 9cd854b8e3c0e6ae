/**
 * The scrape-time gauges (pending, oldest pending age, health) read the whole `deliveries` table,
 * which holds millions of rows during a destination outage. These tests scrape a real registry of a
 * real engine over a real database and count the statements the scrapes issue: concurrent scrapes
 * share one read, a recent snapshot is served from memory (its oldest age still advancing), and a
 * failed read is not cached; while reads fail the last snapshot is served, with its age.
 */
import type { Subscription } from '@herald/model';
import { DocumentStore, type Database, type Queryable, type QueryOptions, type QueryResult } from '@herald/store';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine, type DeliveryEngineOptions } from '../../src/engine/engine.js';
import { DELIVERY_METRIC } from '../../src/metrics/names.js';
import {
  createProject,
  createSqsSubscription,
  driverName,
  engineDatabaseUrls,
  ManualClock,
  openTestDatabase,
  sqsPool,
  writeStores,
  type TestDatabase,
} from '../engine/support.js';
import { parseExposition, type Sample } from './exposition.js';

/**
 * The engine's database, observed: counts the statements that go through it, can hold them until
 * released (a slow read) and can fail them (a database that stopped answering).
 */
class ObservedDatabase implements Database {
  statements = 0;
  failing: Error | undefined;
  private held: { release: Promise<void>; started: () => void } | undefined;

  constructor(private readonly inner: Database) {}

  get driver(): Database['driver'] {
    return this.inner.driver;
  }

  async query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<Row>> {
    this.statements++;
    const held = this.held;
    if (held !== undefined) {
      held.started();
      await held.release;
    }
    if (this.failing !== undefined) throw this.failing;
    return this.inner.query<Row>(sql, params, options);
  }

  exec(sql: string): Promise<void> {
    return this.inner.exec(sql);
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    this.statements++;
    return this.inner.transaction(work);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Statements wait until `release()`; `started` resolves when the first one is waiting. */
  hold(): { started: Promise<void>; release: () => void } {
    let release!: () => void;
    let started!: () => void;
    const startedPromise = new Promise<void>((resolve) => (started = resolve));
    const releasePromise = new Promise<void>((resolve) => (release = resolve));
    this.held = { release: releasePromise, started };
    return {
      started: startedPromise,
      release: () => {
        this.held = undefined;
        release();
      },
    };
  }
}

/** One real scrape: `registry.metrics()`, parsed. */
async function scrape(registry: Registry): Promise<Sample[]> {
  return parseExposition(await registry.metrics());
}

function gauge(samples: Sample[], name: string, subscription: Subscription, status?: string): number | undefined {
  return samples.find(
    (sample) => sample.name === name && sample.labels.subscription === subscription.id && (status === undefined || sample.labels.status === status),
  )?.value;
}

const pending = (samples: Sample[], subscription: Subscription) => gauge(samples, DELIVERY_METRIC.pending, subscription);
const oldestAge = (samples: Sample[], subscription: Subscription) => gauge(samples, DELIVERY_METRIC.oldestPendingAge, subscription);
const healthy = (samples: Sample[], subscription: Subscription) => gauge(samples, DELIVERY_METRIC.health, subscription, 'Healthy');
const gaugeSeries = (samples: Sample[]) =>
  samples.filter((s) => s.name === DELIVERY_METRIC.pending || s.name === DELIVERY_METRIC.oldestPendingAge || s.name === DELIVERY_METRIC.health);

describe.each(engineDatabaseUrls())('scrape-time delivery gauges on %s', (serverUrl) => {
  const driver = driverName(serverUrl);
  let database: TestDatabase;
  // Nothing is sent: the deliveries stay pending, as during a destination outage.
  let pool: DestinationPool;
  let projectCounter = 0;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
    pool = sqsPool('http://127.0.0.1:9');
  });

  afterAll(async () => {
    await pool?.closeAll();
    await database?.close();
  });

  /** A fresh project with one subscription and `count` pending deliveries, and an engine on a registry. */
  async function setup(count: number, options: DeliveryEngineOptions = {}) {
    const logs: { level: number; component?: string; msg: string; snapshotAgeSeconds?: number; err?: { message: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
    const clock = new ManualClock(new Date());
    const projectKey = `${driver}-gauges-${++projectCounter}`;
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    const subscription = await createSqsSubscription(
      documents,
      projectKey,
      { queueUrl: `http://127.0.0.1:9/000000000000/${projectKey}`, region: 'us-east-1' },
      { changes: [{ resourceTypeId: 'store' }] },
    );
    const db = new ObservedDatabase(database.db);
    const registry = new Registry();
    const time = { monotonic: 1_000_000 };
    const engine = new DeliveryEngine(
      { db, logger, adapters: pool, clock, registry, monotonicNow: () => time.monotonic },
      { subscriptionRefreshMs: 0, ...options },
    );
    /** Commits `n` events and routes them: `n` more pending deliveries. */
    const addPending = async (n: number): Promise<void> => {
      await writeStores(documents, projectKey, n);
      while ((await engine.router.routeOnce()).events > 0);
    };
    await addPending(count);
    /** The oldest pending delivery's commit time (the database's clock), straight from the database. */
    const oldestCommit = async (): Promise<Date> => {
      const rows = await database.db.query<{ oldest: Date | string }>('SELECT min(committed_at) AS oldest FROM deliveries WHERE subscription_id = $1', [
        subscription.id,
      ]);
      return new Date(rows.rows[0]?.oldest as Date | string);
    };
    // The figures' clock: 5 s after the first commit.
    if (count > 0) clock.set(new Date((await oldestCommit()).getTime() + 5_000));
    return {
      clock,
      logs,
      db,
      registry,
      engine,
      subscription,
      addPending,
      oldestCommit,
      /** Moves both clocks: the wall clock of the figures and the monotonic clock of the cache. */
      advance(ms: number) {
        clock.advance(ms);
        time.monotonic += ms;
      },
      /** Statements issued by `scrapes` (nothing else runs meanwhile). */
      async statementsOf<T>(scrapes: () => Promise<T>): Promise<{ result: T; statements: number }> {
        const before = db.statements;
        const result = await scrapes();
        return { result, statements: db.statements - before };
      },
    };
  }

  it('exports pending count, oldest age and health of the subscription, read in one round of statements per scrape', async () => {
    const { registry, subscription, statementsOf } = await setup(3);
    const { result: samples, statements } = await statementsOf(() => scrape(registry));
    expect(pending(samples, subscription)).toBe(3);
    expect(healthy(samples, subscription)).toBe(1);
    expect(oldestAge(samples, subscription)).toBeCloseTo(5, 3);
    // The deliveries aggregate and the subscriptions with their health: two statements for three gauges.
    expect(statements).toBe(2);
  });

  it('concurrent scrapes, also ones that arrive while the read is running, share one read', async () => {
    const { registry, subscription, db, statementsOf } = await setup(2);
    const { result, statements } = await statementsOf(async () => {
      const hold = db.hold();
      const first = [scrape(registry), scrape(registry)];
      await hold.started;
      // A macrotask later, with the first read still in flight.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const later = [scrape(registry), scrape(registry)];
      hold.release();
      return Promise.all([...first, ...later]);
    });
    expect(statements).toBe(2);
    for (const samples of result) expect(pending(samples, subscription)).toBe(2);
  });

  it('serves a snapshot younger than gaugeRefreshMs (default 10 s) from memory, and reads again after it', async () => {
    const { registry, subscription, statementsOf, addPending, advance } = await setup(2);
    expect(pending(await scrape(registry), subscription)).toBe(2);
    await addPending(3);

    advance(9_999);
    const cached = await statementsOf(() => scrape(registry));
    expect(cached.statements).toBe(0);
    expect(pending(cached.result, subscription)).toBe(2);

    advance(1);
    const fresh = await statementsOf(() => scrape(registry));
    expect(fresh.statements).toBe(2);
    expect(pending(fresh.result, subscription)).toBe(5);
  });

  it("measures the snapshot's age on the monotonic clock, not the wall clock", async () => {
    const { registry, statementsOf, clock } = await setup(1);
    await scrape(registry);
    // The wall clock jumps (NTP, a VM resumed): the snapshot is not older for that.
    clock.advance(3_600_000);
    expect((await statementsOf(() => scrape(registry))).statements).toBe(0);
  });

  it('takes gaugeRefreshMs from the engine options; 0 reads on every scrape (still one read for concurrent ones)', async () => {
    const { registry, statementsOf } = await setup(1, { gaugeRefreshMs: 0 });
    await scrape(registry);
    expect((await statementsOf(() => scrape(registry))).statements).toBe(2);
    expect((await statementsOf(() => Promise.all([scrape(registry), scrape(registry), scrape(registry)]))).statements).toBe(2);

    const slow = await setup(1, { gaugeRefreshMs: 60_000 });
    await scrape(slow.registry);
    slow.advance(59_999);
    expect((await slow.statementsOf(() => scrape(slow.registry))).statements).toBe(0);
    slow.advance(1);
    expect((await slow.statementsOf(() => scrape(slow.registry))).statements).toBe(2);
  });

  it('computes the oldest age at each scrape from the cached commit time, so it keeps growing between reads', async () => {
    const { registry, subscription, statementsOf, oldestCommit, clock, advance } = await setup(2);
    const oldest = (await oldestCommit()).getTime();
    const first = await scrape(registry);
    expect(oldestAge(first, subscription)).toBeCloseTo(5, 3);

    advance(7_000);
    const cached = await statementsOf(() => scrape(registry));
    expect(cached.statements).toBe(0);
    expect(oldestAge(cached.result, subscription)).toBeCloseTo((clock.now().getTime() - oldest) / 1000, 3);
    expect(oldestAge(cached.result, subscription)).toBeCloseTo(12, 3);
  });

  it('does not cache a failed read: the scrape still answers, with the last snapshot, and the next scrape reads again', async () => {
    const { registry, subscription, db, statementsOf, addPending, advance } = await setup(2);
    expect(pending(await scrape(registry), subscription)).toBe(2);
    await addPending(1);
    advance(10_000);

    db.failing = new Error('connection terminated');
    const failed = await statementsOf(() => scrape(registry));
    expect(failed.statements).toBeGreaterThan(0);
    // The counters and the histogram are still exported; the gauges keep the last snapshot.
    expect(failed.result.some((s) => s.name === `${DELIVERY_METRIC.latency}_count` || s.name === DELIVERY_METRIC.createdDeliveries)).toBe(true);
    expect(pending(failed.result, subscription)).toBe(2);
    expect(healthy(failed.result, subscription)).toBe(1);

    // No time passed: a cached failure would serve this scrape from memory; it reads again.
    const retried = await statementsOf(() => scrape(registry));
    expect(retried.statements).toBeGreaterThan(0);
    expect(pending(retried.result, subscription)).toBe(2);

    db.failing = undefined;
    const recovered = await statementsOf(() => scrape(registry));
    expect(recovered.statements).toBe(2);
    expect(pending(recovered.result, subscription)).toBe(3);
  });

  it('scrapes waiting on a read that fails do not start reads of their own', async () => {
    const { registry, subscription, db, statementsOf, advance } = await setup(2);
    await scrape(registry);
    advance(10_000);
    db.failing = new Error('statement timeout');
    const { result, statements } = await statementsOf(async () => {
      const hold = db.hold();
      const first = scrape(registry);
      await hold.started;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const later = [scrape(registry), scrape(registry)];
      hold.release();
      return Promise.all([first, ...later]);
    });
    // The failed read stops at its first statement.
    expect(statements).toBe(1);
    for (const samples of result) expect(pending(samples, subscription)).toBe(2);
  });

  it('keeps showing the last snapshot however long reads fail, with its age, so that a database outage resolves no alert', async () => {
    const { registry, subscription, db, advance, logs } = await setup(2);
    const age = (samples: Sample[]) => samples.find((s) => s.name === DELIVERY_METRIC.gaugesAge)?.value;
    expect(age(await scrape(registry))).toBe(0);
    db.failing = new Error('connection refused');
    advance(30_000);
    expect(pending(await scrape(registry), subscription)).toBe(2);
    // An hour of outage: the same series, their values the last ones read, their age growing.
    advance(3_600_000);
    const stale = await scrape(registry);
    expect(pending(stale, subscription)).toBe(2);
    expect(healthy(stale, subscription)).toBe(1);
    expect(oldestAge(stale, subscription)).toBeCloseTo(5 + 3_630, 3);
    expect(age(stale)).toBeCloseTo(3_630, 3);
    // Each failed read is logged, with the age of what the gauges showed instead.
    const failures = logs.filter((line) => line.component === 'delivery-metrics');
    expect(failures.map((line) => [line.level, line.snapshotAgeSeconds, line.err?.message])).toEqual([
      [40, 30, 'connection refused'],
      [40, 3_630, 'connection refused'],
    ]);
    // The rest of the scrape is unaffected.
    expect(stale.some((s) => s.name === DELIVERY_METRIC.createdDeliveries)).toBe(true);

    db.failing = undefined;
    const recovered = await scrape(registry);
    expect(pending(recovered, subscription)).toBe(2);
    expect(age(recovered)).toBe(0);
  });

  it('answers a scrape whose first read fails, without the gauges, and reads on the next one', async () => {
    const { registry, subscription, db, statementsOf } = await setup(1);
    db.failing = new Error('connection refused');
    const failed = await scrape(registry);
    expect(gaugeSeries(failed)).toEqual([]);
    db.failing = undefined;
    const next = await statementsOf(() => scrape(registry));
    expect(next.statements).toBe(2);
    expect(pending(next.result, subscription)).toBe(1);
  });
});
