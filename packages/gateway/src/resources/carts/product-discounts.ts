import type { BaseResource } from '@herald/model';
import { discountedPriceFor, type ProductPredicateKeys } from '../discounts/product-pricing.js';
import { PRODUCT_DISCOUNT_TYPE_ID, type ProductDiscount } from '../product-discounts/product-discount.js';
import { allVariants, PRODUCT_TYPE_ID, type Price, type Product } from '../products/product.js';
import type { Cart, LineItem } from './cart.js';
import { activeOf, type CatalogueReads } from './catalogue.js';

/*
 * Product Discounts on a cart's line items (LineItem.price.discounted): only a `Platform` item's
 * price is the catalogue's, so only it is discounted ("the discounted price is used … if the
 * LineItemPriceMode is Platform"); the cart discounts then start from the discounted unit price.
 */

/** The product type's and categories' keys a product predicate may name (`productType.key`, `categories.key`). */
async function predicateKeys(reads: CatalogueReads, product: Product): Promise<ProductPredicateKeys> {
  const type = await reads.load<BaseResource>('product-type', { id: product.productType.id });
  const categories: Record<string, string> = {};
  for (const { id } of product.masterData.current.categories) {
    const key = (await reads.load<BaseResource>('category', { id }))?.key;
    if (key !== undefined) categories[id] = key;
  }
  return { categories, ...(type?.key === undefined ? {} : { productType: type.key }) };
}

async function discountItem(item: LineItem, discounts: readonly ProductDiscount[], reads: CatalogueReads, now: Date): Promise<void> {
  delete item.price.discounted;
  if (item.priceMode !== 'Platform' || discounts.length === 0) return;
  const product = await reads.load<Product>(PRODUCT_TYPE_ID, { id: item.productId });
  const variant = product === undefined ? undefined : allVariants(product.masterData.current).find((each) => each.id === item.variant.id);
  if (product === undefined || variant === undefined) return;
  // The line item's price is a copy of the selected Price (its `value` the quantity's tier): the
  // discount applies to that value; an external discount to the value set on the catalogue's Price.
  const set = variant.prices.find((candidate) => candidate.id === item.price.id)?.discounted;
  const price = { ...(item.price as Price), ...(set === undefined ? {} : { discounted: set }) };
  const discounted = discountedPriceFor(discounts, product, variant, price, now, { keys: await predicateKeys(reads, product) });
  if (discounted !== undefined) item.price.discounted = discounted;
}

/** Sets or clears `price.discounted` of every line item for the project's active Product Discounts at `now`. */
export async function applyProductDiscounts(cart: Cart, reads: CatalogueReads, now: Date): Promise<void> {
  const platformItems = cart.lineItems.filter((item) => item.priceMode === 'Platform');
  const discounts = platformItems.length === 0 ? [] : await activeOf<ProductDiscount>(reads, PRODUCT_DISCOUNT_TYPE_ID);
  for (const item of cart.lineItems) await discountItem(item, discounts, reads, now);
}

/** The unit price cart discounts start from: the product-discounted one where there is one. */
export function unitPriceOf(item: LineItem): number {
  return (item.price.discounted?.value ?? item.price.value).centAmount;
}
