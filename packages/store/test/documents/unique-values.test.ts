import { ApiError, type BaseResource } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore, MIGRATIONS, openDatabase, runMigrations, type Database, type UniqueValue } from '../../src/index.js';

interface Gadget extends BaseResource {
  key?: string;
  /** Unique per project, each one; the same name may repeat within one gadget. */
  names: string[];
  /** Unique per project; reported as the object it came from. */
  code?: { text: string };
}

const gadgetValues = (gadget: Gadget): UniqueValue[] => [
  ...gadget.names.map((name) => ({ field: 'name', value: name })),
  ...(gadget.code === undefined ? [] : [{ field: 'code', value: gadget.code.text, duplicateValue: gadget.code }]),
];

/** The error a rejected promise carries, expected to be a 400 DuplicateField. */
async function duplicateOf(promise: Promise<unknown>): Promise<Record<string, unknown> | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).statusCode).toBe(400);
  expect((error as ApiError).code).toBe('DuplicateField');
  return (error as ApiError).errors[0];
}

// On every driver CI provides (PGlite always, PostgreSQL when DATABASE_URL names one).
describe.each(testDatabaseUrls())('Unique values on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void>;
  let store: DocumentStore;
  const ctx = { projectKey: 'p1' };

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
    await db.exec('DELETE FROM resources; DELETE FROM outbox; DELETE FROM messages; DELETE FROM unique_values;');
    store = new DocumentStore(db);
    store.declareUniqueValues<Gadget>('gadget', gadgetValues);
  });

  const create = (names: string[], extra: Partial<Gadget> = {}) => store.create<Gadget>(ctx, 'gadget', { names, ...extra });
  const rename = (gadget: Gadget, names: string[], optimistic = false) =>
    store.update<Gadget>(ctx, 'gadget', { id: gadget.id }, gadget.version, (doc) => ({ doc: { ...doc, names } }), { optimistic });
  const claims = async () =>
    (await db.query<{ field: string; value: string; resource_id: string }>('SELECT field, value, resource_id FROM unique_values ORDER BY field, value')).rows;
  const outboxRows = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).rows[0]?.n;

  it('refuses a value another document holds with 400 DuplicateField naming field and value, and writes nothing', async () => {
    const first = await create(['oak', 'elm']);
    expect(await duplicateOf(create(['ash', 'elm']))).toEqual({
      code: 'DuplicateField',
      message: `A duplicate value "elm" exists for field 'name'.`,
      field: 'name',
      duplicateValue: 'elm',
    });
    expect(await outboxRows()).toBe(1);
    expect(await claims()).toEqual([
      { field: 'name', value: 'elm', resource_id: first.id },
      { field: 'name', value: 'oak', resource_id: first.id },
    ]);
    // The declared duplicateValue is what the error reports.
    await create(['pine'], { code: { text: 'C-1' } });
    expect(await duplicateOf(create(['fir'], { code: { text: 'C-1' } }))).toMatchObject({ field: 'code', duplicateValue: { text: 'C-1' } });
  });

  it('names the first value in the declared order when several are held by others', async () => {
    await create(['zz'], { code: { text: 'AA' } });
    await create(['yy']);
    expect(await duplicateOf(create(['yy', 'zz'], { code: { text: 'AA' } }))).toMatchObject({ field: 'name', duplicateValue: 'yy' });
    expect(await duplicateOf(create(['free'], { code: { text: 'AA' } }))).toMatchObject({ field: 'code', duplicateValue: { text: 'AA' } });
  });

  it('claims a value repeated within one document once', async () => {
    const gadget = await create(['oak', 'oak']);
    expect(await claims()).toEqual([{ field: 'name', value: 'oak', resource_id: gadget.id }]);
  });

  it('keeps domains apart: other fields, other types, other projects may hold the same text', async () => {
    await create(['oak'], { code: { text: 'oak' } });
    await store.create<Gadget>({ projectKey: 'p2' }, 'gadget', { names: ['oak'] });
    await store.create<Gadget>(ctx, 'widget', { names: ['oak'] });
    expect((await claims()).length).toBe(3);
  });

  it('lets exactly one of two concurrent creates with one value succeed', async () => {
    const results = await Promise.allSettled([create(['race', 'a']), create(['b', 'race'])]);
    expect(results.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(ApiError);
    expect((rejected?.reason as ApiError).errors[0]).toMatchObject({ code: 'DuplicateField', field: 'name', duplicateValue: 'race' });
    expect((await db.query('SELECT id FROM resources')).rows).toHaveLength(1);
  });

  it('lets exactly one of two concurrent updates to one value succeed', async () => {
    const [a, b] = [await create(['a']), await create(['b'])];
    const results = await Promise.allSettled([rename(a, ['taken'], true), rename(b, ['taken'])]);
    expect(results.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
    expect((await claims()).filter(({ value }) => value === 'taken')).toHaveLength(1);
  });

  for (const optimistic of [false, true]) {
    describe(optimistic ? 'optimistic updates' : 'locked updates', () => {
      it('free the values a document no longer holds and keep the ones it still holds', async () => {
        const gadget = await create(['oak', 'elm']);
        const renamed = await rename(gadget, ['elm', 'ash'], optimistic);
        expect(await claims()).toEqual([
          { field: 'name', value: 'ash', resource_id: gadget.id },
          { field: 'name', value: 'elm', resource_id: gadget.id },
        ]);
        await create(['oak']);
        // Its own value again, beside a change of something else.
        const same = await store.update<Gadget>(ctx, 'gadget', { id: gadget.id }, renamed.version, (doc) => ({ doc: { ...doc, key: 'k' } }), { optimistic });
        expect(same).toMatchObject({ version: 3, names: ['elm', 'ash'] });
      });

      it('refuse a value another document holds and change nothing', async () => {
        await create(['oak']);
        const gadget = await create(['elm']);
        expect(await duplicateOf(rename(gadget, ['ash', 'oak'], optimistic))).toMatchObject({ field: 'name', duplicateValue: 'oak' });
        expect(await store.get(ctx.projectKey, 'gadget', { id: gadget.id })).toEqual(gadget);
        expect((await claims()).map(({ value }) => value)).toEqual(['elm', 'oak']);
      });
    });
  }

  it('frees every value when the document is deleted', async () => {
    const gadget = await create(['oak', 'elm'], { code: { text: 'C-1' } });
    await store.delete<Gadget>(ctx, 'gadget', { id: gadget.id }, 1);
    expect(await claims()).toEqual([]);
    await create(['oak', 'elm'], { code: { text: 'C-1' } });
  });

  it('holds for writes in a caller transaction (within) and rolls back with it', async () => {
    await expect(
      db.transaction(async (tx) => {
        await store.within(tx).create<Gadget>(ctx, 'gadget', { names: ['rolled-back'] });
        throw new Error('caller fails');
      }),
    ).rejects.toThrow('caller fails');
    expect(await claims()).toEqual([]);
    await create(['inside']);
    const refused = db.transaction((tx) => store.within(tx).create<Gadget>(ctx, 'gadget', { names: ['inside'] }));
    expect(await duplicateOf(refused)).toMatchObject({ field: 'name', duplicateValue: 'inside' });
  });

  it('claims values longer than an index entry allows by their hash', async () => {
    const long = 'x'.repeat(5_000);
    await create([long]);
    expect(await duplicateOf(create([long]))).toMatchObject({ field: 'name', duplicateValue: long });
    expect((await claims())[0]?.value).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reports a duplicate key as the key, also for a type with unique values', async () => {
    await create(['a'], { key: 'k' });
    expect(await duplicateOf(create(['b'], { key: 'k' }))).toMatchObject({ field: 'key', duplicateValue: 'k' });
  });

  it('migration 012 claims the slugs and SKUs of products stored before it, the oldest first', async () => {
    const migration = MIGRATIONS.find(({ name }) => name === 'unique-values');
    await db.exec(`DROP TABLE unique_values; DELETE FROM herald_migrations WHERE id = ${migration?.id};`);
    // Written as the release before did: no claims (a store without declarations).
    let time = Date.parse('2026-01-01T00:00:00.000Z');
    const legacy = new DocumentStore(db, { now: () => new Date((time += 1000)) });
    const data = (slug: Record<string, string>, skus: (string | undefined)[]) => ({
      slug,
      masterVariant: { id: 1, ...(skus[0] === undefined ? {} : { sku: skus[0] }) },
      variants: skus.slice(1).map((sku, index) => ({ id: index + 2, ...(sku === undefined ? {} : { sku }) })),
    });
    const older = await legacy.create<BaseResource>(ctx, 'product', {
      masterData: { current: data({ en: 'old' }, ['s-1']), staged: data({ en: 'new', de: 'neu' }, ['s-1', 's-2', undefined]), published: true },
    } as unknown as BaseResource);
    const newer = await legacy.create<BaseResource>(ctx, 'product', {
      masterData: { current: data({ en: 'new' }, ['s-3']), staged: data({ en: 'new' }, ['s-3']), published: false },
    } as unknown as BaseResource);
    await legacy.create<Gadget>(ctx, 'gadget', { names: ['not-declared-in-sql'] });

    await runMigrations(db);
    expect(await claims()).toEqual([
      { field: 'sku', value: 's-1', resource_id: older.id },
      { field: 'sku', value: 's-2', resource_id: older.id },
      { field: 'sku', value: 's-3', resource_id: newer.id },
      { field: 'slug', value: 'de:neu', resource_id: older.id },
      { field: 'slug', value: 'en:new', resource_id: older.id },
      { field: 'slug', value: 'en:old', resource_id: older.id },
    ]);
  });
  it('migration 013 claims the codes of discount codes stored before it, the oldest first', async () => {
    const migration = MIGRATIONS.find(({ name }) => name === 'discount-code-claims');
    let time = Date.parse('2026-01-01T00:00:00.000Z');
    const legacy = new DocumentStore(db, { now: () => new Date((time += 1000)) });
    const older = await legacy.create<BaseResource>(ctx, 'discount-code', { code: 'SAME' } as unknown as BaseResource);
    await legacy.create<BaseResource>(ctx, 'discount-code', { code: 'SAME' } as unknown as BaseResource);
    const other = await legacy.create<BaseResource>(ctx, 'discount-code', { code: 'OTHER' } as unknown as BaseResource);
    await db.exec(`DELETE FROM herald_migrations WHERE id = ${migration?.id};`);

    await runMigrations(db);
    expect(await claims()).toEqual([
      { field: 'code', value: 'OTHER', resource_id: other.id },
      { field: 'code', value: 'SAME', resource_id: older.id },
    ]);
  });
});
