/**
 * Issue 29, carts: setDirectDiscounts (DirectDiscountDraft value + target; while a cart has them,
 * they are its only cart discounts, applied in list order, referenced as `direct-discount`; never
 * together with discount codes) and addShoppingList (the list's line items priced from the
 * catalogue like addLineItem, with the action's channels), through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, eur, type Caller, type Json } from './commerce.js';

const P = 'direct-discounts';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
const forEmail = (email: string) => `customerEmail = "${email}"`;
const everyLineItem = { type: 'lineItems', predicate: '1 = 1' };

describe('direct discounts and shopping lists in carts', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let lamp: Json;
  let shop: Json;
  let warehouse: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    shop = await admin.ok(`/${P}/channels`, { key: 'shop', roles: ['ProductDistribution'] }, 201);
    warehouse = await admin.ok(`/${P}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
    lamp = await admin.ok(
      `/${P}/products`,
      {
        key: 'lamp',
        productType: { typeId: 'product-type', key: 'plain' },
        name: { en: 'Lamp' },
        slug: { en: 'lamp' },
        publish: true,
        masterVariant: { sku: 'lamp-1', prices: [{ value: eur(1000) }, { value: eur(800), channel: { typeId: 'channel', id: shop.id } }] },
        variants: [{ sku: 'lamp-2', prices: [{ value: eur(1500) }] }],
      },
      201,
    );
  }, 180_000);
  afterAll(() => gateway?.close());

  const url = (cart: Json) => `/${P}/carts/${cart.id}`;
  const update = (cart: Json, actions: Json[]) => admin.update(url(cart), cart.version, actions);
  const refused = async (cart: Json, action: Json) => {
    const answer = await admin.post(url(cart), { version: cart.version, actions: [action] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    return answer.body.errors[0] as Json;
  };
  const lampCart = (draft: Json = {}) => admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [{ sku: 'lamp-1', quantity: 2 }], ...draft }, 201);

  describe('addShoppingList', () => {
    it('adds every product line item of the list, priced from the catalogue, merged with equal items', async () => {
      const list = await admin.ok(
        `/${P}/shopping-lists`,
        {
          name: { en: 'Wishes' },
          lineItems: [
            { sku: 'lamp-1', quantity: 3 },
            { productId: lamp.id, variantId: 2 },
          ],
          textLineItems: [{ name: { en: 'A note' } }],
        },
        201,
      );
      const cart = await lampCart();
      const added = await update(cart, [{ action: 'addShoppingList', shoppingList: { typeId: 'shopping-list', id: list.id } }]);
      expect(added.lineItems).toHaveLength(2);
      expect(added.lineItems[0]).toMatchObject({ variant: { sku: 'lamp-1' }, quantity: 5, priceMode: 'Platform', totalPrice: money(5000) });
      expect(added.lineItems[1]).toMatchObject({ variant: { sku: 'lamp-2' }, quantity: 1, price: { value: money(1500) } });
      expect(added.totalPrice).toEqual(money(6500));
    });

    it('sets the action’s channels on the items (the distribution channel selects the price)', async () => {
      const list = await admin.ok(`/${P}/shopping-lists`, { key: 'channelled', name: { en: 'Channelled' }, lineItems: [{ sku: 'lamp-1' }] }, 201);
      const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
      const added = await update(cart, [
        {
          action: 'addShoppingList',
          shoppingList: { typeId: 'shopping-list', key: list.key },
          distributionChannel: { typeId: 'channel', key: 'shop' },
          supplyChannel: { typeId: 'channel', key: 'warehouse' },
        },
      ]);
      expect(added.lineItems[0]).toMatchObject({
        distributionChannel: { typeId: 'channel', id: shop.id },
        supplyChannel: { typeId: 'channel', id: warehouse.id },
        price: { value: money(800) },
      });
    });

    it('refuses a missing or unknown list and a channel without the role', async () => {
      const cart = await lampCart();
      expect(await refused(cart, { action: 'addShoppingList' })).toMatchObject({ code: 'RequiredField', field: 'shoppingList' });
      expect((await refused(cart, { action: 'addShoppingList', shoppingList: { typeId: 'shopping-list', key: 'nope' } })).code).toBe(
        'ReferencedResourceNotFound',
      );
      const wrongRole = {
        action: 'addShoppingList',
        shoppingList: { typeId: 'shopping-list', key: 'channelled' },
        distributionChannel: { typeId: 'channel', key: 'warehouse' },
      };
      expect(await refused(cart, wrongRole)).toMatchObject({ code: 'InvalidInput', field: 'distributionChannel' });
    });
  });

  describe('setDirectDiscounts', () => {
    it('applies the discounts in list order, referenced as direct-discount; an empty list removes them', async () => {
      const cart = await lampCart();
      const discounted = await update(cart, [
        {
          action: 'setDirectDiscounts',
          discounts: [
            { value: { type: 'relative', permyriad: 1000 }, target: everyLineItem },
            { value: { type: 'absolute', money: [eur(100)] }, target: { type: 'totalPrice' } },
          ],
        },
      ]);
      const [tenth, hundred] = discounted.directDiscounts;
      expect(tenth).toEqual({ id: expect.any(String), value: { type: 'relative', permyriad: 1000 }, target: everyLineItem });
      expect(hundred.value).toMatchObject({ type: 'absolute', money: [money(100)] });
      expect(discounted.lineItems[0].discountedPricePerQuantity).toEqual([
        {
          quantity: 2,
          discountedPrice: { value: money(900), includedDiscounts: [{ discount: { typeId: 'direct-discount', id: tenth.id }, discountedAmount: money(100) }] },
        },
      ]);
      expect(discounted.discountOnTotalPrice).toMatchObject({
        discountedAmount: money(100),
        includedDiscounts: [{ discount: { typeId: 'direct-discount', id: hundred.id }, discountedAmount: money(100) }],
      });
      expect(discounted.totalPrice).toEqual(money(1700));

      const removed = await update(discounted, [{ action: 'setDirectDiscounts', discounts: [] }]);
      expect(removed.directDiscounts).toEqual([]);
      expect(removed.lineItems[0].discountedPricePerQuantity).toEqual([]);
      expect(removed.totalPrice).toEqual(money(2000));
    });

    it('checks each draft, naming the field', async () => {
      const cart = await lampCart();
      const set = (discounts: unknown) => ({ action: 'setDirectDiscounts', discounts });
      expect(await refused(cart, { action: 'setDirectDiscounts' })).toMatchObject({ code: 'RequiredField', field: 'discounts' });
      expect(await refused(cart, set([{ target: everyLineItem }]))).toMatchObject({ code: 'RequiredField', field: 'discounts[0].value' });
      expect(await refused(cart, set([{ value: { type: 'relative', permyriad: 1000 } }]))).toMatchObject({
        code: 'RequiredField',
        field: 'discounts[0].target',
      });
      expect(await refused(cart, set([{ value: { type: 'relative', permyriad: 1000 }, target: { type: 'everything' } }]))).toMatchObject({
        code: 'InvalidInput',
        field: 'discounts[0].target.type',
      });
      const gift = { type: 'giftLineItem', product: { typeId: 'product', id: lamp.id }, variantId: 1 };
      // DirectDiscountDraft.target: "If `value` is set to `giftLineItem`, this must not be set" (the gift itself: gift-line-items.test.ts).
      expect(await refused(cart, set([{ value: gift, target: everyLineItem }]))).toMatchObject({ code: 'InvalidInput', field: 'discounts[0].target' });
    });

    it('never together with discount codes; the project’s cart discounts do not apply while a cart has direct discounts', async () => {
      const promo = await admin.ok(
        `/${P}/cart-discounts`,
        {
          name: { en: 'Promo' },
          sortOrder: '0.5',
          isActive: true,
          requiresDiscountCode: true,
          cartPredicate: '1 = 1',
          value: { type: 'relative', permyriad: 5000 },
          target: everyLineItem,
        },
        201,
      );
      await admin.ok(`/${P}/discount-codes`, { code: 'HALF', cartDiscounts: [{ typeId: 'cart-discount', id: promo.id }] }, 201);
      const withCode = await update(await lampCart(), [{ action: 'addDiscountCode', code: 'HALF' }]);
      expect(withCode.totalPrice).toEqual(money(1000));
      const direct = [{ value: { type: 'relative', permyriad: 1000 }, target: everyLineItem }];
      expect((await refused(withCode, { action: 'setDirectDiscounts', discounts: direct })).code).toBe('InvalidOperation');

      const everyone = await admin.ok(
        `/${P}/cart-discounts`,
        {
          name: { en: 'Everyone' },
          sortOrder: '0.6',
          isActive: true,
          cartPredicate: forEmail('all@example.com'),
          value: { type: 'relative', permyriad: 2000 },
          target: everyLineItem,
        },
        201,
      );
      const cart = await lampCart({ customerEmail: 'all@example.com' });
      expect(cart.totalPrice).toEqual(money(1600));
      const directOnly = await update(cart, [{ action: 'setDirectDiscounts', discounts: direct }]);
      expect(directOnly.totalPrice).toEqual(money(1800));
      expect(JSON.stringify(directOnly)).not.toContain(everyone.id);
      expect((await refused(directOnly, { action: 'addDiscountCode', code: 'HALF' })).code).toBe('InvalidOperation');
    });
  });
});
