/**
 * Issue 29: Cart Discounts in Discount Groups (CartDiscountDraft.discountGroup,
 * CartDiscountSetDiscountGroupAction): only line item, custom line item, multi-buy and pattern
 * targets join a group (else 400 InvalidInput), a member takes its group's sortOrder, and in a cart
 * only the best deal of an active group applies, at the group's sortOrder among the other discounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, seedCatalogue, SCOPES } from '../carts/catalogue-fixture.js';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'discount-group-carts';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
const inGroup = (key: string) => ({ typeId: 'discount-group', key });
const discount = (extra: Json): Json => ({
  name: { en: 'Grouped' },
  value: { type: 'relative', permyriad: 1000 },
  // No cart of these tests: only the best-deal test's discounts, which name its customer, apply.
  cartPredicate: 'customerEmail = "nobody@example.com"',
  target: { type: 'lineItems', predicate: 'true' },
  ...extra,
});

describe('Cart Discounts in Discount Groups', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [...SCOPES, 'manage_cart_discounts', 'manage_discount_codes']);
    await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(async () => {
    await gateway?.close();
  });

  const refused = async (url: string, body: unknown, code: string, field?: string): Promise<void> => {
    const answer = await admin.post(url, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code, ...(field === undefined ? {} : { field }) });
  };

  it('admits only groupable targets, gives members the group’s sortOrder and keeps members’ sortOrders out of the unique check', async () => {
    await admin.ok(`/${P}/discount-groups`, { key: 'rules', sortOrder: '0.11' }, 201);
    const groupWith = (extra: Json) => discount({ discountGroup: inGroup('rules'), ...extra });
    for (const target of [{ type: 'shipping' }, { type: 'totalPrice' }]) {
      await refused(`/${P}/cart-discounts`, groupWith({ target }), 'InvalidInput', 'discountGroup');
    }
    // A gift discount has no target at all.
    const gift = { type: 'giftLineItem', product: { typeId: 'product', key: 'mug' }, variantId: 1 };
    await refused(`/${P}/cart-discounts`, groupWith({ value: gift, target: undefined }), 'InvalidInput', 'discountGroup');

    // No sortOrder needed: the member uses the group's; two members share it without DuplicateField.
    const first = await admin.ok(`/${P}/cart-discounts`, groupWith({ key: 'first' }), 201);
    const second = await admin.ok(`/${P}/cart-discounts`, groupWith({ key: 'second', target: { type: 'customLineItems', predicate: 'true' } }), 201);
    expect([first.sortOrder, second.sortOrder]).toEqual(['0.11', '0.11']);
    expect(first.discountGroup).toMatchObject({ typeId: 'discount-group' });

    const url = `/${P}/cart-discounts/${first.id}`;
    await refused(url, { version: 1, actions: [{ action: 'changeTarget', target: { type: 'shipping' } }] }, 'InvalidInput', 'discountGroup');
    await refused(url, { version: 1, actions: [{ action: 'changeSortOrder', sortOrder: '0.12' }] }, 'InvalidInput', 'sortOrder');
    // Leaving the group needs a sortOrder of its own, free among discounts and groups.
    await refused(url, { version: 1, actions: [{ action: 'setDiscountGroup' }] }, 'RequiredField', 'sortOrder');
    await refused(url, { version: 1, actions: [{ action: 'setDiscountGroup', sortOrder: '0.11' }] }, 'DuplicateField', 'sortOrder');
    const left = await admin.update(url, 1, [{ action: 'setDiscountGroup', sortOrder: '0.12' }]);
    expect(left).not.toHaveProperty('discountGroup');
    expect(left.sortOrder).toBe('0.12');

    // Joining: a shipping discount cannot, a line item discount takes the group's sortOrder.
    const shipping = await admin.ok(`/${P}/cart-discounts`, discount({ sortOrder: '0.13', target: { type: 'shipping' } }), 201);
    await refused(
      `/${P}/cart-discounts/${shipping.id}`,
      { version: 1, actions: [{ action: 'setDiscountGroup', discountGroup: inGroup('rules') }] },
      'InvalidInput',
      'discountGroup',
    );
    const rejoined = await admin.update(url, 2, [{ action: 'setDiscountGroup', discountGroup: inGroup('rules') }]);
    expect(rejoined).toMatchObject({ sortOrder: '0.11', discountGroup: { typeId: 'discount-group' } });
    await refused(url, { version: 3, actions: [{ action: 'setDiscountGroup', discountGroup: inGroup('missing') }] }, 'ReferencedResourceNotFound');
  });

  it('applies only the best deal of an active group, at the group’s sortOrder, and marks a code outbid in its group', async () => {
    const group = await admin.ok(`/${P}/discount-groups`, { key: 'deals', sortOrder: '0.9' }, 201);
    const email = 'deals@example.com';
    const cartPredicate = `customerEmail = "${email}"`;
    const grouped = (key: string, target: string, permyriad: number, extra: Json = {}) =>
      admin.ok(
        `/${P}/cart-discounts`,
        discount({
          key,
          cartPredicate,
          discountGroup: inGroup('deals'),
          value: { type: 'relative', permyriad },
          target: { type: 'lineItems', predicate: target },
          ...extra,
        }),
        201,
      );
    const tenOnAll = await grouped('ten-on-all', 'true', 1000);
    const twentyOnMug = await grouped('twenty-on-mug', 'sku = "mug-1"', 2000);
    const fiveCoded = await grouped('five-coded', 'true', 500, { requiresDiscountCode: true });
    await admin.ok(`/${P}/discount-codes`, { code: 'FIVE', cartDiscounts: [{ typeId: 'cart-discount', id: fiveCoded.id }] }, 201);
    const halfOnMug = await admin.ok(
      `/${P}/cart-discounts`,
      discount({
        key: 'half-on-mug',
        cartPredicate,
        sortOrder: '0.5',
        value: { type: 'relative', permyriad: 5000 },
        target: { type: 'lineItems', predicate: 'sku = "mug-1"' },
      }),
      201,
    );
    const cart = (items: Array<[string, number, number]>, extra: Json = {}) =>
      admin.ok(
        `/${P}/carts`,
        { currency: 'EUR', customerEmail: email, lineItems: items.map(([sku, price, quantity]) => ({ sku, quantity, externalPrice: eur(price) })), ...extra },
        201,
      );
    const portion = (cartDiscount: Json, centAmount: number) => ({
      discount: { typeId: 'cart-discount', id: cartDiscount.id },
      discountedAmount: money(centAmount),
    });

    // 2 shirts at 10.00 and 1 mug at 5.00: ten-on-all saves 2.50, twenty-on-mug 1.00, five-coded 1.25: ten-on-all
    // alone applies (0.9), then half-on-mug (0.5) halves what is left of the mug: 9.00 + 9.00 + (4.50 - 2.25).
    const mixed = await cart(
      [
        ['shirt-m', 1000, 2],
        ['mug-1', 500, 1],
      ],
      { discountCodes: ['FIVE'] },
    );
    expect(mixed.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 2, discountedPrice: { value: money(900), includedDiscounts: [portion(tenOnAll, 100)] } },
    ]);
    expect(mixed.lineItems[1].discountedPricePerQuantity).toEqual([
      { quantity: 1, discountedPrice: { value: money(225), includedDiscounts: [portion(tenOnAll, 50), portion(halfOnMug, 225)] } },
    ]);
    expect(mixed.totalPrice).toEqual(money(1800 + 225));
    expect(mixed.discountCodes).toEqual([{ discountCode: expect.objectContaining({ typeId: 'discount-code' }), state: 'ApplicationStoppedByGroupBestDeal' }]);

    // 3 mugs at 5.00: twenty-on-mug saves 3.00, ten-on-all 1.50: twenty-on-mug applies, then half-on-mug.
    const onlyB = await cart([['mug-1', 500, 3]]);
    expect(onlyB.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 3, discountedPrice: { value: money(200), includedDiscounts: [portion(twentyOnMug, 100), portion(halfOnMug, 200)] } },
    ]);
    expect(onlyB.totalPrice).toEqual(money(600));

    // The group's sortOrder below half-on-mug's: half-on-mug first, then the group's best deal on what is left.
    await admin.update(`/${P}/discount-groups/${group.id}`, 1, [{ action: 'setSortOrder', sortOrder: '0.1' }]);
    const reordered = await cart([['mug-1', 500, 3]]);
    expect(reordered.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 3, discountedPrice: { value: money(200), includedDiscounts: [portion(halfOnMug, 250), portion(twentyOnMug, 50)] } },
    ]);

    // An inactive group's discounts are not considered at all.
    await admin.update(`/${P}/discount-groups/${group.id}`, 2, [{ action: 'setIsActive', isActive: false }]);
    const inactive = await cart([
      ['shirt-m', 1000, 2],
      ['mug-1', 500, 1],
    ]);
    expect(inactive.lineItems[0].discountedPricePerQuantity).toEqual([]);
    expect(inactive.totalPrice).toEqual(money(2000 + 250));
  });
});
