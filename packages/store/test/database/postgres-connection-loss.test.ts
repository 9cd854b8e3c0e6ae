import { createIsolatedDatabase } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/index.js';

const serverUrl = process.env.DATABASE_URL;
const postgres = serverUrl?.startsWith('postgres') === true ? serverUrl : undefined;
if (postgres === undefined) console.warn('[skip] connection-loss test needs DATABASE_URL pointing at PostgreSQL');

/**
 * A server restart terminates connections, including one held by an open transaction. That must
 * fail the transaction, not the process (an unheard 'error' event on the client would crash it),
 * and the next transaction must get a working connection.
 */
describe.skipIf(postgres === undefined)('PostgreSQL driver: a connection lost inside a transaction', () => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(postgres ?? '');
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('rejects the transaction, keeps the process alive, and serves the next one', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = await db
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          // Another connection terminates this one, as `pg_ctl restart` does (SQLSTATE 57P01).
          await db.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
          await tx.query('SELECT 1');
        })
        .then(
          () => 'committed',
          () => 'rejected',
        );
      expect(outcome).toBe('rejected');
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
      const again = await db.transaction((tx) => tx.query<{ ok: number }>('SELECT 1 AS ok'));
      expect(again.rows).toEqual([{ ok: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
