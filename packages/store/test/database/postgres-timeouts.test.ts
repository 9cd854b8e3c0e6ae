/**
 * The PostgreSQL driver's bounds: opening a database that accepts TCP connections but never answers
 * fails within the connection timeout, naming the server and never the password; a statement past
 * its timeout fails and its connection is discarded (also inside a transaction, without waiting for
 * a ROLLBACK that cannot come); migration scripts (`exec`) are not cut by the default bound.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/database/postgres.js';
import { describeDatabaseUrl, DatabaseUnavailableError } from '../../src/index.js';
import type { Database } from '../../src/index.js';

describe('opening a PostgreSQL that does not answer', () => {
  let server: net.Server;
  const sockets = new Set<net.Socket>();
  let port: number;

  beforeAll(async () => {
    // Accepts connections and never answers: the start-up message gets no reply.
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  });

  it('fails within the connection timeout, naming host and port but not the password', async () => {
    const url = `postgres://herald:s3cret-password@127.0.0.1:${port}/herald`;
    const failure = await openPostgres(url, { connectTimeoutMs: 300 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    const message = (failure as Error).message;
    expect(message).toContain(`127.0.0.1:${port}/herald`);
    expect(message).toMatch(/did not answer within 0\.3 s/);
    expect(message).not.toContain('s3cret-password');
  });

  it('takes connect_timeout (seconds, as libpq) from the URL', async () => {
    const started = performance.now();
    const failure = await openPostgres(`postgres://herald@127.0.0.1:${port}/herald?connect_timeout=1`, { connectTimeoutMs: 60_000 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as Error).message).toMatch(/within 1 s/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('names a refused server with its cause', async () => {
    const closed = net.createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const failure = await openPostgres(`postgres://herald@127.0.0.1:${freePort}/herald`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as Error).message).toContain(`could not connect to PostgreSQL at 127.0.0.1:${freePort}/herald`);
    expect((failure as DatabaseUnavailableError).code).toBe('ECONNREFUSED');
  });

  it('describes a DATABASE_URL without its password', () => {
    expect(describeDatabaseUrl('postgres://herald:secret@db.internal:6432/herald?sslmode=require')).toBe('postgres db.internal:6432/herald');
    expect(describeDatabaseUrl('postgresql:///herald?host=/var/run/postgresql')).toBe('postgres /var/run/postgresql:5432/herald');
    expect(describeDatabaseUrl('pglite://memory')).toBe('pglite memory');
  });
});

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();
if (!canRun) console.warn('[skip] statement timeouts need PostgreSQL (DATABASE_URL or initdb/pg_ctl on PATH)');

describe.runIf(canRun)('PostgreSQL statement timeouts', () => {
  let cluster: RunningService | undefined;
  let isolated: { url: string; drop(): Promise<void> };
  let db: Database;

  beforeAll(async () => {
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
    db = await openPostgres(isolated.url, { queryTimeoutMs: 300, maxConnections: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await isolated?.drop();
    await cluster?.stop();
  });

  it('fails a statement past its timeout and serves the next one on a fresh connection', async () => {
    await expect(db.query('SELECT pg_sleep(5)', [], { timeoutMs: 100 })).rejects.toThrow(/timeout/i);
    await expect(db.query('SELECT pg_sleep(5)')).rejects.toThrow(/timeout/i);
    // Both connections of the pool timed out: they were discarded, not handed out again.
    const again = await db.query<{ ok: number }>('SELECT 1 AS ok');
    expect(again.rows).toEqual([{ ok: 1 }]);
  });

  it('rejects a transaction whose statement timed out at once, and the next transaction works', async () => {
    const started = performance.now();
    await expect(db.transaction((tx) => tx.query('SELECT pg_sleep(5)', [], { timeoutMs: 100 }))).rejects.toThrow(/timeout/i);
    // No ROLLBACK queued behind the unanswered statement (that would wait for the pool's bound).
    expect(performance.now() - started).toBeLessThan(2_000);
    const again = await db.transaction((tx) => tx.query<{ ok: number }>('SELECT 1 AS ok'));
    expect(again.rows).toEqual([{ ok: 1 }]);
    // The server rolled back: the connection was closed, nothing is left waiting in a transaction.
    const idle = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    );
    expect(idle.rows[0]?.n).toBe(0);
  });

  it('does not cut migration scripts (exec) at the default bound', async () => {
    await db.exec('SELECT pg_sleep(0.6); SELECT 1;');
  });

  it('takes query_timeout=0 in the URL as no bound (not as a bound of 0 ms)', async () => {
    const separator = isolated.url.includes('?') ? '&' : '?';
    const unbounded = await openPostgres(`${isolated.url}${separator}query_timeout=0`, { queryTimeoutMs: 100 });
    try {
      const slept = await unbounded.query<{ ok: number }>('SELECT 1 AS ok FROM pg_sleep(0.3)');
      expect(slept.rows).toEqual([{ ok: 1 }]);
    } finally {
      await unbounded.close();
    }
  });

  it("takes query_timeout from the URL's parameters", async () => {
    const separator = isolated.url.includes('?') ? '&' : '?';
    const bounded = await openPostgres(`${isolated.url}${separator}query_timeout=200`, { queryTimeoutMs: 60_000 });
    try {
      await expect(bounded.query('SELECT pg_sleep(2)')).rejects.toThrow(/timeout/i);
    } finally {
      await bounded.close();
    }
  });
});
