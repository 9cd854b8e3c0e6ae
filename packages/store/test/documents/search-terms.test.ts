import type { BaseResource } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore, openDatabase, type Database, type SearchTerm } from '../../src/index.js';

/**
 * Search terms (migration 015, documents/search-terms.ts): a declared type's rows are written with
 * each create, update (optimistic or locked) and delete, not when the write fails, and documents
 * stored before the declaration get theirs once, on ensureSearchTerms.
 */
interface Gadget extends BaseResource {
  colours: string[];
  size?: number;
}

const gadgetTerms = (gadget: Gadget): SearchTerm[] => [
  ...gadget.colours.map((colour, index): SearchTerm => ({ part: 'all', unit: index + 1, path: 'colour', kind: 's', str: colour, num: null })),
  ...(gadget.size === undefined ? [] : [{ part: 'all', unit: 0, path: 'size', kind: 'n' as const, str: String(gadget.size), num: gadget.size }]),
];

describe.each(testDatabaseUrls())('Search terms on %s', (serverUrl) => {
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
    await db.exec('DELETE FROM resources; DELETE FROM outbox; DELETE FROM search_terms; DELETE FROM search_term_builds;');
    store = new DocumentStore(db);
    store.declareSearchTerms<Gadget>('gadget', { version: 'v1', termsOf: gadgetTerms });
  });

  const terms = async () =>
    (
      await db.query<{ resource_id: string; unit: number; path: string; str: string; num: number | null }>(
        'SELECT resource_id, unit, path, str, num FROM search_terms ORDER BY resource_id, unit, path',
      )
    ).rows;
  const create = (colours: string[], size?: number) => store.create<Gadget>(ctx, 'gadget', { colours, ...(size === undefined ? {} : { size }) });

  it('writes the rows with the create, replaces them with an update, removes them with the delete', async () => {
    const gadget = await create(['red', 'blue'], 3);
    expect(await terms()).toEqual([
      { resource_id: gadget.id, unit: 0, path: 'size', str: '3', num: 3 },
      { resource_id: gadget.id, unit: 1, path: 'colour', str: 'red', num: null },
      { resource_id: gadget.id, unit: 2, path: 'colour', str: 'blue', num: null },
    ]);
    const locked = await store.update<Gadget>(ctx, 'gadget', { id: gadget.id }, 1, (doc) => ({ doc: { ...doc, colours: ['green'] } }));
    expect(await terms()).toEqual([
      { resource_id: gadget.id, unit: 0, path: 'size', str: '3', num: 3 },
      { resource_id: gadget.id, unit: 1, path: 'colour', str: 'green', num: null },
    ]);
    const optimistic = await store.update<Gadget>(ctx, 'gadget', { id: gadget.id }, locked.version, (doc) => ({ doc: { ...doc, size: 4.5 } }), {
      optimistic: true,
    });
    expect((await terms()).map(({ num }) => num)).toEqual([4.5, null]);
    await store.delete(ctx, 'gadget', { id: gadget.id }, optimistic.version);
    expect(await terms()).toEqual([]);
  });

  it('keeps the rows of the version that stays when the write is refused (409)', async () => {
    const gadget = await create(['red']);
    await store.update<Gadget>(ctx, 'gadget', { id: gadget.id }, 1, (doc) => ({ doc: { ...doc, colours: ['blue'] } }));
    await expect(
      store.update<Gadget>(ctx, 'gadget', { id: gadget.id }, 1, (doc) => ({ doc: { ...doc, colours: ['green'] } }), { optimistic: true }),
    ).rejects.toThrow();
    expect((await terms()).map(({ str }) => str)).toEqual(['blue']);
  });

  it("records a project's build with its first create, deriving the documents stored before it then", async () => {
    const before = new DocumentStore(db);
    const old = await before.create<Gadget>(ctx, 'gadget', { colours: ['white'] });
    const gadget = await create(['red']);
    const builds = await db.query<{ project_key: string; version: string }>('SELECT project_key, version FROM search_term_builds');
    expect(builds.rows).toEqual([{ project_key: 'p1', version: 'v1' }]);
    expect((await terms()).map(({ resource_id, str }) => [resource_id, str])).toEqual(
      [
        [old.id, 'white'],
        [gadget.id, 'red'],
      ].sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
  });

  it('derives the rows of documents stored before the declaration once, on ensureSearchTerms', async () => {
    const before = new DocumentStore(db);
    const old = await before.create<Gadget>(ctx, 'gadget', { colours: ['white'], size: 1 });
    const other = await before.create<Gadget>({ projectKey: 'p2' }, 'gadget', { colours: ['black'] });
    expect(await terms()).toEqual([]);
    await store.ensureSearchTerms('p1', 'gadget');
    expect(await terms()).toEqual([
      { resource_id: old.id, unit: 0, path: 'size', str: '1', num: 1 },
      { resource_id: old.id, unit: 1, path: 'colour', str: 'white', num: null },
    ]);
    // Once per project and version: a document written without the declaration since is not picked up by a new store…
    await before.update<Gadget>(ctx, 'gadget', { id: old.id }, 1, (doc) => ({ doc: { ...doc, colours: ['grey'] } }));
    const again = new DocumentStore(db);
    again.declareSearchTerms<Gadget>('gadget', { version: 'v1', termsOf: gadgetTerms });
    await again.ensureSearchTerms('p1', 'gadget');
    expect((await terms()).map(({ str }) => str)).toEqual(['1', 'white']);
    // …but a new version derives every document again; the other project waits for its own search.
    again.declareSearchTerms<Gadget>('gadget', { version: 'v2', termsOf: gadgetTerms });
    await again.ensureSearchTerms('p1', 'gadget');
    expect((await terms()).map(({ str }) => str)).toEqual(['1', 'grey']);
    expect((await terms()).some(({ resource_id }) => resource_id === other.id)).toBe(false);
  });
});
