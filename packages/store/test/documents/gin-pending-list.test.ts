import type { BaseResource } from '@herald/model';
import { testDatabaseUrls } from '@herald/testkit';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/index.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/**
 * Migration 017: writes queue their index entries in a small GIN pending list (64 kB) instead of
 * inserting each key path into the tree. Predicates must still find every document the moment
 * its write is acknowledged, whether its entries are pending or merged.
 */
describe.each(testDatabaseUrls())('GIN pending list on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);

  it.each(['resources_doc_idx', 'resources_doc_without_items_idx'])('keeps a pending list of at most 64 kB on %s', async (name) => {
    const index = await database().query<{ options: string[] }>(`SELECT reloptions AS options FROM pg_class WHERE relname = $1`, [name]);
    expect(index.rows[0]?.options).toEqual(expect.arrayContaining(['fastupdate=on', 'gin_pending_list_limit=64']));
  });

  it('finds each document by a predicate right after its write, across merges of the list', async () => {
    const store = new DocumentStore(database(), { now: () => new Date() });
    // Enough entries (40 entries of several fields each) to fill and merge the list many times. The
    // type holds no line items (migration 019), so that all of them go to the index.
    const entries = (n: number) => Array.from({ length: 40 }, (_, item) => ({ id: `e-${n}-${item}`, sku: `sku-${n}-${item}`, quantity: item + 1 }));
    for (let n = 0; n < 60; n++) {
      await store.create<BaseResource>({ projectKey: 'p1' }, 'inventory-list', { entries: entries(n) } as unknown as BaseResource);
      const page = await store.query('p1', 'inventory-list', { where: [`entries(sku = "sku-${n}-39")`] });
      expect(page.total, `document ${n}`).toBe(1);
    }
    const all = await store.query('p1', 'inventory-list', { where: ['entries(quantity = 40)'], limit: 100 });
    expect(all.total).toBe(60);
  });
});
