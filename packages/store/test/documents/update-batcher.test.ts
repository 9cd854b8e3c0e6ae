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

const optimistic = { optimistic: true };
const renamed = (name: string) => (doc: Thing) => ({ doc: { ...doc, name }, messages: [{ type: 'ThingRenamed', name }] });

/**
 * Issue 30: concurrent optimistic updates of one project and type share one statement, and each is
 * still its own version-checked write: its own answer (409 alone when its version is stale), its
 * messages and outbox rows written with it and only when it was, its own constraint error.
 */
describe.each(testDatabaseUrls())('updates written together on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);
  const ctx = { projectKey: 'u1' };
  const outbox = async () =>
    (
      await database().query<{ kind: string; resource_id: string; version: number; sequence: number | null }>(
        `SELECT kind, payload->'resource'->>'id' AS resource_id, (payload->>'version')::int AS version, (payload->>'sequenceNumber')::int AS sequence
         FROM outbox WHERE project_key = 'u1' ORDER BY seq`,
      )
    ).rows;
  const clear = () => database().query(`DELETE FROM outbox WHERE project_key = 'u1'`);

  it('writes the updates of one turn in one statement, each with its messages and outbox rows in order', async () => {
    const plain = new DocumentStore(database());
    const docs = await Promise.all(Array.from({ length: 10 }, (_, n) => plain.create<Thing>(ctx, 'thing', { key: `t-${n}`, name: `thing ${n}` })));
    await clear();
    const { db, writes } = countingWrites(database());
    const store = new DocumentStore(db);
    const updated = await Promise.all(docs.map((doc, n) => store.update<Thing>(ctx, 'thing', { id: doc.id }, 1, renamed(`renamed ${n}`), optimistic)));
    expect(writes()).toBe(1);
    expect(updated.map((doc) => [doc.version, doc.name])).toEqual(docs.map((_, n) => [2, `renamed ${n}`]));

    const found = await store.getMany<Thing>(
      ctx.projectKey,
      'thing',
      docs.map((doc) => doc.id),
    );
    expect(docs.map((doc) => found.get(doc.id))).toEqual(updated);
    // Each update's message, then its change notification, updates in the order they were asked for.
    expect(await outbox()).toEqual(
      docs.flatMap((doc) => [
        { kind: 'message', resource_id: doc.id, version: 1, sequence: 1 },
        { kind: 'change', resource_id: doc.id, version: 2, sequence: null },
      ]),
    );
    const messages = await database().query<{ resource_id: string; sequence_number: number; created_at: Date; name: string }>(
      `SELECT resource_id, sequence_number, created_at, doc->>'name' AS name FROM messages WHERE project_key = 'u1'`,
    );
    expect(messages.rows).toHaveLength(10);
    for (const message of messages.rows) {
      const doc = updated.find((candidate) => candidate.id === message.resource_id)!;
      expect([message.sequence_number, new Date(message.created_at).toISOString(), message.name]).toEqual([1, doc.lastModifiedAt, doc.name]);
    }
    // The next messages of a resource follow the batch's: its message_seq advanced.
    const again = await store.update<Thing>(ctx, 'thing', { id: docs[0]!.id }, 2, renamed('again'), optimistic);
    expect(again.version).toBe(3);
    expect((await outbox()).at(-2)).toMatchObject({ kind: 'message', resource_id: docs[0]!.id, sequence: 2 });
    await clear();
  });

  it('answers 409 to the one of two updates of one version that lost, and writes only the winner and its events', async () => {
    const store = new DocumentStore(database());
    const doc = await store.create<Thing>(ctx, 'thing', { key: 'contested', name: 'start' });
    const other = await store.create<Thing>(ctx, 'thing', { key: 'bystander', name: 'start' });
    await clear();
    const results = await Promise.allSettled([
      store.update<Thing>(ctx, 'thing', { id: doc.id }, 1, renamed('first'), optimistic),
      store.update<Thing>(ctx, 'thing', { id: doc.id }, 1, renamed('second'), optimistic),
      store.update<Thing>(ctx, 'thing', { id: other.id }, 1, renamed('bystander renamed'), optimistic),
    ]);
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 'fulfilled')).toHaveLength(2);
    expect(statuses[2]).toBe('fulfilled');
    const lost = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as ApiError).code).toBe('ConcurrentModification');
    const won = results.slice(0, 2).find((result) => result.status === 'fulfilled') as PromiseFulfilledResult<Thing>;
    expect(await store.get<Thing>(ctx.projectKey, 'thing', { id: doc.id })).toEqual(won.value);
    const rows = await outbox();
    expect(rows.filter((row) => row.resource_id === doc.id)).toEqual([
      { kind: 'message', resource_id: doc.id, version: 1, sequence: 1 },
      { kind: 'change', resource_id: doc.id, version: 2, sequence: null },
    ]);
    expect(rows.filter((row) => row.resource_id === other.id)).toHaveLength(2);
    const messages = await database().query<{ name: string }>(`SELECT doc->>'name' AS name FROM messages WHERE resource_id = $1`, [doc.id]);
    expect(messages.rows).toEqual([{ name: won.value.name }]);
    await clear();
  });

  it('answers 409 alone to an update whose version is stale, and writes the others of its turn', async () => {
    const store = new DocumentStore(database());
    const stale = await store.create<Thing>(ctx, 'thing', { name: 'stale' });
    const fresh = await store.create<Thing>(ctx, 'thing', { name: 'fresh' });
    const results = await Promise.allSettled([
      store.update<Thing>(ctx, 'thing', { id: stale.id }, 5, renamed('never'), optimistic),
      store.update<Thing>(ctx, 'thing', { id: fresh.id }, 1, renamed('written'), optimistic),
    ]);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { statusCode: 409, code: 'ConcurrentModification' } });
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { version: 2, name: 'written' } });
    await clear();
  });

  it('answers each update of a batch refused by a constraint on its own: a key taken fails alone, in order', async () => {
    const store = new DocumentStore(database());
    const docs = await Promise.all(['k-a', 'k-b', 'k-c'].map((key) => store.create<Thing>(ctx, 'thing', { key, name: key })));
    const rekey = (key: string) => (doc: Thing) => ({ doc: { ...doc, key } });
    const results = await Promise.allSettled([
      store.update<Thing>(ctx, 'thing', { id: docs[0]!.id }, 1, rekey('k-new'), optimistic),
      store.update<Thing>(ctx, 'thing', { id: docs[1]!.id }, 1, rekey('k-c'), optimistic),
      store.update<Thing>(ctx, 'thing', { id: docs[2]!.id }, 1, renamed('kept key'), optimistic),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((results[1] as PromiseRejectedResult).reason as ApiError).code).toBe('DuplicateField');
    const found = await store.getMany<Thing>(
      ctx.projectKey,
      'thing',
      docs.map((doc) => doc.id),
    );
    expect(docs.map((doc) => [found.get(doc.id)?.key, found.get(doc.id)?.version])).toEqual([
      ['k-new', 2],
      ['k-b', 1],
      ['k-c', 2],
    ]);
    expect((await outbox()).filter((row) => row.resource_id === docs[1]!.id && row.version === 2)).toEqual([]);
    await clear();
  });

  it('writes updates inside a caller transaction there, undone with it', async () => {
    const store = new DocumentStore(database());
    const doc = await store.create<Thing>(ctx, 'thing', { name: 'kept' });
    await expect(
      database().transaction(async (tx) => {
        await store.within(tx).update<Thing>(ctx, 'thing', { id: doc.id }, 1, renamed('undone'), optimistic);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.get<Thing>(ctx.projectKey, 'thing', { id: doc.id })).toMatchObject({ version: 1, name: 'kept' });
  });
});
