import type { Reference } from '@herald/model';
import { compiledPredicate, type PredicateSubject } from '../../predicates/index.js';
import type { CartDiscount, CartDiscountTarget, CartDiscountValue } from '../cart-discounts/cart-discount.js';
import type { DiscountCode } from '../discount-codes/discount-code.js';
import { centPrecision, type CentPrecisionMoney } from '../shared/money.js';
import { applicationSteps, bestDeal } from './best-deal.js';
import { remainingOf, takeEvenly, takeFixed, takeProportionately, takeRelative, type Unit } from './cart-units.js';
import { patternOccurrences, type Occurrence, type PatternTarget, type PatternUnit } from './pattern-units.js';
import { cartPredicateHolds, codeStateBeforeApplication, type DiscountCodeState, type DiscountCodeUsage } from './code-states.js';
import { divideRoundingHalfEven } from './rounding.js';
import { compareSortOrders } from './sort-order.js';
import { isValidAt } from './validity.js';

export type { DiscountCodeState, DiscountCodeUsage } from './code-states.js';

/** A (custom) line item as cart discounts see it: its unit price after product discounts, and what target predicates read. */
export interface DiscountableItem {
  id: string;
  quantity: number;
  /** Minor units of the cart's currency, per unit. */
  unitPrice: number;
  /** The item as a line item / custom line item predicate reads it (sku, attributes, custom, …). */
  fields: PredicateSubject;
}

/** What applyCartDiscounts needs of a cart; the cart module builds it from its own document. */
export interface DiscountableCart {
  currency: string;
  storeKey?: string;
  /** The cart as a cart predicate reads it (country, customer, custom, totalPrice, shippingInfo, …); item arrays are added from `lineItems`. */
  fields: PredicateSubject;
  lineItems: readonly DiscountableItem[];
  customLineItems: readonly DiscountableItem[];
  /** The shipping price in minor units, when the cart has shipping. */
  shippingPrice?: number;
  /** The price of each Shipping of a `Multiple` cart (Cart.shipping), in its order; each is discounted on its own. */
  shippingPrices?: readonly number[];
  /** The ids of the discount codes added to the cart, in the order they were added. */
  discountCodeIds: readonly string[];
  /** Discounts that do not apply to this cart whatever their predicates: its refused gifts and gifts it cannot be given (carts/gift-line-items.ts). */
  excludedDiscountIds?: readonly string[];
}

export interface DiscountedLineItemPrice {
  value: CentPrecisionMoney;
  includedDiscounts: Array<{ discount: Reference<'cart-discount'>; discountedAmount: CentPrecisionMoney }>;
}

export interface ItemOutcome {
  id: string;
  /** The reference's DiscountedLineItemPriceForQuantity: units with the same discounts grouped; undiscounted units are not listed. */
  discountedPricePerQuantity: Array<{ quantity: number; discountedPrice: DiscountedLineItemPrice }>;
  totalPrice: CentPrecisionMoney;
}

export interface GiftLineItem {
  discount: Reference<'cart-discount'>;
  product: Reference<'product'>;
  variantId: number;
  supplyChannel?: Reference<'channel'>;
  distributionChannel?: Reference<'channel'>;
}

export interface CartDiscountOutcome {
  lineItems: ItemOutcome[];
  customLineItems: ItemOutcome[];
  shipping?: { price: CentPrecisionMoney; discountedPrice?: DiscountedLineItemPrice };
  /** Per Shipping of a `Multiple` cart, in the order of `shippingPrices`. */
  shippings?: Array<{ price: CentPrecisionMoney; discountedPrice?: DiscountedLineItemPrice }>;
  discountOnTotalPrice?: {
    discountedAmount: CentPrecisionMoney;
    includedDiscounts: Array<{ discount: Reference<'cart-discount'>; discountedAmount: CentPrecisionMoney }>;
  };
  totalPrice: CentPrecisionMoney;
  discountCodes: Array<{ discountCode: Reference<'discount-code'>; state: DiscountCodeState }>;
  giftLineItems: GiftLineItem[];
  /** The discounts that changed something, in the order they applied. */
  applied: Array<Reference<'cart-discount'>>;
}

