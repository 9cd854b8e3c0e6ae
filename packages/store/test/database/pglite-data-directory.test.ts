import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/index.js';

/**
 * The embedded default (`npm start`): a new data directory is created by an instance of its own
 * (initdb's memory goes with it), then opened; PostgreSQL's shared buffers are kept small because
 * PGlite's memory never shrinks.
 */
describe('PGlite data directories', () => {
  const parent = mkdtempSync(join(tmpdir(), 'herald-pglite-dir-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('creates a new directory, keeps what was written across opens, with 32 MB of shared buffers', async () => {
    const dataDir = join(parent, 'data');
    const first = await openDatabase(`pglite://${dataDir}`);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    await first.exec(`CREATE TABLE kept (n integer); INSERT INTO kept VALUES (42);`);
    const buffers = await first.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(buffers.rows[0]?.shared_buffers).toBe('32MB');
    await first.close();
    const again = await openDatabase(`pglite://${dataDir}`);
    expect((await again.query<{ n: number }>('SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
    await again.close();
  }, 120_000);
});
