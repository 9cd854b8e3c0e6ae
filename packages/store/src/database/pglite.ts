import { existsSync } from 'node:fs';
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

/**
 * Creates the cluster of a new data directory in an instance of its own, closed at once: initdb
 * leaves hundreds of MB in the WebAssembly memory of the instance that ran it (814 against 342
 * MiB RSS when the same directory is opened again), and that memory is only returned with the
 * instance.
 */
async function initialise(PGliteClass: typeof PGlite, dataDir: string, startParams: string[]): Promise<void> {
  const first = new PGliteClass({ dataDir, startParams });
  await first.waitReady;
  await first.close();
}

/**
 * PGlite: PostgreSQL compiled to WebAssembly, in-process. `dataDir` undefined means in memory.
 * Queries of one instance run one at a time, which is fine for the embedded default.
 *
 * A data directory is locked (data-directory-lock.ts) before PGlite touches it and unlocked when
 * the database is closed: a second process, or a second open in this process, gets
 * DataDirectoryInUseError instead of writing the same files.
 */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const lock = dataDir === undefined ? undefined : lockDataDirectory(dataDir);
  // PostgreSQL's 128 MB of shared buffers live in PGlite's WebAssembly memory, which never shrinks;
  // a file-backed data directory is cached by the operating system besides. 32 MB: 509 -> 437 MiB
  // RSS with 100,000 stores, reads by id no slower (docs/benchmarks.md).
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
  let pg: PGlite;
  try {
    if (dataDir !== undefined && !existsSync(join(dataDir, 'PG_VERSION'))) await initialise(PGlite, dataDir, startParams);
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