interface Work {
  cart: DiscountableCart;
  lineUnits: Unit[][];
  customUnits: Unit[][];
  shippingUnit?: Unit;
  /** A `Multiple` cart's Shippings (DiscountableCart.shippingPrices). */
  shippingUnits: Unit[];
  totalDiscounts: Array<{ discountId: string; amount: number }>;
  gifts: GiftLineItem[];
}

const unitsOf = (item: DiscountableItem): Unit[] => Array.from({ length: item.quantity }, () => ({ price: item.unitPrice, portions: [] }));

function moneyIn(value: CartDiscountValue, currency: string): number | undefined {
  if (value.type !== 'absolute' && value.type !== 'fixed') return undefined;
  return value.money.find((money) => money.currencyCode === currency)?.centAmount;
}

/** Applies `value` to `units` (all of one target); whether anything changed. */
function applyValue(value: CartDiscountValue, units: readonly Unit[], discountId: string, currency: string, perUnitAbsolute: boolean): boolean {
  if (units.length === 0) return false;
  if (value.type === 'relative') return takeRelative(units, discountId, value.permyriad);
  const amount = moneyIn(value, currency);
  if (amount === undefined) return false;
  if (value.type === 'fixed') return takeFixed(units, discountId, amount);
  if (value.type !== 'absolute') return false;
  // CartDiscountValueAbsoluteDraft.applicationMode: "If not set, the default behavior is ProportionateDistribution."
  if (value.applicationMode === 'IndividualApplication' || perUnitAbsolute)
    return units.map((unit) => takeFixed([unit], discountId, remainingOf(unit) - amount)).some(Boolean);
  if (value.applicationMode === 'EvenDistribution') return takeEvenly(units, discountId, amount);
  return takeProportionately(units, discountId, amount);
}

function matchingUnits(items: readonly DiscountableItem[], units: readonly Unit[][], predicate: string, kind: 'lineItem' | 'customLineItem'): Unit[] {
  const compiled = compiledPredicate(predicate, kind);
  return items.flatMap((item, index) => (compiled.test(item.fields) ? (units[index] ?? []) : []));
}

/**
 * Multi-buy: the matching units, most expensive first, form groups of `triggerQuantity` (at most
 * `maxOccurrence` groups); in each group the `discountedQuantity` cheapest (Cheapest) or most
 * expensive (MostExpensive) units are discounted.
 */
function multiBuyUnits(units: readonly Unit[], target: Extract<CartDiscountTarget, { type: 'multiBuyLineItems' | 'multiBuyCustomLineItems' }>): Unit[] {
  const ordered = [...units].sort((a, b) => remainingOf(b) - remainingOf(a));
  const groups = Math.min(Math.floor(ordered.length / target.triggerQuantity), target.maxOccurrence ?? Number.MAX_SAFE_INTEGER);
  const chosen: Unit[] = [];
  for (let group = 0; group < groups; group += 1) {
    const members = ordered.slice(group * target.triggerQuantity, (group + 1) * target.triggerQuantity);
    chosen.push(...(target.selectionMode === 'Cheapest' ? members.slice(-target.discountedQuantity) : members.slice(0, target.discountedQuantity)));
  }
  return chosen;
}

/**
 * What a distributed value takes off one occurrence of a pattern target: relative "calculated from
 * the total value of the units matching the targetPattern" (CartDiscountValueRelative.applicationMode),
 * fixed what the target units cost above the fixed price, absolute its amount.
 */
function distributedAmount(value: CartDiscountValue, targetUnits: readonly Unit[], currency: string): number {
  const total = targetUnits.reduce((sum, unit) => sum + remainingOf(unit), 0);
  if (value.type === 'relative') return divideRoundingHalfEven(total * value.permyriad, 10_000);
  const money = moneyIn(value, currency);
  if (money === undefined) return 0;
  return value.type === 'fixed' ? total - money : money;
}

/**
 * Applies `value` to one occurrence. IndividualApplication (relative and fixed's default) applies
 * to each target unit, "The units matching the triggerPattern are not considered"; Proportionate
 * (absolute's default) and EvenDistribution spread the amount "among the units matching the
 * targetPattern or triggerPattern".
 */
