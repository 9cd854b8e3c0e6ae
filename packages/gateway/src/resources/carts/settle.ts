import { ApiError } from '@herald/model';
import { multiply } from '../shared/money.js';
import type { Cart, LineItem } from './cart.js';
import { findCatalogueVariant, selectLineItemPrice, type CatalogueReads } from './catalogue.js';
import { catalogueFields, priceCriteria } from './line-item-draft.js';
import { recalculate } from './line-items.js';
import { discountCart, undiscountedCart } from './discounting.js';
import { isGift } from './gift-line-items.js';
import { refreshShipping } from './shipping.js';
import { assignPlatformRates } from './taxes.js';

/*
 * Bringing a cart up to date after a change: line item prices that depend on the quantity (tiers),
 * the shipping rate (tiers and `freeAbove` depend on the items' total), the Platform tax rates
 * (they depend on the shipping address) and the totals and taxed prices that follow.
 */

/**
 * A `Platform` line item's price selected again for the cart as it is (quantity tiers, country,
 * customer group, channel); with `updateProductData` the product data is copied again too
 * (CartRecalculateAction). A product gone or unpublished since keeps the item as it was.
 */
export async function repriceLineItem(cart: Cart, item: LineItem, reads: CatalogueReads, updateProductData = false): Promise<void> {
  // A gift line item is priced with its discount (gift-line-items.ts): a gift without a price goes, it fails no update.
  if (isGift(item)) return;
  if (item.priceMode !== 'Platform' && !updateProductData) return;
  const found = await findCatalogueVariant(reads, { productId: item.productId, variantId: item.variant.id }, 'lineItems');
  if (found instanceof ApiError) return;
  if (updateProductData) Object.assign(item, catalogueFields(found));
  // A Frozen cart "locks prices as they were when the Cart was frozen" (FreezeStrategy SoftFreeze).
  if (item.priceMode !== 'Platform' || cart.cartState === 'Frozen') return;
  item.price = await selectLineItemPrice(reads, found, priceCriteria(cart, item.distributionChannel), item.quantity);
  item.totalPrice = multiply(item.price.value, item.quantity, 'lineItems');
}

/** Every `Platform` line item priced again (recalculate; a new customer group or country). */
export async function repriceAll(cart: Cart, reads: CatalogueReads, updateProductData = false): Promise<void> {
  for (const item of cart.lineItems) await repriceLineItem(cart, item, reads, updateProductData);
}

/**
 * The shipping rate, the tax rates, the discounts and the totals for the cart as it is now; with
 * `reprice`, the `Platform` prices first (a new cart's were selected a moment ago). Discounts come
 * before the final totals: taxes are computed on the discounted amounts (discounting.ts).
 * A `Frozen` cart keeps its item prices (Product Discounts included); frozen with `HardFreeze` it
 * also keeps its cart discounts and shipping price (FreezeStrategy.raml): only taxes and totals follow.
 */
export async function settleCart(cart: Cart, reads: CatalogueReads, { reprice }: { reprice: boolean }): Promise<void> {
  const now = new Date();
  const frozen = cart.cartState === 'Frozen';
  const discountsMove = !(frozen && cart.freezeStrategy === 'HardFreeze');
  if (reprice) await repriceAll(cart, reads);
  if (discountsMove) await undiscountedCart(cart, reads, now, { productDiscounts: !frozen });
  recalculate(cart);
  if (discountsMove) await refreshShipping(cart, reads);
  await assignPlatformRates(cart, reads);
  recalculate(cart);
  if (discountsMove) await discountCart(cart, reads, now);
  recalculate(cart);
}
