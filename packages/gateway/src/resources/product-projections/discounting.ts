import type { BaseResource } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { activeDiscounts } from '../discounts/active-discounts.js';
import { discountedPriceFor, type DiscountedPrice, type ProductPredicateKeys } from '../discounts/product-pricing.js';
import { PRODUCT_DISCOUNT_TYPE_ID, type ProductDiscount } from '../product-discounts/product-discount.js';
import type { Price, Product, ProductVariant } from '../products/product.js';
import { centPrecision } from '../shared/money.js';
import type { SelectablePrice } from './standalone-pricing.js';

/** A price as projections answer it: `discounted` when a Product Discount applies (types/common/Price.raml). */
export type AnsweredPrice = Price & { discounted?: DiscountedPrice };

/** What prices one request's projections: the project's active Product Discounts, loaded once per request. */
export interface PriceDiscounter {
  /**
   * `price` of `variant` (of `product`'s current or staged data) with its `discounted`, if any
   * applies; a StandalonePrice too ("Set if a matching ProductDiscount exists", StandalonePrice.discounted).
   */
  discount<P extends SelectablePrice>(product: Product, variant: ProductVariant, price: P): P & { discounted?: DiscountedPrice };
}

interface DiscounterSource {
  documents: DocumentStore;
  projectKey: string;
  products: readonly Product[];
  staged: boolean;
  now: Date;
}

function dataOf(product: Product, staged: boolean) {
  return staged ? product.masterData.staged : product.masterData.current;
}

/**
 * The keys a product predicate may name (`productType.key`, `categories.key`) of every product of
 * the answer, read in two queries whatever the page's size.
 */
async function predicateKeys({ documents, projectKey, products, staged }: DiscounterSource): Promise<Map<string, ProductPredicateKeys>> {
  const typeIds = [...new Set(products.map((product) => product.productType.id))];
  const categoryIds = [...new Set(products.flatMap((product) => dataOf(product, staged).categories.map(({ id }) => id)))];
  const [types, categories] = await Promise.all([
    documents.getMany<BaseResource>(projectKey, 'product-type', typeIds),
    categoryIds.length === 0 ? new Map<string, BaseResource>() : documents.getMany<BaseResource>(projectKey, 'category', categoryIds),
  ]);
  const keys = new Map<string, ProductPredicateKeys>();
  for (const product of products) {
    const categoryKeys: Record<string, string> = {};
    for (const { id } of dataOf(product, staged).categories) {
      const key = categories.get(id)?.key;
      if (key !== undefined) categoryKeys[id] = key;
    }
    const productType = types.get(product.productType.id)?.key;
    keys.set(product.id, { categories: categoryKeys, ...(productType === undefined ? {} : { productType }) });
  }
  return keys;
}

const NO_DISCOUNTS: PriceDiscounter = { discount: (_product, _variant, price) => price };

/**
 * What a product predicate reads of a price whose value may be HighPrecisionMoney (a
 * StandalonePrice's): its rounded `centAmount`, which is what the discount's value applies to.
 */
function asMatchedPrice({ tiers: _tiers, ...price }: SelectablePrice): Price {
  return { ...price, value: centPrecision(price.value.currencyCode, price.value.centAmount) };
}

/**
 * The discounter of one answer (Price.discounted, ScopedPrice.discounted): the active discounts are
 * read once, and the keys only when there are any; staged projections match the staged data.
 */
export async function priceDiscounter(source: DiscounterSource): Promise<PriceDiscounter> {
  if (source.products.length === 0) return NO_DISCOUNTS;
  const discounts = await activeDiscounts<ProductDiscount>(source.documents.db, source.projectKey, PRODUCT_DISCOUNT_TYPE_ID);
  if (discounts.length === 0) return NO_DISCOUNTS;
  const keys = await predicateKeys(source);
  const { staged, now } = source;
  return {
    discount(product, variant, price) {
      const discounted = discountedPriceFor(discounts, product, variant, asMatchedPrice(price), now, { staged, keys: keys.get(product.id) ?? {} });
      return discounted === undefined ? price : { ...price, discounted };
    },
  };
}

/** `variant` with every price discounted (the variant belongs to `product`'s projected data). */
export function discountedVariant<V extends ProductVariant>(discounter: PriceDiscounter, product: Product, variant: V): V {
  return { ...variant, prices: variant.prices.map((price) => discounter.discount(product, variant, price)) };
}
