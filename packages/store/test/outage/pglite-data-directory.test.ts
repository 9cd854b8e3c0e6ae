/**
 * PGlite whose data directory is gone while it runs (deleted, an unmounted volume): statements that
 * need its files fail with SQLSTATE class 58 (system error). They reach the layers above as
 * DatabaseUnavailableError, as a PostgreSQL server out of reach does, so the gateway answers 503
 * "retry later" instead of an opaque 500; other failures stay the statement's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, openDatabase, sqlState, type Database } from '../../src/index.js';

describe('PGlite without its data directory', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'herald-pglite-gone-'));
    db = await openDatabase(`pglite://${dir}`);
    await db.exec('CREATE TABLE kept (x int)');
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
  afterAll(async () => {
    await db?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails a statement that needs its files with DatabaseUnavailableError, keeping the SQLSTATE and the cause', async () => {
    const failure = await db.query('CREATE TABLE needs_a_file (y int)').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect(sqlState(failure)).toMatch(/^58/);
    expect((failure as Error).message).toMatch(new RegExp(`^PGlite at ${dir} is unavailable: `));
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });

  it('fails such a transaction the same way', async () => {
    const failure = await db.transaction((tx) => tx.query('CREATE TABLE also_needs_a_file (y int)')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
  });

  it('leaves a statement’s own error as it is', async () => {
    const failure = await db.query('SELECT * FROM no_such_table').catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(DatabaseUnavailableError);
    expect(sqlState(failure)).toBe('42P01');
  });
});
