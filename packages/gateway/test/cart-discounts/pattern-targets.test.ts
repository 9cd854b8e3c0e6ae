/**
 * Issue 29: CartDiscountPatternTarget (Buy and Get) applied to carts, through HTTP. Prices are
 * external (no Product Discount), so every total below is the sum of the unit prices the test
 * names minus what the pattern discounts; each discount's cart predicate names the one test's
 * customer e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, seedCatalogue, SCOPES } from '../carts/catalogue-fixture.js';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'pattern-targets';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
const units = (predicate: string, counts: Json = {}): Json => ({ type: 'CountOnLineItemUnits', predicate, ...counts });
const free = { type: 'relative', permyriad: 10_000 };

describe('cart discounts with a pattern target', { timeout: 90_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let discounts = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, SCOPES);
    await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(() => gateway?.close());

  /** A pattern discount for the carts of `email`. */
  const patternDiscount = (email: string, value: Json, target: Json): Promise<Json> => {
    discounts += 1;
    const draft = {
      name: { en: 'Buy and get' },
      sortOrder: `0.3${discounts}1`,
      cartPredicate: `customerEmail = "${email}"`,
      value,
      target: { type: 'pattern', ...target },
    };
    return admin.ok(`/${P}/cart-discounts`, draft, 201);
  };
  /** A cart of `email` with line items of external prices: [sku, unit price, quantity]. */
  const cart = (email: string, items: Array<[string, number, number]>): Promise<Json> =>
    admin.ok(
      `/${P}/carts`,
      { currency: 'EUR', customerEmail: email, lineItems: items.map(([sku, price, quantity]) => ({ sku, quantity, externalPrice: eur(price) })) },
      201,
    );
  const portion = (discount: Json, centAmount: number) => ({ discount: { typeId: 'cart-discount', id: discount.id }, discountedAmount: money(centAmount) });

  it('buy two shirts, get a mug free: each trigger of distinct units discounts one target unit, up to maxOccurrence', async () => {
    const target = { triggerPattern: [units('sku = "shirt-m"', { minCount: 2, maxCount: 2 })], targetPattern: [units('sku = "mug-1"', { maxCount: 1 })] };
    const discount = await patternDiscount('bogo@example.com', free, { ...target, selectionMode: 'Cheapest' });
    // 5 shirts make two triggers (the fifth is alone); 3 mugs, two of them free.
    const twice = await cart('bogo@example.com', [
      ['shirt-m', 1000, 5],
      ['mug-1', 500, 3],
    ]);
    expect(twice.lineItems[0].discountedPricePerQuantity).toEqual([]);
    expect(twice.lineItems[1].discountedPricePerQuantity).toEqual([
      { quantity: 2, discountedPrice: { value: money(0), includedDiscounts: [portion(discount, 500)] } },
    ]);
    expect(twice.lineItems[1].totalPrice).toEqual(money(500));
    expect(twice.totalPrice).toEqual(money(5 * 1000 + 3 * 500 - 2 * 500));

    await patternDiscount('once@example.com', free, { ...target, selectionMode: 'Cheapest', maxOccurrence: 1 });
    const once = await cart('once@example.com', [
      ['shirt-m', 1000, 5],
      ['mug-1', 500, 3],
    ]);
    expect(once.totalPrice).toEqual(money(5 * 1000 + 3 * 500 - 500));

    // One shirt does not trigger.
    expect(
      (
        await cart('bogo@example.com', [
          ['shirt-m', 1000, 1],
          ['mug-1', 500, 1],
        ])
      ).totalPrice,
    ).toEqual(money(1500));
  });

  it('selectionMode picks the cheapest or the most expensive unit for the target, the trigger taking the others', async () => {
    const pattern = { triggerPattern: [units('1 = 1', { minCount: 2, maxCount: 2 })], targetPattern: [units('1 = 1', { maxCount: 1 })] };
    const half = { type: 'relative', permyriad: 5000 };
    const items: Array<[string, number, number]> = [
      ['shirt-l', 3000, 1],
      ['shirt-m', 2000, 1],
      ['mug-1', 1000, 1],
    ];
    await patternDiscount('cheapest@example.com', half, { ...pattern, selectionMode: 'Cheapest' });
    const cheapest = await cart('cheapest@example.com', items);
    expect(cheapest.lineItems.map((item: Json) => item.totalPrice.centAmount)).toEqual([3000, 2000, 500]);
    expect(cheapest.totalPrice).toEqual(money(6000 - 500));

    await patternDiscount('dearest@example.com', half, { ...pattern, selectionMode: 'MostExpensive' });
    const dearest = await cart('dearest@example.com', items);
    expect(dearest.lineItems.map((item: Json) => item.totalPrice.centAmount)).toEqual([1500, 2000, 1000]);
    expect(dearest.totalPrice).toEqual(money(6000 - 1500));
  });

  it('distributed values: computed from the target units, spread over the trigger and target units', async () => {
    const pattern = {
      triggerPattern: [units('sku = "shirt-m"', { maxCount: 1 })],
      targetPattern: [units('sku = "mug-1"', { maxCount: 1 })],
      selectionMode: 'Cheapest',
    };
    const items: Array<[string, number, number]> = [
      ['shirt-m', 1000, 1],
      ['mug-1', 500, 1],
    ];
    // Half the mug (250) in proportion to 1000 : 500: 166.67 and 83.33, the left cent to the larger remainder.
    await patternDiscount('proportionate@example.com', { type: 'relative', permyriad: 5000, applicationMode: 'ProportionateDistribution' }, pattern);
    const proportionate = await cart('proportionate@example.com', items);
    expect(proportionate.lineItems.map((item: Json) => item.totalPrice.centAmount)).toEqual([1000 - 167, 500 - 83]);
    expect(proportionate.totalPrice).toEqual(money(1500 - 250));

    // The mug at a fixed 3.00 takes 2.00 off, 1.00 from each unit.
    await patternDiscount('even@example.com', { type: 'fixed', money: [eur(300)], applicationMode: 'EvenDistribution' }, pattern);
    const even = await cart('even@example.com', items);
    expect(even.lineItems.map((item: Json) => item.totalPrice.centAmount)).toEqual([900, 400]);

    // An absolute value is ProportionateDistribution unless told: 3.00 as 2.00 and 1.00.
    await patternDiscount('absolute@example.com', { type: 'absolute', money: [eur(300)] }, pattern);
    const absolute = await cart('absolute@example.com', items);
    expect(absolute.lineItems.map((item: Json) => item.totalPrice.centAmount)).toEqual([800, 400]);
    expect(absolute.totalPrice).toEqual(money(1200));

    // IndividualApplication: each target unit alone, the trigger untouched.
    await patternDiscount('individual@example.com', { type: 'absolute', money: [eur(300)], applicationMode: 'IndividualApplication' }, pattern);
    const individual = await cart('individual@example.com', items);
    expect(individual.lineItems.map((item: Json) => item.totalPrice.centAmount)).toEqual([1000, 200]);
  });

  it('excludeCount: five shirts needed, three of them free; without a trigger the pattern repeats while units last', async () => {
    await patternDiscount('exclude@example.com', free, {
      triggerPattern: [],
      targetPattern: [units('sku = "shirt-m"', { excludeCount: 2, minCount: 3, maxCount: 3 })],
      selectionMode: 'Cheapest',
    });
    const six = await cart('exclude@example.com', [['shirt-m', 1000, 6]]);
    expect(six.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 3, discountedPrice: { value: money(0), includedDiscounts: [expect.anything()] } },
    ]);
    expect(six.totalPrice).toEqual(money(6000 - 3000));
    const ten = await cart('exclude@example.com', [['shirt-m', 1000, 10]]);
    expect(ten.totalPrice).toEqual(money(10_000 - 2 * 3000));

    await patternDiscount('repeat@example.com', free, {
      triggerPattern: [],
      targetPattern: [units('sku = "mug-1"', { minCount: 2, maxCount: 2 })],
      selectionMode: 'Cheapest',
      maxOccurrence: 2,
    });
    const mugs = await cart('repeat@example.com', [['mug-1', 500, 7]]);
    expect(mugs.totalPrice).toEqual(money(7 * 500 - 4 * 500));
  });

  it('counts custom line item units with CountOnCustomLineItemUnits', async () => {
    await patternDiscount('custom@example.com', free, {
      triggerPattern: [units('sku = "shirt-m"', { maxCount: 1 })],
      targetPattern: [{ type: 'CountOnCustomLineItemUnits', predicate: 'slug = "gift-wrap"', maxCount: 1 }],
      selectionMode: 'Cheapest',
    });
    const wrapped = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        customerEmail: 'custom@example.com',
        lineItems: [{ sku: 'shirt-m', quantity: 1, externalPrice: eur(1000) }],
        customLineItems: [{ name: { en: 'Gift wrap' }, slug: 'gift-wrap', money: eur(200), quantity: 2 }],
      },
      201,
    );
    expect(wrapped.customLineItems[0].totalPrice).toEqual(money(200));
    expect(wrapped.totalPrice).toEqual(money(1000 + 2 * 200 - 200));
  });
});