function applyToOccurrence(value: CartDiscountValue, occurrence: Occurrence, discountId: string, currency: string): boolean {
  const mode =
    value.type === 'giftLineItem' ? undefined : (value.applicationMode ?? (value.type === 'absolute' ? 'ProportionateDistribution' : 'IndividualApplication'));
  if (mode === 'IndividualApplication') return applyValue(value, occurrence.target, discountId, currency, true);
  const amount = distributedAmount(value, occurrence.target, currency);
  if (amount <= 0) return false;
  const units = [...occurrence.trigger, ...occurrence.target];
  return mode === 'EvenDistribution' ? takeEvenly(units, discountId, amount) : takeProportionately(units, discountId, amount);
}

/** CartDiscountPatternTarget: the value applies to each occurrence of the pattern among the cart's units. */
function applyPattern(work: Work, discount: CartDiscount, target: PatternTarget): boolean {
  const { cart } = work;
  const unitsOfItems = (items: readonly DiscountableItem[], units: readonly Unit[][], kind: PatternUnit['kind']): PatternUnit[] =>
    items.flatMap((item, index) => (units[index] ?? []).map((unit) => ({ unit, kind, fields: item.fields })));
  const units = [...unitsOfItems(cart.lineItems, work.lineUnits, 'lineItem'), ...unitsOfItems(cart.customLineItems, work.customUnits, 'customLineItem')];
  return patternOccurrences(units, target)
    .map((occurrence) => applyToOccurrence(discount.value, occurrence, discount.id, cart.currency))
    .some(Boolean);
}

function subtotal(work: Work): number {
  const units = [...work.lineUnits.flat(), ...work.customUnits.flat(), ...(work.shippingUnit === undefined ? [] : [work.shippingUnit]), ...work.shippingUnits];
  return units.reduce((sum, unit) => sum + remainingOf(unit), 0) - work.totalDiscounts.reduce((sum, each) => sum + each.amount, 0);
}

/** CartDiscountTotalPriceTarget: the discount comes off what the cart costs after the discounts before it. */
function applyToTotal(work: Work, discount: CartDiscount): boolean {
  const total = subtotal(work);
  const { value } = discount;
  const amount = value.type === 'relative' ? divideRoundingHalfEven(total * value.permyriad, 10_000) : Math.min(moneyIn(value, work.cart.currency) ?? 0, total);
  if (amount <= 0) return false;
  work.totalDiscounts.push({ discountId: discount.id, amount });
  return true;
}

function applyDiscount(work: Work, discount: CartDiscount): boolean {
  const { value, target, id } = discount;
  const { cart } = work;
  if (value.type === 'giftLineItem') {
    const { type: _type, ...gift } = value;
    work.gifts.push({ discount: { typeId: 'cart-discount', id }, ...gift });
    return true;
  }
  switch (target?.type) {
    case 'lineItems':
      return applyValue(value, matchingUnits(cart.lineItems, work.lineUnits, target.predicate, 'lineItem'), id, cart.currency, false);
    case 'customLineItems':
      return applyValue(value, matchingUnits(cart.customLineItems, work.customUnits, target.predicate, 'customLineItem'), id, cart.currency, false);
    case 'shipping':
      // CartDiscountShippingCostTarget: each Shipping's cost is discounted as a `Single` cart's is.
      return [...(work.shippingUnit === undefined ? [] : [work.shippingUnit]), ...work.shippingUnits]
        .map((unit) => applyValue(value, [unit], id, cart.currency, true))
        .some(Boolean);
    case 'totalPrice':
      return applyToTotal(work, discount);
    case 'multiBuyLineItems':
      return applyValue(value, multiBuyUnits(matchingUnits(cart.lineItems, work.lineUnits, target.predicate, 'lineItem'), target), id, cart.currency, true);
    case 'multiBuyCustomLineItems':
      return applyValue(
        value,
        multiBuyUnits(matchingUnits(cart.customLineItems, work.customUnits, target.predicate, 'customLineItem'), target),
        id,
        cart.currency,
        true,
      );
    case 'pattern':
      return applyPattern(work, discount, target);
    default:
      return false;
  }
}

