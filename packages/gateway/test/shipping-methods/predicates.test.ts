/**
 * Issue 28: ShippingMethod.predicate, a "Valid Cart predicate" (types/shipping-method/ShippingMethod.raml),
 * compiled when written (a malformed one is 400 InvalidInput naming its position) and evaluated
 * wherever a method must match a cart: matching-cart, setShippingMethod, CartDraft.shippingMethod,
 * addShippingMethod (ShippingMethodDoesNotMatchCart, types/error), and the rate kept up to date as
 * the cart changes (ShippingInfo.shippingMethodState, which Create Order checks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, callerWith, eur, lineItem, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { taxCategoryKey, zoneKey } from './support.js';

const P = 'shipping-predicates';
const BIG_ONLY = 'lineItemCount(sku = "BIG-1") > 0';
const keysOf = (page: Json): string[] => page.results.map((method: Json) => method.key as string);
const method = (key: string, extra: Json = {}): Json => ({
  key,
  name: key,
  taxCategory: taxCategoryKey,
  zoneRates: [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(500) }] }],
  isDefault: false,
  ...extra,
});
const byKey = (key: string) => ({ typeId: 'shipping-method', key });

describe('ShippingMethod.predicate', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    // A DE rate: a cart with a shipping method is taxed (Platform tax mode).
    const rates = [{ name: 'DE VAT', amount: 0.19, includedInPrice: true, country: 'DE' }];
    await admin.ok(`/${P}/tax-categories`, { key: 'standard', name: 'Standard', rates }, 201);
    await admin.ok(`/${P}/zones`, { key: 'europe', name: 'Europe', locations: [{ country: 'DE' }] }, 201);
    await admin.ok(`/${P}/shipping-methods`, method('anything'), 201);
    await admin.ok(`/${P}/shipping-methods`, method('big-only', { predicate: BIG_ONLY }), 201);
  }, 180_000);
  afterAll(() => gateway?.close());

  const cartWith = (sku: string, extra: Json = {}) =>
    admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [lineItem(sku, 1000)], shippingAddress: address('DE'), ...extra }, 201);
  const cartUrl = (cart: Json) => `/${P}/carts/${cart.id as string}`;
  const refusal = async (url: string, body: Json): Promise<Json> => {
    const answer = await admin.post(url, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    return answer.body.errors[0] as Json;
  };

  it('refuses a malformed predicate on create and on setPredicate with its position; a valid one is stored', async () => {
    const created = await refusal(`/${P}/shipping-methods`, method('broken', { predicate: 'lineItemCount(sku = ) > 0' }));
    expect(created).toMatchObject({ code: 'InvalidInput', field: 'predicate', position: { line: 1, column: 21, offset: 20 } });
    const unknownFunction = await refusal(`/${P}/shipping-methods`, method('broken', { predicate: 'noSuchFunction(1) > 0' }));
    expect(unknownFunction).toMatchObject({ code: 'InvalidInput', field: 'predicate' });

    const stored = await admin.ok(`/${P}/shipping-methods`, method('editable'), 201);
    const url = `/${P}/shipping-methods/${stored.id as string}`;
    const updated = await refusal(url, { version: stored.version, actions: [{ action: 'setPredicate', predicate: 'totalPrice >' }] });
    expect(updated).toMatchObject({ code: 'InvalidInput', field: 'predicate', position: { line: 1, column: 13 } });
    const valid = await admin.update(url, stored.version, [{ action: 'setPredicate', predicate: 'totalPrice > "5.00 EUR"' }]);
    expect(valid.predicate).toBe('totalPrice > "5.00 EUR"');
  });

  it('matching-cart lists a method with a predicate only for the carts that satisfy it', async () => {
    const big = await cartWith('BIG-1');
    const small = await cartWith('SMALL-1');
    const matching = async (cart: Json) => keysOf(await admin.read(`/${P}/shipping-methods/matching-cart?cartId=${cart.id as string}`));
    expect(await matching(big)).toContain('big-only');
    expect(await matching(small)).not.toContain('big-only');
    expect(await matching(small)).toContain('anything');
  });

  it('setShippingMethod and CartDraft.shippingMethod refuse a method whose predicate the cart fails', async () => {
    const small = await cartWith('SMALL-1');
    const action = { action: 'setShippingMethod', shippingMethod: byKey('big-only') };
    const refused = await refusal(cartUrl(small), { version: small.version, actions: [action] });
    expect(refused.code).toBe('ShippingMethodDoesNotMatchCart');
    expect(
      (
        await refusal(`/${P}/carts`, {
          currency: 'EUR',
          lineItems: [lineItem('SMALL-1', 1000)],
          shippingAddress: address('DE'),
          shippingMethod: byKey('big-only'),
        })
      ).code,
    ).toBe('ShippingMethodDoesNotMatchCart');

    const big = await cartWith('BIG-1', { shippingMethod: byKey('big-only') });
    expect(big.shippingInfo).toMatchObject({ shippingMethodName: 'big-only', shippingMethodState: 'MatchesCart', price: { centAmount: 500 } });
  });

  it('addShippingMethod of a Multiple cart refuses a method whose predicate the cart fails', async () => {
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', shippingMode: 'Multiple', lineItems: [lineItem('SMALL-1', 1000)] }, 201);
    const add = { action: 'addShippingMethod', shippingKey: 'home', shippingMethod: byKey('big-only'), shippingAddress: address('DE') };
    expect((await refusal(cartUrl(cart), { version: cart.version, actions: [add] })).code).toBe('ShippingMethodDoesNotMatchCart');
    const added = await admin.update(cartUrl(cart), cart.version, [{ ...add, shippingMethod: byKey('anything') }]);
    expect(added.shipping[0].shippingInfo.shippingMethodState).toBe('MatchesCart');
  });

  it('a cart that stops satisfying the predicate marks its method DoesNotMatchCart, which an order refuses, until it satisfies it again', async () => {
    const cart = await cartWith('BIG-1', { shippingMethod: byKey('big-only') });
    const bigItem = cart.lineItems[0].id as string;
    const swapped = await admin.update(cartUrl(cart), cart.version, [
      { action: 'addLineItem', ...lineItem('SMALL-1', 1000) },
      { action: 'removeLineItem', lineItemId: bigItem },
    ]);
    expect(swapped.shippingInfo.shippingMethodState).toBe('DoesNotMatchCart');
    const order = await refusal(`/${P}/orders`, { cart: { typeId: 'cart', id: swapped.id }, version: swapped.version });
    expect(order.code).toBe('ShippingMethodDoesNotMatchCart');

    const again = await admin.update(cartUrl(swapped), swapped.version, [{ action: 'addLineItem', ...lineItem('BIG-1', 1000) }]);
    expect(again.shippingInfo.shippingMethodState).toBe('MatchesCart');
  });
});
