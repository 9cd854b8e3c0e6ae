import type { BaseResource } from '@herald/model';
import { testDatabaseUrls } from '@herald/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { ITEM_HOLDING_TYPES, UNINDEXED_MEMBERS, jsonpathMayReadItems } from '../../src/documents/document-indexes.js';
import { DocumentStore, type Database, type Queryable } from '../../src/index.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/**
 * Migration 019: documents with line items are indexed without them, every other document whole.
 * A query must find what it always found, through the index that holds its fields.
 */
interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const indexesOf = (node: PlanNode): string[] => [...(node['Index Name'] === undefined ? [] : [node['Index Name']]), ...(node.Plans ?? []).flatMap(indexesOf)];

interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** The statements `work` runs through a store on `db`. */
async function statementsOf(db: Database, work: (store: DocumentStore) => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const recording: Queryable = {
    query: (sql, params = [], options) => {
      seen.push({ sql, params });
      return db.query(sql, params, options);
    },
    exec: (sql) => db.exec(sql),
  };
  await work(new DocumentStore({ ...db, ...recording, driver: db.driver, transaction: (inner) => db.transaction(inner), close: () => db.close() }));
  return seen;
}

/** The indexes the plans of `work`'s statements read (with parameters bound, as each runs). */
async function indexesRead(db: Database, work: (store: DocumentStore) => Promise<unknown>): Promise<string[]> {
  const indexes: string[] = [];
  for (const { sql, params } of await statementsOf(db, work)) {
    const result = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const raw = result.rows[0]?.['QUERY PLAN'];
    const [explained] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    indexes.push(...indexesOf(explained.Plan));
  }
  return indexes;
}

/** A parameter as an SQL literal, for EXECUTE (strings and numbers: what the store's queries bind). */
const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);

/**
 * The indexes `work`'s statements read in generic plans (what a prepared statement gets after five
 * runs, and every statement under `plan_cache_mode = force_generic_plan`): the type is then a
 * parameter the planner does not know.
 */
