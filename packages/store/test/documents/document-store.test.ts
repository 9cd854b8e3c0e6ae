import { ApiError, type BaseResource, type Clock } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore, openDatabase, type Database } from '../../src/index.js';

interface Thing extends BaseResource {
  key?: string;
  name: string;
  tags: string[];
}

class ManualClock implements Clock {
  constructor(private time = Date.parse('2026-01-01T00:00:00.000Z')) {}
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

async function expectApiError(promise: Promise<unknown>, statusCode: number, code: string): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError.statusCode).toBe(statusCode);
  expect(apiError.code).toBe(code);
  return apiError;
}

// One storage suite, run against every driver CI provides (PGlite always, PostgreSQL when set).
describe.each(testDatabaseUrls())('DocumentStore on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void>;
  let store: DocumentStore;
  let clock: ManualClock;
  const ctx = { projectKey: 'p1', initiator: { clientId: 'client-1', isPlatformClient: false } };

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
    clock = new ManualClock();
    store = new DocumentStore(db, clock);
  });

  const outbox = async () =>
    (
      await db.query<{ kind: string; message_type: string | null; payload: Record<string, unknown> }>(
        'SELECT kind, message_type, payload FROM outbox ORDER BY seq',
      )
    ).rows;

  it('creates a document with server fields and a ResourceCreated notification in the outbox', async () => {
    const thing = await store.create<Thing>(ctx, 'thing', { key: 'k1', name: 'one', tags: [] });
    expect(thing).toMatchObject({ version: 1, key: 'k1', name: 'one', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(thing.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(thing.createdBy).toEqual(ctx.initiator);
    expect(await store.get(ctx.projectKey, 'thing', { id: thing.id })).toEqual(thing);
    expect(await store.get(ctx.projectKey, 'thing', { key: 'k1' })).toEqual(thing);
    expect(await outbox()).toEqual([
      {
        kind: 'change',
        message_type: null,
        payload: {
          notificationType: 'ResourceCreated',
          projectKey: 'p1',
          resource: { typeId: 'thing', id: thing.id },
          resourceUserProvidedIdentifiers: { key: 'k1' },
          version: 1,
          modifiedAt: '2026-01-01T00:00:00.000Z',
        },
      },
    ]);
  });

  it('keeps keys unique per project and type: a duplicate is a 400 DuplicateField and writes nothing', async () => {
    await store.create<Thing>(ctx, 'thing', { key: 'same', name: 'a', tags: [] });
    await expectApiError(store.create<Thing>(ctx, 'thing', { key: 'same', name: 'b', tags: [] }), 400, 'DuplicateField');
    await store.create<Thing>({ projectKey: 'p2' }, 'thing', { key: 'same', name: 'other project', tags: [] });
    await store.create<Thing>(ctx, 'other', { key: 'same', name: 'other type', tags: [] });
    expect((await outbox()).length).toBe(3);
  });

  it('updates with the expected version, bumps it once, and records oldVersion', async () => {
    const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] });
    clock.advance(1000);
    const updated = await store.update<Thing>(ctx, 'thing', { id: created.id }, 1, (doc) => {
      doc.name = 'b';
      doc.tags.push('x');
      return { doc, messages: [{ type: 'ThingRenamed', name: 'b' }] };
    });
    expect(updated).toMatchObject({ version: 2, name: 'b', tags: ['x'], lastModifiedAt: '2026-01-01T00:00:01.000Z' });
    expect(updated.createdAt).toBe(created.createdAt);
    const rows = await outbox();
    expect(rows.map((row) => row.kind)).toEqual(['change', 'message', 'change']);
    expect(rows[1]?.payload).toMatchObject({
      notificationType: 'Message',
      type: 'ThingRenamed',
      name: 'b',
      sequenceNumber: 1,
      resourceVersion: 2,
      version: 1,
    });
    expect(rows[2]?.payload).toMatchObject({ notificationType: 'ResourceUpdated', version: 2, oldVersion: 1 });
  });

  it('answers a stale version with 409 ConcurrentModification carrying currentVersion', async () => {
    const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] });
    await store.update<Thing>(ctx, 'thing', { id: created.id }, 1, (doc) => ({ doc: { ...doc, name: 'b' } }));
    const error = await expectApiError(
      store.update<Thing>(ctx, 'thing', { id: created.id }, 1, (doc) => ({ doc })),
      409,
      'ConcurrentModification',
    );
    expect(error.errors[0]?.currentVersion).toBe(2);
  });

  it('does not bump the version or notify when nothing changed', async () => {
    const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] });
    const same = await store.update<Thing>(ctx, 'thing', { id: created.id }, 1, (doc) => ({ doc }));
    expect(same.version).toBe(1);
    expect((await outbox()).length).toBe(1);
  });

  it('applies all or nothing: a failing update leaves the document and the outbox untouched', async () => {
    const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] });
    await expect(
      store.update<Thing>(ctx, 'thing', { id: created.id }, 1, () => {
        throw new ApiError(400, { code: 'InvalidOperation', message: 'no' });
      }),
    ).rejects.toThrow('no');
    expect(await store.get(ctx.projectKey, 'thing', { id: created.id })).toEqual(created);
    expect((await outbox()).length).toBe(1);
  });

  it('numbers messages consecutively per resource across writes', async () => {
    const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] }, () => [{ type: 'ThingCreated' }]);
    await store.update<Thing>(ctx, 'thing', { id: created.id }, 1, (doc) => ({
      doc: { ...doc, name: 'b' },
      messages: [{ type: 'A' }, { type: 'B' }],
    }));
    const other = await store.create<Thing>(ctx, 'thing', { name: 'z', tags: [] }, () => [{ type: 'ThingCreated' }]);
    const messages = await db.query<{ resource_id: string; sequence_number: number; type: string }>(
      'SELECT resource_id, sequence_number, type FROM messages ORDER BY created_at, sequence_number',
    );
    expect(messages.rows.filter((row) => row.resource_id === created.id).map((row) => [row.sequence_number, row.type])).toEqual([
      [1, 'ThingCreated'],
      [2, 'A'],
      [3, 'B'],
    ]);
    expect(messages.rows.find((row) => row.resource_id === other.id)?.sequence_number).toBe(1);
  });

  it('keeps messages out of the Messages table (but in the outbox) when the project disables them', async () => {
    await store.create<Thing>({ ...ctx, storeMessages: false }, 'thing', { name: 'a', tags: [] }, () => [{ type: 'X' }]);
    expect((await db.query('SELECT 1 FROM messages')).rows).toHaveLength(0);
    expect((await outbox()).some((row) => row.message_type === 'X')).toBe(true);
  });

  it('deletes with the expected version and erases the resource messages on dataErasure', async () => {
    const created = await store.create<Thing>(ctx, 'thing', { key: 'gone', name: 'a', tags: [] }, () => [{ type: 'T' }]);
    await expectApiError(store.delete(ctx, 'thing', { key: 'gone' }, 7), 409, 'ConcurrentModification');
    const deleted = await store.delete<Thing>(ctx, 'thing', { key: 'gone' }, 1, { dataErasure: true });
    expect(deleted.id).toBe(created.id);
    expect(await store.get(ctx.projectKey, 'thing', { id: created.id })).toBeUndefined();
    expect((await db.query('SELECT 1 FROM messages')).rows).toHaveLength(0);
    const last = (await outbox()).at(-1);
    expect(last?.payload).toMatchObject({ notificationType: 'ResourceDeleted', version: 1, dataErasure: true });
    await expectApiError(store.delete(ctx, 'thing', { id: created.id }, 1), 404, 'ResourceNotFound');
  });

  it('on dataErasure also deletes the dropped deliveries of exactly that resource, in no other case', async () => {
    const erased = await store.create<Thing>(ctx, 'thing', { name: 'erased', tags: [] });
    const other = await store.create<Thing>(ctx, 'thing', { name: 'other', tags: [] });
    const plain = await store.create<Thing>(ctx, 'thing', { name: 'deleted without erasure', tags: [] });
    const event = (project: string, typeId: string, id: string) => ({ projectKey: project, resource: { typeId, id }, email: `${id}@example.com` });
    const rows: Array<[string, ReturnType<typeof event>]> = [
      ['p1', event('p1', 'thing', erased.id)],
      ['p1', event('p1', 'other-type', erased.id)], // same id, another resource type
      ['p2', event('p2', 'thing', erased.id)], // same id, another project
      ['p1', event('p1', 'thing', other.id)],
      ['p1', event('p1', 'thing', plain.id)],
    ];
    await db.query('DELETE FROM dropped_deliveries');
    await db.query('DELETE FROM deliveries');
    for (const [index, [project, payload]] of rows.entries()) {
      await db.query(
        `INSERT INTO dropped_deliveries (project_key, subscription_id, event_id, outbox_seq, payload, committed_at, attempts, reason, dropped_at)
         VALUES ($1, 's1', $2, $3, $4::jsonb, now(), 1, 'PayloadError', now())`,
        [project, `e${index}`, index, JSON.stringify(payload)],
      );
    }
    // A pending delivery was emitted before the erasure and stays (the ResourceDeleted follows it).
    await db.query(
      `INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, committed_at, created_at, due_at)
       VALUES ('p1', 's1', 'pending', 99, $1::jsonb, now(), now(), now())`,
      [JSON.stringify(event('p1', 'thing', erased.id))],
    );

    await store.delete<Thing>(ctx, 'thing', { id: plain.id }, 1);
    await store.delete<Thing>(ctx, 'thing', { id: erased.id }, 1, { dataErasure: true });

    const left = await db.query<{ event_id: string }>('SELECT event_id FROM dropped_deliveries ORDER BY event_id');
    expect(left.rows.map((row) => row.event_id)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect((await db.query('SELECT 1 FROM deliveries')).rows).toHaveLength(1);
    await db.query('DELETE FROM deliveries');
    await db.query('DELETE FROM dropped_deliveries');
  });

  it('maps a key collision on update to DuplicateField', async () => {
    await store.create<Thing>(ctx, 'thing', { key: 'a', name: 'a', tags: [] });
    const b = await store.create<Thing>(ctx, 'thing', { key: 'b', name: 'b', tags: [] });
    await expectApiError(
      store.update<Thing>(ctx, 'thing', { id: b.id }, 1, (doc) => ({ doc: { ...doc, key: 'a' } })),
      400,
      'DuplicateField',
    );
  });

  describe('optimistic updates (no lock while apply runs; the write is conditioned on the row read)', () => {
    const optimistic = { optimistic: true };

    it('writes like the locked update: one version, consecutive messages, the same outbox rows', async () => {
      const created = await store.create<Thing>(ctx, 'thing', { key: 'o', name: 'a', tags: [] }, () => [{ type: 'ThingCreated' }]);
      clock.advance(1000);
      const updated = await store.update<Thing>(
        ctx,
        'thing',
        { key: 'o' },
        1,
        (doc) => ({ doc: { ...doc, name: 'b' }, messages: [{ type: 'A' }, { type: 'B' }] }),
        optimistic,
      );
      expect(updated).toMatchObject({ version: 2, name: 'b', lastModifiedAt: '2026-01-01T00:00:01.000Z', createdAt: created.createdAt });
      expect(await store.get(ctx.projectKey, 'thing', { id: created.id })).toEqual(updated);
      const rows = await outbox();
      expect(rows.map((row) => [row.kind, row.message_type])).toEqual([
        ['message', 'ThingCreated'],
        ['change', null],
        ['message', 'A'],
        ['message', 'B'],
        ['change', null],
      ]);
      expect(rows.slice(2, 4).map((row) => row.payload.sequenceNumber)).toEqual([2, 3]);
      expect(rows[4]?.payload).toMatchObject({ notificationType: 'ResourceUpdated', version: 2, oldVersion: 1 });
      const same = await store.update<Thing>(ctx, 'thing', { id: created.id }, 2, (doc) => ({ doc }), optimistic);
      expect(same.version).toBe(2);
      expect((await outbox()).length).toBe(5);
    });

    it('answers 409 with currentVersion and writes nothing when another write commits while apply runs', async () => {
      const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] });
      const error = await expectApiError(
        store.update<Thing>(
          ctx,
          'thing',
          { id: created.id },
          1,
          async (doc) => {
            // A concurrent writer commits after our read and before our write.
            await store.update<Thing>(ctx, 'thing', { id: created.id }, 1, (other) => ({ doc: { ...other, name: 'theirs' } }));
            return { doc: { ...doc, name: 'ours' }, messages: [{ type: 'Ours' }] };
          },
          optimistic,
        ),
        409,
        'ConcurrentModification',
      );
      expect(error.errors[0]?.currentVersion).toBe(2);
      expect(await store.get<Thing>(ctx.projectKey, 'thing', { id: created.id })).toMatchObject({ version: 2, name: 'theirs' });
      expect((await outbox()).some((row) => row.message_type === 'Ours')).toBe(false);
      expect((await db.query('SELECT 1 FROM messages')).rows).toHaveLength(0);
    });

    it('applies to the resource re-created with the same id while apply ran, not to the one it read', async () => {
      await store.create<Thing>(ctx, 'thing', { id: 'fixed-id', name: 'a', tags: ['old'] });
      clock.advance(1000);
      let calls = 0;
      const updated = await store.update<Thing>(
        ctx,
        'thing',
        { id: 'fixed-id' },
        1,
        async (doc) => {
          if (calls++ === 0) {
            await store.delete(ctx, 'thing', { id: 'fixed-id' }, 1);
            await store.create<Thing>(ctx, 'thing', { id: 'fixed-id', name: 'new', tags: ['new'] });
          }
          return { doc: { ...doc, name: 'ours' } };
        },
        optimistic,
      );
      expect(calls).toBe(2);
      expect(updated).toMatchObject({ version: 2, name: 'ours', tags: ['new'], createdAt: '2026-01-01T00:00:01.000Z' });
      expect(await store.get<Thing>(ctx.projectKey, 'thing', { id: 'fixed-id' })).toEqual(updated);
    });

    it('answers 404 when the resource is deleted while apply runs, and 409 for a stale version', async () => {
      const created = await store.create<Thing>(ctx, 'thing', { name: 'a', tags: [] });
      await expectApiError(
        store.update<Thing>(ctx, 'thing', { id: created.id }, 7, (doc) => ({ doc }), optimistic),
        409,
        'ConcurrentModification',
      );
      await expectApiError(
        store.update<Thing>(
          ctx,
          'thing',
          { id: created.id },
          1,
          async (doc) => {
            await store.delete(ctx, 'thing', { id: created.id }, 1);
            return { doc: { ...doc, name: 'ours' } };
          },
          optimistic,
        ),
        404,
        'ResourceNotFound',
      );
    });

    it('reads through reader.get, has no transaction to write in, and maps key collisions', async () => {
      const other = await store.create<Thing>(ctx, 'thing', { key: 'taken', name: 'x', tags: [] });
      const created = await store.create<Thing>(ctx, 'thing', { key: 'mine', name: 'a', tags: [] });
      const updated = await store.update<Thing>(
        ctx,
        'thing',
        { id: created.id },
        1,
        async (doc, reader) => {
          const seen = await reader.get<Thing>('thing', { id: other.id });
          expect(() => reader.tx).toThrow(/optimistic/);
          return { doc: { ...doc, name: seen?.name ?? '?' } };
        },
        optimistic,
      );
      expect(updated.name).toBe('x');
      await expectApiError(
        store.update<Thing>(ctx, 'thing', { id: created.id }, 2, (doc) => ({ doc: { ...doc, key: 'taken' } }), optimistic),
        400,
        'DuplicateField',
      );
    });
  });

  it('queries one project and type with paging and total', async () => {
    for (let i = 0; i < 5; i++) await store.create<Thing>(ctx, 'thing', { key: `k${i}`, name: `n${i}`, tags: [] });
    await store.create<Thing>({ projectKey: 'p2' }, 'thing', { key: 'foreign', name: 'x', tags: [] });
    const page = await store.query<Thing>('p1', 'thing', { limit: 2, offset: 1, sort: ['key asc'] });
    expect(page).toMatchObject({ limit: 2, offset: 1, count: 2, total: 5 });
    expect(page.results.map((doc) => doc.key)).toEqual(['k1', 'k2']);
    const byDocumentField = await store.query<Thing>('p1', 'thing', { sort: ['name desc'], where: ['name != "n0"'] });
    expect(byDocumentField).toMatchObject({ count: 4, total: 4 });
    expect(byDocumentField.results.map((doc) => doc.name)).toEqual(['n4', 'n3', 'n2', 'n1']);
    const noTotal = await store.query<Thing>('p1', 'thing', { withTotal: 'false' });
    expect(noTotal.total).toBeUndefined();
  });

  it('answers the total with every page: past the last page, and when nothing matches', async () => {
    for (let i = 0; i < 3; i++) await store.create<Thing>({ projectKey: 'p3' }, 'thing', { key: `t${i}`, name: `m${i}`, tags: [] });
    // The total travels with the page's rows; a page without rows still needs the count.
    const pastTheEnd = await store.query<Thing>('p3', 'thing', { offset: 5, sort: ['name desc'], where: ['name != :skip'], vars: { skip: ['m0'] } });
    expect(pastTheEnd).toMatchObject({ offset: 5, count: 0, total: 2, results: [] });
    const none = await store.query<Thing>('p3', 'thing', { where: ['name = "nobody"'] });
    expect(none).toMatchObject({ count: 0, total: 0, results: [] });
    const sorted = await store.query<Thing>('p3', 'thing', { limit: 2, sort: ['name desc'], where: ['name != :skip'], vars: { skip: ['m1'] } });
    expect(sorted).toMatchObject({ count: 2, total: 2 });
    expect(sorted.results.map((doc) => doc.name)).toEqual(['m2', 'm0']);
  });
});
