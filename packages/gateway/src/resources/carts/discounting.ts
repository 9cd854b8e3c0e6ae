import { testedDocumentSql } from '@herald/store';
import type { PredicateSubject } from '../../predicates/index.js';
import { CART_DISCOUNT_TYPE_ID, type CartDiscount } from '../cart-discounts/cart-discount.js';
import { throughGroups } from '../discounts/best-deal.js';
import {
  applyCartDiscounts,
  readsPredicates,
  type CartDiscountOutcome,
  type DiscountableCart,
  type DiscountableItem,
  type DiscountCodeUsage,
} from '../discounts/cart-pricing.js';
import { DISCOUNT_CODE_TYPE_ID, type DiscountCode } from '../discount-codes/discount-code.js';
import { DISCOUNT_GROUP_TYPE_ID, type DiscountGroup } from '../discount-groups/discount-group.js';
import { centPrecision } from '../shared/money.js';
import { cartPredicateSubject } from '../shipping-methods/cart-predicate.js';
import type { Cart, CustomLineItem, DiscountCodeInfo, LineItem } from './cart.js';
import { activeOf, type CatalogueReads } from './catalogue.js';
import { asCartDiscount } from './direct-discounts.js';
import { discountCodeByText } from './discount-codes.js';
import { giftOffers, isGift, placeGifts, unavailableGifts } from './gift-line-items.js';
import { applyProductDiscounts, unitPriceOf } from './product-discounts.js';
import { assignPlatformRates } from './taxes.js';

/*
 * The discounts of a cart, recomputed at every write (types/cart/Cart.raml, LineItem
 * discountedPricePerQuantity, DiscountOnTotalPrice, DiscountCodeInfo): first the Product Discounts
 * and the undiscounted totals (before shipping and tax rates are looked up), then the project's
 * active Cart Discounts and the cart's codes by discounts/cart-pricing.ts. Cart Discounts created or
 * changed since the cart's last write apply at its next one. Gift line items follow the gift
 * discounts that applied (gift-line-items.ts).
 */

/**
 * Units of an ExternalTotal line item are not discounted: "Cart Discounts are deactivated" for them
 * (LineItemPriceMode.raml). A gift line item is its own discount's only: "the totalPrice is always 0".
 */
const discountable = (item: LineItem): boolean => item.priceMode !== 'ExternalTotal' && !isGift(item);

/**
 * Product Discounts applied (unless `productDiscounts` is false: a Frozen cart keeps its prices) and
 * every cart discount's effect removed: the totals cart discounts start from.
 */
export async function undiscountedCart(cart: Cart, reads: CatalogueReads, now: Date, { productDiscounts = true } = {}): Promise<void> {
  if (productDiscounts) await applyProductDiscounts(cart, reads, now);
  const currency = cart.totalPrice.currencyCode;
  for (const item of cart.lineItems) {
    // A gift keeps the discount that gave it (gift-line-items.ts giftDiscountId) until the discounts are applied again.
    if (isGift(item)) item.totalPrice = centPrecision(currency, 0);
    else item.discountedPricePerQuantity = [];
    if (discountable(item)) item.totalPrice = centPrecision(currency, unitPriceOf(item) * item.quantity);
  }
  for (const item of cart.customLineItems) {
    item.discountedPricePerQuantity = [];
    item.totalPrice = centPrecision(currency, item.money.centAmount * item.quantity);
  }
  if (cart.shippingInfo !== undefined) delete cart.shippingInfo.discountedPrice;
  for (const shipping of cart.shipping) delete shipping.shippingInfo.discountedPrice;
  delete cart.discountOnTotalPrice;
}

/** Codes stored before DiscountCodeInfo had its reference (`{code}`) are looked up once; unknown ones go. */
async function currentCodeInfos(cart: Cart, reads: CatalogueReads): Promise<DiscountCodeInfo[]> {
  const infos: DiscountCodeInfo[] = [];
  for (const entry of cart.discountCodes as Array<DiscountCodeInfo | { code: string }>) {
    if ('discountCode' in entry) infos.push(entry);
    else {
      const code = await discountCodeByText(reads.db, reads.projectKey, entry.code);
      if (code !== undefined) infos.push({ discountCode: { typeId: DISCOUNT_CODE_TYPE_ID, id: code.id }, state: 'MatchesCart' });
    }
  }
  return infos;
}

