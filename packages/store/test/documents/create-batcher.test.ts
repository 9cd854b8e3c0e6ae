import { ApiError, type BaseResource } from '@herald/model';
import { testDatabaseUrls } from '@herald/testkit';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/index.js';
import { countingWrites } from '../support/counting-statements.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

interface Thing extends BaseResource {
  key?: string;
  name: string;
}

/**
 * Issue 30: concurrent creates of one project and type share one statement, and each is still
 * its own write: its own answer, its messages and outbox rows in order, its own constraint error.
 */
describe.each(testDatabaseUrls())('creates written together on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);
  const ctx = { projectKey: 'p1' };
  const created = (doc: Thing) => [{ type: 'ThingCreated', name: doc.name }];

  it('writes the creates of one turn in one statement, each with its messages and outbox rows in order', async () => {
    const { db, writes } = countingWrites(database());
    const store = new DocumentStore(db);
    const docs = await Promise.all(Array.from({ length: 12 }, (_, n) => store.create<Thing>(ctx, 'thing', { key: `t-${n}`, name: `thing ${n}` }, created)));
    expect(writes()).toBe(1);

    const found = await store.getMany<Thing>(
      ctx.projectKey,
      'thing',
      docs.map((doc) => doc.id),
    );
    expect(docs.map((doc) => found.get(doc.id)?.key)).toEqual(docs.map((_, n) => `t-${n}`));
    const outbox = await database().query<{ kind: string; resource_id: string }>(
      `SELECT kind, payload->'resource'->>'id' AS resource_id FROM outbox WHERE project_key = 'p1' ORDER BY seq`,
    );
    // Each create's message, then its change notification, creates in the order they were asked for.
    expect(outbox.rows).toEqual(
      docs.flatMap((doc) => [
        { kind: 'message', resource_id: doc.id },
        { kind: 'change', resource_id: doc.id },
      ]),
    );
    const messages = await database().query<{ resource_id: string; created_at: Date; sequence_number: number }>(
      `SELECT resource_id, created_at, sequence_number FROM messages WHERE project_key = 'p1'`,
    );
    expect(messages.rows).toHaveLength(12);
    for (const message of messages.rows) {
      const doc = docs.find((candidate) => candidate.id === message.resource_id)!;
      expect(new Date(message.created_at).toISOString()).toBe(doc.createdAt);
      expect(message.sequence_number).toBe(1);
    }
    await database().query(`DELETE FROM outbox WHERE project_key = 'p1'`);
  });

  it('answers each create of a refused batch on its own: a duplicate key fails alone', async () => {
    const store = new DocumentStore(database());
    await store.create<Thing>(ctx, 'thing', { key: 'taken', name: 'first' });
    const results = await Promise.allSettled([
      store.create<Thing>(ctx, 'thing', { key: 'fresh-1', name: 'a' }),
      store.create<Thing>(ctx, 'thing', { key: 'taken', name: 'b' }),
      store.create<Thing>(ctx, 'thing', { key: 'twice', name: 'c' }),
      store.create<Thing>(ctx, 'thing', { key: 'twice', name: 'd' }),
      store.create<Thing>(ctx, 'thing', { key: 'fresh-2', name: 'e' }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as ApiError).code).toBe('DuplicateField');
    }
    const page = await store.query<Thing>(ctx.projectKey, 'thing', { where: ['key in ("fresh-1", "taken", "twice", "fresh-2")'], sort: ['key asc'] });
    expect(page.results.map((doc) => `${doc.key}:${doc.name}`)).toEqual(['fresh-1:a', 'fresh-2:e', 'taken:first', 'twice:c']);
  });

  it('writes creates inside a caller transaction there, undone with it', async () => {
    const store = new DocumentStore(database());
    await expect(
      database().transaction(async (tx) => {
        const joined = store.within(tx);
        await Promise.all([joined.create<Thing>(ctx, 'thing', { key: 'tx-1', name: 'a' }), joined.create<Thing>(ctx, 'thing', { key: 'tx-2', name: 'b' })]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const page = await store.query<Thing>(ctx.projectKey, 'thing', { where: ['key in ("tx-1", "tx-2")'] });
    expect(page.total).toBe(0);
  });
});
