import type { CartDiscount } from '../cart-discounts/cart-discount.js';
import type { DiscountGroup } from '../discount-groups/discount-group.js';
import type { Unit } from './cart-units.js';

/**
 * A Cart Discount as pricing sees it through its DiscountGroup: "A DiscountGroup must be active for
 * its CartDiscounts to be considered during discount application" (DiscountGroup.isActive), and a
 * grouped discount "uses the sort order of the DiscountGroup" (CartDiscount.sortOrder), the group's
 * current one. `activeGroups` are the project's active groups; a discount of any other is inactive.
 */
export function throughGroups(discounts: readonly CartDiscount[], activeGroups: readonly DiscountGroup[]): CartDiscount[] {
  const sortOrders = new Map(activeGroups.map((group) => [group.id, group.sortOrder]));
  return discounts.map((discount) => {
    if (discount.discountGroup === undefined) return discount;
    const sortOrder = sortOrders.get(discount.discountGroup.id);
    return sortOrder === undefined ? { ...discount, isActive: false } : { ...discount, sortOrder };
  });
}

/**
 * Consecutive runs of the (sorted) candidates: a discount without a group alone, the discounts of
 * one group together (they share its sortOrder, unique among groups and ungrouped discounts).
 */
export function applicationSteps(candidates: readonly CartDiscount[]): CartDiscount[][] {
  const steps: CartDiscount[][] = [];
  for (const discount of candidates) {
    const last = steps.at(-1);
    const groupId = discount.discountGroup?.id;
    if (groupId !== undefined && last?.[0]?.discountGroup?.id === groupId) last.push(discount);
    else steps.push([discount]);
  }
  return steps;
}

/**
 * The member of a DiscountGroup that saves the most on `units` ("only the Cart Discount offering
 * the highest savings to the Customer is applied", Discount Groups docs), found by applying each
 * and undoing it; a tie goes to the first. None when no member changes anything.
 */
export function bestDeal(units: readonly Unit[], members: readonly CartDiscount[], apply: (member: CartDiscount) => boolean): CartDiscount | undefined {
  let best: CartDiscount | undefined;
  let bestSaving = 0;
  for (const member of members) {
    const before = units.map((unit) => unit.portions.length);
    apply(member);
    let saving = 0;
    for (const [index, unit] of units.entries()) {
      for (const portion of unit.portions.splice(before[index] ?? 0)) saving += portion.amount;
    }
    if (saving > bestSaving) {
      best = member;
      bestSaving = saving;
    }
  }
  return best;
}
