import type { BaseResource } from '@herald/model';
import { testDatabaseUrls } from '@herald/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/index.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

interface Thing extends BaseResource {
  key: string;
  rank: number;
  colour: string;
}

/**
 * Paged queries (documents/paged-query.ts): with a predicate, the matches are collected once and
 * the page is sorted from them; past the total's cap (§4.4.4) the page is read as without one.
 * Pages, totals and order must be what a full sort of the matches gives, on every driver.
 */
describe.each(testDatabaseUrls())('paged queries on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);
  let store: DocumentStore;
  const colours = ['red', 'green', 'blue'];
  // 30 things: rank descending with the index, so that sorting by rank differs from creation order.
  const things = Array.from({ length: 30 }, (_, n) => ({ key: `k-${String(n).padStart(2, '0')}`, rank: 100 - n, colour: colours[n % 3] as string }));
  const query = (request: Record<string, unknown>) => store.query<Thing>('p1', 'thing', request);
  const reds = things.filter(({ colour }) => colour === 'red');

  beforeAll(async () => {
    store = new DocumentStore(database(), { now: () => new Date() });
    for (const thing of things) await store.create<Thing>({ projectKey: 'p1' }, 'thing', thing as unknown as Thing);
  });

  it('pages the matches of a predicate in the requested order, with their exact total', async () => {
    const page = await query({ where: ['colour = "red"'], sort: ['rank asc'], limit: 3, offset: 2 });
    const expected = [...reds].sort((a, b) => a.rank - b.rank).slice(2, 5);
    expect(page).toMatchObject({ limit: 3, offset: 2, count: 3, total: reds.length });
    expect(page.results.map(({ key }) => key)).toEqual(expected.map(({ key }) => key));
    const descending = await query({ where: ['colour = "red" or colour = "blue"'], sort: ['key desc'], limit: 4 });
    expect(descending.results.map(({ key }) => key)).toEqual(
      things
        .filter(({ colour }) => colour !== 'green')
        .map(({ key }) => key)
        .sort()
        .reverse()
        .slice(0, 4),
    );
    expect(descending.total).toBe(20);
  });

  it('answers the total with an empty page past the matches, and none when no total is asked', async () => {
    const past = await query({ where: ['colour = "red"'], offset: 50 });
    expect(past).toMatchObject({ count: 0, total: reds.length, results: [] });
    const none = await query({ where: ['colour = "purple"'] });
    expect(none).toMatchObject({ count: 0, total: 0, results: [] });
    const untotalled = await query({ where: ['colour = "red"'], sort: ['rank desc'], limit: 2, withTotal: 'false' });
    expect(untotalled.total).toBeUndefined();
    expect(untotalled.results.map(({ key }) => key)).toEqual(['k-00', 'k-03']);
  });

  it('answers the part of each document that documentSql names, with and without a predicate', async () => {
    const withoutColour = "r.doc - 'colour'";
    const filtered = await query({ where: ['colour = "red"'], sort: ['rank asc'], limit: 2, documentSql: withoutColour });
    expect(filtered.total).toBe(reds.length);
    expect(filtered.results.map(({ key }) => key)).toEqual(
      [...reds]
        .sort((a, b) => a.rank - b.rank)
        .slice(0, 2)
        .map(({ key }) => key),
    );
    expect(filtered.results.every((thing: Partial<Thing>) => thing.colour === undefined && thing.rank !== undefined)).toBe(true);
    const scoped = await query({ sort: ['key asc'], limit: 2, documentSql: withoutColour });
    expect(scoped.total).toBe(30);
    expect(scoped.results.map((thing) => [thing.key, 'colour' in thing])).toEqual([
      ['k-00', false],
      ['k-01', false],
    ]);
  });

  it('past the cap: total 10000, and the page still comes from every match in order', async () => {
    // 10,010 more red things, written straight into the table (the API would take minutes).
    await database().query(
      `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, doc)
       SELECT 'p2', 'thing', id, id, 1, now(), now(), jsonb_build_object('id', id, 'key', id, 'version', 1, 'rank', n, 'colour', 'red')
       FROM generate_series(1, 10010) AS n, LATERAL (SELECT 'bulk-' || lpad(n::text, 5, '0') AS id) named`,
    );
    const page = await store.query<Thing>('p2', 'thing', { where: ['colour = "red"'], sort: ['rank desc'], limit: 3, offset: 4 });
    expect(page.total).toBe(10_000);
    // Written, keyed and identified in rank order: whichever way the matches are read (table,
    // primary key or GIN order), the highest ranks come after the first 10,001.
    expect(page.results.map(({ rank }) => rank)).toEqual([10_006, 10_005, 10_004]);
  });
});
