import type { BaseResource, Clock } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendEvents, DocumentStore, openDatabase, type Database } from '../../src/index.js';

interface Thing extends BaseResource {
  key?: string;
  name: string;
}

const clock: Clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };

/**
 * §6.2 CloudEvents `dataref` points at the Messages API "if messages are enabled". Whether a
 * message was kept there is known only when it is written, so the outbox row records it
 * (`message_stored`) for the delivery engine, on every write path.
 */
describe.each(testDatabaseUrls())('outbox message_stored on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void>;
  let store: DocumentStore;
  const enabled = { projectKey: 'p1' };
  const disabled = { projectKey: 'p1', storeMessages: false };

  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM resources');
    await db.query('DELETE FROM outbox');
    await db.query('DELETE FROM messages');
    store = new DocumentStore(db, clock);
  });

  const keptMessages = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages')).rows[0]?.n;

  /** [kind, message type, message_stored] of every outbox row, in commit order. */
  const outbox = async () =>
    (
      await db.query<{ kind: string; message_type: string | null; message_stored: boolean }>(
        'SELECT kind, message_type, message_stored FROM outbox ORDER BY seq',
      )
    ).rows.map((row) => [row.kind, row.message_type, row.message_stored]);

  it('is true for messages the Messages API keeps (the default, and storeMessages: true)', async () => {
    await store.create<Thing>(enabled, 'thing', { name: 'a' }, () => [{ type: 'ThingCreated' }]);
    await store.create<Thing>({ ...enabled, storeMessages: true }, 'thing', { name: 'b' }, () => [{ type: 'ThingCreated' }]);
    expect(await outbox()).toEqual([
      ['message', 'ThingCreated', true],
      ['change', null, true],
      ['message', 'ThingCreated', true],
      ['change', null, true],
    ]);
    expect(await keptMessages()).toBe(2);
  });

  it('is false for messages written while the project keeps none, on create, update and optimistic update', async () => {
    const created = await store.create<Thing>(disabled, 'thing', { key: 'k', name: 'a' }, () => [{ type: 'ThingCreated' }]);
    const updated = await store.update<Thing>(disabled, 'thing', { id: created.id }, 1, (doc) => ({
      doc: { ...doc, name: 'b' },
      messages: [{ type: 'A' }, { type: 'B' }],
    }));
    await store.update<Thing>(disabled, 'thing', { id: created.id }, updated.version, (doc) => ({ doc: { ...doc, name: 'c' }, messages: [{ type: 'C' }] }), {
      optimistic: true,
    });
    expect(await outbox()).toEqual([
      ['message', 'ThingCreated', false],
      ['change', null, true],
      ['message', 'A', false],
      ['message', 'B', false],
      ['change', null, true],
      ['message', 'C', false],
      ['change', null, true],
    ]);
    expect(await keptMessages()).toBe(0);
  });

  it('is false for the messages of a delete with dataErasure (they are not kept either)', async () => {
    const created = await store.create<Thing>(enabled, 'thing', { name: 'a' });
    await store.delete<Thing>(enabled, 'thing', { id: created.id }, 1, { dataErasure: true, messages: () => [{ type: 'ThingDeleted' }] });
    expect((await outbox()).slice(1)).toEqual([
      ['message', 'ThingDeleted', false],
      ['change', null, true],
    ]);
  });

  it('is written by appendEvents on its own too', async () => {
    const doc = { id: 'r1', version: 1, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-01T00:00:00.000Z' };
    const now = clock.now().toISOString();
    await db.transaction(async (tx) => {
      await appendEvents(tx, disabled, 'thing', doc, 0, [{ type: 'Off' }], undefined, now);
      await appendEvents(tx, enabled, 'thing', doc, 1, [{ type: 'On' }], undefined, now);
    });
    expect(await outbox()).toEqual([
      ['message', 'Off', false],
      ['message', 'On', true],
    ]);
  });

  it('defaults to true for rows inserted without it (rows from before the migration keep their dataref)', async () => {
    await db.query(
      `INSERT INTO outbox (project_key, event_id, kind, resource_type_id, message_type, payload)
       VALUES ('p1', 'e1', 'message', 'thing', 'Old', '{}')`,
    );
    expect(await outbox()).toEqual([['message', 'Old', true]]);
  });
});
