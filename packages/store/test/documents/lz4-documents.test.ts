import type { BaseResource } from '@herald/model';
import { testDatabaseUrls } from '@herald/testkit';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/index.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/**
 * Migration 016: large documents are compressed with lz4 where the server offers it (PostgreSQL
 * built with lz4, as Debian's is), and stay with pglz where it does not (PGlite), where the
 * migration must still succeed and documents still read back whole.
 */
describe.each(testDatabaseUrls())('Migration 016 on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);

  it('stores a large document with the best method the server has, and reads it back whole', async () => {
    const offered = await database().query<{ lz4: boolean }>(`SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`);
    const expected = offered.rows[0]?.lz4 === true ? 'lz4' : 'pglz';
    // Big enough to be compressed (over TOAST's 2 kB threshold), compressible like a product's variants.
    const variants = Array.from({ length: 40 }, (_, n) => ({ id: n + 1, sku: `sku-${n}`, prices: [{ value: { centAmount: n * 100, currencyCode: 'EUR' } }] }));
    const store = new DocumentStore(database(), { now: () => new Date() });
    const created = await store.create<BaseResource>({ projectKey: 'p1' }, 'product', { variants } as unknown as BaseResource);
    const stored = await database().query<{ method: string | null }>(
      `SELECT pg_column_compression(doc) AS method FROM resources WHERE project_key = 'p1' AND id = $1`,
      [created.id],
    );
    expect(stored.rows[0]?.method).toBe(expected);
    const read = await store.get<BaseResource & { variants: unknown }>('p1', 'product', { id: created.id });
    expect(read?.variants).toEqual(variants);
  });
});
