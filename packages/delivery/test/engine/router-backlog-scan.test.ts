import type { RunningService } from '@herald/testkit';
import type { Database, Queryable } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../../src/engine/engine.js';
import type { TestDatabase } from './support.js';
import { freshDatabase, ManualClock, projectWithSubscription, ScriptedAdapter, silentLogger, startServer, writeStores } from './scripted-destination.js';

/**
 * With a large outbox backlog, a routing statement touches about a batch of outbox rows. The
 * router claims only rows of "head projects" (`project_key = ANY($1) ORDER BY seq LIMIT $2` over
 * the seq index) and computes the next heads in the same statement, which still sees the rows it
 * deletes: unless those are left out, the heads after a run of one project's rows name that
 * project only and the next claim walks the whole backlog to find nothing (as a fresh router with
 * no heads did). Measured with EXPLAIN ANALYZE of the exact statements, rolled back: row counts,
 * no timing.
 */
describe('routing a large backlog (PostgreSQL)', () => {
  let server: RunningService;
  let database: TestDatabase;

  beforeAll(async () => {
    server = await startServer();
    database = await freshDatabase(server);
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('does not scan the whole outbox to claim a batch', async () => {
    const clock = new ManualClock();
    const small = await projectWithSubscription(database, clock, 'small');
    const big = await projectWithSubscription(database, clock, 'big');
    await writeStores(small.documents, 'small', 5); // 10 outbox rows (a change and a message each)
    await writeStores(big.documents, 'big', 2_000); // 4,000 outbox rows behind them
    const batchSize = 5;

    const db = database.db;
    const scanned: { keys: unknown; events: number; removedByFilter: number }[] = [];
    const measure = async (sql: string, params: unknown[]): Promise<number> => {
      const plan = await db
        .transaction(async (tx: Queryable) => {
          const result = await tx.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
          throw Object.assign(new Error('roll back the measured statement'), { plan: result.rows[0] });
        })
        .catch((error: { plan?: unknown }) => error.plan);
      const removed = [...JSON.stringify(plan).matchAll(/"Rows Removed by Filter":(\d+)/g)].map((m) => Number(m[1]));
      return Math.max(0, ...removed);
    };
    const measured = Object.create(db) as Database;
    measured.query = (async (sql: string, params?: unknown[], options?: unknown) => {
      const removedByFilter = sql.startsWith('WITH cached AS') ? await measure(sql, params ?? []) : undefined;
      const result = await (db.query as (...args: unknown[]) => Promise<{ rows: { events?: number }[] }>)(sql, params, options);
      if (removedByFilter !== undefined) scanned.push({ keys: params?.[0], events: result.rows[0]?.events ?? 0, removedByFilter });
      return result;
    }) as Database['query'];

    const engine = new DeliveryEngine({ db: measured, logger: silentLogger, adapters: new ScriptedAdapter(), clock }, { routeBatchSize: batchSize });
    for (let round = 0; round < 4; round++) await engine.router.routeOnce();

    // Statements that walked far more than a batch of outbox rows to claim (at most) one.
    expect(scanned.filter((s) => s.removedByFilter > 10 * batchSize)).toEqual([]);
  }, 60_000);
});
