/**
 * Issue 28: a staged product projection selects the staged value of a StandalonePrice
 * (StandalonePrice.staged, set by StandalonePriceChangeValueAction with `staged: true`); the current
 * projection keeps the current value until StandalonePriceApplyStagedChangesAction applies it. On
 * /product-projections by id, key and on the list, on /product-projections/search (both paths, and
 * its `scopedPrice` filters), and in GraphQL (`price` of staged data and of a staged search).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { apiClient } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from './fixtures.js';

const P = 'projection-staged-standalone';
const BASE = `/${P}/product-projections`;

const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });

describe('Staged StandalonePrices in staged product projections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let product: Json;

  /** A StandalonePrice of `sku` at 500 with a staged value of 450. */
  async function stagedPrice(sku: string): Promise<Json> {
    const created = await admin.ok(`/${P}/standalone-prices`, { sku, value: eur(500) }, 201);
    return admin.update(`/${P}/standalone-prices/${created.id as string}`, created.version as number, [
      { action: 'changeValue', value: eur(450), staged: true },
    ]);
  }

  const centsOf = (projection: Json): unknown => projection.masterVariant.price?.value.centAmount;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_standalone_prices',
    ]);
    await createCatalogue(admin, P);
    product = await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone', masterVariant: { sku: 'solo-1', prices: [eurPrice(900)] } }));
    await createProduct(admin, P, shirt('other', { priceMode: 'Standalone', masterVariant: { sku: 'other-1' } }));
    await stagedPrice('other-1');
  }, 180_000);
  afterAll(() => gateway?.close());

  it('selects the staged value with staged=true and the current value without, until the staged changes are applied', async () => {
    const price = await stagedPrice('solo-1');
    expect(price.staged.value.centAmount).toBe(450);
    const byId = (staged: boolean): Promise<Json> => admin.read(`${BASE}/${product.id as string}?staged=${String(staged)}&priceCurrency=EUR`);
    expect(centsOf(await byId(true))).toBe(450);
    expect((await byId(true)).masterVariant.price.id).toBe(price.id);
    expect(centsOf(await byId(false))).toBe(500);
    expect(centsOf(await admin.read(`${BASE}/key=solo?staged=true&priceCurrency=EUR`))).toBe(450);
    const where = encodeURIComponent('key = "solo"');
    const list = async (staged: boolean): Promise<unknown> =>
      centsOf((await admin.read(`${BASE}?staged=${String(staged)}&priceCurrency=EUR&where=${where}`)).results[0]);
    expect(await list(true)).toBe(450);
    expect(await list(false)).toBe(500);

    await admin.update(`/${P}/standalone-prices/${price.id as string}`, price.version as number, [{ action: 'applyStagedChanges' }]);
    expect(centsOf(await byId(true))).toBe(450);
    expect(centsOf(await byId(false))).toBe(450);
  });

  it.each([
    ['answered from the search terms', [['filter.query', 'variants.sku:"other-1"']] as Array<[string, string]>],
    ['evaluated in process (a text)', [['text.en', 'other']] as Array<[string, string]>],
  ])('selects the staged value in the search with staged=true: %s', async (_, params) => {
    const search = async (staged: boolean): Promise<unknown> => {
      const query = new URLSearchParams([['priceCurrency', 'EUR'], ['staged', String(staged)], ...params]);
      const page = await admin.read(`${BASE}/search?${query.toString()}`);
      expect(page.results).toHaveLength(1);
      return centsOf(page.results[0]);
    };
    expect(await search(true)).toBe(450);
    expect(await search(false)).toBe(500);
  });

  it('selects the staged value in GraphQL productProjectionSearch with staged: true', async () => {
    const client = await apiClient(gateway, P, ['view_products']);
    const search = async (staged: boolean): Promise<unknown> => {
      const { productProjectionSearch } = await client.gql(`{ productProjectionSearch(staged: ${String(staged)},
        priceSelector: { currency: "EUR" }, filters: [{ string: "variants.sku:\\"other-1\\"" }]) {
        results { masterVariant { scopedPrice { value { centAmount } } } } } }`);
      return productProjectionSearch.results[0].masterVariant.scopedPrice.value.centAmount;
    };
    expect(await search(true)).toBe(450);
    expect(await search(false)).toBe(500);
  });

  it.each([
    ['filter', 'variants.scopedPrice.value.centAmount:450'],
    ['filter', 'variants.scopedPrice.value.centAmount:range(400 to 460)'],
    ['filter.query', 'variants.scopedPrice.value.centAmount:450'],
  ])('filters on the staged scopedPrice with staged=true: %s=%s', async (parameter, expression) => {
    const keys = async (staged: boolean, filter: string): Promise<unknown[]> => {
      const query = new URLSearchParams([
        ['priceCurrency', 'EUR'],
        ['staged', String(staged)],
        ['filter.query', 'variants.sku:"other-1"'],
        [parameter, filter],
      ]);
      return ((await admin.read(`${BASE}/search?${query.toString()}`)).results as Json[]).map((result) => result.key);
    };
    expect(await keys(true, expression)).toEqual(['other']);
    expect(await keys(false, expression)).toEqual([]);
    expect(await keys(false, expression.replace('450', '500').replace('400 to 460', '490 to 510'))).toEqual(['other']);
  });

  it('selects the staged value in GraphQL ProductVariant.price of staged data and of a staged search', async () => {
    const client = await apiClient(gateway, P, ['view_products']);
    const { product } = await client.gql(`{ product(key: "other") { masterData {
      current { masterVariant { price(currency: "EUR") { value { centAmount } } } }
      staged { masterVariant { price(currency: "EUR") { value { centAmount } } }
        allVariants { price(currency: "EUR") { value { centAmount } } }
        variant(sku: "other-1") { price(currency: "EUR") { value { centAmount } } } }
    } } }`);
    expect(product.masterData.current.masterVariant.price.value.centAmount).toBe(500);
    expect(product.masterData.staged.masterVariant.price.value.centAmount).toBe(450);
    expect(product.masterData.staged.allVariants[0].price.value.centAmount).toBe(450);
    expect(product.masterData.staged.variant.price.value.centAmount).toBe(450);
    const search = async (staged: boolean): Promise<unknown> => {
      const { productProjectionSearch } = await client.gql(`{ productProjectionSearch(staged: ${String(staged)},
        filters: [{ string: "variants.sku:\\"other-1\\"" }]) {
        results { masterVariant { price(currency: "EUR") { value { centAmount } } } } } }`);
      return productProjectionSearch.results[0].masterVariant.price.value.centAmount;
    };
    expect(await search(true)).toBe(450);
    expect(await search(false)).toBe(500);
  });
});