async function appliedOrders(reads: CatalogueReads, codeId: string, customerId?: string): Promise<number> {
  const filter = { discountCodes: [{ discountCode: { id: codeId }, state: 'MatchesCart' }], ...(customerId === undefined ? {} : { customerId }) };
  const found = await reads.db.query<{ count: string | number }>(
    `SELECT count(*) AS count FROM resources r WHERE r.project_key = $1 AND r.type_id = 'order' AND ${testedDocumentSql('order', false)} @> $2::jsonb`,
    [reads.projectKey, JSON.stringify(filter)],
  );
  return Number(found.rows[0]?.count ?? 0);
}

/**
 * How often each limited code was applied: "DiscountCode application is counted at the time of
 * Order creation" (DiscountCode.raml maxApplications), i.e. the orders that carry it as MatchesCart.
 * Herald counts those orders, so a deleted order no longer counts (the platform keeps counting it).
 */
export async function codeUsage(
  reads: CatalogueReads,
  codes: readonly DiscountCode[],
  customerId: string | undefined,
): Promise<Map<string, DiscountCodeUsage>> {
  const usage = new Map<string, DiscountCodeUsage>();
  for (const code of codes) {
    if (code.maxApplications === undefined && code.maxApplicationsPerCustomer === undefined) continue;
    const byCustomer = code.maxApplicationsPerCustomer === undefined || customerId === undefined ? 0 : await appliedOrders(reads, code.id, customerId);
    usage.set(code.id, { total: await appliedOrders(reads, code.id), byCustomer });
  }
  return usage;
}

function itemOf<T extends LineItem | CustomLineItem>(item: T, subject: PredicateSubject, unitPrice: number): DiscountableItem {
  return { id: item.id, quantity: item.quantity, unitPrice, fields: subject };
}

/**
 * The cart as the engine reads it: discountable items at their (product-discounted) unit prices.
 * Cart predicates do not see gift line items: a gift could otherwise keep its own discount matching.
 */
function discountableCart(cart: Cart, codeIds: readonly string[], excludedDiscountIds: readonly string[], predicated: boolean): DiscountableCart {
  const bought = cart.lineItems.filter((item) => !isGift(item));
  // The predicate subject is only read when a discount or code has a predicate to match.
  const subject = predicated ? cartPredicateSubject({ ...cart, lineItems: bought }) : {};
  const lineSubjects = (subject.lineItems ?? []) as PredicateSubject[];
  return {
    currency: cart.totalPrice.currencyCode,
    ...(cart.store === undefined ? {} : { storeKey: cart.store.key }),
    fields: subject,
    lineItems: bought.flatMap((item, index) => (discountable(item) ? [itemOf(item, lineSubjects[index] ?? {}, unitPriceOf(item))] : [])),
    customLineItems: cart.customLineItems.map((item) => itemOf(item, item as unknown as PredicateSubject, item.money.centAmount)),
    ...(cart.shippingInfo === undefined ? {} : { shippingPrice: cart.shippingInfo.price.centAmount }),
    ...(cart.shippingMode === 'Multiple' ? { shippingPrices: cart.shipping.map((shipping) => shipping.shippingInfo.price.centAmount) } : {}),
    discountCodeIds: codeIds,
    excludedDiscountIds,
  };
}

function writeOutcome(cart: Cart, outcome: CartDiscountOutcome): void {
  const items = new Map([...outcome.lineItems, ...outcome.customLineItems].map((each) => [each.id, each]));
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    const result = items.get(item.id);
    if (result === undefined) continue;
    item.discountedPricePerQuantity = result.discountedPricePerQuantity;
    item.totalPrice = result.totalPrice;
  }
  const shipping = outcome.shipping?.discountedPrice;
  if (shipping !== undefined && cart.shippingInfo !== undefined) cart.shippingInfo.discountedPrice = shipping;
  outcome.shippings?.forEach((each, index) => {
    const info = cart.shipping[index]?.shippingInfo;
    if (info !== undefined && each.discountedPrice !== undefined) info.discountedPrice = each.discountedPrice;
  });
  if (outcome.discountOnTotalPrice !== undefined) cart.discountOnTotalPrice = outcome.discountOnTotalPrice;
  cart.discountCodes = outcome.discountCodes;
}

