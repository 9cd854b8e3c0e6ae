import { randomUUID } from 'node:crypto';
import { ApiError, invalidOperation, type Reference } from '@herald/model';
import type { CartDiscount, CartDiscountValue } from '../cart-discounts/cart-discount.js';
import type { GiftLineItem } from '../discounts/cart-pricing.js';
import { allVariants, PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import { centPrecision } from '../shared/money.js';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import type { Cart, LineItem, LineItemPrice } from './cart.js';
import { selectLineItemPrice, type CatalogueReads, type CatalogueVariant } from './catalogue.js';
import { catalogueFields, priceCriteria } from './line-item-draft.js';
import { engineFields } from './line-items.js';
import { unitPriceOf } from './product-discounts.js';

/*
 * Gift line items (types/cart/LineItemMode.raml `GiftLineItem`, CartDiscountValueGiftLineItem,
 * Cart.refusedGifts): a cart discount whose value is `giftLineItem` adds one unit of its variant
 * to every cart it applies to, priced by the catalogue and discounted to zero by that discount;
 * the item goes when the discount stops applying. A buyer cannot increase its quantity; removing
 * it refuses the gift (`refusedGifts`), and the discount no longer applies to the cart.
 */

type GiftValue = Extract<CartDiscountValue, { type: 'giftLineItem' }>;

/** What the gift of one discount would be in this cart: its variant and the price selected for it. */
export interface GiftOffer {
  value: GiftValue;
  found: CatalogueVariant;
  price: LineItemPrice;
}

export const isGift = (item: Pick<LineItem, 'lineItemMode'>): boolean => item.lineItemMode === 'GiftLineItem';

/** The discount that added a gift line item: the one that discounts it to zero (its only included discount). */
export function giftDiscountId(item: LineItem): string | undefined {
  return item.discountedPricePerQuantity[0]?.discountedPrice.includedDiscounts[0]?.discount.id;
}

/** "A Gift Line Item can be present on a Cart even if the referenced Product is unpublished": the current data, else the staged. */
async function giftVariant(reads: CatalogueReads, value: GiftValue): Promise<CatalogueVariant | undefined> {
  const product = await reads.load<Product>(PRODUCT_TYPE_ID, { id: value.product.id });
  if (product === undefined) return undefined;
  const { current, staged } = product.masterData;
  const variant = [...allVariants(current), ...allVariants(staged)].find((candidate) => candidate.id === value.variantId);
  return variant === undefined ? undefined : { product, variant };
}

/** The gift priced for the cart like any `Platform` line item; none when the variant is gone or has no matching price. */
async function giftOffer(cart: Cart, value: GiftValue, reads: CatalogueReads): Promise<GiftOffer | undefined> {
  const found = await giftVariant(reads, value);
  if (found === undefined) return undefined;
  try {
    return { value, found, price: await selectLineItemPrice(reads, found, priceCriteria(cart, value.distributionChannel), 1) };
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** The gifts the cart's gift discounts (not refused) would add, by discount id. */
export async function giftOffers(cart: Cart, discounts: readonly CartDiscount[], reads: CatalogueReads): Promise<Map<string, GiftOffer>> {
  const refused = new Set(cart.refusedGifts.map((reference) => reference.id));
  const offers = new Map<string, GiftOffer>();
  for (const discount of discounts) {
    if (discount.value.type !== 'giftLineItem' || refused.has(discount.id)) continue;
    const offer = await giftOffer(cart, discount.value, reads);
    if (offer !== undefined) offers.set(discount.id, offer);
  }
  return offers;
}

/** Gift discounts that cannot apply to the cart whatever their predicates: refused, or without a gift to add. */
export function unavailableGifts(cart: Cart, discounts: readonly CartDiscount[], offers: ReadonlyMap<string, GiftOffer>): string[] {
  const refused = cart.refusedGifts.map((reference) => reference.id);
  const unpriced = discounts.filter((discount) => discount.value.type === 'giftLineItem' && !offers.has(discount.id)).map((discount) => discount.id);
  return [...refused, ...unpriced];
}

function newGiftItem(offer: GiftOffer): LineItem {
  const { value } = offer;
  return {
    id: randomUUID(),
    ...catalogueFields(offer.found),
    quantity: 1,
    price: offer.price,
    priceMode: 'Platform',
    lineItemMode: 'GiftLineItem',
    totalPrice: centPrecision(offer.price.value.currencyCode, 0),
    ...engineFields(),
    ...(value.supplyChannel === undefined ? {} : { supplyChannel: value.supplyChannel }),
    ...(value.distributionChannel === undefined ? {} : { distributionChannel: value.distributionChannel }),
  };
}

/** "The totalPrice is always 0": the gift's discount takes off its whole unit price. */
function discountedToZero(item: LineItem, discount: Reference<'cart-discount'>, currency: string): void {
  const discountedAmount = centPrecision(currency, unitPriceOf(item));
  item.discountedPricePerQuantity = [
    { quantity: item.quantity, discountedPrice: { value: centPrecision(currency, 0), includedDiscounts: [{ discount, discountedAmount }] } },
  ];
  item.totalPrice = centPrecision(currency, 0);
}

/**
 * Removes the gifts of discounts not `given` any more, and all but the first of one discount's (a
 * cart merged at sign-in, sign-in-carts.ts, may hold the anonymous cart's gift as well).
 */
function dropStaleGifts(cart: Cart, given: ReadonlySet<string>): void {
  const kept = new Set<string>();
  cart.lineItems = cart.lineItems.filter((item) => {
    if (!isGift(item)) return true;
    const discountId = giftDiscountId(item) ?? '';
    if (!given.has(discountId) || kept.has(discountId)) return false;
    kept.add(discountId);
    return true;
  });
}

/**
 * The cart's gift line items made to follow the discounts that applied (`gifts`, from
 * discounts/cart-pricing.ts): a gift whose discount no longer applies goes, a new one is added,
 * a present `Platform` one is priced again (a Frozen cart keeps its prices). Returns whether a gift was added.
 */
export function placeGifts(cart: Cart, gifts: readonly GiftLineItem[], offers: ReadonlyMap<string, GiftOffer>): boolean {
  dropStaleGifts(cart, new Set(gifts.map((gift) => gift.discount.id)));
  const currency = cart.totalPrice.currencyCode;
  let added = false;
  for (const gift of gifts) {
    const offer = offers.get(gift.discount.id);
    if (offer === undefined) continue;
    let item = cart.lineItems.find((candidate) => isGift(candidate) && giftDiscountId(candidate) === gift.discount.id);
    if (item === undefined) {
      item = newGiftItem(offer);
      cart.lineItems.push(item);
      added = true;
    } else if (cart.cartState !== 'Frozen' && item.priceMode === 'Platform') {
      // An external price set on the gift (setLineItemPrice: "all other updates … can be used") stays.
      item.price = offer.price;
    }
    discountedToZero(item, gift.discount, currency);
  }
  return added;
}

/** The line item an action names by `lineItemId`/`lineItemKey`, if the cart has it (the handler reports a missing one). */
function namedLineItem(cart: Cart, action: UpdateAction): LineItem | undefined {
  const { lineItemId, lineItemKey } = action;
  return cart.lineItems.find((item) => (typeof lineItemId === 'string' ? item.id === lineItemId : typeof lineItemKey === 'string' && item.key === lineItemKey));
}

/** LineItemMode `GiftLineItem`: what the reference says a gift line item refuses. */
const GIFT_GUARDS: Readonly<Record<string, (item: LineItem, action: UpdateAction) => void>> = {
  changeLineItemQuantity(item, action) {
    // "The quantity cannot be increased"; 0 removes it (a refusal).
    if (typeof action.quantity === 'number' && action.quantity > item.quantity) {
      throw invalidOperation(`The line item '${item.id}' is a gift line item: its quantity cannot be increased.`);
    }
  },
  setLineItemTotalPrice(item) {
    // "The totalPrice is always 0 and cannot be changed externally via the setLineItemTotalPrice action."
    throw invalidOperation(`The line item '${item.id}' is a gift line item: its total price cannot be set.`);
  },
};

/**
 * A gift line item the action removed: its discount goes into `refusedGifts` and no longer applies
 * to the cart. refusedGifts holds CartDiscountReferences; a Direct Discount's gift (a cart discount
 * of this cart only, DirectDiscount.raml) is named by its id there too, until setDirectDiscounts replaces it.
 */
function refuseRemovedGifts(cart: Cart, giftsBefore: readonly LineItem[]): void {
  const present = new Set(cart.lineItems.map((item) => item.id));
  for (const gift of giftsBefore) {
    const discountId = giftDiscountId(gift);
    if (present.has(gift.id) || discountId === undefined || cart.refusedGifts.some((reference) => reference.id === discountId)) continue;
    cart.refusedGifts.push({ typeId: 'cart-discount', id: discountId });
  }
}

/** The update actions with LineItemMode `GiftLineItem`'s rules: the guards above, and a removed gift refused. */
export function withGiftRules(handlers: ActionHandlers<Cart>): ActionHandlers<Cart> {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      async (cart: Cart, action: UpdateAction, scope: Parameters<typeof handler>[2]) => {
        const guard = GIFT_GUARDS[name];
        const item = guard === undefined ? undefined : namedLineItem(cart, action);
        if (guard !== undefined && item !== undefined && isGift(item)) guard(item, action);
        const giftsBefore = cart.lineItems.filter(isGift);
        const messages = await handler(cart, action, scope);
        refuseRemovedGifts(cart, giftsBefore);
        return messages;
      },
    ]),
  );
}
