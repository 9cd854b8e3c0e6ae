/**
 * StandalonePrice.discounted "Set if a matching ProductDiscount exists": Herald sets it in the
 * transaction of the product discount's or the price's write, with StandalonePriceDiscountSet
 * (types/message/StandalonePriceDiscountSetMessage.raml; `discounted` absent when removed).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, type Caller, type Json } from '../carts/commerce.js';
import { createCatalogue, createProduct, shirt } from '../product-projections/fixtures.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'standalone-platform-discounts';

const relative = (key: string, sku: string, permyriad: number, sortOrder: string, extra: Json = {}): Json => ({
  key,
  name: { en: key },
  value: { type: 'relative', permyriad },
  predicate: `sku = "${sku}"`,
  sortOrder,
  isActive: true,
  ...extra,
});

describe('standalone prices discounted by product discounts', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let admin: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_standalone_prices',
      'manage_product_discounts',
      'view_messages',
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_subscriptions',
    ]);
    ({ sqs, admin } = setup);
    await createCatalogue(admin, P);
    for (const key of ['pa', 'pb', 'pc', 'pd', 'pe']) await createProduct(admin, P, shirt(key, { priceMode: 'Standalone' }));
  }, 180_000);
  afterAll(() => setup?.close());

  const price = (id: string) => admin.read(`/${P}/standalone-prices/${id}`);
  const messagesOf = async (id: string, type = 'StandalonePriceDiscountSet'): Promise<Json[]> => {
    const page = await admin.read(`/${P}/messages?sort=sequenceNumber+asc&where=${encodeURIComponent(`resource(id = "${id}")`)}`);
    return (page.results as Json[]).filter((message) => message.type === type);
  };
  const discountedBy = (discount: Json, centAmount: number) => ({
    value: { type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 },
    discount: { typeId: 'product-discount', id: discount.id },
  });

  it('follows a discount created, outranked, deactivated and deleted, with its messages and deliveries', async () => {
    const matching = await admin.ok(`/${P}/standalone-prices`, { sku: 'pa-1', value: eur(1000) }, 201);
    const other = await admin.ok(`/${P}/standalone-prices`, { sku: 'pb-1', value: eur(1000) }, 201);
    const queue = await subscribedQueue(sqs, admin, P, 'standalone-price');
    const id = matching.id as string;

    const tenPercent = await admin.ok(`/${P}/product-discounts`, relative('ten', 'pa-1', 1000, '0.5'), 201);
    expect((await price(id)).discounted).toEqual(discountedBy(tenPercent, 900));
    expect(await messagesOf(id)).toMatchObject([{ discounted: discountedBy(tenPercent, 900), resourceVersion: 2 }]);
    // A price the predicate does not match is not written.
    const untouched = await price(other.id as string);
    expect(untouched.version).toBe(1);
    expect(untouched.discounted).toBeUndefined();

    // The higher sortOrder wins ("A Product Discount with a higher value is prioritized").
    const twentyPercent = await admin.ok(`/${P}/product-discounts`, relative('twenty', 'pa-1', 2000, '0.7'), 201);
    expect((await price(id)).discounted).toEqual(discountedBy(twentyPercent, 800));

    await admin.update(`/${P}/product-discounts/${twentyPercent.id as string}`, twentyPercent.version, [{ action: 'changeIsActive', isActive: false }]);
    expect((await price(id)).discounted).toEqual(discountedBy(tenPercent, 900));

    const deleted = await admin.delete(`/${P}/product-discounts/${tenPercent.id as string}?version=${tenPercent.version as number}`);
    expect(deleted.status).toBe(200);
    const undiscounted = await price(id);
    expect(undiscounted.discounted).toBeUndefined();
    const sets = await messagesOf(id);
    expect(sets).toHaveLength(4);
    expect(sets[3]).not.toHaveProperty('discounted');

    const delivered = (await deliveriesAbout(sqs, queue, id, 8)).map(payloadOf);
    const deliveredSets = delivered.filter((payload) => payload.type === 'StandalonePriceDiscountSet');
    expect(deliveredSets.map((payload) => (payload.discounted as Json | undefined)?.value?.centAmount)).toEqual([900, 800, 900, undefined]);
  });

  it('follows the predicate and value changes of a discount', async () => {
    const priced = await admin.ok(`/${P}/standalone-prices`, { sku: 'pc-1', value: eur(2000) }, 201);
    const id = priced.id as string;
    let discount = await admin.ok(`/${P}/product-discounts`, relative('later', 'nothing', 1000, '0.41'), 201);
    expect((await price(id)).discounted).toBeUndefined();
    discount = await admin.update(`/${P}/product-discounts/${discount.id as string}`, discount.version, [
      { action: 'changePredicate', predicate: 'sku = "pc-1"' },
    ]);
    expect((await price(id)).discounted).toEqual(discountedBy(discount, 1800));
    discount = await admin.update(`/${P}/product-discounts/${discount.id as string}`, discount.version, [
      { action: 'changeValue', value: { type: 'absolute', money: [eur(500)] } },
    ]);
    expect((await price(id)).discounted).toEqual(discountedBy(discount, 1500));
    await admin.update(`/${P}/product-discounts/${discount.id as string}`, discount.version, [{ action: 'changePredicate', predicate: 'sku = "nothing"' }]);
    expect((await price(id)).discounted).toBeUndefined();
  });

  it('follows sortOrder changes both ways and an amount change of the winning discount', async () => {
    const priced = await admin.ok(`/${P}/standalone-prices`, { sku: 'pe-1', value: eur(1000) }, 201);
    const id = priced.id as string;
    let low = await admin.ok(`/${P}/product-discounts`, relative('low', 'pe-1', 1000, '0.61'), 201);
    const rival = await admin.ok(`/${P}/product-discounts`, relative('rival', 'pe-1', 3000, '0.62'), 201);
    expect((await price(id)).discounted).toEqual(discountedBy(rival, 700));
    low = await admin.update(`/${P}/product-discounts/${low.id as string}`, low.version, [{ action: 'changeSortOrder', sortOrder: '0.63' }]);
    expect((await price(id)).discounted).toEqual(discountedBy(low, 900));
    low = await admin.update(`/${P}/product-discounts/${low.id as string}`, low.version, [
      { action: 'changeValue', value: { type: 'relative', permyriad: 500 } },
    ]);
    expect((await price(id)).discounted).toEqual(discountedBy(low, 950));
    await admin.update(`/${P}/product-discounts/${low.id as string}`, low.version, [{ action: 'changeSortOrder', sortOrder: '0.601' }]);
    expect((await price(id)).discounted).toEqual(discountedBy(rival, 700));
    // A name changes nothing a price depends on: no write.
    const before = await price(id);
    await admin.update(`/${P}/product-discounts/${rival.id as string}`, rival.version, [{ action: 'changeName', name: { en: 'renamed' } }]);
    expect((await price(id)).version).toBe(before.version);
  });

  it('keeps the value a client set for an external discount', async () => {
    const external = await admin.ok(
      `/${P}/product-discounts`,
      { ...relative('external', 'pb-1', 0, '0.2'), value: { type: 'external' }, predicate: 'sku = "pb-1"' },
      201,
    );
    const priced = await admin.ok(`/${P}/standalone-prices`, { sku: 'pb-1', value: eur(1000), country: 'DE' }, 201);
    const id = priced.id as string;
    await admin.update(`/${P}/standalone-prices/${id}`, priced.version, [
      { action: 'setDiscountedPrice', discounted: { value: eur(700), discount: { typeId: 'product-discount', id: external.id } } },
    ]);
    await admin.ok(`/${P}/product-discounts`, relative('over-external', 'pb-1', 5000, '0.9'), 201);
    expect((await price(id)).discounted).toEqual(discountedBy(external, 700));
    expect(await messagesOf(id)).toEqual([]);
  });

  it('discounts a standalone price created under an existing discount at once, and follows its value', async () => {
    const discount = await admin.ok(`/${P}/product-discounts`, relative('existing', 'pd-1', 2500, '0.3'), 201);
    const created = await admin.ok(`/${P}/standalone-prices`, { sku: 'pd-1', value: eur(1000) }, 201);
    expect(created.version).toBe(1);
    expect(created.discounted).toEqual(discountedBy(discount, 750));
    const id = created.id as string;
    expect(await messagesOf(id)).toMatchObject([{ discounted: discountedBy(discount, 750), resourceVersion: 1 }]);

    const changed = await admin.update(`/${P}/standalone-prices/${id}`, created.version, [{ action: 'changeValue', value: eur(2000) }]);
    expect(changed.discounted).toEqual(discountedBy(discount, 1500));
    expect((await messagesOf(id)).map((message) => (message.discounted as Json).value.centAmount)).toEqual([750, 1500]);

    // An action that changes nothing matching depends on produces no DiscountSet.
    await admin.update(`/${P}/standalone-prices/${id}`, changed.version, [{ action: 'setKey', key: 'pd-price' }]);
    expect(await messagesOf(id)).toHaveLength(2);
  });
});