async function codesOf(reads: CatalogueReads, infos: readonly DiscountCodeInfo[]): Promise<DiscountCode[]> {
  const codes: DiscountCode[] = [];
  for (const info of infos) {
    const code = await reads.load<DiscountCode>(DISCOUNT_CODE_TYPE_ID, { id: info.discountCode.id });
    if (code !== undefined) codes.push(code);
  }
  return codes;
}

/** The cart's discount codes' own cart discounts, even where inactive (their state says why they do not apply). */
async function discountsOf(reads: CatalogueReads, codes: readonly DiscountCode[], active: readonly CartDiscount[]): Promise<CartDiscount[]> {
  const all = [...active];
  for (const reference of codes.flatMap((code) => code.cartDiscounts)) {
    if (all.some((known) => known.id === reference.id)) continue;
    const discount = await reads.load<CartDiscount>(CART_DISCOUNT_TYPE_ID, { id: reference.id });
    if (discount !== undefined) all.push(discount);
  }
  return all;
}

/** A Direct Discount's share is referenced as a DirectDiscountReference (`direct-discount`), not as a Cart Discount. */
function asDirectReferences(cart: Cart): void {
  const ids = new Set(cart.directDiscounts.map((discount) => discount.id));
  const retype = (included: Array<{ discount: { typeId: string; id: string } }> | undefined) => {
    for (const each of included ?? []) if (ids.has(each.discount.id)) each.discount.typeId = 'direct-discount';
  };
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    for (const portion of item.discountedPricePerQuantity) retype(portion.discountedPrice.includedDiscounts);
  }
  retype(cart.shippingInfo?.discountedPrice?.includedDiscounts);
  for (const shipping of cart.shipping) retype(shipping.shippingInfo.discountedPrice?.includedDiscounts);
  retype(cart.discountOnTotalPrice?.includedDiscounts);
}

/** The cart's discounts (with its codes, or its Direct Discounts) applied, and its gift line items following them. */
async function applyDiscounts(
  cart: Cart,
  reads: CatalogueReads,
  now: Date,
  applicable: {
    discounts: readonly CartDiscount[];
    codes: readonly DiscountCode[];
    codeIds: readonly string[];
    usage?: ReadonlyMap<string, DiscountCodeUsage>;
  },
): Promise<void> {
  const { discounts, codes } = applicable;
  const offers = await giftOffers(cart, discounts, reads);
  const predicated = readsPredicates(discounts, applicable.codeIds);
  const engineCart = discountableCart(cart, applicable.codeIds, unavailableGifts(cart, discounts, offers), predicated);
  const outcome = applyCartDiscounts(engineCart, discounts, codes, now, applicable.usage);
  writeOutcome(cart, outcome);
  // A new gift gets its tax rate as every line item has (settle.ts assigned the others before discounting).
  if (placeGifts(cart, outcome.giftLineItems, offers)) await assignPlatformRates(cart, reads);
}

/** "A Cart with Direct Discounts" has only them as its cart discounts (and no codes: CartSetDirectDiscountsAction). */
async function applyDirectDiscounts(cart: Cart, reads: CatalogueReads, now: Date): Promise<void> {
  await applyDiscounts(cart, reads, now, { discounts: cart.directDiscounts.map(asCartDiscount), codes: [], codeIds: [] });
  asDirectReferences(cart);
}

/** The project's Cart Discounts and the cart's codes applied to the undiscounted cart (undiscountedCart ran first). */
export async function discountCart(cart: Cart, reads: CatalogueReads, now: Date): Promise<void> {
  if (cart.directDiscounts.length > 0) {
    await applyDirectDiscounts(cart, reads, now);
    return;
  }
  const infos = await currentCodeInfos(cart, reads);
  const active = await activeOf<CartDiscount>(reads, CART_DISCOUNT_TYPE_ID);
  cart.discountCodes = infos;
  const codes = await codesOf(reads, infos);
  const groups = await activeOf<DiscountGroup>(reads, DISCOUNT_GROUP_TYPE_ID);
  const discounts = throughGroups(await discountsOf(reads, codes, active), groups);
  const usage = await codeUsage(reads, codes, cart.customerId);
  await applyDiscounts(cart, reads, now, { discounts, codes, codeIds: infos.map((info) => info.discountCode.id), usage });
}