async function indexesReadGenerically(db: Database, work: (store: DocumentStore) => Promise<unknown>): Promise<string[]> {
  const indexes: string[] = [];
  for (const { sql, params } of await statementsOf(db, work)) {
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query(`PREPARE generic AS ${sql}`);
      try {
        const result = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) EXECUTE generic(${params.map(literal).join(', ')})`);
        const raw = result.rows[0]?.['QUERY PLAN'];
        const [explained] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
        indexes.push(...indexesOf(explained.Plan));
      } finally {
        await tx.query('DEALLOCATE generic');
      }
    });
  }
  return indexes;
}

const ROWS = 1_200;

describe.each(testDatabaseUrls())('document indexes on %s', (serverUrl) => {
  const database = useIsolatedDatabase(serverUrl);
  let store: DocumentStore;

  beforeAll(async () => {
    store = new DocumentStore(database(), { now: () => new Date() });
    const lineItems = (n: number) => [1, 2, 3].map((item) => ({ id: `li-${n}-${item}`, variant: { sku: `sku-${n}-${item}` }, quantity: item }));
    for (let n = 0; n < ROWS; n += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => n + i).flatMap((i) => [
          store.create<BaseResource>({ projectKey: 'p1' }, 'store', { key: `store-${i}`, name: { en: `Store ${i}` } } as unknown as BaseResource),
          store.create<BaseResource>({ projectKey: 'p1' }, 'cart', { customerId: `customer-${i}`, lineItems: lineItems(i) } as unknown as BaseResource),
        ]),
      );
    }
    await database().query('ANALYZE resources');
  }, 120_000);

  it('has the indexes migration 019 made, for the types and members this module names', async () => {
    const found = await database().query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE indexname IN ('resources_doc_idx', 'resources_doc_without_items_idx') ORDER BY 1`,
    );
    expect(found.rows.map((row) => row.name)).toEqual(['resources_doc_idx', 'resources_doc_without_items_idx']);
    const [whole, withoutItems] = found.rows.map((row) => row.definition);
    const named = (definition = '') => [...definition.matchAll(/'([a-z-]+)'::text/g)].map((match) => match[1]).sort();
    expect(named(whole)).toEqual([...ITEM_HOLDING_TYPES].sort());
    expect(whole).toMatch(/<> ALL/);
    expect(named(withoutItems)).toEqual([...ITEM_HOLDING_TYPES].sort());
    expect(withoutItems).toMatch(/= ANY/);
    expect(withoutItems).toContain(`'{${UNINDEXED_MEMBERS.join(',')}}'::text[]`);
  });

  it('answers a predicate on a document without items from the whole-document index', async () => {
    const page = await store.query('p1', 'store', { where: ['name(en = "Store 700")'] });
    expect(page.results.map((doc) => (doc as unknown as { key: string }).key)).toEqual(['store-700']);
    expect(await indexesRead(database(), (s) => s.query('p1', 'store', { where: ['name(en = "Store 700")'] }))).toContain('resources_doc_idx');
  });

  it('answers a predicate on the other fields of a cart from the index without items', async () => {
    const page = await store.query('p1', 'cart', { where: ['customerId = "customer-700"'] });
    expect(page.results.map((doc) => (doc as unknown as { customerId: string }).customerId)).toEqual(['customer-700']);
    const indexes = await indexesRead(database(), (s) => s.query('p1', 'cart', { where: ['customerId = "customer-700"'] }));
    expect(indexes).toContain('resources_doc_without_items_idx');
    expect(indexes).not.toContain('resources_doc_idx');
  });

  it('finds the index in generic plans too (the type a parameter the planner does not know)', async () => {
    expect(await indexesReadGenerically(database(), (s) => s.query('p1', 'store', { where: ['name(en = "Store 700")'] }))).toContain('resources_doc_idx');
    const cart = await indexesReadGenerically(database(), (s) => s.query('p1', 'cart', { where: ['customerId = "customer-700"'] }));
    expect(cart).toContain('resources_doc_without_items_idx');
  });

  it('finds carts by their line items (read from every cart of the project, not from an index)', async () => {
    const page = await store.query('p1', 'cart', { where: ['lineItems(variant(sku = "sku-700-2"))'] });
    expect(page.results.map((doc) => (doc as unknown as { customerId: string }).customerId)).toEqual(['customer-700']);
    const both = await store.query('p1', 'cart', { where: ['customerId = "customer-700" and lineItems(quantity = 3)'] });
    expect(both.total).toBe(1);
    const none = await store.query('p1', 'cart', { where: ['customerId = "customer-700" and lineItems(quantity = 4)'] });
    expect(none.total).toBe(0);
    const negated = await store.query('p1', 'cart', { where: ['not(lineItems(quantity = 3))'] });
    expect(negated.total).toBe(0);
    const indexes = await indexesRead(database(), (s) => s.query('p1', 'cart', { where: ['lineItems(variant(sku = "sku-700-2"))'] }));
    expect(indexes.filter((name) => name.startsWith('resources_doc'))).toEqual([]);
  });
});

describe('jsonpathMayReadItems', () => {
  it.each([
    ['$.lineItems[*].custom ? (@.type.id == "t")', true],
    ['$ ? (exists(@.customLineItems[*].custom))', true],
    ['$.** ? (@.typeId == "channel")', true],
    ['$.* ? (@ == 1)', true],
    ['$ ? (@.stores[*].key == "s" || @.store.key == "s")', false],
    ['$.paymentInfo.payments[*] ? (@.id == "p")', false],
    ['$.keyvalue() ? (@.key == "lineItems")', true],
    ['$."\\u006cineItems"[*] ? (@.id == "l")', true],
  ])('%s → %s', (path, reads) => {
    expect(jsonpathMayReadItems(path)).toBe(reads);
  });
});
