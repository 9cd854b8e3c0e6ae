/**
 * Issue 28: GraphQL `product`, `products` and `productProjectionSearch` in the official schema's
 * names (graphql/schema.sdl): the Product with `masterData { current staged }`, ProductData's
 * localized fields, variants and price selection, the query page with where/sort/paging/skus,
 * and the search answering what REST's `/product-projections/search` answers (results, facets,
 * count, offset, total), with the REST scopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { apiClient, type Client } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt, type Catalogue } from '../product-projections/fixtures.js';

const P = 'graphql-products';

const variant = (sku: string, colour: string, size: number, cents: number, extra: Json = {}): Json => ({
  sku,
  key: `${sku}-key`,
  attributes: [
    { name: 'colour', value: colour },
    { name: 'size', value: size },
  ],
  prices: [eurPrice(cents), eurPrice(cents - 100, { country: 'DE' }), { value: { currencyCode: 'USD', centAmount: cents + 1 } }],
  ...extra,
});

const DATA_FIELDS = /* GraphQL */ `
  name(locale: "de")
  nameAllLocales { locale value }
  slug(acceptLanguage: ["fr", "en"])
  categoriesRef { typeId id }
  skus
  masterVariant {
    id sku key
    prices { value { type currencyCode centAmount fractionDigits } country }
    price(currency: "EUR", country: "DE") { value { centAmount } country }
    attributesRaw(includeNames: ["colour"]) { name value }
  }
  variants { sku }
  allVariants(skus: ["oxford-blue-42"]) { id sku }
  variant(sku: "oxford-blue-42") { id key }
`;

