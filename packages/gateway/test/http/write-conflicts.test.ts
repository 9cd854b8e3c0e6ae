import { openDatabase, type Database } from '@herald/store';
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../../src/http/errors.js';

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();

/**
 * Two writes that each wait for the other's rows: PostgreSQL ends one with a deadlock error. That
 * request changed nothing and answers 409 ConcurrentModification (which clients retry), not 500.
 */
describe('a write PostgreSQL aborts for a concurrent one', () => {
  let cluster: RunningService | undefined;
  let db: Database | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!canRun) return;
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    const isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
    await db.exec(`CREATE TABLE pair (id int PRIMARY KEY, n int); INSERT INTO pair VALUES (1, 0), (2, 0);`);
  });

  afterAll(async () => {
    await db?.close();
    await drop?.();
    await cluster?.stop();
  });

  const title = canRun
    ? 'answers a deadlock with 409 ConcurrentModification'
    : 'answers a deadlock with 409 ConcurrentModification (SKIPPED: no PostgreSQL — set DATABASE_URL or install initdb/pg_ctl)';
  it.runIf(canRun)(title, async () => {
    let bothLockedFirst: () => void = () => undefined;
    let locked = 0;
    const firstLocksTaken = new Promise<void>((resolve) => (bothLockedFirst = resolve));
    const crossing = (first: number, second: number) =>
      db!.transaction(async (tx) => {
        await tx.query('UPDATE pair SET n = n + 1 WHERE id = $1', [first]);
        if (++locked === 2) bothLockedFirst();
        await firstLocksTaken;
        await tx.query('UPDATE pair SET n = n + 1 WHERE id = $1', [second]);
      });
    const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
    const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(failed).toHaveLength(1);
    const answer = fromDatabaseError(failed[0]!.reason);
    expect(answer?.statusCode).toBe(409);
    expect(answer?.code).toBe('ConcurrentModification');
    // The aborted write changed nothing: one transaction's two increments remain.
    const rows = await db!.query<{ n: number }>('SELECT n FROM pair ORDER BY id');
    expect(rows.rows.map((row) => row.n)).toEqual([1, 1]);
  });
});
