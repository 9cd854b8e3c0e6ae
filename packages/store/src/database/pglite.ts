import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { asUnavailable } from './connection-failure.js';
import { lockDataDirectory } from './data-directory-lock.js';
import { OutboxBell } from '../outbox/commit-bell.js';
import type { Database, Queryable, QueryOptions, QueryResult } from './types.js';

/** A statement whose files PGlite cannot read or write fails with DatabaseUnavailableError. */
function wrap(target: PGlite | Transaction, where: string, onAppended: () => void): Queryable {
  const failed = (error: unknown): never => {
    throw asUnavailable(error, where);
  };
  return {
    // `prepare` needs nothing here: PGlite runs in-process, without a protocol round trip to save.
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params as unknown[]).catch(failed);
      if (options?.appendsOutbox === true) onAppended();
      // pg's rowCount: rows changed by INSERT/UPDATE/DELETE, rows returned by SELECT (PGlite
      // reports affectedRows 0 for a SELECT).
      return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql).catch(failed);
    },
  };
}

/** A transaction's BEGIN or COMMIT that failed on PGlite's files, as its statements do. */
function failedTransaction(where: string): (error: unknown) => never {
  return (error) => {
    throw asUnavailable(error, where);
  };
}

/** Runs in a child process: creates the cluster of a data directory with the schema read from stdin. */
const NEW_DIRECTORY_SCRIPT = `
const [module, dataDir, startParams] = JSON.parse(process.argv[1]);
const { PGlite } = require(module);
let schema = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => (schema += chunk)).on('end', async () => {
  const pg = new PGlite({ dataDir, startParams });
  await pg.waitReady;
  await pg.exec(schema);
  await pg.close();
});`;

/**
 * Creates the cluster of a new data directory and its schema (`schema`: every migration) in a
 * process of its own: initdb and the migrations' index builds grow the WebAssembly memory of the
 * PGlite that runs them by ~130 MiB, which neither a closed instance nor an ended worker thread
 * returns to the system (the store opened on a new directory: 376 MiB RSS, on an existing one
 * 244). An ended process returns all of it.
 */
async function initialise(dataDir: string, startParams: string[], schema: string): Promise<void> {
  const module = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const child = spawn(process.execPath, ['-e', NEW_DIRECTORY_SCRIPT, JSON.stringify([module, dataDir, startParams])], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  child.stdin.end(schema);
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`creating the PGlite cluster in ${dataDir} failed (exit code ${code}): ${errors.trim().slice(-2_000)}`);
}

/**
 * PGlite: PostgreSQL compiled to WebAssembly, in-process. `dataDir` undefined means in memory.
 * Queries of one instance run one at a time, which is fine for the embedded default.
 *
 * A data directory is locked (data-directory-lock.ts) before PGlite touches it and unlocked when
 * the database is closed: a second process, or a second open in this process, gets
 * DataDirectoryInUseError instead of writing the same files.
 */
export async function openPglite(dataDir: string | undefined, newDirectorySchema: () => string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const lock = dataDir === undefined ? undefined : lockDataDirectory(dataDir);
  // PostgreSQL's 128 MB of shared buffers live in PGlite's WebAssembly memory, which never shrinks;
  // a file-backed data directory is cached by the operating system besides. 32 MB: 509 -> 437 MiB
  // RSS with 100,000 stores, reads by id no slower (docs/benchmarks.md).
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
  let pg: PGlite;
  try {
    if (dataDir !== undefined && !existsSync(join(dataDir, 'PG_VERSION'))) await initialise(dataDir, startParams, newDirectorySchema());
    pg = new PGlite({ dataDir, startParams });
    await pg.waitReady;
  } catch (error) {
    lock?.release();
    throw error;
  }
  const where = `PGlite at ${dataDir ?? 'memory'}`;
  // One process: the in-process delivery worker is the only listener there can be.
  const bell = new OutboxBell();
  const base = wrap(pg, where, () => bell.ring());
  return {
    driver: 'pglite',
    query: base.query,
    exec: base.exec,
    outboxCommits: bell,
    async transaction(work) {
      let appended = false;
      const result = await pg.transaction((tx) => work(wrap(tx, where, () => (appended = true)))).catch(failedTransaction(where));
      if (appended) bell.ring();
      return result;
    },
    async close() {
      try {
        await pg.close();
      } finally {
        lock?.release();
      }
    },
  };
}
