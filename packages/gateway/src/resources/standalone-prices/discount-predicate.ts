import { invalidInput, invalidOperation, type BaseResource } from '@herald/model';
import type { Queryable } from '@herald/store';
import { compiledPredicate } from '../../predicates/index.js';
import { productPredicateSubject, type ProductPredicateKeys } from '../discounts/product-pricing.js';
import type { ExternalDiscount } from '../products/discounted-price.js';
import { predicateKeys } from '../products/discounted-price.js';
import { allVariants, type Price, type Product, type ProductVariant } from '../products/product.js';
import { productWithCurrentSku } from '../products/sku-lookup.js';
import { centPrecision } from '../shared/money.js';
import type { Load } from '../shared/references.js';
import type { StandalonePrice } from './standalone-price.js';

/** What the discount's predicate reads of a standalone price (a draft has no id yet). */
export type PricedScope = Pick<StandalonePrice, 'sku' | 'value' | 'country' | 'customerGroup' | 'channel'> & { id?: string };

/** Where the predicate runs: the project's database (the update's transaction inside an update). */
export interface PredicateReads {
  db: Queryable;
  projectKey: string;
  load: Load;
}

/**
 * StandalonePriceSetDiscountedPriceAction: "Discounts a Standalone Price of a Product Variant on a
 * published Product. If the Product Variant does not exist or if it exists only in the staged
 * representation of a Product, an InvalidOperationError"; the discount's "predicate must match the
 * referenced Price". The draft's `discounted` (StandalonePriceDraft) is held to the same rule.
 */
export async function assertDiscountMatchesPrice(external: ExternalDiscount, price: PricedScope, reads: PredicateReads): Promise<void> {
  const product = await productWithCurrentSku(reads.db, reads.projectKey, price.sku, { published: true });
  const variant = product === undefined ? undefined : variantWithSku(product, price.sku);
  if (product === undefined || variant === undefined) {
    throw invalidOperation(`No published product has a variant with the SKU '${price.sku}' to discount the standalone price of.`);
  }
  const data = product.masterData.current;
  const keys = { ...(await predicateKeys(product, data, reads.load)), ...(await scopeKeys(price, reads.load)) };
  const subject = productPredicateSubject(product, data, variant, asProductPrice(price), keys);
  if (compiledPredicate(external.discount.predicate, 'product').test(subject)) return;
  throw invalidInput(`The predicate of the ProductDiscount '${external.discount.id}' does not match the standalone price of the SKU '${price.sku}'.`, {
    field: 'discounted.discount',
  });
}

export function variantWithSku(product: Product, sku: string): ProductVariant | undefined {
  return allVariants(product.masterData.current).find((variant) => variant.sku === sku);
}

/** `customerGroup.key` and `channel.key` of the price's scope (Price field identifiers). */
export async function scopeKeys(price: PricedScope, load: Load): Promise<ProductPredicateKeys> {
  const keyOf = async (typeId: string, id: string | undefined) => (id === undefined ? undefined : (await load<BaseResource>(typeId, { id }))?.key);
  const customerGroup = await keyOf('customer-group', price.customerGroup?.id);
  const channel = await keyOf('channel', price.channel?.id);
  return { ...(customerGroup === undefined ? {} : { customerGroup }), ...(channel === undefined ? {} : { channel }) };
}

/** The price as a product predicate reads it: a HighPrecisionMoney value by its rounded `centAmount`. */
export function asProductPrice(price: PricedScope): Price {
  const { country, customerGroup, channel } = price;
  return {
    id: price.id ?? '',
    value: centPrecision(price.value.currencyCode, price.value.centAmount),
    ...(country === undefined ? {} : { country }),
    ...(customerGroup === undefined ? {} : { customerGroup }),
    ...(channel === undefined ? {} : { channel }),
  };
}
