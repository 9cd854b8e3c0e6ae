/**
 * Issue 28: `/{projectKey}/product-projections/search` (reference: resources/product-projections-search.raml,
 * ProductProjectionPagedSearchResponse and the facet result types): full text with fuzzy, filter,
 * filter.query, filter.facets, term/range/filtered facets with counts, sort, markMatchingVariants,
 * staged, paging, price selection (scopedPrice), POST with a form body, scopes and 400s naming
 * the position, all through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt, type Catalogue } from './fixtures.js';

const P = 'search';
const SEARCH = `/${P}/product-projections/search`;

const variant = (sku: string, colour: string, size: number, cents: number, fit = 'slim'): Json => ({
  sku,
  attributes: [
    { name: 'colour', value: colour },
    { name: 'size', value: size },
    { name: 'fit', value: fit },
  ],
  prices: [eurPrice(cents)],
});

describe('Product projection search', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;
  const ids: Record<string, string> = {};

  const search = async (query: string, caller: Caller = admin): Promise<Json> => caller.read(`${SEARCH}?${query}`);
  const keys = (page: Json): string[] => page.results.map((result: Json) => result.key);
  const q = (name: string, value: string): string => `${name}=${encodeURIComponent(value)}`;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'view_categories',
    ]);
    catalogue = await createCatalogue(admin, P);
    const child = [{ typeId: 'category', id: catalogue.childCategoryId }];
    const parent = [{ typeId: 'category', id: catalogue.parentCategoryId }];
    const drafts: Json[] = [
      shirt('oxford', {
        name: { en: 'Oxford cotton shirt' },
        description: { en: 'A classic button-down' },
        categories: child,
        masterVariant: variant('oxford-red-40', 'red', 40, 3000),
        variants: [variant('oxford-blue-42', 'blue', 42, 3500, 'loose')],
      }),
      shirt('linen', {
        name: { en: 'Linen summer shirt' },
        searchKeywords: { en: [{ text: 'beach' }] },
        categories: parent,
        masterVariant: variant('linen-white-38', 'white', 38, 5000),
        variants: [variant('linen-red-44', 'red', 44, 5500, 'loose')],
      }),
      shirt('flannel', {
        name: { en: 'Flannel shirt' },
        description: { en: 'Warm cotton for winter' },
        masterVariant: variant('flannel-green-40', 'green', 40, 1500),
      }),
    ];
    for (const draft of drafts) ids[draft.key] = (await createProduct(admin, P, draft)).id;
    await createProduct(admin, P, shirt('hidden', { name: { en: 'Hidden cotton shirt' }, masterVariant: variant('hidden-red-40', 'red', 40, 100) }), false);
    // The setup's own bound (as the other search suites have): on a shared host it outlasts a test's.
  }, 300_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers the paged search response of current projections, unpublished ones only with staged=true', async () => {
    const page = await search('sort=key asc');
    expect(page).toMatchObject({ limit: 20, offset: 0, count: 3, total: 3 });
    expect(keys(page)).toEqual(['flannel', 'linen', 'oxford']);
    expect(page.facets).toBeUndefined();
    expect(keys(await search('staged=true&sort=key asc'))).toEqual(['flannel', 'hidden', 'linen', 'oxford']);
    const second = await search('sort=key asc&limit=1&offset=1');
    expect(second).toMatchObject({ limit: 1, offset: 1, count: 1, total: 3 });
    expect(keys(second)).toEqual(['linen']);
  });

  it('searches text in name, description and search keywords of the locale, all words, scored name first', async () => {
    expect(keys(await search(q('text.en', 'cotton')))).toEqual(['oxford', 'flannel']);
    expect(keys(await search(q('text.en', 'beach')))).toEqual(['linen']);
    expect(keys(await search(q('text.en', 'cotton winter')))).toEqual(['flannel']);
    expect(keys(await search(q('text.en', 'SHIRT') + '&sort=key asc'))).toEqual(['flannel', 'linen', 'oxford']);
    expect(keys(await search(q('text.de', 'cotton')))).toEqual([]);
    expect(keys(await search(`${q('text.en', 'cotton')}&staged=true&sort=key asc`))).toEqual(['flannel', 'hidden', 'oxford']);
  });

  it('matches words within the fuzzy level with fuzzy=true, and refuses a fuzzyLevel above the default', async () => {
    expect(keys(await search(q('text.en', 'coton')))).toEqual([]);
    expect(keys(await search(`${q('text.en', 'coton')}&fuzzy=true&sort=key asc`))).toEqual(['flannel', 'oxford']);
    expect(keys(await search(`${q('text.en', 'coton')}&fuzzy=true&fuzzyLevel=0`))).toEqual([]);
    const tooFuzzy = await admin.get(`${SEARCH}?${q('text.en', 'ab')}&fuzzy=true&fuzzyLevel=2`);
    expect(tooFuzzy.status).toBe(400);
    expect(tooFuzzy.body.errors[0]).toMatchObject({ code: 'InvalidInput' });
  });

  it('filters by attributes, prices, SKUs and categories (with subtree), on one variant', async () => {
    const filtered = async (...filters: string[]): Promise<string[]> => keys(await search(`sort=key asc&${filters.map((f) => q('filter', f)).join('&')}`));
    expect(await filtered('variants.attributes.colour:"red"')).toEqual(['linen', 'oxford']);
    expect(await filtered('variants.attributes.colour:"green","white"')).toEqual(['flannel', 'linen']);
    expect(await filtered('variants.attributes.size:range (41 to 44)')).toEqual(['linen', 'oxford']);
    expect(await filtered('variants.price.centAmount:range (* to 3000)')).toEqual(['flannel', 'oxford']);
    expect(await filtered('variants.sku:"linen-red-44"')).toEqual(['linen']);
    expect(await filtered(`categories.id:"${catalogue.parentCategoryId}"`)).toEqual(['linen']);
    expect(await filtered(`categories.id:subtree("${catalogue.parentCategoryId}")`)).toEqual(['linen', 'oxford']);
    expect(await filtered('categories.id:missing')).toEqual(['flannel']);
    expect(await filtered('variants.attributes.fit.key:"loose"')).toEqual(['linen', 'oxford']);
    // Both variant filters must hold for the same variant: no red variant is loose-fit at size 42.
    expect(await filtered('variants.attributes.colour:"red"', 'variants.attributes.size:42')).toEqual([]);
    expect(await filtered('variants.attributes.colour:"blue"', 'variants.attributes.size:42')).toEqual(['oxford']);
    expect(keys(await search(`sort=key asc&${q('filter.query', 'variants.attributes.colour:"red"')}`))).toEqual(['linen', 'oxford']);
  });

  it('marks the matching variants with markMatchingVariants', async () => {
    const page = await search(`markMatchingVariants=true&${q('filter', 'variants.attributes.colour:"blue"')}`);
    expect(page.results[0].masterVariant.isMatchingVariant).toBe(false);
    expect(page.results[0].variants[0].isMatchingVariant).toBe(true);
    expect((await search(q('filter', 'variants.attributes.colour:"blue"'))).results[0].masterVariant.isMatchingVariant).toBeUndefined();
  });

  it('computes term, range and filtered facets with counts of variants and products, aliases, and filter.facets', async () => {
    const facets = [
      'variants.attributes.colour',
      'variants.attributes.fit.key as fit counting products',
      'variants.price.centAmount:range (* to 3000), (3000 to *) as price',
      'variants.attributes.colour:"red" as red counting products',
      'categories.id',
    ];
    const page = await search(facets.map((facet) => q('facet', facet)).join('&'));
    expect(page.facets['variants.attributes.colour']).toEqual({
      type: 'terms',
      dataType: 'text',
      missing: 0,
      total: 5,
      other: 0,
      terms: [
        { term: 'red', count: 2 },
        { term: 'blue', count: 1 },
        { term: 'green', count: 1 },
        { term: 'white', count: 1 },
      ],
    });
    expect(page.facets.fit.terms).toEqual([
      { term: 'slim', count: 3, productCount: 3 },
      { term: 'loose', count: 2, productCount: 2 },
    ]);
    expect(page.facets.price.ranges).toEqual([
      { from: 0, fromStr: '', to: 3000, toStr: '3000', count: 1, total: 1500, min: 1500, max: 1500, mean: 1500 },
      { from: 3000, fromStr: '3000', to: 0, toStr: '', count: 4, total: 17000, min: 3000, max: 5500, mean: 4250 },
    ]);
    expect(page.facets.red).toEqual({ type: 'filter', count: 2, productCount: 2 });
    // A product field counts products: one product has no category.
    expect(page.facets['categories.id']).toMatchObject({ missing: 1, total: 2 });
    // filter changes the results, not the facets; filter.query changes both; filter.facets narrows the other facets only.
    const filtered = await search(`${q('facet', 'variants.attributes.colour')}&${q('filter', 'variants.attributes.colour:"green"')}`);
    expect(keys(filtered)).toEqual(['flannel']);
    expect(filtered.facets['variants.attributes.colour'].total).toBe(5);
    const queried = await search(`${q('facet', 'variants.attributes.colour')}&${q('filter.query', 'variants.attributes.fit.key:"loose"')}`);
    expect(queried.facets['variants.attributes.colour'].terms).toEqual([
      { term: 'blue', count: 1 },
      { term: 'red', count: 1 },
    ]);
    const faceted = await search(
      [q('facet', 'variants.attributes.colour'), q('facet', 'variants.attributes.fit.key'), q('filter.facets', 'variants.attributes.colour:"red"')].join('&'),
    );
    expect(faceted.facets['variants.attributes.colour'].total).toBe(5);
    expect(faceted.facets['variants.attributes.fit.key'].terms).toEqual([
      { term: 'loose', count: 1 },
      { term: 'slim', count: 1 },
    ]);
  });

  it('sorts by score, fields, variant attributes (lowest ascending, highest descending) and price', async () => {
    expect(keys(await search(q('sort', 'name.en desc')))).toEqual(['oxford', 'linen', 'flannel']);
    // oxford and flannel tie at 40: the second sort decides.
    expect(keys(await search(`${q('sort', 'variants.attributes.size asc')}&${q('sort', 'key asc')}`))).toEqual(['linen', 'flannel', 'oxford']);
    expect(keys(await search(q('sort', 'variants.attributes.size desc')))).toEqual(['linen', 'oxford', 'flannel']);
    expect(keys(await search(`${q('sort', 'price asc')}&priceCurrency=EUR`))).toEqual(['flannel', 'oxford', 'linen']);
    expect(keys(await search(`${q('text.en', 'shirt cotton')}&${q('sort', 'score asc')}`))).toEqual(['flannel', 'oxford']);
  });

  it('selects a price per variant as price and scopedPrice', async () => {
    const page = await search(`priceCurrency=EUR&${q('filter', 'variants.scopedPrice.value.centAmount:range (5000 to *)')}`);
    expect(keys(page)).toEqual(['linen']);
    const master = page.results[0].masterVariant;
    expect(master.price.value.centAmount).toBe(5000);
    expect(master.scopedPrice).toMatchObject({ value: { centAmount: 5000 }, currentValue: { centAmount: 5000 } });
    expect(master.scopedPriceDiscounted).toBe(false);
  });

  it('takes the parameters as a form body with POST', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: SEARCH,
      headers: { ...bearer(admin.token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['filter', 'variants.attributes.colour:"red"'],
        ['sort', 'key desc'],
        ['facet', 'variants.attributes.colour'],
      ]).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(keys(response.json() as Json)).toEqual(['oxford', 'linen']);
    const json = await admin.post(SEARCH, { filter: 'x' });
    expect(json.status).toBe(400);
  });

  it('answers 400 InvalidInput naming the position of a malformed filter, facet or sort', async () => {
    const cases: Array<[string, number | undefined]> = [
      [q('filter', 'variants.attributes.colour:"red'), 27],
      [q('filter', 'variants.price.centAmount:range (1 too 2)'), 37],
      [q('filter.query', 'variants..sku:"x"'), 9],
      [q('facet', 'variants.attributes.colour as Upper'), 30],
      [q('filter.facets', 'categories.id'), 13],
      [q('sort', 'name.en sideways'), undefined],
      ['limit=501', undefined],
      [q('text.en', 'a') + '&' + q('text.de', 'b'), undefined],
    ];
    for (const [query, position] of cases) {
      const answer = await admin.get(`${SEARCH}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].code, query).toBe('InvalidInput');
      if (position !== undefined) expect(answer.body.errors[0].position, query).toBe(position);
    }
  });

  it('needs view_products for staged=true; view_published_products searches current projections', async () => {
    const published = await callerWith(gateway, P, ['view_published_products']);
    expect((await search('', published)).total).toBe(3);
    expect((await published.get(`${SEARCH}?staged=true`)).status).toBe(403);
    expect((await (await callerWith(gateway, P, ['view_orders'])).get(SEARCH)).status).toBe(403);
  });

  it('expands references of the results', async () => {
    const page = await search(`expand=productType&${q('filter', 'variants.sku:"flannel-green-40"')}`);
    expect(page.results[0].productType.obj.key).toBe('shirts');
    expect(page.results[0].id).toBe(ids.flannel);
  });
});
