/**
 * StandalonePriceSetDiscountedPriceAction: "Discounts a Standalone Price of a Product Variant on a
 * published Product. If the Product Variant does not exist or if it exists only in the staged
 * representation of a Product, an InvalidOperationError"; the external discount's "predicate must
 * match the referenced Price" (product, variant and price fields, keys included). The draft's
 * `discounted` is held to the same rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import { createCatalogue, createProduct, shirt, type Catalogue } from '../product-projections/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'standalone-discount-predicate';

describe('the external discount of a standalone price matches its product', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;
  let sortOrder = 0.1;

  const externalDiscount = async (key: string, predicate: string): Promise<Json> => {
    sortOrder += 0.01;
    const draft = { key, name: { en: key }, value: { type: 'external' }, predicate, sortOrder: sortOrder.toFixed(2), isActive: true };
    return admin.ok(`/${P}/product-discounts`, draft, 201);
  };
  const discounted = (discount: Json) => ({ value: eur(800), discount: { typeId: 'product-discount', id: discount.id } });
  const setDiscounted = async (price: Json, discount: Json) =>
    admin.post(`/${P}/standalone-prices/${price.id as string}`, {
      version: price.version,
      actions: [{ action: 'setDiscountedPrice', discounted: discounted(discount) }],
    });

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_standalone_prices',
      'manage_product_discounts',
      'view_messages',
    ]);
    catalogue = await createCatalogue(admin, P);
    await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone' }));
    await createProduct(admin, P, shirt('unpublished', { priceMode: 'Standalone' }), false);
  }, 120_000);
  afterAll(() => gateway?.close());

  it('sets the discount whose predicate matches the variant (sku, product type key, attributes)', async () => {
    const discount = await externalDiscount('solo-shirts', 'sku = "solo-1" and productType.key = "shirts" and attributes.colour = "red"');
    const price = await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(1000) }, 201);
    const updated = await admin.update(`/${P}/standalone-prices/${price.id as string}`, price.version, [
      { action: 'setDiscountedPrice', discounted: discounted(discount) },
    ]);
    expect(updated.discounted).toMatchObject({ value: { centAmount: 800 }, discount: { id: discount.id } });
    const fromDraft = await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(1000), country: 'AT', discounted: discounted(discount) }, 201);
    expect(fromDraft.discounted).toMatchObject({ discount: { id: discount.id } });
  });

  it('refuses a discount whose predicate does not match, with 400 InvalidInput naming discounted.discount', async () => {
    const other = await externalDiscount('other-sku', 'sku = "other-1"');
    const price = await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(1000), country: 'FR' }, 201);
    const refused = await setDiscounted(price, other);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field: 'discounted.discount' }] });
    expect((await admin.read(`/${P}/standalone-prices/${price.id as string}`)).discounted).toBeUndefined();
    const draft = await admin.post(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(1000), country: 'IT', discounted: discounted(other) });
    expect(draft.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field: 'discounted.discount' }] });
  });

  it('matches the price fields of the standalone price: country, customer group key, channel key, amount', async () => {
    const discount = await externalDiscount('vip-outlet-de', 'country = "DE" and customerGroup.key = "vip" and channel.key = "outlet" and price > "9.00 EUR"');
    const scope = { customerGroup: { typeId: 'customer-group', id: catalogue.customerGroupId }, channel: { typeId: 'channel', id: catalogue.channelId } };
    const matching = await admin.ok(
      `/${P}/standalone-prices`,
      { sku: 'solo-1', value: eur(1000), country: 'DE', ...scope, validUntil: '2099-01-01T00:00:00.000Z' },
      201,
    );
    expect((await setDiscounted(matching, discount)).status).toBe(200);
    const elsewhere = await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(1000), country: 'NL', ...scope }, 201);
    expect((await setDiscounted(elsewhere, discount)).body).toMatchObject({ errors: [{ code: 'InvalidInput', field: 'discounted.discount' }] });
    const cheap = await admin.ok(
      `/${P}/standalone-prices`,
      { sku: 'solo-1', value: eur(500), country: 'DE', ...scope, validFrom: '2099-06-01T00:00:00.000Z' },
      201,
    );
    expect((await setDiscounted(cheap, discount)).body).toMatchObject({ errors: [{ code: 'InvalidInput', field: 'discounted.discount' }] });
  });

  it.each([
    ['a SKU no product has', 'nobody-1'],
    ['a SKU only an unpublished product has', 'unpublished-1'],
  ])('refuses to discount the price of %s with 400 InvalidOperation', async (_, sku) => {
    const everything = await externalDiscount(`any-${sku}`, '1 = 1');
    const price = await admin.ok(`/${P}/standalone-prices`, { sku, value: eur(1000) }, 201);
    const refused = await setDiscounted(price, everything);
    expect(refused.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
    const draft = await admin.post(`/${P}/standalone-prices`, { sku, value: eur(1000), country: 'DE', discounted: discounted(everything) });
    expect(draft.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
  });
});
