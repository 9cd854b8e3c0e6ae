import { systemClock, type BaseResource, type MessagePayload } from '@herald/model';
import type { Locator, Queryable } from '@herald/store';
import { activeDiscounts } from '../discounts/active-discounts.js';
import { discountedPriceFor } from '../discounts/product-pricing.js';
import { PRODUCT_DISCOUNT_TYPE_ID, type ProductDiscount } from '../product-discounts/product-discount.js';
import { predicateKeys } from '../products/discounted-price.js';
import { productsWithCurrentSkus } from '../products/sku-lookup.js';
import type { Load } from '../shared/references.js';
import { asProductPrice, scopeKeys, variantWithSku, type PricedScope } from './discount-predicate.js';
import type { DiscountedPrice, StandalonePrice } from './standalone-price.js';

/** Reads inside the write's transaction: the platform discount commits with what it follows. */
export interface PlatformReads {
  tx: Queryable;
  projectKey: string;
  load: Load;
  now?: Date;
}

/**
 * The Product Discounts the platform applies itself: active, and not `external` (an external
 * discount's value is set by a client, ProductDiscountValueExternal). Validity is checked at `now`
 * by discountedPriceFor.
 */
export async function platformDiscounts(reads: PlatformReads): Promise<ProductDiscount[]> {
  const active = await activeDiscounts<ProductDiscount>(reads.tx, reads.projectKey, PRODUCT_DISCOUNT_TYPE_ID);
  return active.filter((discount) => discount.value.type !== 'external');
}

/** `load` answering each resource once: a batch of prices reads the same product types and channels. */
export function memoizedLoad(load: Load): Load {
  const seen = new Map<string, Promise<unknown>>();
  return <T extends BaseResource>(typeId: string, locator: Locator) => {
    const cacheKey = `${typeId} ${JSON.stringify(locator)}`;
    if (!seen.has(cacheKey)) seen.set(cacheKey, load<T>(typeId, locator));
    return seen.get(cacheKey) as Promise<T | undefined>;
  };
}

/**
 * StandalonePrice.discounted "Set if a matching ProductDiscount exists": for each price, the best
 * of `discounts` (sortOrder) whose predicate matches the price and the variant of its SKU in the
 * current data of a published product (as setDiscountedPrice requires); undefined without such a
 * product or discount. One product read for the whole batch.
 */
export async function platformDiscountedPrices(
  prices: readonly PricedScope[],
  discounts: readonly ProductDiscount[],
  reads: PlatformReads,
): Promise<Array<DiscountedPrice | undefined>> {
  if (discounts.length === 0) return prices.map(() => undefined);
  const products = await productsWithCurrentSkus(
    reads.tx,
    reads.projectKey,
    prices.map((price) => price.sku),
    { published: true },
  );
  const load = memoizedLoad(reads.load);
  const now = reads.now ?? systemClock.now();
  return Promise.all(
    prices.map(async (price) => {
      const product = products.get(price.sku);
      const variant = product === undefined ? undefined : variantWithSku(product, price.sku);
      if (product === undefined || variant === undefined) return undefined;
      const keys = { ...(await predicateKeys(product, product.masterData.current, load)), ...(await scopeKeys(price, load)) };
      return discountedPriceFor(discounts, product, variant, asProductPrice(price), now, { keys });
    }),
  );
}

/**
 * Whether the platform may replace the price's `discounted`: none is set, or it comes from a
 * non-external discount. A value a client set for an external discount (setDiscountedPrice) stays:
 * the platform never computes external values. `written`: the version of a discount being changed
 * or deleted before the write (its stored type is what set the price's value).
 */
export async function platformOwnsDiscounted(price: Pick<StandalonePrice, 'discounted'>, load: Load, written?: ProductDiscount): Promise<boolean> {
  const id = price.discounted?.discount.id;
  if (id === undefined) return true;
  const discount = id === written?.id ? written : await load<ProductDiscount>(PRODUCT_DISCOUNT_TYPE_ID, { id });
  return discount !== undefined && discount.value.type !== 'external';
}

/** Sets (or removes) the price's `discounted` in place: its StandalonePriceDiscountSet, or none when unchanged. */
export function setPlatformDiscounted(price: Pick<StandalonePrice, 'discounted'>, discounted: DiscountedPrice | undefined): MessagePayload | undefined {
  if (sameDiscounted(price.discounted, discounted)) return undefined;
  if (discounted === undefined) delete price.discounted;
  else price.discounted = discounted;
  return { type: 'StandalonePriceDiscountSet', ...(discounted === undefined ? {} : { discounted }) };
}

function sameDiscounted(a: DiscountedPrice | undefined, b: DiscountedPrice | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.discount.id === b.discount.id && a.value.currencyCode === b.value.currencyCode && a.value.centAmount === b.value.centAmount;
}
