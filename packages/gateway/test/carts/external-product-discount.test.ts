/**
 * An `external` ProductDiscount prices a cart's line item with the value a client set on the
 * product's Price (ProductSetDiscountedPriceAction), while the discount is active; it computes no
 * value of its own, and a deactivated one no longer applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, eur, type Caller, type Json } from './commerce.js';

const P = 'external-product-discount';

describe('carts and external product discounts', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let discount: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    const product = await admin.ok(
      `/${P}/products`,
      {
        key: 'kettle',
        productType: { typeId: 'product-type', key: 'plain' },
        name: { en: 'Kettle' },
        slug: { en: 'kettle' },
        publish: true,
        masterVariant: { sku: 'kettle-1', prices: [{ value: eur(1000) }] },
      },
      201,
    );
    discount = await admin.ok(
      `/${P}/product-discounts`,
      { key: 'clearance', name: { en: 'Clearance' }, value: { type: 'external' }, predicate: '1 = 1', sortOrder: '0.5', isActive: true },
      201,
    );
    const priceId = product.masterData.current.masterVariant.prices[0].id as string;
    await admin.update(`/${P}/products/${product.id as string}`, product.version, [
      { action: 'setDiscountedPrice', priceId, staged: false, discounted: { value: eur(700), discount: { typeId: 'product-discount', id: discount.id } } },
    ]);
  }, 120_000);
  afterAll(() => gateway?.close());

  it('prices the item with the discounted value set on the price, until the discount is deactivated', async () => {
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [{ sku: 'kettle-1', quantity: 2 }] }, 201);
    expect(cart.lineItems[0].price.discounted).toMatchObject({ value: { centAmount: 700 }, discount: { id: discount.id } });
    expect(cart.lineItems[0].totalPrice.centAmount).toBe(1400);
    expect(cart.totalPrice.centAmount).toBe(1400);

    const current = await admin.read(`/${P}/product-discounts/${discount.id as string}`);
    await admin.update(`/${P}/product-discounts/${discount.id as string}`, current.version, [{ action: 'changeIsActive', isActive: false }]);
    const recalculated = await admin.update(`/${P}/carts/${cart.id as string}`, cart.version, [{ action: 'recalculate' }]);
    expect(recalculated.lineItems[0].price).not.toHaveProperty('discounted');
    expect(recalculated.totalPrice.centAmount).toBe(2000);
  });
});
