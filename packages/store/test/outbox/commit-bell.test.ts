import type { BaseResource } from '@herald/model';
import { testDatabaseUrls } from '@herald/testkit';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/index.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/**
 * Issue 30: a write's outbox rows wake the delivery workers after the write committed (the
 * database's `outboxCommits`, and a NOTIFY for other processes), not from inside the writing
 * transaction, where PostgreSQL would serialise the commits of every concurrent writer.
 */
describe.each(testDatabaseUrls())('outbox commits on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);
  const ctx = { projectKey: 'p1' };

  function countRings(): { count: () => number; stop: () => void } {
    let rings = 0;
    const stop = database().outboxCommits!.subscribe(() => rings++);
    return { count: () => rings, stop };
  }

  it('rings once a create, an update and a delete have committed', async () => {
    const store = new DocumentStore(database());
    const rings = countRings();
    try {
      const created = await store.create<BaseResource>(ctx, 'store', {} as BaseResource);
      expect(rings.count()).toBe(1);
      await store.update<BaseResource & { key?: string }>(ctx, 'store', { id: created.id }, 1, async (doc) => ({ doc: { ...doc, key: 'k' } }));
      expect(rings.count()).toBe(2);
      await store.delete(ctx, 'store', { id: created.id }, 2);
      expect(rings.count()).toBe(3);
    } finally {
      rings.stop();
    }
  });

  it('rings after the transaction a write joined commits, and never for one rolled back', async () => {
    const store = new DocumentStore(database());
    const rings = countRings();
    try {
      let inside = -1;
      await database().transaction(async (tx) => {
        await store.within(tx).create<BaseResource>(ctx, 'store', {} as BaseResource);
        inside = rings.count();
      });
      expect(inside).toBe(0);
      expect(rings.count()).toBe(1);
      await expect(
        database().transaction(async (tx) => {
          await store.within(tx).create<BaseResource>(ctx, 'store', {} as BaseResource);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(rings.count()).toBe(1);
    } finally {
      rings.stop();
    }
  });

  it('does not ring for reads or for writes without outbox rows', async () => {
    const store = new DocumentStore(database());
    const created = await store.create<BaseResource>(ctx, 'store', {} as BaseResource);
    const rings = countRings();
    try {
      await store.get(ctx.projectKey, 'store', { id: created.id });
      await store.query(ctx.projectKey, 'store', {});
      await database().query('CREATE TEMPORARY TABLE IF NOT EXISTS scratch (n integer)');
      expect(rings.count()).toBe(0);
    } finally {
      rings.stop();
    }
  });

  it('leaves no trigger on the outbox that would notify inside the writing transaction', async () => {
    const triggers = await database().query<{ name: string }>(`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'outbox'::regclass AND NOT tgisinternal`);
    expect(triggers.rows).toEqual([]);
  });
});
