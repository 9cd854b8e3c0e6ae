/**
 * Issue 28: price selection of `Standalone` products on product projections (ProductPriceModeEnum:
 * "Composable Commerce uses StandalonePrices, which are associated with the ProductVariant through
 * the `sku` field"), through HTTP: the variant's `price` is selected among its SKU's active
 * StandalonePrices (by currency, country, customer group, channel and validity) on the list, by id
 * and key and in store, while `prices` stays the Embedded Prices (ProductVariant.prices) and an
 * `Embedded` product beside it keeps selecting those; Product Discounts apply to the selected
 * StandalonePrice (StandalonePrice.discounted); a page of 20 Standalone products is priced right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt, type Catalogue } from './fixtures.js';

const P = 'projection-standalone';
const PAGE = 'projection-standalone-page';
const BASE = `/${P}/product-projections`;

const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });

describe('Standalone price selection on /{projectKey}/product-projections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;
  let solo: Json;
  let embedded: Json;
  const standalone: Record<string, Json> = {};

  const standalonePrice = async (name: string, draft: Json): Promise<void> => {
    standalone[name] = await admin.ok(`/${P}/standalone-prices`, draft, 201);
  };
  /** The master variant's selected `price` of the product `key` on the list, as `[id, centAmount]`. */
  const listed = async (key: string, query: string): Promise<Json | undefined> => {
    const page = await admin.read(`${BASE}?${query}&where=${encodeURIComponent(`key = "${key}"`)}`);
    expect(page.results).toHaveLength(1);
    return page.results[0].masterVariant.price as Json | undefined;
  };

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P, PAGE] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_stores',
      'manage_standalone_prices',
      'manage_product_discounts',
    ]);
    catalogue = await createCatalogue(admin, P);
    const customerGroup = { typeId: 'customer-group', id: catalogue.customerGroupId };
    const channel = { typeId: 'channel', id: catalogue.channelId };
    solo = await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone', masterVariant: { sku: 'solo-1', prices: [eurPrice(900)] } }));
    embedded = await createProduct(admin, P, shirt('embedded', { masterVariant: { sku: 'embedded-1', prices: [eurPrice(900)] } }));
    await createProduct(admin, P, shirt('bare', { priceMode: 'Standalone', masterVariant: { sku: 'bare-1', prices: [eurPrice(900)] } }));
    await standalonePrice('base', { sku: 'solo-1', value: eur(500) });
    await standalonePrice('germany', { sku: 'solo-1', value: eur(450), country: 'DE' });
    await standalonePrice('vip', { sku: 'solo-1', value: eur(400), customerGroup });
    await standalonePrice('outlet', { sku: 'solo-1', value: eur(350), channel });
    await standalonePrice('expired', {
      sku: 'solo-1',
      value: eur(300),
      country: 'AT',
      validFrom: '2000-01-01T00:00:00.000Z',
      validUntil: '2000-12-31T00:00:00.000Z',
    });
    await standalonePrice('inactive', { sku: 'solo-1', value: eur(50), country: 'FR', active: false });
    await standalonePrice('dollars', { sku: 'solo-1', value: { currencyCode: 'USD', centAmount: 250 } });
    // An Embedded product ignores the StandalonePrices of its SKU.
    await standalonePrice('ignored', { sku: 'embedded-1', value: eur(100) });
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('selects the Standalone product`s StandalonePrice and the Embedded product`s Embedded Price on one page', async () => {
    const page = await admin.read(`${BASE}?priceCurrency=EUR&sort=${encodeURIComponent('key asc')}`);
    const byKey = new Map<string, Json>((page.results as Json[]).map((projection) => [projection.key, projection.masterVariant]));
    expect(byKey.get('solo')?.price).toEqual({ id: standalone.base?.id, value: standalone.base?.value });
    expect(byKey.get('embedded')?.price.value.centAmount).toBe(900);
    // ProductVariant.prices holds the Embedded Prices whatever the price mode.
    expect((byKey.get('solo')?.prices as Json[]).map((price) => price.value.centAmount)).toEqual([900]);
  });

  it('selects by id and by key', async () => {
    expect((await admin.read(`${BASE}/${solo.id}?priceCurrency=EUR`)).masterVariant.price.id).toBe(standalone.base?.id);
    expect((await admin.read(`${BASE}/key=solo?priceCurrency=EUR&priceCountry=DE`)).masterVariant.price.id).toBe(standalone.germany?.id);
    expect((await admin.read(`${BASE}/${embedded.id}?priceCurrency=EUR`)).masterVariant.price.value.centAmount).toBe(900);
  });

  it('selects by currency, country, customer group, channel and validity among active prices only', async () => {
    const selected = async (query: string): Promise<string | undefined> => (await listed('solo', `priceCurrency=${query}`))?.id as string | undefined;
    expect(await selected('USD')).toBe(standalone.dollars?.id);
    expect(await selected('EUR&priceCountry=DE')).toBe(standalone.germany?.id);
    expect(await selected(`EUR&priceCustomerGroup=${catalogue.customerGroupId}`)).toBe(standalone.vip?.id);
    expect(await selected(`EUR&priceChannel=${catalogue.channelId}`)).toBe(standalone.outlet?.id);
    // The AT price expired in 2000 and the FR one is inactive: both fall back to the unscoped price.
    expect(await selected('EUR&priceCountry=AT')).toBe(standalone.base?.id);
    expect(await selected('EUR&priceCountry=FR')).toBe(standalone.base?.id);
  });

  it('selects no price for a Standalone product without a matching StandalonePrice', async () => {
    expect(await listed('bare', 'priceCurrency=EUR')).toBeUndefined();
    expect(await listed('solo', 'priceCurrency=GBP')).toBeUndefined();
    const bare = await admin.read(`${BASE}/key=bare?priceCurrency=EUR`);
    expect(bare.masterVariant.price).toBeUndefined();
    expect(bare.masterVariant.prices).toHaveLength(1);
  });

  it('selects in store among the prices of the store`s countries', async () => {
    await admin.ok(`/${P}/stores`, { key: 'berlin', countries: [{ code: 'DE' }] }, 201);
    await admin.ok(`/${P}/stores`, { key: 'vienna', countries: [{ code: 'AT' }] }, 201);
    const inBerlin = await admin.read(`/${P}/in-store/key=berlin/product-projections/key=solo?priceCurrency=EUR&priceCountry=DE`);
    expect(inBerlin.masterVariant.price.id).toBe(standalone.germany?.id);
    const inVienna = await admin.read(`/${P}/in-store/key=vienna/product-projections/${solo.id}?priceCurrency=EUR&priceCountry=DE`);
    expect(inVienna.masterVariant.price.id).toBe(standalone.base?.id);
    expect((await admin.read(`${BASE}/${solo.id}?priceCurrency=EUR&priceCountry=DE&storeProjection=vienna`)).masterVariant.price.id).toBe(standalone.base?.id);
  });

  it('discounts the selected StandalonePrice by the matching Product Discount', async () => {
    const discount = await admin.ok(
      `/${P}/product-discounts`,
      { name: { en: 'solo' }, value: { type: 'relative', permyriad: 1000 }, predicate: 'sku = "solo-1"', sortOrder: '0.5', isActive: true },
      201,
    );
    const price = (await admin.read(`${BASE}/${solo.id}?priceCurrency=EUR&priceCountry=DE`)).masterVariant.price;
    expect(price.discounted).toEqual({
      value: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 405, fractionDigits: 2 },
      discount: { typeId: 'product-discount', id: discount.id },
    });
  });

  it('prices a page of 20 Standalone products, each with its own SKU`s price', async () => {
    const pageAdmin = await callerWith(gateway, PAGE, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_standalone_prices',
    ]);
    await createCatalogue(pageAdmin, PAGE);
    for (let index = 0; index < 20; index += 1) {
      await createProduct(
        pageAdmin,
        PAGE,
        shirt(`item-${index}`, { priceMode: 'Standalone', masterVariant: { sku: `item-${index}`, prices: [eurPrice(9999)] } }),
      );
      await pageAdmin.ok(`/${PAGE}/standalone-prices`, { sku: `item-${index}`, value: eur(100 + index) }, 201);
    }
    const page = await pageAdmin.read(`/${PAGE}/product-projections?priceCurrency=EUR&limit=20`);
    expect(page.results).toHaveLength(20);
    for (const projection of page.results as Json[]) {
      const index = Number((projection.key as string).slice('item-'.length));
      expect(projection.masterVariant.price.value.centAmount, projection.key as string).toBe(100 + index);
    }
  });
});
