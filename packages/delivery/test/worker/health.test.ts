/**
 * The worker's `healthy()` (its `/healthz`) when the database stops answering: a loop stuck in a
 * query records no failure, so the worker must notice that a round trip has been in flight too long
 * (docs/operations.md, "Health endpoints"). End to end, through a frozen TCP proxy in front of
 * PostgreSQL: packages/gateway/test/ops/unresponsive-database-health.test.ts.
 */
import { openDatabase, type Database, type Queryable } from '@herald/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { DestinationAdapterSource } from '../../src/engine/adapters.js';
import { parseWorkerConfig, WorkerConfigError } from '../../src/worker/config.js';
import { WorkerHealth } from '../../src/worker/health.js';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/worker/worker.js';
import { eventually, silentLogger } from '../engine/support.js';

describe('WorkerHealth', () => {
  let now = 0;
  const health = () => new WorkerHealth({ roundTripTimeoutMs: 1_000, now: () => now });

  it('is unhealthy when a round trip stays in flight past the timeout', () => {
    now = 0;
    const subject = health();
    const loop = subject.watch('router');
    loop.roundTrip();
    now = 1_000;
    expect(subject.status().healthy).toBe(true);
    now = 1_001;
    expect(subject.status()).toMatchObject({ healthy: false, reason: expect.stringContaining('router') });
    loop.sleep(100);
    expect(subject.status().healthy).toBe(true);
  });

  it('allows a sleep its length plus the timeout, and an unbounded wait forever', () => {
    now = 0;
    const subject = health();
    const router = subject.watch('router');
    const sender = subject.watch('sender');
    router.sleep(5_000);
    sender.waitUnbounded();
    now = 6_000;
    expect(subject.status().healthy).toBe(true);
    now = 6_001;
    expect(subject.status()).toMatchObject({ healthy: false, reason: expect.stringMatching(/router/) });
    expect(subject.status().reason).not.toMatch(/sender/);
  });

  it('takes its timeout from HERALD_DELIVERY_HEALTH_TIMEOUT_MS (default 10 s)', () => {
    expect(parseWorkerConfig({}).healthTimeoutMs).toBe(10_000);
    expect(parseWorkerConfig({ HERALD_DELIVERY_HEALTH_TIMEOUT_MS: '2500' }).healthTimeoutMs).toBe(2_500);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_HEALTH_TIMEOUT_MS: '10' })).toThrow(WorkerConfigError);
  });

  it('is unhealthy after a failed round trip until one succeeds', () => {
    now = 0;
    const subject = health();
    subject.failed();
    expect(subject.status()).toEqual({ healthy: false, reason: 'the last database round trip failed' });
    subject.succeeded();
    expect(subject.status()).toEqual({ healthy: true });
  });
});

/** A database whose statements, while frozen, get no answer until it thaws (a hung server). */
function freezable(db: Database): { db: Database; freeze(): void; thaw(): void } {
  let frozen: Promise<void> | undefined;
  let thaw: (() => void) | undefined;
  const gate = async () => {
    while (frozen !== undefined) await frozen;
  };
  const gated = (target: Queryable): Queryable => ({
    query: async (sql, params, options) => {
      await gate();
      return target.query(sql, params, options);
    },
    exec: async (sql) => {
      await gate();
      return target.exec(sql);
    },
  });
  return {
    db: {
      ...gated(db),
      driver: db.driver,
      transaction: async (work) => {
        await gate();
        return db.transaction((tx) => work(gated(tx)));
      },
      close: () => db.close(),
    },
    freeze() {
      frozen ??= new Promise((done) => (thaw = done));
    },
    thaw() {
      frozen = undefined;
      thaw?.();
    },
  };
}

describe('a delivery worker whose database stops answering', () => {
  let worker: DeliveryWorker | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await worker?.stop();
    await database?.close();
  });

  it('reports unhealthy within its health timeout, and healthy again once the database answers', async () => {
    database = await openDatabase('pglite://memory');
    const gate = freezable(database);
    const adapters: DestinationAdapterSource = {
      get: () => {
        throw new Error('no destinations in this test');
      },
    };
    worker = startDeliveryWorker(
      { db: gate.db, logger: silentLogger, adapters },
      { pollIntervalMs: 10, senderPollIntervalMs: 10, healthTimeoutMs: 300, maintenanceIntervalMs: 60_000 },
    );
    await eventually(() => worker!.healthy(), 5_000, 'healthy');

    gate.freeze();
    const frozenAt = performance.now();
    await eventually(() => !worker!.healthy(), 5_000, 'unhealthy');
    // Not before the bound: a round trip in flight for less than it is fine.
    expect(performance.now() - frozenAt).toBeGreaterThanOrEqual(250);

    gate.thaw();
    await eventually(() => worker!.healthy(), 5_000, 'healthy again');
  });
});
