import { divideRoundingHalfEven } from './rounding.js';

/**
 * One unit of a (custom) line item while cart discounts apply to it: its price in minor units and
 * the portions the discounts took, in the order they applied (DiscountedLineItemPortion).
 */
export interface Unit {
  readonly price: number;
  readonly portions: Array<{ discountId: string; amount: number }>;
}

export function remainingOf(unit: Unit): number {
  return unit.portions.reduce((left, portion) => left - portion.amount, unit.price);
}

export function take(unit: Unit, discountId: string, amount: number): boolean {
  const bounded = Math.min(amount, remainingOf(unit));
  if (bounded <= 0) return false;
  unit.portions.push({ discountId, amount: bounded });
  return true;
}

/** Relative: each unit loses `permyriad`/10000 of what is left of it, rounded half even after each step. */
export function takeRelative(units: readonly Unit[], discountId: string, permyriad: number): boolean {
  return units.map((unit) => take(unit, discountId, divideRoundingHalfEven(remainingOf(unit) * permyriad, 10_000))).some(Boolean);
}

/** Fixed: each unit costs at most `fixed` (never raised). */
export function takeFixed(units: readonly Unit[], discountId: string, fixed: number): boolean {
  return units.map((unit) => take(unit, discountId, remainingOf(unit) - fixed)).some(Boolean);
}

/**
 * ProportionateDistribution: `amount` (at most what is left) spread over the units in proportion
 * to what is left of each; the cents that flooring leaves go to the largest remainders, so the
 * portions add up to the amount exactly.
 */
export function takeProportionately(units: readonly Unit[], discountId: string, amount: number): boolean {
  const left = units.map(remainingOf);
  const total = left.reduce((sum, each) => sum + each, 0);
  const budget = Math.min(amount, total);
  if (budget <= 0) return false;
  const shares = left.map((each) => Math.floor((budget * each) / total));
  const remainders = left.map((each, index) => ({ index, remainder: budget * each - (shares[index] as number) * total }));
  let cents = budget - shares.reduce((sum, each) => sum + each, 0);
  for (const { index } of remainders.sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (cents === 0) break;
    shares[index] = (shares[index] as number) + 1;
    cents -= 1;
  }
  return units.map((unit, index) => take(unit, discountId, shares[index] as number)).some(Boolean);
}

/** EvenDistribution: `amount` split equally, a unit that is used up passing its share on. */
export function takeEvenly(units: readonly Unit[], discountId: string, amount: number): boolean {
  const shares = units.map(() => 0);
  let budget = Math.min(
    amount,
    units.reduce((sum, unit) => sum + remainingOf(unit), 0),
  );
  while (budget > 0) {
    const open = units.map((unit, index) => ({ index, room: remainingOf(unit) - (shares[index] as number) })).filter((each) => each.room > 0);
    const share = Math.max(1, Math.floor(budget / open.length));
    for (const { index, room } of open) {
      const given = Math.min(share, room, budget);
      shares[index] = (shares[index] as number) + given;
      budget -= given;
      if (budget === 0) break;
    }
  }
  return units.map((unit, index) => take(unit, discountId, shares[index] as number)).some(Boolean);
}
