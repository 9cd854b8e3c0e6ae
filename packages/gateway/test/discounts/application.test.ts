/**
 * Issue 29: the pure discount application functions the cart integration calls:
 * discountedPriceFor (product discounts on a price) and applyCartDiscounts (cart discounts and
 * discount codes on a cart). Tables for the reference's rules and property tests against an
 * independent calculation in BigInt.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CartDiscount } from '../../src/resources/cart-discounts/cart-discount.js';
import type { DiscountCode } from '../../src/resources/discount-codes/discount-code.js';
import { applyCartDiscounts, type DiscountableCart, type DiscountableItem } from '../../src/resources/discounts/cart-pricing.js';
import { discountedPriceFor } from '../../src/resources/discounts/product-pricing.js';
import type { ProductDiscount } from '../../src/resources/product-discounts/product-discount.js';
import type { Price, Product, ProductData } from '../../src/resources/products/product.js';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const base = { version: 1, createdAt: '2025-01-01T00:00:00.000Z', lastModifiedAt: '2025-01-01T00:00:00.000Z' };
const eur = (centAmount: number) => ({ type: 'centPrecision' as const, currencyCode: 'EUR', centAmount, fractionDigits: 2 });

function productDiscount(
  id: string,
  sortOrder: string,
  value: ProductDiscount['value'],
  predicate = '1 = 1',
  extra: Partial<ProductDiscount> = {},
): ProductDiscount {
  return { ...base, id, name: { en: id }, value, predicate, sortOrder, isActive: true, references: [], ...extra };
}

const data: ProductData = {
  name: { en: 'Shirt' },
  slug: { en: 'shirt' },
  categories: [{ typeId: 'category', id: 'cat-1' }],
  masterVariant: { id: 1, sku: 'SHIRT', prices: [], attributes: [{ name: 'color', value: 'red' }], images: [], assets: [] },
  variants: [],
  searchKeywords: {},
  attributes: [],
};
const product: Product = {
  ...base,
  id: 'p-1',
  key: 'shirt',
  productType: { typeId: 'product-type', id: 'pt-1' },
  masterData: { published: true, current: data, staged: data, hasStagedChanges: false },
  priceMode: 'Embedded',
};
const priceOf = (centAmount: number, currencyCode = 'EUR'): Price => ({ id: 'price-1', value: { ...eur(centAmount), currencyCode } });

describe('discountedPriceFor', () => {
  it('picks the matching discount with the highest sortOrder, by the reference rules', () => {
    const discounts = [
      productDiscount('low', '0.1', { type: 'relative', permyriad: 5000 }),
      productDiscount('high', '0.85', { type: 'absolute', money: [eur(300)] }, 'attributes.color = "red"'),
      productDiscount('higher-but-usd', '0.9', { type: 'absolute', money: [{ ...eur(100), currencyCode: 'USD' }] }),
      productDiscount('highest-but-inactive', '0.95', { type: 'relative', permyriad: 100 }, '1 = 1', { isActive: false }),
      productDiscount('external', '0.99', { type: 'external' }),
      productDiscount('expired', '0.97', { type: 'relative', permyriad: 100 }, '1 = 1', { validUntil: '2025-01-01T00:00:00.000Z' }),
      productDiscount('not-yet', '0.96', { type: 'relative', permyriad: 100 }, '1 = 1', { validFrom: '2026-01-01T00:00:00.000Z' }),
      productDiscount('other-sku', '0.98', { type: 'relative', permyriad: 100 }, 'sku = "OTHER"'),
      // "0.855" sorts above "0.85" as decimals.
      productDiscount('between', '0.855', { type: 'relative', permyriad: 1 }, 'categories.id contains "cat-9"'),
    ];
    const variant = data.masterVariant;
    expect(discountedPriceFor(discounts, product, variant, priceOf(1_000), NOW)).toEqual({
      value: eur(700),
      discount: { typeId: 'product-discount', id: 'high' },
    });
    // Absolute above the price: 0.
    expect(discountedPriceFor(discounts, product, variant, priceOf(200), NOW)?.value.centAmount).toBe(0);
    // A USD price: the USD absolute discount applies.
    expect(discountedPriceFor(discounts, product, variant, priceOf(1_000, 'USD'), NOW)?.discount.id).toBe('higher-but-usd');
    // A JPY price: only the relative one; 101 × 50 % = 50.5 → rounded half down to 50 (DiscountedPrice.value).
    expect(discountedPriceFor(discounts, product, variant, priceOf(101, 'JPY'), NOW)).toMatchObject({ value: { centAmount: 50 }, discount: { id: 'low' } });
    expect(discountedPriceFor([], product, variant, priceOf(1_000), NOW)).toBeUndefined();
  });

  it('agrees with an independent calculation on random discounts and prices', () => {
    const discount = fc.record({
      sortOrder: fc.integer({ min: 1, max: 9_999 }).map((n) => `0.${String(n).padStart(4, '0').replace(/0+$/, '')}`),
      relative: fc.boolean(),
      permyriad: fc.integer({ min: 0, max: 10_000 }),
      amount: fc.integer({ min: 0, max: 200_000 }),
      matches: fc.boolean(),
      isActive: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.uniqueArray(discount, { selector: (each) => each.sortOrder, maxLength: 8 }), fc.integer({ min: 0, max: 100_000 }), (drafts, cents) => {
        const discounts = drafts.map((each, index) =>
          productDiscount(
            `d${index}`,
            each.sortOrder,
            each.relative ? { type: 'relative', permyriad: each.permyriad } : { type: 'absolute', money: [eur(each.amount)] },
            each.matches ? 'sku = "SHIRT"' : 'sku = "NOPE"',
            { isActive: each.isActive },
          ),
        );
        const candidates = drafts.map((each, index) => ({ ...each, index })).filter((each) => each.matches && each.isActive);
        const best = candidates.sort((a, b) => Number(b.sortOrder) - Number(a.sortOrder))[0];
        const result = discountedPriceFor(discounts, product, data.masterVariant, priceOf(cents), NOW);
        if (best === undefined) {
          expect(result).toBeUndefined();
          return;
        }
        // Independent: exact rational price × (10000 - p) / 10000, half down; absolute floored at 0.
        let expected: bigint;
        if (best.relative) {
          const exact = BigInt(cents) * BigInt(10_000 - best.permyriad);
          expected = exact / 10_000n + ((exact % 10_000n) * 2n > 10_000n ? 1n : 0n);
        } else expected = BigInt(Math.max(0, cents - best.amount));
        expect(result).toEqual({ value: eur(Number(expected)), discount: { typeId: 'product-discount', id: `d${best.index}` } });
      }),
      { numRuns: 400 },
    );
  });
});

function cartDiscount(
  id: string,
  sortOrder: string,
  value: CartDiscount['value'],
  target: CartDiscount['target'],
  extra: Partial<CartDiscount> = {},
): CartDiscount {
  const discount: CartDiscount = {
    ...base,
    id,
    name: { en: id },
    value,
    cartPredicate: '1 = 1',
    sortOrder,
    stores: [],
    isActive: true,
    requiresDiscountCode: false,
    references: [],
    stackingMode: 'Stacking',
    recurringOrderScope: { type: 'NonRecurringOrdersOnly' },
    ...extra,
  };
  if (target !== undefined) discount.target = target;
  return discount;
}

function code(id: string, discounts: string[], extra: Partial<DiscountCode> = {}): DiscountCode {
  return {
    ...base,
    id,
    code: id.toUpperCase(),
    cartDiscounts: discounts.map((each) => ({ typeId: 'cart-discount', id: each })),
    stores: [],
    isActive: true,
    references: [],
    groups: [],
    ...extra,
  };
}

const item = (id: string, sku: string, unitPrice: number, quantity: number): DiscountableItem => ({ id, quantity, unitPrice, fields: { sku } });
const cartOf = (extra: Partial<DiscountableCart> = {}): DiscountableCart => ({
  currency: 'EUR',
  fields: { country: 'DE' },
  lineItems: [item('li-1', 'A', 1_000, 2), item('li-2', 'B', 333, 3)],
  customLineItems: [{ id: 'cli-1', quantity: 1, unitPrice: 500, fields: { slug: 'wrap' } }],
  shippingPrice: 490,
  discountCodeIds: [],
  ...extra,
});

describe('applyCartDiscounts', () => {
  it('applies discounts by sortOrder, each to what the ones before left, per unit', () => {
    const discounts = [
      cartDiscount('ten-percent', '0.5', { type: 'relative', permyriad: 1000 }, { type: 'lineItems', predicate: '1 = 1' }),
      cartDiscount(
        'first',
        '0.9',
        { type: 'absolute', money: [eur(100)], applicationMode: 'IndividualApplication' },
        { type: 'lineItems', predicate: 'sku = "A"' },
      ),
      cartDiscount('free-shipping', '0.4', { type: 'fixed', money: [eur(0)] }, { type: 'shipping' }),
      cartDiscount('total', '0.3', { type: 'absolute', money: [eur(50)] }, { type: 'totalPrice' }),
      cartDiscount('wrap', '0.2', { type: 'relative', permyriad: 5000 }, { type: 'customLineItems', predicate: 'slug = "wrap"' }),
      cartDiscount('inactive', '0.95', { type: 'relative', permyriad: 10_000 }, { type: 'lineItems', predicate: '1 = 1' }, { isActive: false }),
      cartDiscount(
        'other-store',
        '0.96',
        { type: 'relative', permyriad: 10_000 },
        { type: 'lineItems', predicate: '1 = 1' },
        { stores: [{ typeId: 'store', key: 'paris' }] },
      ),
      cartDiscount(
        'big-carts',
        '0.97',
        { type: 'relative', permyriad: 10_000 },
        { type: 'lineItems', predicate: '1 = 1' },
        { cartPredicate: 'lineItemCount(1 = 1) > 10' },
      ),
    ];
    const result = applyCartDiscounts(cartOf({ storeKey: 'berlin' }), discounts, [], NOW);
    // A: 1000 - 100 = 900, then 10 % = 90 → 810 per unit.
    expect(result.lineItems[0]).toEqual({
      id: 'li-1',
      discountedPricePerQuantity: [
        {
          quantity: 2,
          discountedPrice: {
            value: eur(810),
            includedDiscounts: [
              { discount: { typeId: 'cart-discount', id: 'first' }, discountedAmount: eur(100) },
              { discount: { typeId: 'cart-discount', id: 'ten-percent' }, discountedAmount: eur(90) },
            ],
          },
        },
      ],
      totalPrice: eur(1_620),
    });
    // B: 333 × 10 % = 33.3 → 33 (half even) → 300 per unit.
    expect(result.lineItems[1]?.totalPrice).toEqual(eur(900));
    expect(result.customLineItems[0]?.totalPrice).toEqual(eur(250));
    expect(result.shipping).toMatchObject({ price: eur(490), discountedPrice: { value: eur(0) } });
    expect(result.discountOnTotalPrice).toMatchObject({ discountedAmount: eur(50), includedDiscounts: [{ discount: { id: 'total' } }] });
    expect(result.totalPrice).toEqual(eur(1_620 + 900 + 250 + 0 - 50));
    expect(result.applied.map((each) => each.id)).toEqual(['first', 'ten-percent', 'free-shipping', 'total', 'wrap']);
  });

  it('stops after a StopAfterThisDiscount that applied, and sets the discount code states', () => {
    const discounts = [
      cartDiscount(
        'stopper',
        '0.8',
        { type: 'relative', permyriad: 1000 },
        { type: 'lineItems', predicate: 'sku = "A"' },
        { stackingMode: 'StopAfterThisDiscount' },
      ),
      cartDiscount(
        'stopper-no-match',
        '0.9',
        { type: 'relative', permyriad: 1000 },
        { type: 'lineItems', predicate: 'sku = "Z"' },
        { stackingMode: 'StopAfterThisDiscount' },
      ),
      cartDiscount('coded-after', '0.5', { type: 'relative', permyriad: 1000 }, { type: 'shipping' }, { requiresDiscountCode: true }),
      cartDiscount('coded-before', '0.85', { type: 'relative', permyriad: 2000 }, { type: 'shipping' }, { requiresDiscountCode: true }),
      cartDiscount(
        'coded-fr',
        '0.6',
        { type: 'relative', permyriad: 1000 },
        { type: 'shipping' },
        { requiresDiscountCode: true, cartPredicate: 'country = "FR"' },
      ),
      cartDiscount('coded-off', '0.61', { type: 'relative', permyriad: 1000 }, { type: 'shipping' }, { requiresDiscountCode: true, isActive: false }),
      cartDiscount(
        'coded-expired',
        '0.62',
        { type: 'relative', permyriad: 1000 },
        { type: 'shipping' },
        { requiresDiscountCode: true, validUntil: '2025-01-01T00:00:00Z' },
      ),
      cartDiscount('not-brought', '0.63', { type: 'relative', permyriad: 10_000 }, { type: 'shipping' }, { requiresDiscountCode: true }),
    ];
    const codes = [
      code('before', ['coded-before']),
      code('after', ['coded-after']),
      code('fr', ['coded-fr']),
      code('off', ['coded-off']),
      code('expired', ['coded-expired']),
      code('inactive', ['coded-before'], { isActive: false }),
      code('code-expired', ['coded-before'], { validFrom: '2026-01-01T00:00:00Z' }),
      code('used-up', ['coded-before'], { maxApplications: 3 }),
      code('per-customer', ['coded-before'], { maxApplicationsPerCustomer: 1 }),
      code('predicate', ['coded-before'], { cartPredicate: 'currency = "USD"' }),
    ];
    const usage = new Map([
      ['used-up', { total: 3, byCustomer: 0 }],
      ['per-customer', { total: 1, byCustomer: 1 }],
    ]);
    const cart = cartOf({ discountCodeIds: codes.map((each) => each.id).concat('missing') });
    const result = applyCartDiscounts(cart, discounts, codes, NOW, usage);
    expect(Object.fromEntries(result.discountCodes.map((each) => [each.discountCode.id, each.state]))).toEqual({
      before: 'MatchesCart',
      after: 'ApplicationStoppedByPreviousDiscount',
      fr: 'DoesNotMatchCart',
      off: 'NotActive',
      expired: 'NotValid',
      inactive: 'NotActive',
      'code-expired': 'NotValid',
      'used-up': 'MaxApplicationReached',
      'per-customer': 'MaxApplicationReached',
      predicate: 'DoesNotMatchCart',
      missing: 'NotActive',
    });
    expect(result.applied.map((each) => each.id)).toEqual(['coded-before', 'stopper']);
    expect(result.shipping?.discountedPrice?.value).toEqual(eur(392));
  });

  it('applies multi-buy to the cheapest units of each group, and gifts', () => {
    const cart = cartOf({ lineItems: [item('li-1', 'A', 1_000, 2), item('li-2', 'A', 500, 2), item('li-3', 'A', 100, 1)] });
    const multiBuy = cartDiscount(
      'three-for-two',
      '0.5',
      { type: 'relative', permyriad: 10_000 },
      { type: 'multiBuyLineItems', predicate: 'sku = "A"', triggerQuantity: 2, discountedQuantity: 1, selectionMode: 'Cheapest', maxOccurrence: 2 },
    );
    const gift = cartDiscount('gift', '0.4', { type: 'giftLineItem', product: { typeId: 'product', id: 'p-9' }, variantId: 1 }, undefined);
    const result = applyCartDiscounts(cart, [multiBuy, gift], [], NOW);
    // Units 1000, 1000, 500, 500, 100 → groups [1000, 1000], [500, 500] → one 1000 and one 500 free; 100 stays.
    expect(result.lineItems.map((each) => each.totalPrice.centAmount)).toEqual([1_000, 500, 100]);
    expect(result.lineItems[0]?.discountedPricePerQuantity).toEqual([
      {
        quantity: 1,
        discountedPrice: { value: eur(0), includedDiscounts: [{ discount: { typeId: 'cart-discount', id: 'three-for-two' }, discountedAmount: eur(1_000) }] },
      },
    ]);
    expect(result.giftLineItems).toEqual([{ discount: { typeId: 'cart-discount', id: 'gift' }, product: { typeId: 'product', id: 'p-9' }, variantId: 1 }]);
  });

  const items = fc.array(
    fc.record({ unitPrice: fc.integer({ min: 0, max: 50_000 }), quantity: fc.integer({ min: 1, max: 6 }), sku: fc.constantFrom('A', 'B') }),
    { minLength: 1, maxLength: 5 },
  );
  const toCart = (list: Array<{ unitPrice: number; quantity: number; sku: string }>) =>
    cartOf({
      lineItems: list.map((each, index) => item(`li-${index}`, each.sku, each.unitPrice, each.quantity)),
      customLineItems: [],
      shippingPrice: undefined as unknown as number,
    });

  it('relative line item discounts equal an independent per-unit calculation (half even)', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 0, max: 10_000 }), (list, permyriad) => {
        const result = applyCartDiscounts(
          toCart(list),
          [cartDiscount('r', '0.5', { type: 'relative', permyriad }, { type: 'lineItems', predicate: 'sku = "A"' })],
          [],
          NOW,
        );
        list.forEach((each, index) => {
          const exact = BigInt(each.unitPrice) * BigInt(permyriad);
          const quotient = exact / 10_000n;
          const twice = (exact % 10_000n) * 2n;
          const off = twice > 10_000n || (twice === 10_000n && quotient % 2n === 1n) ? quotient + 1n : quotient;
          const unit = each.sku === 'A' ? BigInt(each.unitPrice) - off : BigInt(each.unitPrice);
          expect(result.lineItems[index]?.totalPrice.centAmount).toBe(Number(unit * BigInt(each.quantity)));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('distributed absolute discounts take exactly min(amount, total), never below zero', () => {
    fc.assert(
      fc.property(
        items,
        fc.integer({ min: 0, max: 400_000 }),
        fc.constantFrom('ProportionateDistribution' as const, 'EvenDistribution' as const),
        (list, amount, applicationMode) => {
          const discount = cartDiscount('a', '0.5', { type: 'absolute', money: [eur(amount)], applicationMode }, { type: 'lineItems', predicate: '1 = 1' });
          const result = applyCartDiscounts(toCart(list), [discount], [], NOW);
          const before = list.reduce((sum, each) => sum + each.unitPrice * each.quantity, 0);
          const after = result.lineItems.reduce((sum, each) => sum + each.totalPrice.centAmount, 0);
          expect(before - after).toBe(Math.min(amount, before));
          for (const outcome of result.lineItems) {
            const quantities = outcome.discountedPricePerQuantity.reduce((sum, group) => sum + group.quantity, 0);
            expect(quantities).toBeLessThanOrEqual(list[result.lineItems.indexOf(outcome)]?.quantity ?? 0);
            for (const group of outcome.discountedPricePerQuantity) expect(group.discountedPrice.value.centAmount).toBeGreaterThanOrEqual(0);
          }
          expect(result.totalPrice.centAmount).toBe(after);
        },
      ),
      { numRuns: 300 },
    );
  });
});