describe('GraphQL products and product projection search', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let reader: Client;
  let publishedOnly: Client;
  let catalogue: Catalogue;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_products', 'manage_product_types', 'manage_categories', 'manage_customer_groups', 'manage_channels']);
    reader = await apiClient(gateway, P, ['view_products']);
    publishedOnly = await apiClient(gateway, P, ['view_published_products']);
    catalogue = await createCatalogue(admin, P);
    const drafts: Json[] = [
      shirt('oxford', {
        name: { en: 'Oxford cotton shirt', de: 'Oxford Baumwollhemd' },
        categories: [{ typeId: 'category', id: catalogue.childCategoryId }],
        masterVariant: variant('oxford-red-40', 'red', 40, 3000),
        variants: [variant('oxford-blue-42', 'blue', 42, 3500)],
      }),
      shirt('linen', { name: { en: 'Linen summer shirt' }, masterVariant: variant('linen-white-38', 'white', 38, 5000) }),
      shirt('flannel', { name: { en: 'Flannel cotton shirt' }, masterVariant: variant('flannel-red-40', 'red', 40, 1500) }),
    ];
    for (const draft of drafts) ids[draft.key] = (await createProduct(admin, P, draft)).id;
    ids.hidden = (await createProduct(admin, P, shirt('hidden', { masterVariant: variant('hidden-red-40', 'red', 40, 100) }), false)).id;
    // The setup's own bound (as the other catalogue suites have): on a shared host it outlasts a test's.
  }, 300_000);
  afterAll(async () => {
    await gateway?.close();
  });

  describe('product', () => {
    it('answers the Product by id, key, sku and variantKey, with both data versions in the official field names', async () => {
      const query = `query($id: String, $key: String, $sku: String, $variantKey: String) {
        product(id: $id, key: $key, sku: $sku, variantKey: $variantKey) {
          id key version productTypeRef { typeId id } priceMode createdAt skus
          masterData { published hasStagedChanges current { ${DATA_FIELDS} } staged { name(locale: "en") } }
        }
      }`;
      for (const variables of [{ id: ids.oxford }, { key: 'oxford' }, { sku: 'oxford-blue-42' }, { variantKey: 'oxford-red-40-key' }]) {
        const { product } = await reader.gql(query, variables);
        expect(product).toMatchObject({ id: ids.oxford, key: 'oxford', productTypeRef: { typeId: 'product-type' }, priceMode: 'Embedded' });
        expect(product.skus).toEqual(['oxford-red-40', 'oxford-blue-42']);
        expect(product.masterData).toMatchObject({ published: true, hasStagedChanges: false, staged: { name: 'Oxford cotton shirt' } });
        expect(product.masterData.current).toEqual({
          name: 'Oxford Baumwollhemd',
          nameAllLocales: [
            { locale: 'de', value: 'Oxford Baumwollhemd' },
            { locale: 'en', value: 'Oxford cotton shirt' },
          ],
          slug: 'oxford',
          categoriesRef: [{ typeId: 'category', id: catalogue.childCategoryId }],
          skus: ['oxford-red-40', 'oxford-blue-42'],
          masterVariant: {
            id: 1,
            sku: 'oxford-red-40',
            key: 'oxford-red-40-key',
            prices: [
              { value: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 3000, fractionDigits: 2 }, country: null },
              { value: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 2900, fractionDigits: 2 }, country: 'DE' },
              { value: { type: 'centPrecision', currencyCode: 'USD', centAmount: 3001, fractionDigits: 2 }, country: null },
            ],
            price: { value: { centAmount: 2900 }, country: 'DE' },
            attributesRaw: [{ name: 'colour', value: 'red' }],
          },
          variants: [{ sku: 'oxford-blue-42' }],
          allVariants: [{ id: 2, sku: 'oxford-blue-42' }],
          variant: { id: 2, key: 'oxford-blue-42-key' },
        });
      }
    });

    it('answers null for a product that does not exist, an unpublished one with current null', async () => {
      expect((await reader.gql(`{ product(key: "nope") { id } }`)).product).toBeNull();
      expect((await reader.gql(`{ product(sku: "nope") { id } }`)).product).toBeNull();
      const { product } = await reader.gql(`{ product(key: "hidden") { masterData { published current { skus } staged { skus } } } }`);
      expect(product.masterData).toMatchObject({ published: false, staged: { skus: ['hidden-red-40'] } });
    });

    it('selects the price by currency and country, falling back to the price without a country', async () => {
      const { product } = await reader.gql(`{ product(key: "linen") { masterData { current { masterVariant {
        eur: price(currency: "EUR") { value { centAmount } }
        fr: price(currency: "EUR", country: "FR") { value { centAmount } }
        usd: price(currency: "USD", country: "DE") { value { centAmount currencyCode } }
        gbp: price(currency: "GBP") { value { centAmount } }
      } } } } }`);
      expect(product.masterData.current.masterVariant).toEqual({
        eur: { value: { centAmount: 5000 } },
        fr: { value: { centAmount: 5000 } },
        usd: { value: { centAmount: 5001, currencyCode: 'USD' } },
        gbp: null,
      });
    });

    it('refuses a token without view_products with InsufficientScope, and a request naming neither id nor key with InvalidInput', async () => {
      const error = await publishedOnly.gqlError(`{ product(key: "oxford") { id } }`);
      expect(error.extensions).toMatchObject({ code: 'InsufficientScope' });
      expect((await reader.gqlError(`{ product { id } }`)).extensions).toMatchObject({ code: 'InvalidInput' });
    });
  });

  describe('products', () => {
    it('pages products with where, sort, limit and offset, total and exists', async () => {
      const { products } = await reader.gql(`{ products(sort: ["key asc"], limit: 2, offset: 1) { offset count total exists results { key } } }`);
      expect(products).toEqual({ offset: 1, count: 2, total: 4, exists: true, results: [{ key: 'hidden' }, { key: 'linen' }] });
      const filtered = await reader.gql(`{ products(where: "key in (\\"linen\\", \\"oxford\\")", sort: ["key desc"]) { total results { key } } }`);
      expect(filtered.products).toEqual({ total: 2, results: [{ key: 'oxford' }, { key: 'linen' }] });
      const none = await reader.gql(`{ products(where: "key = \\"nope\\"") { total exists results { key } } }`);
      expect(none.products).toEqual({ total: 0, exists: false, results: [] });
    });

    it('finds the products with a variant of one of the skus', async () => {
      const { products } = await reader.gql(`{ products(skus: ["oxford-blue-42", "flannel-red-40"], sort: ["key asc"]) { results { key } } }`);
      expect(products.results).toEqual([{ key: 'flannel' }, { key: 'oxford' }]);
    });

    it('refuses a malformed predicate with InvalidInput', async () => {
      const error = await reader.gqlError(`{ products(where: "key ===") { total } }`);
      expect(error.extensions).toMatchObject({ code: 'InvalidInput' });
    });
  });

  describe('productProjectionSearch', () => {
    const search = (client: Client, args: string, selection = 'offset count total results { key }'): Promise<Json> =>
      client.gql(`{ productProjectionSearch(${args}) { ${selection} } }`).then((data) => data.productProjectionSearch);

    it('answers the current projections of published products, paged (default limit 10), unpublished ones with staged: true', async () => {
      expect(await search(publishedOnly, 'sorts: ["key asc"]')).toEqual({
        offset: 0,
        count: 3,
        total: 3,
        results: [{ key: 'flannel' }, { key: 'linen' }, { key: 'oxford' }],
      });
      expect(await search(reader, 'sorts: ["key asc"], limit: 1, offset: 1')).toEqual({ offset: 1, count: 1, total: 3, results: [{ key: 'linen' }] });
      expect((await search(reader, 'staged: true, sorts: ["key asc"]')).results).toEqual([
        { key: 'flannel' },
        { key: 'hidden' },
        { key: 'linen' },
        { key: 'oxford' },
      ]);
    });

    it('runs the REST search: text in a locale, fuzzy, filters, queryFilters and sorts give what REST gives', async () => {
      expect((await search(reader, 'text: "cotton", locale: "en", sorts: ["key asc"]')).results).toEqual([{ key: 'flannel' }, { key: 'oxford' }]);
      expect((await search(reader, 'text: "coton", locale: "en", fuzzy: true, sorts: ["key asc"]')).results).toEqual([{ key: 'flannel' }, { key: 'oxford' }]);
      const filters = 'filters: [{ string: "variants.attributes.colour:\\"red\\"" }], sorts: ["key desc"]';
      expect((await search(reader, filters)).results).toEqual([{ key: 'oxford' }, { key: 'flannel' }]);
      const queryFilters = 'queryFilters: [{ string: "variants.price.centAmount:range (* to 3000)" }], sorts: ["key asc"]';
      expect((await search(reader, queryFilters)).results).toEqual([{ key: 'flannel' }, { key: 'oxford' }]);
      const rest = await admin.read(
        `/${P}/product-projections/search?filter=${encodeURIComponent('variants.attributes.colour:"red"')}&sort=${encodeURIComponent('key desc')}`,
      );
      expect(rest.results.map((result: Json) => result.key)).toEqual(['oxford', 'flannel']);
    });

    it('answers term, range and filtered facets as FacetResultValues, narrowed by facetFilters', async () => {
      const facets = `facets: [
        { string: "variants.attributes.colour" },
        { string: "variants.attributes.size:range (* to 41), (41 to *) as size" },
        { string: "variants.attributes.colour:\\"red\\" as red counting products" }
      ], facetFilters: [{ string: "variants.attributes.size:40" }]`;
      const selection = `total facets { facet value {
        type
        ... on TermsFacetResult { dataType missing total other terms { term count } }
        ... on RangeFacetResult { dataType ranges { type ... on RangeCountLong { from to count totalCount min max } } }
        ... on ValueFacetResult { count productCount }
      } }`;
      const answer = await search(reader, facets, selection);
      expect(answer.total).toBe(3);
      expect(answer.facets).toEqual([
        {
          facet: 'variants.attributes.colour',
          value: { type: 'terms', dataType: 'text', missing: 0, total: 2, other: 0, terms: [{ term: 'red', count: 2 }] },
        },
        {
          facet: 'size',
          value: {
            type: 'range',
            dataType: 'number',
            ranges: [
              { type: 'long', from: 0, to: 41, count: 3, totalCount: 3, min: 38, max: 40 },
              { type: 'long', from: 41, to: 0, count: 1, totalCount: 1, min: 42, max: 42 },
            ],
          },
        },
        { facet: 'red', value: { type: 'filter', count: 2, productCount: 2 } },
      ]);
    });

    it('selects prices with priceSelector (price and scopedPrice) and marks matching variants', async () => {
      const selection = `results { key
        masterVariant { sku isMatchingVariant scopedPriceDiscounted scopedPrice { value { centAmount } currentValue { centAmount } country } }
        variants(onlyMatching: true) { sku }
        allVariants { sku isMatchingVariant }
      }`;
      const args = `priceSelector: { currency: "EUR", country: "DE" }, markMatchingVariants: true,
        filters: [{ string: "variants.attributes.colour:\\"blue\\"" }]`;
      const { results } = await search(reader, args, selection);
      expect(results).toEqual([
        {
          key: 'oxford',
          masterVariant: {
            sku: 'oxford-red-40',
            isMatchingVariant: false,
            scopedPriceDiscounted: false,
            scopedPrice: { value: { centAmount: 2900 }, currentValue: { centAmount: 2900 }, country: 'DE' },
          },
          variants: [{ sku: 'oxford-blue-42' }],
          allVariants: [
            { sku: 'oxford-red-40', isMatchingVariant: false },
            { sku: 'oxford-blue-42', isMatchingVariant: true },
          ],
        },
      ]);
    });

    it('projects locales with localeProjection', async () => {
      const { results } = await search(
        reader,
        'localeProjection: ["de"], filters: [{ string: "variants.sku:\\"oxford-red-40\\"" }]',
        'results { nameAllLocales { locale value } }',
      );
      expect(results).toEqual([{ nameAllLocales: [{ locale: 'de', value: 'Oxford Baumwollhemd' }] }]);
    });

    it('refuses bad arguments with the REST search’s InvalidInput, and staged without view_products with 403', async () => {
      const invalid = [
        'filters: [{ model: { value: { path: "x", values: ["y"] } } }]',
        'text: "cotton"',
        'filters: [{ string: "variants.attributes.colour:" }]',
        'facets: [{ string: "" }]',
        'limit: 501',
        'priceSelector: { currency: "euro" }',
        'localeProjection: ["not a locale"]',
      ];
      for (const args of invalid) {
        const error = await reader.gqlError(`{ productProjectionSearch(${args}) { total } }`);
        expect(error.extensions, args).toMatchObject({ code: 'InvalidInput' });
      }
      const staged = await publishedOnly.gqlError(`{ productProjectionSearch(staged: true) { total } }`);
      expect(staged.extensions).toMatchObject({ statusCode: 403 });
      const noScope = await apiClient(gateway, P, ['view_orders']);
      expect((await noScope.gqlError(`{ productProjectionSearch { total } }`)).extensions).toMatchObject({ code: 'InsufficientScope' });
    });
  });
});
