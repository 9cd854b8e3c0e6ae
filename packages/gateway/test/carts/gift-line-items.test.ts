/**
 * Issue 29, gift line items (types/cart/LineItemMode.raml `GiftLineItem`, CartDiscountValueGiftLineItem,
 * Cart.refusedGifts, DirectDiscountDraft): a cart a giftLineItem cart discount applies to gets one unit
 * of the gift, priced by the catalogue and discounted to zero; it goes when the discount stops
 * applying; a removed gift is refused. Through HTTP, against the catalogue of catalogue-fixture.ts
 * (shirt-m EUR 10.00, in DE 9.00; shirt-l 11.00; mug-1 5.00 by a standalone price; the unpublished
 * draft-1 1.00; DE VAT 19 % included). Each discount's cart predicate names the e-mail of its test.
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, labels, REGION, subscribedQueue } from '../subscriptions/support.js';
import { seedCatalogue, SCOPES, type Catalogue } from './catalogue-fixture.js';
import { address, callerWith, type Caller, type Json } from './commerce.js';

const P = 'gift-line-items';
const money = (centAmount: number, currencyCode = 'EUR') => ({ type: 'centPrecision', currencyCode, centAmount, fractionDigits: 2 });
const withShirt = (email: string) => `customerEmail = "${email}" and lineItemCount(sku = "shirt-m") > 0`;
const giftsOf = (cart: Json): [Json, ...Json[]] => cart.lineItems.filter((item: Json) => item.lineItemMode === 'GiftLineItem');
const bought = (cart: Json): [Json, ...Json[]] => cart.lineItems.filter((item: Json) => item.lineItemMode === 'Standard');

describe('gift line items', { timeout: 120_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;
  let discounts = 0;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [P],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
    admin = await callerWith(gateway, P, SCOPES);
    catalogue = await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  const mugGift = () => ({ type: 'giftLineItem', product: { typeId: 'product', id: catalogue.mug.id }, variantId: 1 });
  const giftDiscount = (cartPredicate: string, extra: Json = {}): Promise<Json> => {
    discounts += 1;
    return admin.ok(
      `/${P}/cart-discounts`,
      { name: { en: 'Gift' }, sortOrder: `0.1${discounts}1`, isActive: true, cartPredicate, value: mugGift(), ...extra },
      201,
    );
  };
  const cart = (email: string, draft: Json = {}) =>
    admin.ok(`/${P}/carts`, { currency: 'EUR', customerEmail: email, shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m' }], ...draft }, 201);
  const update = (doc: Json, actions: Json[]) => admin.update(`/${P}/carts/${doc.id}`, doc.version, actions);
  const refused = async (doc: Json, action: Json): Promise<Json> => {
    const answer = await admin.post(`/${P}/carts/${doc.id}`, { version: doc.version, actions: [action] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.statusCode).toBe(400);
    return answer.body.errors[0];
  };
  const zeroedBy = (discount: Json, centAmount: number, typeId = 'cart-discount') => [
    {
      quantity: 1,
      discountedPrice: { value: money(0), includedDiscounts: [{ discount: { typeId, id: discount.id }, discountedAmount: money(centAmount) }] },
    },
  ];

  it('adds the gift at its catalogue price discounted to zero; the totals and taxes count it at 0', async () => {
    const discount = await giftDiscount(withShirt('add@example.com'));
    const given = await cart('add@example.com');
    expect(given.lineItems).toHaveLength(2);
    const [gift] = giftsOf(given);
    expect(gift).toMatchObject({
      productId: catalogue.mug.id,
      variant: { id: 1, sku: 'mug-1' },
      name: { en: 'Mug' },
      quantity: 1,
      priceMode: 'Platform',
      lineItemMode: 'GiftLineItem',
      price: { value: money(500) },
      totalPrice: money(0),
      taxRate: { name: 'DE VAT', amount: 0.19, includedInPrice: true },
    });
    expect(gift.discountedPricePerQuantity).toEqual(zeroedBy(discount, 500));
    expect(given.totalLineItemQuantity).toBe(2);
    expect(given.totalPrice).toEqual(money(900));
    expect(given.taxedPrice).toMatchObject({ totalGross: money(900), totalNet: money(756) });
    expect(gift.taxedPrice).toMatchObject({ totalGross: money(0), totalNet: money(0) });
    expect(given.refusedGifts).toEqual([]);
  });

  it('removes the gift when the cart stops matching, and when the discount is deactivated, at the next write', async () => {
    const discount = await giftDiscount(withShirt('remove@example.com'));
    const given = await cart('remove@example.com');
    const shirt = bought(given)[0];
    const emptied = await update(given, [{ action: 'removeLineItem', lineItemId: shirt.id }]);
    expect(emptied.lineItems).toEqual([]);
    expect(emptied.totalPrice).toEqual(money(0));
    // Not a refusal: the buyer removed the shirt, the discount stopped applying.
    expect(emptied.refusedGifts).toEqual([]);

    const again = await update(emptied, [{ action: 'addLineItem', sku: 'shirt-m' }]);
    expect(giftsOf(again)).toHaveLength(1);
    await admin.update(`/${P}/cart-discounts/${discount.id}`, discount.version, [{ action: 'changeIsActive', isActive: false }]);
    const recalculated = await update(again, [{ action: 'recalculate' }]);
    expect(giftsOf(recalculated)).toEqual([]);
    expect(recalculated.lineItems).toHaveLength(1);
    expect(recalculated.totalPrice).toEqual(money(900));
  });

  it('a gift’s quantity cannot be increased nor its total price set; adding its variant adds a Standard line item', async () => {
    await giftDiscount(withShirt('rules@example.com'));
    const given = await cart('rules@example.com');
    const [gift] = giftsOf(given);
    expect(await refused(given, { action: 'changeLineItemQuantity', lineItemId: gift.id, quantity: 2 })).toMatchObject({ code: 'InvalidOperation' });
    const total = { action: 'setLineItemTotalPrice', lineItemId: gift.id, externalTotalPrice: { price: money(500), totalPrice: money(500) } };
    expect(await refused(given, total)).toMatchObject({ code: 'InvalidOperation' });

    const withMug = await update(given, [{ action: 'addLineItem', sku: 'mug-1' }]);
    expect(withMug.lineItems).toHaveLength(3);
    expect(bought(withMug).map((item) => [item.variant.sku, item.quantity, item.totalPrice.centAmount])).toEqual([
      ['shirt-m', 1, 900],
      ['mug-1', 1, 500],
    ]);
    expect(giftsOf(withMug)).toMatchObject([{ id: gift.id, quantity: 1, totalPrice: money(0) }]);
    expect(withMug.totalPrice).toEqual(money(1400));

    // "All other updates … can be used": an external price is what the gift's discount takes off.
    const external = await update(withMug, [{ action: 'setLineItemPrice', lineItemId: gift.id, externalPrice: { currencyCode: 'EUR', centAmount: 300 } }]);
    const [priced] = giftsOf(external);
    expect(priced).toMatchObject({ priceMode: 'ExternalPrice', price: { value: money(300) }, totalPrice: money(0) });
    expect(priced.discountedPricePerQuantity[0].discountedPrice.includedDiscounts[0].discountedAmount).toEqual(money(300));
    expect((await update(external, [{ action: 'recalculate' }])).lineItems.find((item: Json) => item.id === gift.id).price.value).toEqual(money(300));
  });

  it('cart predicates do not see gift line items: a gift cannot make its own discount stop (or keep) applying', async () => {
    await giftDiscount('customerEmail = "alone@example.com" and lineItemCount(1 = 1) = 1');
    const given = await cart('alone@example.com');
    expect(given.lineItems).toHaveLength(2);
    const again = await update(given, [{ action: 'recalculate' }]);
    expect(giftsOf(again)).toHaveLength(1);
    expect(again.lineItems).toHaveLength(2);
  });

  it('removing the gift refuses it: refusedGifts names the discount, which no longer applies to the cart', async () => {
    const discount = await giftDiscount(withShirt('refuse@example.com'));
    const given = await cart('refuse@example.com');
    const [gift] = giftsOf(given);
    const refusing = await update(given, [{ action: 'changeLineItemQuantity', lineItemId: gift.id, quantity: 0 }]);
    expect(giftsOf(refusing)).toEqual([]);
    expect(refusing.refusedGifts).toEqual([{ typeId: 'cart-discount', id: discount.id }]);
    const later = await update(refusing, [{ action: 'changeLineItemQuantity', lineItemId: bought(refusing)[0].id, quantity: 2 }]);
    expect(giftsOf(later)).toEqual([]);
    expect(later.refusedGifts).toEqual([{ typeId: 'cart-discount', id: discount.id }]);

    // removeLineItem refuses too.
    const other = await cart('refuse@example.com');
    const removed = await update(other, [{ action: 'removeLineItem', lineItemId: giftsOf(other)[0].id }]);
    expect(giftsOf(removed)).toEqual([]);
    expect(removed.refusedGifts).toEqual([{ typeId: 'cart-discount', id: discount.id }]);
  });

  it('an order keeps the cart’s gift line items and refusedGifts', async () => {
    const mug = await giftDiscount(withShirt('order@example.com'));
    const large = await giftDiscount(withShirt('order@example.com'), {
      value: { type: 'giftLineItem', product: { typeId: 'product', id: catalogue.shirt.id }, variantId: 2 },
    });
    const given = await cart('order@example.com');
    // In the order their discounts applied: the highest sortOrder first.
    expect(giftsOf(given).map((item) => item.variant.sku)).toEqual(['shirt-l', 'mug-1']);
    const mugItem = giftsOf(given).find((item) => item.variant.sku === 'mug-1') as Json;
    const kept = await update(given, [{ action: 'removeLineItem', lineItemId: mugItem.id }]);
    const order = await admin.ok(`/${P}/orders`, { cart: { typeId: 'cart', id: kept.id }, version: kept.version }, 201);
    expect(order.refusedGifts).toEqual([{ typeId: 'cart-discount', id: mug.id }]);
    expect(giftsOf(order)).toHaveLength(1);
    expect(giftsOf(order)[0]).toMatchObject({ variant: { sku: 'shirt-l' }, lineItemMode: 'GiftLineItem', totalPrice: money(0) });
    expect(giftsOf(order)[0].discountedPricePerQuantity).toEqual(zeroedBy(large, 1100));
    expect(order.totalPrice).toEqual(money(900));
  });

  it('an order edit that removes the gift refuses it on the order (Order.refusedGifts)', async () => {
    const discount = await giftDiscount(withShirt('edit@example.com'));
    const given = await cart('edit@example.com');
    const order = await admin.ok(`/${P}/orders`, { cart: { typeId: 'cart', id: given.id }, version: given.version }, 201);
    const edit = await admin.ok(
      `/${P}/order-edits`,
      { resource: { typeId: 'order', id: order.id }, stagedActions: [{ action: 'removeLineItem', lineItemId: giftsOf(order)[0].id }] },
      201,
    );
    await admin.ok(`/${P}/order-edits/${edit.id}/apply`, { editVersion: edit.version, resourceVersion: order.version });
    const edited = await admin.read(`/${P}/orders/${order.id}`);
    expect(giftsOf(edited)).toEqual([]);
    expect(edited.refusedGifts).toEqual([{ typeId: 'cart-discount', id: discount.id }]);
    expect(edited.totalPrice).toEqual(money(900));
  });

  it('a gift brought by a discount code comes and goes with the code; StopAfterThisDiscount before it keeps it out', async () => {
    const discount = await giftDiscount(withShirt('code@example.com'), { requiresDiscountCode: true });
    const code = await admin.ok(`/${P}/discount-codes`, { code: 'GIFT', cartDiscounts: [{ typeId: 'cart-discount', id: discount.id }] }, 201);
    const plain = await cart('code@example.com');
    expect(giftsOf(plain)).toEqual([]);
    const coded = await update(plain, [{ action: 'addDiscountCode', code: 'GIFT' }]);
    expect(giftsOf(coded)).toHaveLength(1);
    expect(coded.discountCodes).toEqual([{ discountCode: { typeId: 'discount-code', id: code.id }, state: 'MatchesCart' }]);
    const uncoded = await update(coded, [{ action: 'removeDiscountCode', discountCode: { typeId: 'discount-code', id: code.id } }]);
    expect(giftsOf(uncoded)).toEqual([]);

    await giftDiscount(withShirt('stop@example.com'));
    const stopper = {
      value: { type: 'relative', permyriad: 1000 },
      target: { type: 'lineItems', predicate: 'sku = "shirt-m"' },
      stackingMode: 'StopAfterThisDiscount',
      sortOrder: '0.95',
    };
    await giftDiscount(withShirt('stop@example.com'), stopper);
    const stopped = await cart('stop@example.com');
    expect(giftsOf(stopped)).toEqual([]);
    expect(stopped.totalPrice).toEqual(money(810));
  });

  it('a gift of an unpublished product is given; one without a matching price or variant is not, and fails no write', async () => {
    const draftProduct = (await admin.read(`/${P}/products/key=draft`)) as Json;
    await giftDiscount(withShirt('unpublished@example.com'), {
      value: { type: 'giftLineItem', product: { typeId: 'product', id: draftProduct.id }, variantId: 1 },
    });
    const unpublished = await cart('unpublished@example.com');
    expect(giftsOf(unpublished)).toMatchObject([{ productId: draftProduct.id, variant: { sku: 'draft-1' }, price: { value: money(100) } }]);

    // mug-1 has no USD price: no gift, the cart is made.
    await giftDiscount(`customerEmail = "usd@example.com"`);
    const usd = await admin.ok(`/${P}/carts`, { currency: 'USD', customerEmail: 'usd@example.com', lineItems: [{ sku: 'shirt-m' }] }, 201);
    expect(usd.lineItems).toHaveLength(1);
    expect(usd.totalPrice).toEqual(money(1500, 'USD'));

    // The gift variant removed from the product: the gift goes at the cart's next write.
    const lamp = await admin.ok(
      `/${P}/products`,
      {
        key: 'lamp',
        productType: { typeId: 'product-type', key: 'plain' },
        taxCategory: { typeId: 'tax-category', key: 'standard' },
        name: { en: 'Lamp' },
        slug: { en: 'lamp' },
        publish: true,
        masterVariant: { sku: 'lamp-1', prices: [{ value: { currencyCode: 'EUR', centAmount: 2000 } }] },
        variants: [{ sku: 'lamp-2', prices: [{ value: { currencyCode: 'EUR', centAmount: 2500 } }] }],
      },
      201,
    );
    await giftDiscount(withShirt('variant@example.com'), { value: { type: 'giftLineItem', product: { typeId: 'product', id: lamp.id }, variantId: 2 } });
    const lit = await cart('variant@example.com');
    expect(giftsOf(lit).map((item) => item.variant.sku)).toEqual(['lamp-2']);
    await admin.update(`/${P}/products/${lamp.id}`, lamp.version, [{ action: 'removeVariant', id: 2, staged: false }, { action: 'publish' }]);
    const unlit = await update(lit, [{ action: 'recalculate' }]);
    expect(giftsOf(unlit)).toEqual([]);
    expect(unlit.totalPrice).toEqual(money(900));
  });

  it('a giftLineItem Direct Discount gives its gift, referenced as direct-discount, until the list is replaced', async () => {
    const given = await cart('direct@example.com');
    const direct = await update(given, [{ action: 'setDirectDiscounts', discounts: [{ value: mugGift() }] }]);
    const [discount] = direct.directDiscounts;
    expect(discount).toEqual({ id: expect.any(String), value: { type: 'giftLineItem', product: { typeId: 'product', id: catalogue.mug.id }, variantId: 1 } });
    expect(giftsOf(direct)).toHaveLength(1);
    expect(giftsOf(direct)[0].discountedPricePerQuantity).toEqual(zeroedBy(discount, 500, 'direct-discount'));
    expect(direct.totalPrice).toEqual(money(900));
    const none = await update(direct, [{ action: 'setDirectDiscounts', discounts: [] }]);
    expect(giftsOf(none)).toEqual([]);

    // Refused, it stays out until setDirectDiscounts replaces the list, which drops the refusal with the discount.
    const again = await update(none, [{ action: 'setDirectDiscounts', discounts: [{ value: mugGift() }] }]);
    const refusing = await update(again, [{ action: 'removeLineItem', lineItemId: giftsOf(again)[0].id }]);
    expect(refusing.refusedGifts).toEqual([{ typeId: 'cart-discount', id: again.directDiscounts[0].id }]);
    const recalculated = await update(refusing, [{ action: 'recalculate' }]);
    expect(giftsOf(recalculated)).toEqual([]);
    const replaced = await update(recalculated, [{ action: 'setDirectDiscounts', discounts: [{ value: mugGift() }] }]);
    expect(replaced.refusedGifts).toEqual([]);
    expect(giftsOf(replaced)).toHaveLength(1);
  });

  it('a sign-in merging an anonymous cart does not merge the two gifts; the next write keeps one', async () => {
    await giftDiscount('lineItemCount(sku = "shirt-l") > 0');
    const credentials = { email: 'merge@example.com', password: 'correct horse battery staple' };
    const { customer } = await admin.ok(`/${P}/customers`, credentials, 201);
    const own = await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: customer.id, lineItems: [{ sku: 'shirt-l' }] }, 201);
    const anonymous = await admin.ok(`/${P}/carts`, { currency: 'EUR', anonymousId: 'anon-merge', lineItems: [{ sku: 'shirt-l' }] }, 201);
    expect([giftsOf(own).length, giftsOf(anonymous).length]).toEqual([1, 1]);
    const signedIn = await admin.ok(`/${P}/login`, { ...credentials, anonymousCart: { typeId: 'cart', id: anonymous.id } });
    expect(signedIn.cart.id).toBe(own.id);
    expect(bought(signedIn.cart)).toMatchObject([{ variant: { sku: 'shirt-l' }, quantity: 2 }]);
    expect(giftsOf(signedIn.cart).every((gift) => gift.quantity === 1)).toBe(true);
    const next = await update(signedIn.cart, [{ action: 'recalculate' }]);
    expect(giftsOf(next)).toMatchObject([{ variant: { sku: 'mug-1' }, quantity: 1, totalPrice: money(0) }]);
    expect(next.totalPrice).toEqual(money(2200));
  });

  it('sends the cart’s change notification for the write that added the gift', async () => {
    await giftDiscount(withShirt('notify@example.com'));
    const queue = await subscribedQueue(sqs, admin, P, 'cart');
    const empty = await cart('notify@example.com', { lineItems: [] });
    const given = await update(empty, [{ action: 'addLineItem', sku: 'shirt-m' }]);
    expect(giftsOf(given)).toHaveLength(1);
    const id = empty.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 2);
    expect(labels(documents)).toEqual([`cart:${id}:ResourceCreated:1`, `cart:${id}:ResourceUpdated:2`]);
  });
});