function priceOf(unit: Unit, currency: string): DiscountedLineItemPrice {
  return {
    value: centPrecision(currency, remainingOf(unit)),
    includedDiscounts: unit.portions.map((portion) => ({
      discount: { typeId: 'cart-discount', id: portion.discountId },
      discountedAmount: centPrecision(currency, portion.amount),
    })),
  };
}

function itemOutcome(item: DiscountableItem, units: readonly Unit[], currency: string): ItemOutcome {
  const groups = new Map<string, { quantity: number; discountedPrice: DiscountedLineItemPrice }>();
  for (const unit of units.filter((each) => each.portions.length > 0)) {
    const price = priceOf(unit, currency);
    const key = JSON.stringify(price);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { quantity: 1, discountedPrice: price });
    else group.quantity += 1;
  }
  const total = units.reduce((sum, unit) => sum + remainingOf(unit), 0);
  return { id: item.id, discountedPricePerQuantity: [...groups.values()], totalPrice: centPrecision(currency, total) };
}

/** The subject cart predicates read: the cart's fields with its items' (line item functions iterate them). */
function cartSubject(cart: DiscountableCart): PredicateSubject {
  const items = (list: readonly DiscountableItem[]) =>
    list.map((item) => ({ quantity: item.quantity, totalPrice: centPrecision(cart.currency, item.unitPrice * item.quantity), ...item.fields }));
  return { currency: cart.currency, ...cart.fields, lineItems: items(cart.lineItems), customLineItems: items(cart.customLineItems) };
}

/** Active, valid now, for the cart's store (`stores` empty: every cart), its cart predicate matching, not excluded. */
function eligible(discount: CartDiscount, cart: DiscountableCart, subject: PredicateSubject, now: Date): boolean {
  if (!discount.isActive || !isValidAt(discount, now)) return false;
  if (cart.excludedDiscountIds?.includes(discount.id) === true) return false;
  if (discount.stores.length > 0 && !discount.stores.some((store) => store.key === cart.storeKey)) return false;
  return cartPredicateHolds(discount.cartPredicate, subject);
}

/**
 * Whether applying `cartDiscounts` and the cart's codes reads any predicate subject: a cart with no
 * discount to match (most carts) need not have one built.
 */
export function readsPredicates(cartDiscounts: readonly unknown[], discountCodeIds: readonly string[]): boolean {
  return cartDiscounts.length > 0 || discountCodeIds.length > 0;
}

/**
 * Applies the project's cart discounts to a cart, by the reference's rules: the discounts that
 * apply (active, valid at `now`, for the cart's store, cart predicate matching, and — when
 * `requiresDiscountCode` — brought by a code of the cart that MatchesCart) apply one after another
 * from the highest `sortOrder`, each to what the ones before left (rounded half even after each
 * step, the default priceRoundingMode); one with StopAfterThisDiscount that changed something ends
 * the sequence, and the codes whose discounts all came after it are ApplicationStoppedByPreviousDiscount.
 * Pure: prices in exact integer minor units; `usage` holds the codes' application counts.
 */
export function applyCartDiscounts(
  cart: DiscountableCart,
  cartDiscounts: readonly CartDiscount[],
  discountCodes: readonly DiscountCode[],
  now: Date,
  usage: ReadonlyMap<string, DiscountCodeUsage> = new Map(),
): CartDiscountOutcome {
  const subject = readsPredicates(cartDiscounts, cart.discountCodeIds) ? cartSubject(cart) : {};
  const states = new Map<string, DiscountCodeState>();
  for (const id of cart.discountCodeIds) {
    const code = discountCodes.find((each) => each.id === id);
    states.set(id, codeStateBeforeApplication(code, cartDiscounts, subject, now, usage.get(id)));
  }
  const matchingCodes = discountCodes.filter((code) => states.get(code.id) === 'MatchesCart');
  const broughtByCode = (discount: CartDiscount) => matchingCodes.some((code) => code.cartDiscounts.some((reference) => reference.id === discount.id));
  const candidates = cartDiscounts
    .filter((discount) => eligible(discount, cart, subject, now) && (!discount.requiresDiscountCode || broughtByCode(discount)))
    .sort((a, b) => compareSortOrders(b.sortOrder, a.sortOrder));

  const work: Work = {
    cart,
    lineUnits: cart.lineItems.map(unitsOf),
    customUnits: cart.customLineItems.map(unitsOf),
    shippingUnits: [],
    totalDiscounts: [],
    gifts: [],
  };
  if (cart.shippingPrice !== undefined) work.shippingUnit = { price: cart.shippingPrice, portions: [] };
  work.shippingUnits = (cart.shippingPrices ?? []).map((price) => ({ price, portions: [] }));
  const { applied, stopped, outbid } = applySteps(work, candidates);
  for (const code of matchingCodes) {
    const own = candidates.filter((discount) => code.cartDiscounts.some((reference) => reference.id === discount.id));
    if (own.length === 0 || !own.every((discount) => stopped.has(discount.id) || outbid.has(discount.id))) continue;
    // DiscountCodeState: ApplicationStoppedByGroupBestDeal when another discount of the group was the better deal.
    states.set(code.id, own.some((discount) => outbid.has(discount.id)) ? 'ApplicationStoppedByGroupBestDeal' : 'ApplicationStoppedByPreviousDiscount');
  }
  return outcome(work, applied, states);
}

