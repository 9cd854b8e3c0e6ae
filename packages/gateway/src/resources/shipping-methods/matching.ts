import type { PredicateSubject } from '../../predicates/index.js';
import type { ShippingRateInput } from '../carts/cart.js';
import { predicateAdmits } from './cart-predicate.js';
import type { ShippingMethod, ShippingRate, ShippingRatePriceTier, ZoneRate } from './shipping-method.js';

/** What the matching-cart endpoints read of a cart: its currency, item total and shipping rate input. */
export interface CartFacts {
  currency: string;
  /** The sum of the (custom) line item totals: Herald's carts have no shipping cost in `totalPrice`. */
  totalCentAmount: number;
  shippingRateInput?: ShippingRateInput | undefined;
  /** The cart as a method's cart predicate reads it (cart-predicate.ts); without it, no predicate matches. */
  subject?: PredicateSubject;
}

/** The tier a cart falls into, or undefined for the rate's base price (types/shipping-method/*Tier.raml). */
export function matchingTier(tiers: readonly ShippingRatePriceTier[], cart: CartFacts): ShippingRatePriceTier | undefined {
  const input = cart.shippingRateInput;
  const reached = (tier: ShippingRatePriceTier): number => {
    if (tier.type === 'CartValue') return tier.minimumCentAmount <= cart.totalCentAmount ? tier.minimumCentAmount : -1;
    if (tier.type === 'CartClassification') return input?.type === 'Classification' && input.key === tier.value ? 0 : -1;
    if (input?.type !== 'Score') return -1;
    // A fixed price covers its own score; a price function covers its score and every higher one.
    const covers = tier.price !== undefined ? input.score === tier.score : input.score >= tier.score;
    return covers ? tier.score : -1;
  };
  let best: ShippingRatePriceTier | undefined;
  for (const tier of tiers) {
    if (reached(tier) >= 0 && (best === undefined || reached(tier) > reached(best))) best = tier;
  }
  return best;
}

/** The rate as the cart sees it: `isMatching` on the rate and on each tier (CartValueTier.isMatching …). */
function rateForCart(rate: ShippingRate, cart: CartFacts): ShippingRate {
  const chosen = matchingTier(rate.tiers, cart);
  return { ...rate, isMatching: true, tiers: rate.tiers.map((tier) => ({ ...tier, isMatching: tier === chosen })) };
}

/**
 * A method as the matching endpoints answer it (resources/shipping-methods.raml matching-location,
 * matching-cart): only the ZoneRate of the address's Zone, and in it the rates flagged
 * `isMatching` — the rate in `currency` when one is asked for (a rate per currency, so exactly
 * one), else every rate. Undefined when the method does not match.
 */
export function asMatching(method: ShippingMethod, zoneId: string, currency: string | undefined, cart?: CartFacts): ShippingMethod | undefined {
  // matching-location: "ShippingMethods that have a `predicate` defined are automatically disqualified";
  // matching-cart lists a method with a predicate only when the cart satisfies it.
  if (!method.active) return undefined;
  if (method.predicate !== undefined && (cart?.subject === undefined || !predicateAdmits(method.predicate, cart.subject))) return undefined;
  const zoneRate = method.zoneRates.find((candidate) => candidate.zone.id === zoneId);
  if (zoneRate === undefined) return undefined;
  const rates = zoneRate.shippingRates.filter((rate) => currency === undefined || rate.price.currencyCode === currency);
  if (rates.length === 0) return undefined;
  const matched: ZoneRate = {
    zone: zoneRate.zone,
    shippingRates: rates.map((rate) => (cart === undefined ? { ...rate, isMatching: true } : rateForCart(rate, cart))),
  };
  return { ...method, zoneRates: [matched] };
}

/** "If a matching ShippingMethod has `isDefault` set to `true`, it is returned as the first item in the array." */
export function defaultFirst(methods: readonly ShippingMethod[]): ShippingMethod[] {
  return [...methods.filter((method) => method.isDefault), ...methods.filter((method) => !method.isDefault)];
}
