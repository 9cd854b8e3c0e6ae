/**
 * Issue 29: an order's address actions change the address only. The reference says so of
 * OrderSetShippingAddressAction: "it does not recalculate the Cart as taxes may not fit to the
 * shipping address anymore" (types/order/updates/OrderSetShippingAddressAction.raml); the billing
 * and item shipping address actions recalculate nothing either. Re-taxing an order for a new
 * address is what an order edit does (StagedOrderSetShippingAddressAction, order-edits/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../carts/catalogue-fixture.js';
import { address, callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { messagesOf } from './fixtures.js';

const P = 'order-address-taxes';
/** New York's rate of the catalogue's standard tax category (8.875 %, not included): what a re-tax would apply. */
const NEW_YORK = { ...address('US'), state: 'New York', city: 'New York' };

describe('orders: address actions do not re-tax the order', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(() => gateway?.close());

  /** A German order, taxed at the included 19 % VAT: 2 shirts and the standard shipping. */
  async function germanOrder(): Promise<Json> {
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        country: 'DE',
        shippingAddress: address('DE'),
        lineItems: [{ sku: 'shirt-m', quantity: 2, key: 'shirts' }],
        shippingMethod: { typeId: 'shipping-method', key: 'standard' },
      },
      201,
    );
    return admin.ok(`/${P}/orders`, { cart: { id: cart.id }, version: cart.version }, 201);
  }

  /** What a re-tax or re-price would change. */
  const pricing = (order: Json): Json => ({
    totalPrice: order.totalPrice,
    taxedPrice: order.taxedPrice,
    taxedShippingPrice: order.taxedShippingPrice,
    lineItems: (order.lineItems as Json[]).map((item) => ({ taxRate: item.taxRate, taxedPrice: item.taxedPrice, totalPrice: item.totalPrice })),
    shippingTaxRate: order.shippingInfo?.taxRate,
  });

  it('setShippingAddress and setBillingAddress to another country keep the taxes and totals of the old address', async () => {
    const order = await germanOrder();
    expect(order.taxedPrice).toBeDefined();
    expect(order.lineItems[0].taxRate).toMatchObject({ country: 'DE', amount: 0.19, includedInPrice: true });
    const moved = await admin.update(`/${P}/orders/${order.id as string}`, order.version, [
      { action: 'setShippingAddress', address: NEW_YORK },
      { action: 'setBillingAddress', address: NEW_YORK },
    ]);
    expect(moved.shippingAddress).toMatchObject({ country: 'US', state: 'New York' });
    expect(moved.billingAddress).toMatchObject({ country: 'US', state: 'New York' });
    expect(pricing(moved)).toEqual(pricing(order));
    const types = (await messagesOf(admin, P, order.id as string)).map((message) => message.type);
    expect(types).toEqual(['OrderCreated', 'OrderShippingAddressSet', 'OrderBillingAddressSet']);
  });

  it('item shipping addresses in another country, and line items shipped there, keep the taxes too', async () => {
    const order = await germanOrder();
    const moved = await admin.update(`/${P}/orders/${order.id as string}`, order.version, [
      { action: 'addItemShippingAddress', address: { ...address('DE'), key: 'office' } },
      { action: 'setLineItemShippingDetails', lineItemKey: 'shirts', shippingDetails: { targets: [{ addressKey: 'office', quantity: 2 }] } },
      { action: 'updateItemShippingAddress', address: { ...NEW_YORK, key: 'office' } },
    ]);
    expect(moved.itemShippingAddresses).toEqual([expect.objectContaining({ key: 'office', country: 'US' })]);
    expect(pricing(moved)).toEqual(pricing(order));
  });
});
