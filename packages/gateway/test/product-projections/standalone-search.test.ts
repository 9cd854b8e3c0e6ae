/**
 * The search's price selection for `Standalone` products (ProductPriceModeEnum): `price` and
 * `scopedPrice` come from the SKU's active StandalonePrices, on both of the search's paths: the one
 * answered from the search terms (filters only) and the one evaluated in process (a text), where
 * a `variants.scopedPrice` filter sees the standalone value too; an Embedded product beside it
 * keeps its Embedded Prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from './fixtures.js';

const P = 'search-standalone';
const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });

describe('Standalone prices in /{projectKey}/product-projections/search', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let base: Json;

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
    await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone', masterVariant: { sku: 'solo-1', prices: [eurPrice(900)] } }));
    await createProduct(admin, P, shirt('embedded', { masterVariant: { sku: 'embedded-1', prices: [eurPrice(900)] } }));
    base = await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(500) }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'embedded-1', value: eur(100) }, 201);
  }, 180_000);
  afterAll(() => gateway?.close());

  const search = async (params: Array<[string, string]>): Promise<Map<string, Json>> => {
    const page = await admin.read(`/${P}/product-projections/search?${new URLSearchParams([['priceCurrency', 'EUR'], ...params])}`);
    return new Map((page.results as Json[]).map((projection) => [projection.key as string, projection.masterVariant as Json]));
  };

  it.each([
    ['answered from the search terms', [['filter.query', 'variants.sku:"solo-1","embedded-1"']] as Array<[string, string]>],
    ['evaluated in process (a text)', [['text.en', 'shirt']] as Array<[string, string]>],
  ])('selects the StandalonePrice of a Standalone product, the Embedded Price of the other: %s', async (_, params) => {
    const variants = await search(params);
    expect(variants.get('solo')?.price).toMatchObject({ id: base.id, value: { centAmount: 500 } });
    expect(variants.get('solo')?.scopedPrice).toMatchObject({ id: base.id, currentValue: { centAmount: 500 } });
    expect(variants.get('embedded')?.scopedPrice).toMatchObject({ value: { centAmount: 900 } });
  });

  it('filters by the scoped standalone value', async () => {
    const cheap = await search([['filter', 'variants.scopedPrice.currentValue.centAmount:range (0 to 600)']]);
    expect([...cheap.keys()]).toEqual(['solo']);
  });
});
