/**
 * The PostgreSQL pool's size: DATABASE_URL's `pool_size` parameter sets how many connections one
 * process opens at most (issue 30: with 10, 32 concurrent clients queued); a value that is not a
 * positive integer is a configuration error, not a silent default.
 */
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/index.js';

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();
if (!canRun) console.warn('[skip] pool size needs PostgreSQL (DATABASE_URL or initdb/pg_ctl on PATH)');

/** How many server connections `concurrent` simultaneous statements of `db` were spread over. */
async function connectionsUsed(db: Database, concurrent: number): Promise<number> {
  const answers = await Promise.all(Array.from({ length: concurrent }, () => db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.3)')));
  return new Set(answers.map((answer) => answer.rows[0]!.pid)).size;
}

describe.runIf(canRun)('PostgreSQL pool size', () => {
  let cluster: RunningService | undefined;
  let isolated: { url: string; drop(): Promise<void> };
  const opened: Database[] = [];
  const open = async (query: string) => {
    const url = new URL(isolated.url);
    url.search = query;
    const db = await openDatabase(url.toString());
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await isolated?.drop();
    await cluster?.stop();
  });

  it('opens at most pool_size connections', async () => {
    expect(await connectionsUsed(await open('?pool_size=3'), 8)).toBe(3);
    expect(await connectionsUsed(await open('?pool_size=12'), 12)).toBe(12);
  });

  it('opens at most 10 connections without pool_size', async () => {
    expect(await connectionsUsed(await open(''), 14)).toBe(10);
  });

  it.each(['0', '-1', 'many', '2.5', '1001'])('refuses pool_size=%s', async (value) => {
    await expect(open(`?pool_size=${value}`)).rejects.toThrow(`DATABASE_URL pool_size must be an integer from 1 to 1000 (got "${value}")`);
  });
});
