/**
 * Exact money arithmetic for taxes (issue 28: "Money is exact"). Amounts are integer minor units;
 * rates are the reference's decimal numbers (TaxRate.amount 0..1, e.g. 0.19 or 0.08875). A rate
 * is read as the exact decimal it was written as, every product is a fraction of big integers,
 * and the only rounding is the one the cart's RoundingMode names (types/cart/RoundingMode.raml).
 */

export type RoundingMode = 'HalfEven' | 'HalfUp' | 'HalfDown';

/** `numerator / denominator` with a positive denominator. */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** A non-negative number as the exact decimal its shortest text spells (0.19 is 19/100, not the nearest double). */
export function exactDecimal(value: number): Fraction {
  const match = DECIMAL.exec(String(value));
  if (match === null || !Number.isFinite(value) || value < 0) throw new RangeError(`Not a non-negative decimal: ${value}`);
  const [, whole = '0', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(whole + fraction);
  return exponent >= 0 ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n } : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}

/**
 * Rounds a fraction to an integer. Ties are what the modes decide: HalfEven to the even
 * neighbour, HalfUp away from zero, HalfDown towards zero (the JVM's RoundingMode semantics the
 * platform's names come from); everything else to the nearest integer. Negative amounts (credits
 * in custom line items) round symmetrically.
 */
export function roundFraction({ numerator, denominator }: Fraction, mode: RoundingMode): bigint {
  if (denominator <= 0n) throw new RangeError('The denominator must be positive.');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const whole = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  let rounded = whole;
  if (twiceRemainder > denominator) rounded = whole + 1n;
  else if (twiceRemainder === denominator) {
    if (mode === 'HalfUp' || (mode === 'HalfEven' && whole % 2n === 1n)) rounded = whole + 1n;
  }
  return negative ? -rounded : rounded;
}

function toSafeNumber(value: bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError('The amount is too large.');
  return number;
}

/** `cents × rate`, rounded: the tax on a net amount. */
export function taxOnNet(cents: number, rate: number, mode: RoundingMode): number {
  const { numerator, denominator } = exactDecimal(rate);
  return toSafeNumber(roundFraction({ numerator: BigInt(cents) * numerator, denominator }, mode));
}

/** `cents / (1 + rate)`, rounded: the net amount of a gross amount that includes the tax. */
export function netOfGross(cents: number, rate: number, mode: RoundingMode): number {
  const { numerator, denominator } = exactDecimal(rate);
  return toSafeNumber(roundFraction({ numerator: BigInt(cents) * denominator, denominator: denominator + numerator }, mode));
}
