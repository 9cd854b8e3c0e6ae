import { DocumentStore, openDatabase, type Database, type Queryable } from '@herald/store';
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { createProject, createSqsSubscription, eventually, HOUR, ManualClock, silentLogger, writeStores, sqsPool } from './support.js';

/**
 * One lock order for the health row and delivery rows: the sender's record, the maintenance sweep
 * (stopElapsedWindows) and forgetSubscription take the subscription's health row before its
 * delivery rows. The record used to delete the acknowledged deliveries first and lock the health
 * row after, the inverse of the sweep: when both ran at once for a subscription whose window had
 * just elapsed and whose destination was fixed, PostgreSQL aborted one of them (acknowledged
 * deliveries sent again, or the sweep threw).
 */
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();
// Row locks and deadlock detection need PostgreSQL (PGlite has one connection, nothing to race).
if (!canRun) console.warn('[delivery] skipping the lock-order test: no DATABASE_URL and no PostgreSQL binaries');

/** Pauses the first transactional statement matching `match` (after it ran) until `release()`. */
function pausing(db: Database, match: (sql: string) => boolean) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const hit = new Promise<void>((resolve) => (reached = resolve));
  let paused = false;
  const wrapped: Database = {
    driver: db.driver,
    query: (sql, params, options) => db.query(sql, params, options),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    transaction: (work) =>
      db.transaction((tx) => {
        const gatedTx: Queryable = {
          async query(sql, params, options) {
            const result = await tx.query(sql, params, options);
            if (!paused && match(sql)) {
              paused = true;
              reached();
              await gate;
            }
            return result as never;
          },
          exec: (sql) => tx.exec(sql),
        };
        return work(gatedTx);
      }),
  };
  return { db: wrapped, hit, release };
}

describe('sender record vs maintenance sweep (PostgreSQL)', () => {
  let cluster: RunningService | undefined;
  let isolated: { url: string; drop(): Promise<void> } | undefined;
  let db: Database | undefined;
  let sqs: SqsPeer | undefined;
  let pool: DestinationPool | undefined;

  beforeAll(async () => {
    if (!canRun) return;
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
    [db, sqs] = await Promise.all([openDatabase(isolated.url), startSqsPeer()]);
    pool = sqsPool(sqs.endpoint);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await db?.close();
    await sqs?.stop();
    await isolated?.drop();
    await cluster?.stop();
  });

  it.runIf(canRun)('a successful retry at the window end and the sweep both complete (no deadlock)', async () => {
    const database = db!;
    const peer = sqs!;
    const clock = new ManualClock();
    const projectKey = 'deadlock';
    await createProject(database, clock, projectKey, 'development');
    const documents = new DocumentStore(database, clock);
    const queueName = `${projectKey}-q`;
    const target = { queueUrl: peer.createQueue(queueName), region: peer.region };
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });

    const gated = pausing(database, (sql) => sql.startsWith('DELETE FROM deliveries WHERE id = ANY'));
    const options = { sendTimeoutMs: 2_000, leaseMs: 10_000 };
    const worker = new DeliveryEngine({ db: gated.db, logger: silentLogger, adapters: pool!, clock, random: () => 0.5 }, { workerId: 'w', ...options });
    const sweeper = new DeliveryEngine({ db: database, logger: silentLogger, adapters: pool!, clock, random: () => 0.5 }, { workerId: 's', ...options });

    // ConfigurationError with two pending deliveries.
    peer.fauxqs.deleteQueue(queueName);
    await writeStores(documents, projectKey, 2);
    await worker.router.routeOnce();
    await worker.router.routeOnce();
    expect(await worker.sender.sendOnce()).toMatchObject({ retried: 2 });
    expect(await worker.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationError');

    // Fixed just as the 1-hour window ends: the last retry (due at the window end) succeeds while
    // the sweep of the same moment stops the subscription.
    peer.createQueue(queueName);
    clock.advance(HOUR);
    const sending = worker.sender.sendOnce();
    await gated.hit; // acknowledged deliveries deleted, health not locked yet
    const sweeping = sweeper.maintenance.runOnce().then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error: String(error) }),
    );
    // The sweep holds the health row and waits for the rows the sender deleted.
    await eventually(
      async () => {
        const waiting = await database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return (waiting.rows[0]?.n ?? 0) >= 1;
      },
      10_000,
      'the sweep to wait on a row lock',
    );
    gated.release();
    const [sent, swept] = await Promise.all([sending, sweeping]);

    expect({ senderRecorded: sent.delivered, sweep: swept.ok ? 'ok' : swept.error }).toEqual({ senderRecorded: 2, sweep: 'ok' });
  });
});
