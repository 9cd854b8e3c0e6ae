/**
 * Issue 28: a cart's tax arithmetic (carts/taxed-price.ts over shared/tax-math.ts) in exact
 * integer cents. Examples from the reference (TaxCalculationMode.raml), then fast-check properties
 * against an independent calculation written here: rates as integers per 100,000 and rounding by
 * the "add half, floor" formulation instead of remainder comparisons.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cartTaxedPrice, taxedItemPrice, type ItemTaxRate } from '../../src/resources/carts/taxed-price.js';
import { exactDecimal, roundFraction, type RoundingMode } from '../../src/resources/shared/tax-math.js';

const SCALE = 100_000n;
const MODES: RoundingMode[] = ['HalfEven', 'HalfUp', 'HalfDown'];

/** round(n / d) for n ≥ 0, d > 0, written as floor((2n + d) / 2d) with the ties each mode moves. */
function oracleRound(n: bigint, d: bigint, mode: RoundingMode): bigint {
  const up = (2n * n + d) / (2n * d);
  const isTie = (2n * n) % (2n * d) === d;
  if (!isTie || mode === 'HalfUp') return up;
  if (mode === 'HalfDown') return up - 1n;
  return up % 2n === 0n ? up : up - 1n;
}

interface OracleItem {
  cents: number;
  quantity: number;
  /** Sub-rates in 1/100,000. */
  parts: number[];
  included: boolean;
}

/** Net and portions of one amount; included: net = amount × S / (S + k), the last portion takes the rest. */
function oracleAmount(cents: bigint, parts: readonly number[], included: boolean, mode: RoundingMode): { net: bigint; portions: bigint[] } {
  const total = BigInt(parts.reduce((sum, part) => sum + part, 0));
  if (!included) return { net: cents, portions: parts.map((part) => oracleRound(cents * BigInt(part), SCALE, mode)) };
  const net = oracleRound(cents * SCALE, SCALE + total, mode);
  const portions = parts.slice(0, -1).map((part) => oracleRound(net * BigInt(part), SCALE, mode));
  portions.push(cents - net - portions.reduce((sum, portion) => sum + portion, 0n));
  return { net, portions };
}

function oracleItem(item: OracleItem, unitLevel: boolean, mode: RoundingMode): { net: bigint; tax: bigint } {
  const quantity = BigInt(item.quantity);
  const amount = unitLevel
    ? oracleAmount(BigInt(item.cents), item.parts, item.included, mode)
    : oracleAmount(BigInt(item.cents) * quantity, item.parts, item.included, mode);
  const factor = unitLevel ? quantity : 1n;
  return { net: amount.net * factor, tax: amount.portions.reduce((sum, portion) => sum + portion, 0n) * factor };
}

function rateOf(item: OracleItem): ItemTaxRate {
  const amount = item.parts.reduce((sum, part) => sum + part, 0) / 100_000;
  const rate: ItemTaxRate = { name: 'VAT', amount, includedInPrice: item.included, country: 'DE' };
  if (item.parts.length > 1) rate.subRates = item.parts.map((part, index) => ({ name: `part-${index}`, amount: part / 100_000 }));
  return rate;
}

const taxedOf = (item: OracleItem, unitLevel: boolean, mode: RoundingMode) =>
  taxedItemPrice(
    { currency: 'EUR', totalCents: item.cents * item.quantity, unit: { cents: item.cents, quantity: item.quantity } },
    rateOf(item),
    unitLevel ? 'UnitPriceLevel' : 'LineItemLevel',
    mode,
  );

describe('tax arithmetic', () => {
  it('follows the reference’s TaxCalculationMode example: 1.08 × 3 at 19 %', () => {
    const rate: ItemTaxRate = { name: 'VAT', amount: 0.19, includedInPrice: false, country: 'DE' };
    const amount = { currency: 'USD', totalCents: 324, unit: { cents: 108, quantity: 3 } };
    expect(taxedItemPrice(amount, rate, 'LineItemLevel', 'HalfEven').totalGross.centAmount).toBe(386); // 3.8556 → 3.86
    expect(taxedItemPrice(amount, rate, 'UnitPriceLevel', 'HalfEven').totalGross.centAmount).toBe(387); // 1.29 × 3
  });

  it('rounds ties as each mode says and reads rates as the decimals they are', () => {
    const tie = { numerator: 5n, denominator: 2n };
    expect(MODES.map((mode) => roundFraction(tie, mode))).toEqual([2n, 3n, 2n]);
    expect(MODES.map((mode) => roundFraction({ numerator: -5n, denominator: 2n }, mode))).toEqual([-2n, -3n, -2n]);
    expect(exactDecimal(0.19)).toEqual({ numerator: 19n, denominator: 100n });
    expect(exactDecimal(1e-7)).toEqual({ numerator: 1n, denominator: 10_000_000n });
    // 0.19 as a double is 0.190000000000000002220…; 50 × it must still be the tie 9.5.
    const taxOf50 = taxedItemPrice(
      { currency: 'EUR', totalCents: 50 },
      { name: 'v', amount: 0.19, includedInPrice: false, country: 'DE' },
      'LineItemLevel',
      'HalfEven',
    );
    expect(taxOf50.totalTax.centAmount).toBe(10);
  });

  const itemArbitrary: fc.Arbitrary<OracleItem> = fc.record({
    cents: fc.integer({ min: 0, max: 5_000_000 }),
    quantity: fc.integer({ min: 1, max: 60 }),
    parts: fc.array(fc.integer({ min: 0, max: 25_000 }), { minLength: 1, maxLength: 3 }),
    included: fc.boolean(),
  });

  it('item taxes equal the independent calculation, in every mode, and net + portions = gross', () => {
    fc.assert(
      fc.property(itemArbitrary, fc.boolean(), fc.constantFrom(...MODES), (item, unitLevel, mode) => {
        const taxed = taxedOf(item, unitLevel, mode);
        const expected = oracleItem(item, unitLevel, mode);
        expect(taxed.totalNet.centAmount).toBe(Number(expected.net));
        expect(taxed.totalTax.centAmount).toBe(Number(expected.tax));
        const portions = taxed.taxPortions.reduce((sum, portion) => sum + portion.amount.centAmount, 0);
        expect(taxed.totalGross.centAmount).toBe(taxed.totalNet.centAmount + portions);
        if (item.included && !unitLevel) expect(taxed.totalGross.centAmount).toBe(item.cents * item.quantity);
      }),
      { numRuns: 1000 },
    );
  });

  it('the cart total is the items’ sums, with portions accumulated per rate and name', () => {
    fc.assert(
      fc.property(fc.array(itemArbitrary, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.constantFrom(...MODES), (items, unitLevel, mode) => {
        const cart = cartTaxedPrice(
          'EUR',
          items.map((item) => taxedOf(item, unitLevel, mode)),
        );
        const expected = items.map((item) => oracleItem(item, unitLevel, mode));
        const net = expected.reduce((sum, item) => sum + item.net, 0n);
        const tax = expected.reduce((sum, item) => sum + item.tax, 0n);
        expect(cart.totalNet.centAmount).toBe(Number(net));
        expect(cart.totalTax.centAmount).toBe(Number(tax));
        expect(cart.totalGross.centAmount).toBe(Number(net + tax));
        const keys = cart.taxPortions.map((portion) => `${portion.rate}|${portion.name}`);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 500 },
    );
  });
});
