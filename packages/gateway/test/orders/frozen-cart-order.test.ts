/**
 * A Frozen cart can be ordered, with the prices it was frozen with (CartState.raml: freezing keeps
 * a cart's prices for checkout); an Ordered cart cannot be ordered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, callerWith, eur, type Caller } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'frozen-cart-order';

describe('orders from frozen carts', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    await admin.ok(
      `/${P}/products`,
      {
        key: 'lamp',
        productType: { typeId: 'product-type', key: 'plain' },
        name: { en: 'Lamp' },
        slug: { en: 'lamp' },
        publish: true,
        masterVariant: { sku: 'lamp-1', prices: [{ value: eur(1000) }] },
      },
      201,
    );
  }, 120_000);
  afterAll(() => gateway?.close());

  it('orders a frozen cart at its frozen prices, and not twice', async () => {
    const cart = await admin.ok(
      `/${P}/carts`,
      { currency: 'EUR', taxMode: 'Disabled', shippingAddress: address('DE'), lineItems: [{ sku: 'lamp-1', quantity: 2 }] },
      201,
    );
    const frozen = await admin.update(`/${P}/carts/${cart.id as string}`, cart.version, [{ action: 'freezeCart' }]);
    const product = await admin.read(`/${P}/products/key=lamp`);
    const price = product.masterData.current.masterVariant.prices[0];
    await admin.update(`/${P}/products/${product.id as string}`, product.version, [
      { action: 'changePrice', priceId: price.id, price: { value: eur(1500) }, staged: false },
    ]);

    const order = await admin.ok(`/${P}/orders`, { cart: { typeId: 'cart', id: frozen.id }, version: frozen.version }, 201);
    expect(order.lineItems[0].price.value).toMatchObject(eur(1000));
    expect(order.totalPrice).toMatchObject(eur(2000));
    expect((await admin.read(`/${P}/carts/${cart.id as string}`)).cartState).toBe('Ordered');

    const ordered = await admin.read(`/${P}/carts/${cart.id as string}`);
    const again = await admin.post(`/${P}/orders`, { cart: { typeId: 'cart', id: cart.id }, version: ordered.version });
    expect(again.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
  });
});
