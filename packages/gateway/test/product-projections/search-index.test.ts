/**
 * Issue 28: product projection search answered from the search terms in PostgreSQL (migration 015,
 * search/indexed.ts), through HTTP: facet counts (terms, `counting products`, ranges with
 * count/min/max/mean/total, with and without `filter.facets`), `filter` beside facets, sort and
 * paging over more products than a page, and every write (attribute change, unpublish, delete)
 * visible in the next search. The terms rows themselves are checked once: they exist for the
 * product written and go with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from './fixtures.js';

const P = 'search-index';
const SEARCH = `/${P}/product-projections/search`;
const PRODUCTS = 25;
const COLOURS = ['red', 'blue', 'green'];

interface VariantSpec {
  sku: string;
  colour: string;
  size: number;
  cents: number;
}

const key = (index: number): string => `p${String(index).padStart(2, '0')}`;

/** Product i: a master (colour by i mod 3, size 30+i, 1000+100i cents); even ones a white variant (500), every fourth a second (600). */
function variantsOf(index: number): VariantSpec[] {
  const specs = [{ sku: `${key(index)}-m`, colour: COLOURS[index % 3] ?? 'red', size: 30 + index, cents: 1000 + 100 * index }];
  if (index % 2 === 0) specs.push({ sku: `${key(index)}-w`, colour: 'white', size: 60, cents: 500 });
  if (index % 4 === 0) specs.push({ sku: `${key(index)}-x`, colour: 'white', size: 61, cents: 600 });
  return specs;
}

const draftVariant = ({ sku, colour, size, cents }: VariantSpec): Json => ({
  sku,
  attributes: [
    { name: 'colour', value: colour },
    { name: 'size', value: size },
  ],
  prices: [eurPrice(cents)],
});

