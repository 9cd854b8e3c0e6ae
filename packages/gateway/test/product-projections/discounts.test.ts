/**
 * Issue 29: Product Discounts on product projections (types/common/Price.raml `discounted`,
 * ScopedPrice.raml, ProductVariant.raml `scopedPriceDiscounted`), through HTTP: the discount whose
 * predicate matches by sku, product type key or category key is on every price of the projection
 * and on the selected price; inactive and expired discounts never apply; the highest sortOrder
 * wins; staged projections match the staged data; search's scoped price is discounted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from './fixtures.js';

const P = 'projection-discounts';
const BASE = `/${P}/product-projections`;

const eur = (centAmount: number): Json => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
const relative = (permyriad: number): Json => ({ type: 'relative', permyriad });

describe('Product discounts on /{projectKey}/product-projections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let alpha: Json;
  let beta: Json;
  const discounts: Record<string, Json> = {};

  const discount = async (name: string, sortOrder: string, value: Json, predicate: string, extra: Json = {}): Promise<void> => {
    discounts[name] = await admin.ok(`/${P}/product-discounts`, { name: { en: name }, value, predicate, sortOrder, isActive: true, ...extra }, 201);
  };
  const discountedBy = (name: string, centAmount: number): Json => ({
    value: eur(centAmount),
    discount: { typeId: 'product-discount', id: discounts[name]?.id },
  });
  const masterPrices = async (path: string): Promise<Json[]> => (await admin.read(path)).masterVariant.prices as Json[];

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_product_discounts',
    ]);
    const catalogue = await createCatalogue(admin, P);
    alpha = await createProduct(admin, P, shirt('alpha', { masterVariant: { sku: 'alpha-1', prices: [eurPrice(1000)] } }));
    // The staged data has another sku, which only the staged projection's predicate subject reads.
    alpha = await admin.update(`/${P}/products/${alpha.id}`, alpha.version, [{ action: 'setSku', variantId: 1, sku: 'alpha-staged' }]);
    beta = await createProduct(
      admin,
      P,
      shirt('beta', { masterVariant: { sku: 'beta-1', prices: [eurPrice(2000), { value: { currencyCode: 'USD', centAmount: 2000 } }] } }),
    );
    await createProduct(
      admin,
      P,
      shirt('gamma', { categories: [{ typeId: 'category', id: catalogue.childCategoryId }], masterVariant: { sku: 'gamma-1', prices: [eurPrice(4000)] } }),
    );
    // Inactive and expired discounts rank highest and match every price: they must never apply.
    await discount('inactive', '0.9', relative(9000), '1 = 1', { isActive: false });
    await discount('expired', '0.8', relative(8000), '1 = 1', { validFrom: '2000-01-01T00:00:00.000Z', validUntil: '2001-01-01T00:00:00.000Z' });
    await discount('staged sku', '0.7', relative(2000), 'sku = "alpha-staged"');
    await discount('category', '0.6', relative(5000), 'categories.key contains "tops"');
    await discount('sku', '0.5', relative(1000), 'sku = "alpha-1"');
    await discount('product type', '0.4', { type: 'absolute', money: [{ currencyCode: 'EUR', centAmount: 300 }] }, 'productType.key = "shirts"');
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('discounts each price by the matching discount of the highest sortOrder (sku, category, product type)', async () => {
    // alpha matches "sku" (0.5) and "product type" (0.4): the higher sortOrder wins.
    expect((await masterPrices(`${BASE}/${alpha.id}`))[0]?.discounted).toEqual(discountedBy('sku', 900));
    // gamma matches "category" (0.6) and "product type" (0.4).
    expect((await masterPrices(`${BASE}/key=gamma`))[0]?.discounted).toEqual(discountedBy('category', 2000));
    const [betaEur, betaUsd] = await masterPrices(`${BASE}/${beta.id}`);
    expect(betaEur?.discounted).toEqual(discountedBy('product type', 1700));
    // The absolute discount has no USD value, and the inactive and expired ones match nothing.
    expect(betaUsd).toBeDefined();
    expect(betaUsd?.discounted).toBeUndefined();
  });

  it('discounts the prices of every projection of a query page and the selected price', async () => {
    const page = await admin.read(`${BASE}?sort=key%20asc&priceCurrency=EUR`);
    const selected = page.results.map((projection: Json) => projection.masterVariant.price.discounted);
    expect(selected).toEqual([discountedBy('sku', 900), discountedBy('product type', 1700), discountedBy('category', 2000)]);
    expect(page.results.map((projection: Json) => projection.masterVariant.prices[0].discounted)).toEqual(selected);
  });

  it('matches staged projections against the staged data', async () => {
    expect((await masterPrices(`${BASE}/${alpha.id}?staged=true`))[0]?.discounted).toEqual(discountedBy('staged sku', 800));
  });

  it("marks search's scoped price discounted, with the discounted value as its current value", async () => {
    const page = await admin.read(`${BASE}/search?priceCurrency=EUR&sort=${encodeURIComponent('scopedPrice asc')}`);
    const alphaHit = page.results.find((projection: Json) => projection.id === alpha.id).masterVariant;
    expect(alphaHit.scopedPriceDiscounted).toBe(true);
    expect(alphaHit.scopedPrice).toMatchObject({ value: eur(1000), currentValue: eur(900), discounted: discountedBy('sku', 900) });
    expect(alphaHit.price.discounted).toEqual(discountedBy('sku', 900));
    const usd = (await admin.read(`${BASE}/search?priceCurrency=USD`)).results.find((projection: Json) => projection.id === beta.id).masterVariant;
    expect(usd).toMatchObject({ scopedPriceDiscounted: false, scopedPrice: { currentValue: { currencyCode: 'USD', centAmount: 2000 } } });
    expect(usd.scopedPrice.discounted).toBeUndefined();
  });

  it('filters search results on the discounted current value', async () => {
    const filter = encodeURIComponent('variants.scopedPrice.currentValue.centAmount:range (* to 1000)');
    const page = await admin.read(`${BASE}/search?priceCurrency=EUR&filter=${filter}`);
    expect(page.results.map((projection: Json) => projection.key)).toEqual(['alpha']);
  });

  it('applies a discount once it is activated, and no longer once deactivated', async () => {
    const inactive = discounts.inactive as Json;
    const activated = await admin.update(`/${P}/product-discounts/${inactive.id}`, inactive.version, [{ action: 'changeIsActive', isActive: true }]);
    const usd = { type: 'centPrecision', currencyCode: 'USD', centAmount: 200, fractionDigits: 2 };
    expect((await masterPrices(`${BASE}/${beta.id}`))[1]?.discounted).toEqual({ ...discountedBy('inactive', 200), value: usd });
    await admin.update(`/${P}/product-discounts/${inactive.id}`, activated.version, [{ action: 'changeIsActive', isActive: false }]);
    expect((await masterPrices(`${BASE}/${beta.id}`))[1]?.discounted).toBeUndefined();
  });
});
