/**
 * Integer rounding of `numerator / denominator` (both non-negative integers, denominator > 0) as
 * the reference prescribes: exact integer arithmetic, no floating point.
 */
function split(numerator: number, denominator: number): { quotient: number; twiceRemainder: number } {
  const quotient = Math.floor(numerator / denominator);
  return { quotient, twiceRemainder: (numerator - quotient * denominator) * 2 };
}

/** Half down: DiscountedPrice.value of a relative product discount ("a fractional half-cent … rounds down"). */
export function divideRoundingHalfDown(numerator: number, denominator: number): number {
  const { quotient, twiceRemainder } = split(numerator, denominator);
  return twiceRemainder > denominator ? quotient + 1 : quotient;
}

/** Half even: the cart's default `priceRoundingMode` (RoundingMode HalfEven), applied after each discount step. */
export function divideRoundingHalfEven(numerator: number, denominator: number): number {
  const { quotient, twiceRemainder } = split(numerator, denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2 === 1)) return quotient + 1;
  return quotient;
}
