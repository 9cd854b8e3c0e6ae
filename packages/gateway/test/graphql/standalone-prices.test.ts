/**
 * Issue 28: GraphQL ProductVariant.price of `Standalone` products (ProductPriceModeEnum): selected
 * among the SKU's active StandalonePrices, on `product` (current and staged data) and on every
 * product of a `products` page, while `Embedded` products beside them keep their Embedded Prices
 * and a Standalone product without a matching StandalonePrice has no price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { apiClient, type Client } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from '../product-projections/fixtures.js';

const P = 'graphql-standalone-prices';

const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });

describe('GraphQL price selection of Standalone products', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let reader: Client;

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
    reader = await apiClient(gateway, P, ['view_products']);
    await createCatalogue(admin, P);
    await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone', masterVariant: { sku: 'solo-1', prices: [eurPrice(900)] } }));
    await createProduct(admin, P, shirt('embedded', { masterVariant: { sku: 'embedded-1', prices: [eurPrice(800)] } }));
    await createProduct(admin, P, shirt('bare', { priceMode: 'Standalone', masterVariant: { sku: 'bare-1', prices: [eurPrice(700)] } }));
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(500) }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(450), country: 'DE' }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(50), country: 'FR', active: false }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'embedded-1', value: eur(100) }, 201);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('selects the StandalonePrice on product, in both data versions, among active prices only', async () => {
    const { product } = await reader.gql(`{ product(key: "solo") { masterData {
      current { masterVariant {
        eur: price(currency: "EUR") { value { centAmount } }
        de: price(currency: "EUR", country: "DE") { value { centAmount } }
        fr: price(currency: "EUR", country: "FR") { value { centAmount } }
        usd: price(currency: "USD") { value { centAmount } }
        prices { value { centAmount } }
      } }
      staged { masterVariant { price(currency: "EUR", country: "DE") { value { centAmount } } } }
    } } }`);
    expect(product.masterData.current.masterVariant).toEqual({
      eur: { value: { centAmount: 500 } },
      de: { value: { centAmount: 450 } },
      fr: { value: { centAmount: 500 } },
      usd: null,
      prices: [{ value: { centAmount: 900 } }],
    });
    expect(product.masterData.staged.masterVariant.price).toEqual({ value: { centAmount: 450 } });
  });

  it('selects per price mode on a products page, and no price without a matching StandalonePrice', async () => {
    const { products } = await reader.gql(`{ products(sort: ["key asc"]) { results { key masterData { current { masterVariant {
      price(currency: "EUR") { value { centAmount } }
    } } } } } }`);
    const prices = Object.fromEntries(
      (products.results as Json[]).map((result) => [result.key, result.masterData.current.masterVariant.price?.value.centAmount ?? null]),
    );
    expect(prices).toEqual({ bare: null, embedded: 800, solo: 500 });
  });
});
