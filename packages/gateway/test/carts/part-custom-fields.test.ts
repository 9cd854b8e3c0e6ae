import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { seedCatalogue, SCOPES } from './catalogue-fixture.js';
import { address, callerWith, customerWithToken, type Caller, type Json } from './commerce.js';

const P = 'cart-part-custom';

/** The addresses' and shipping's actions, each with the locator fields that name its part. */
const PARTS: [string, Json][] = [
  ['BillingAddress', {}],
  ['ShippingAddress', {}],
  ['ItemShippingAddress', { addressKey: 'office' }],
  ['Shipping', {}],
];

/**
 * Issue 29: the reference's CartSet{Billing,Shipping,ItemShipping}AddressCustom{Type,Field}Action
 * and CartSetShippingCustom{Type,Field}Action through HTTP: merchant actions (MyCartUpdateAction
 * has none), validated like the cart's own custom fields, kept by the order made from the cart.
 */
describe('carts: custom fields on addresses and shipping', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let typeId: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, SCOPES);
    await seedCatalogue(admin, P);
    const fieldDefinitions = [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }];
    typeId = (await admin.ok(`/${P}/types`, { key: 'part-fields', name: { en: 'Parts' }, resourceTypeIds: ['address', 'shipping'], fieldDefinitions }, 201))
      .id as string;
    await admin.ok(`/${P}/types`, { key: 'cart-only', name: { en: 'Carts' }, resourceTypeIds: ['order'], fieldDefinitions }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  const url = (cart: Json) => `/${P}/carts/${cart.id as string}`;
  const partType = { key: 'part-fields' };

  const newCart = (): Promise<Json> =>
    admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        country: 'DE',
        lineItems: [{ sku: 'shirt-m', quantity: 1 }],
        shippingAddress: address('DE'),
        billingAddress: address('DE', { city: 'Hamburg' }),
        itemShippingAddresses: [address('DE', { key: 'office' })],
      },
      201,
    );

  const customs = (doc: Json): unknown[] => [
    doc.billingAddress.custom,
    doc.shippingAddress.custom,
    doc.itemShippingAddresses[0].custom,
    doc.shippingCustomFields,
  ];

  it('sets and changes the custom fields of each address and of the shipping; the order keeps them', async () => {
    const cart = await newCart();
    const shipped = await admin.update(url(cart), cart.version, [{ action: 'setShippingMethod', shippingMethod: { key: 'standard' } }]);
    const typed = await admin.update(
      url(cart),
      shipped.version,
      PARTS.map(([part, locator]) => ({ action: `set${part}CustomType`, ...locator, type: partType, fields: { note: part } })),
    );
    expect(customs(typed)).toEqual(PARTS.map(([part]) => ({ type: { typeId: 'type', id: typeId }, fields: { note: part } })));
    const changed = await admin.update(
      url(cart),
      typed.version,
      PARTS.map(([part, locator]) => ({ action: `set${part}CustomField`, ...locator, name: 'note', value: `${part}!` })),
    );
    const expected = PARTS.map(([part]) => ({ type: { typeId: 'type', id: typeId }, fields: { note: `${part}!` } }));
    expect(customs(changed)).toEqual(expected);
    // The shipping's custom fields stay through the cart's settle step (a re-priced update).
    const requantified = await admin.update(url(cart), changed.version, [{ action: 'changeLineItemQuantity', lineItemId: cart.lineItems[0].id, quantity: 2 }]);
    expect(customs(requantified)).toEqual(expected);

    const order = await admin.ok(`/${P}/orders`, { cart: { id: cart.id }, version: requantified.version }, 201);
    expect(customs(order)).toEqual(expected);
  });

  it('removes a custom type; refuses an unknown address key, a Type for another resource type, shippingKey in Single mode and a cart without shipping method', async () => {
    const cart = await newCart();
    const refusals: [Json, string, string?][] = [
      [{ action: 'setItemShippingAddressCustomType', addressKey: 'home', type: partType }, 'InvalidInput', 'addressKey'],
      [{ action: 'setBillingAddressCustomType', type: { key: 'cart-only' } }, 'InvalidInput', 'type'],
      [{ action: 'setBillingAddressCustomType', type: partType, fields: { note: 1 } }, 'InvalidInput', 'note'],
      [{ action: 'setShippingCustomType', type: partType }, 'InvalidOperation'],
      [{ action: 'setShippingCustomType', shippingKey: 'express', type: partType }, 'InvalidOperation'],
    ];
    for (const [action, code, field] of refusals) {
      const answer = await admin.post(url(cart), { version: cart.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0], JSON.stringify(action)).toMatchObject({ code, ...(field === undefined ? {} : { field }) });
    }
    const typed = await admin.update(url(cart), cart.version, [{ action: 'setBillingAddressCustomType', type: partType }]);
    expect(typed.billingAddress.custom).toEqual({ type: { typeId: 'type', id: typeId }, fields: {} });
    const untyped = await admin.update(url(cart), typed.version, [{ action: 'setBillingAddressCustomType' }]);
    expect(untyped.billingAddress).toEqual(address('DE', { city: 'Hamburg' }));
  });

  it('a buyer cannot use them on their own cart: MyCartUpdateAction has none', async () => {
    const buyer = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    const mine = await buyer.caller.ok(`/${P}/me/carts`, { currency: 'EUR', billingAddress: address('DE') }, 201);
    const answer = await buyer.caller.post(`/${P}/me/carts/${mine.id as string}`, {
      version: mine.version,
      actions: [{ action: 'setBillingAddressCustomType', type: partType }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].code).toBe('InvalidInput');
  });
});