describe('Product projection search from the search index', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  const products: Record<string, Json> = {};
  const q = (name: string, value: string): string => `${name}=${encodeURIComponent(value)}`;
  const search = (...params: string[]): Promise<Json> => admin.read(`${SEARCH}?${params.join('&')}`);
  const keys = (page: Json): string[] => page.results.map((result: Json) => result.key);

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_products', 'manage_product_types', 'manage_categories', 'manage_customer_groups', 'manage_channels']);
    await createCatalogue(admin, P);
    for (let index = 0; index < PRODUCTS; index++) {
      const [master, ...rest] = variantsOf(index).map(draftVariant);
      products[key(index)] = await createProduct(admin, P, shirt(key(index), { name: { en: `Shirt ${key(index)}` }, masterVariant: master, variants: rest }));
    }
  }, 600_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('counts terms per variant, and per product with counting products', async () => {
    const page = await search(q('facet', 'variants.attributes.colour'), q('facet', 'variants.attributes.colour as byProduct counting products'), 'limit=0');
    expect(page.total).toBe(PRODUCTS);
    expect(page.facets.byProduct).toEqual({
      type: 'terms',
      dataType: 'text',
      missing: 0,
      total: 45,
      other: 0,
      terms: [
        { term: 'white', count: 20, productCount: 13 },
        { term: 'red', count: 9, productCount: 9 },
        { term: 'blue', count: 8, productCount: 8 },
        { term: 'green', count: 8, productCount: 8 },
      ],
    });
    expect(page.facets['variants.attributes.colour'].terms[0]).toEqual({ term: 'white', count: 20 });
  });

  it('answers range facets with count, productCount, min, max, mean and total (from inclusive, to exclusive)', async () => {
    const page = await search(q('facet', 'variants.price.centAmount:range (0 to 1500), (1500 to *) counting products'), 'limit=0');
    const [low, high] = page.facets['variants.price.centAmount:range (0 to 1500), (1500 to *)'].ranges;
    expect(low).toEqual({ from: 0, fromStr: '0', to: 1500, toStr: '1500', count: 25, productCount: 15, total: 16_700, min: 500, max: 1400, mean: 668 });
    expect(high).toEqual({ from: 1500, fromStr: '1500', to: 0, toStr: '', count: 20, productCount: 20, total: 49_000, min: 1500, max: 3400, mean: 2450 });
  });

  it('narrows each facet by the filter.facets on other paths only, and the results not at all', async () => {
    const red = q('filter.facets', 'variants.attributes.colour:"red"');
    const page = await search(red, q('facet', 'variants.attributes.colour'), q('facet', 'variants.attributes.size:range (0 to 100)'), 'limit=0');
    expect(page.total).toBe(PRODUCTS);
    expect(page.facets['variants.attributes.colour'].terms.map(({ term }: Json) => term)).toEqual(['white', 'red', 'blue', 'green']);
    expect(page.facets['variants.attributes.size:range (0 to 100)'].ranges[0]).toMatchObject({ count: 9, min: 30, max: 54 });
  });

  it('counts facets over filter.query while filter narrows only the results', async () => {
    const page = await search(
      q('filter', 'variants.attributes.colour:"green"'),
      q('filter.query', 'variants.attributes.size:range (30 to 45)'),
      q('facet', 'variants.attributes.colour'),
      'sort=key asc',
    );
    expect(keys(page)).toEqual(['p02', 'p05', 'p08', 'p11', 'p14']);
    expect(page.facets['variants.attributes.colour'].terms).toEqual([
      { term: 'red', count: 6 },
      { term: 'blue', count: 5 },
      { term: 'green', count: 5 },
    ]);
  });

  it('sorts every hit before it pages: pages of 10 add up to the whole order', async () => {
    const pages = await Promise.all([0, 10, 20].map((offset) => search('sort=variants.attributes.size asc', 'limit=10', `offset=${offset}`)));
    expect(pages.map((page) => [page.count, page.total])).toEqual([
      [10, 25],
      [10, 25],
      [5, 25],
    ]);
    expect(pages.flatMap(keys)).toEqual(Array.from({ length: PRODUCTS }, (_, index) => key(index)));
    const byPrice = await search('sort=price desc', 'limit=3', 'offset=1');
    expect(keys(byPrice)).toEqual(['p23', 'p22', 'p21']);
    const byDefault = await search('limit=2', 'offset=24', 'markMatchingVariants=true', q('filter', 'variants.attributes.colour:"white"'));
    expect(byDefault.total).toBe(13);
    expect(byDefault.results).toEqual([]);
  });

  it('marks the matching variants of the page from the index', async () => {
    const page = await search(q('filter', 'variants.sku:"p04-x"'), 'markMatchingVariants=true');
    expect(keys(page)).toEqual(['p04']);
    const [result] = page.results;
    expect([result.masterVariant, ...result.variants].map((variant: Json) => [variant.sku, variant.isMatchingVariant])).toEqual([
      ['p04-m', false],
      ['p04-w', false],
      ['p04-x', true],
    ]);
  });

  it('counts a facet without filters over every variant (a variant path) or product (a product path), never the other', async () => {
    // `id` is a product's text id at the product and a variant's number id at each variant.
    const page = await search(q('facet', 'variants.id counting products'), q('facet', 'id'), q('facet', 'categories.id'), 'limit=0');
    expect(page.facets['variants.id']).toEqual({
      type: 'terms',
      dataType: 'number',
      missing: 0,
      total: 45,
      other: 0,
      terms: [
        { term: 1, count: 25, productCount: 25 },
        { term: 2, count: 13, productCount: 13 },
        { term: 3, count: 7, productCount: 7 },
      ],
    });
    expect(page.facets.id).toMatchObject({ dataType: 'text', missing: 0, total: PRODUCTS, other: 0 });
    expect(page.facets.id.terms).toHaveLength(PRODUCTS);
    expect(page.facets['categories.id']).toMatchObject({ missing: PRODUCTS, total: 0, terms: [] });
  });

  it('filters on a product path and a variant path together, and on several terms of one path', async () => {
    const both = await search(
      q('filter.query', 'key:"p04","p08","p09"'),
      q('filter', 'variants.attributes.colour:"white","blue"'),
      'markMatchingVariants=true',
    );
    expect(keys(both)).toEqual(['p04', 'p08']);
    expect(both.results[0].variants.map((variant: Json) => variant.isMatchingVariant)).toEqual([true, true]);
    const products = await search(q('filter.query', 'key:"p04","p09"'), q('facet', 'variants.attributes.size'));
    expect(keys(products)).toEqual(['p04', 'p09']);
    expect(products.facets['variants.attributes.size'].terms).toEqual([
      { term: 34, count: 1 },
      { term: 39, count: 1 },
      { term: 60, count: 1 },
      { term: 61, count: 1 },
    ]);
  });

  it('orders by creation by default and with createdAt desc, ties by id', async () => {
    const all = Array.from({ length: PRODUCTS }, (_, index) => key(index));
    const pages = await Promise.all([0, 10, 20].map((offset) => search('limit=10', `offset=${offset}`)));
    expect(pages.flatMap(keys)).toEqual(all);
    const descending = await search('sort=createdAt desc', 'limit=5', 'offset=2');
    expect(keys(descending)).toEqual(all.slice().reverse().slice(2, 7));
    expect(keys(await search('sort=createdAt asc', 'limit=3', q('filter', 'variants.attributes.colour:"white"')))).toEqual(['p00', 'p02', 'p04']);
  });

  it('keeps the search terms of a product in the write: created with it, gone with it', async () => {
    const created = await createProduct(
      admin,
      P,
      shirt('terms-only', { masterVariant: draftVariant({ sku: 'terms-only-1', colour: 'black', size: 1, cents: 1 }) }),
    );
    const rows = async (): Promise<number> => {
      const counted = await gateway.db.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM search_terms WHERE project_key = $1 AND resource_id = $2`, [
        P,
        created.id,
      ]);
      return counted.rows[0]?.rows ?? 0;
    };
    expect(await rows()).toBeGreaterThan(0);
    expect((await admin.delete(`/${P}/products/${created.id}?version=${created.version}`)).status).toBe(200);
    expect(await rows()).toBe(0);
  });

  it('sees every write in the next search: a changed attribute, an unpublished product, a deleted product', async () => {
    const colour = q('facet', 'variants.attributes.colour counting products');
    const purple = q('filter', 'variants.attributes.colour:"purple"');
    const first = products.p00 as Json;
    await admin.update(`/${P}/products/${first.id}`, first.version, [{ action: 'setAttribute', variantId: 1, name: 'colour', value: 'purple', staged: false }]);
    expect(keys(await search(purple))).toEqual(['p00']);
    expect((await search(colour, 'limit=0')).facets['variants.attributes.colour'].terms).toContainEqual({ term: 'purple', count: 1, productCount: 1 });

    const second = products.p01 as Json;
    await admin.update(`/${P}/products/${second.id}`, second.version, [{ action: 'unpublish' }]);
    const afterUnpublish = await search(colour, q('filter.query', 'variants.sku:"p01-m"'));
    expect(afterUnpublish).toMatchObject({ total: 0, results: [], facets: { 'variants.attributes.colour': { total: 0, terms: [] } } });
    expect(keys(await search(q('filter.query', 'variants.sku:"p01-m"'), 'staged=true'))).toEqual(['p01']);

    const third = products.p02 as Json;
    expect((await admin.delete(`/${P}/products/${third.id}?version=${third.version}`)).status).toBe(200);
    const after = await search(colour, 'limit=0');
    expect(after.total).toBe(PRODUCTS - 2);
    expect(after.facets['variants.attributes.colour'].terms).toEqual([
      { term: 'white', count: 19, productCount: 12 },
      { term: 'red', count: 8, productCount: 8 },
      { term: 'blue', count: 7, productCount: 7 },
      { term: 'green', count: 7, productCount: 7 },
      { term: 'purple', count: 1, productCount: 1 },
    ]);
  });
});