/**
 * The candidates applied in order, a DiscountGroup's members as one step where only its best deal
 * applies; one with StopAfterThisDiscount that changed something ends the sequence. Returns what
 * applied, the ids stopped (after the end) and those outbid in their group.
 */
function applySteps(work: Work, candidates: readonly CartDiscount[]): { applied: CartDiscount[]; stopped: Set<string>; outbid: Set<string> } {
  const applied: CartDiscount[] = [];
  const outbid = new Set<string>();
  const steps = applicationSteps(candidates);
  let stoppedAt = steps.length;
  for (const [index, step] of steps.entries()) {
    const discount =
      step.length === 1 ? step[0] : bestDeal([...work.lineUnits.flat(), ...work.customUnits.flat()], step, (member) => applyDiscount(work, member));
    for (const member of step) if (member !== discount) outbid.add(member.id);
    if (discount === undefined || !applyDiscount(work, discount)) continue;
    applied.push(discount);
    if (discount.stackingMode === 'StopAfterThisDiscount') {
      stoppedAt = index + 1;
      break;
    }
  }
  return { applied, stopped: new Set(steps.slice(stoppedAt).flatMap((step) => step.map((discount) => discount.id))), outbid };
}

function shippingOutcome(unit: Unit, currency: string): NonNullable<CartDiscountOutcome['shipping']> {
  return { price: centPrecision(currency, unit.price), ...(unit.portions.length > 0 ? { discountedPrice: priceOf(unit, currency) } : {}) };
}

function outcome(work: Work, applied: readonly CartDiscount[], states: ReadonlyMap<string, DiscountCodeState>): CartDiscountOutcome {
  const { cart } = work;
  const currency = cart.currency;
  const result: CartDiscountOutcome = {
    lineItems: cart.lineItems.map((item, index) => itemOutcome(item, work.lineUnits[index] ?? [], currency)),
    customLineItems: cart.customLineItems.map((item, index) => itemOutcome(item, work.customUnits[index] ?? [], currency)),
    totalPrice: centPrecision(currency, subtotal(work)),
    discountCodes: [...states].map(([id, state]) => ({ discountCode: { typeId: 'discount-code', id }, state })),
    giftLineItems: work.gifts,
    applied: applied.map((discount) => ({ typeId: 'cart-discount', id: discount.id })),
  };
  const shipping = work.shippingUnit;
  if (shipping !== undefined) {
    result.shipping = {
      price: centPrecision(currency, shipping.price),
      ...(shipping.portions.length > 0 ? { discountedPrice: priceOf(shipping, currency) } : {}),
    };
  }
  if (cart.shippingPrices !== undefined) result.shippings = work.shippingUnits.map((unit) => shippingOutcome(unit, currency));
  if (work.totalDiscounts.length > 0) {
    const amount = work.totalDiscounts.reduce((sum, each) => sum + each.amount, 0);
    result.discountOnTotalPrice = {
      discountedAmount: centPrecision(currency, amount),
      includedDiscounts: work.totalDiscounts.map((each) => ({
        discount: { typeId: 'cart-discount', id: each.discountId },
        discountedAmount: centPrecision(currency, each.amount),
      })),
    };
  }
  return result;
}
