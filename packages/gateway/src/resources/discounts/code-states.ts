import { compiledPredicate, type PredicateSubject } from '../../predicates/index.js';
import type { CartDiscount } from '../cart-discounts/cart-discount.js';
import type { DiscountCode } from '../discount-codes/discount-code.js';
import { isValidAt } from './validity.js';

/** The reference's DiscountCodeState (types/cart/DiscountCodeState.raml). */
export type DiscountCodeState =
  | 'NotActive'
  | 'NotValid'
  | 'DoesNotMatchCart'
  | 'MatchesCart'
  | 'MaxApplicationReached'
  | 'ApplicationStoppedByPreviousDiscount'
  | 'ApplicationStoppedByGroupBestDeal';

/** How often a code was applied (counted when orders are created); the platform keeps this, not the resource. */
export interface DiscountCodeUsage {
  total: number;
  byCustomer: number;
}

export function cartPredicateHolds(source: string, cart: PredicateSubject): boolean {
  return compiledPredicate(source, 'cart').test(cart);
}

/**
 * The state of a code on a cart before any discount applies, by the enum's descriptions:
 * NotActive (the code, or all its cart discounts, inactive), NotValid (outside the code's or all its
 * discounts' validity), MaxApplicationReached, DoesNotMatchCart (the code's predicate, or none of its
 * active discounts' predicates, matches), else MatchesCart.
 */
export function codeStateBeforeApplication(
  code: DiscountCode | undefined,
  discounts: readonly CartDiscount[],
  cart: PredicateSubject,
  now: Date,
  usage: DiscountCodeUsage | undefined,
): DiscountCodeState {
  if (code === undefined || !code.isActive) return 'NotActive';
  if (!isValidAt(code, now)) return 'NotValid';
  const own = discounts.filter((discount) => code.cartDiscounts.some((reference) => reference.id === discount.id));
  const active = own.filter((discount) => discount.isActive);
  if (active.length === 0) return 'NotActive';
  const valid = active.filter((discount) => isValidAt(discount, now));
  if (valid.length === 0) return 'NotValid';
  if (usage !== undefined && code.maxApplications !== undefined && usage.total >= code.maxApplications) return 'MaxApplicationReached';
  if (usage !== undefined && code.maxApplicationsPerCustomer !== undefined && usage.byCustomer >= code.maxApplicationsPerCustomer)
    return 'MaxApplicationReached';
  if (code.cartPredicate !== undefined && !cartPredicateHolds(code.cartPredicate, cart)) return 'DoesNotMatchCart';
  return valid.some((discount) => cartPredicateHolds(discount.cartPredicate, cart)) ? 'MatchesCart' : 'DoesNotMatchCart';
}
