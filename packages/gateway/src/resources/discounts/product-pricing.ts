import type { Reference } from '@herald/model';
import { compiledPredicate, type PredicateSubject } from '../../predicates/index.js';
import type { Price, Product, ProductData, ProductVariant } from '../products/product.js';
import { centPrecision, fractionDigitsOf, type CentPrecisionMoney } from '../shared/money.js';
import type { ProductDiscount } from '../product-discounts/product-discount.js';
import { divideRoundingHalfDown } from './rounding.js';
import { compareSortOrders } from './sort-order.js';
import { isValidAt } from './validity.js';

/** The reference's DiscountedPrice (types/common/DiscountedPrice.raml). */
export interface DiscountedPrice {
  value: CentPrecisionMoney;
  discount: Reference<'product-discount'>;
}

/**
 * Keys the product predicate may name (`productType.key`, `categories.key`, `customerGroup.key`,
 * `channel.key`) that the product document holds only ids of; what the caller loaded.
 */
export interface ProductPredicateKeys {
  productType?: string;
  categories?: Readonly<Record<string, string>>;
  customerGroup?: string;
  channel?: string;
}

export interface ProductPricingOptions {
  /** Which data version the variant belongs to (default: current). */
  staged?: boolean;
  keys?: ProductPredicateKeys;
}

function idAndKey(id: string | undefined, key: string | undefined): Record<string, string> | undefined {
  if (id === undefined) return undefined;
  return key === undefined ? { id } : { id, key };
}

/**
 * What a ProductDiscount predicate reads about one price of one variant (the reference's "Product
 * field identifiers" and "Price field identifiers"): product, product type, variant, sku, the
 * product's and the variant's Attributes, the price's value and scope, and the categories.
 */
export function productPredicateSubject(
  product: Product,
  data: ProductData,
  variant: ProductVariant,
  price: Price,
  keys: ProductPredicateKeys = {},
): PredicateSubject {
  const { value } = price;
  const digits = value.fractionDigits ?? fractionDigitsOf(value.currencyCode);
  const categories = data.categories.map((category) => idAndKey(category.id, keys.categories?.[category.id]));
  return {
    product: idAndKey(product.id, product.key),
    productId: product.id,
    productType: idAndKey(product.productType.id, keys.productType),
    variant: { id: variant.id, ...(variant.key === undefined ? {} : { key: variant.key }) },
    sku: variant.sku,
    attributes: [...data.attributes, ...variant.attributes],
    price: value,
    centAmount: value.centAmount,
    amount: value.centAmount / 10 ** digits,
    currency: value.currencyCode,
    country: price.country,
    customerGroup: idAndKey(price.customerGroup?.id, keys.customerGroup),
    channel: idAndKey(price.channel?.id, keys.channel),
    categories,
    // Herald keeps no category ancestry on products: a product's own categories are what it has.
    categoriesWithAncestors: categories,
  };
}

/** The discounted amount in minor units, or undefined when the value cannot apply to this currency. */
function discountedAmount(discount: ProductDiscount, price: CentPrecisionMoney): number | undefined {
  const { value } = discount;
  switch (value.type) {
    case 'relative':
      return divideRoundingHalfDown(price.centAmount * (10_000 - value.permyriad), 10_000);
    case 'absolute': {
      // "will only match a price if this array contains a value with the same currency"; "If the value
      // exceeds the price …, the resulting discounted price is set to 0."
      const money = value.money.find((each) => each.currencyCode === price.currencyCode);
      return money === undefined ? undefined : Math.max(0, price.centAmount - money.centAmount);
    }
    case 'external':
      // Set on the price by clients (ProductSetDiscountedPriceAction): see externalAmount.
      return undefined;
  }
}

/**
 * An `external` discount applies with the value a client set on the price for it
 * (ProductSetDiscountedPriceAction / StandalonePriceSetDiscountedPriceAction), while it is active
 * and its predicate matches; it never computes a value of its own.
 */
function externalAmount(discount: ProductDiscount, price: Price): number | undefined {
  const { discounted } = price;
  return discounted !== undefined && discounted.discount.id === discount.id ? discounted.value.centAmount : undefined;
}

/**
 * The DiscountedPrice of `price` (of `variant` of `product`) at `now`: among the active Product
 * Discounts valid at `now` whose predicate matches and whose value applies to the price's currency,
 * the one with the highest `sortOrder` ("A Product Discount with a higher value is prioritized").
 * Undefined when none applies. Pure: the caller supplies the project's product discounts.
 */
export function discountedPriceFor(
  productDiscounts: readonly ProductDiscount[],
  product: Product,
  variant: ProductVariant,
  price: Price,
  now: Date,
  options: ProductPricingOptions = {},
): DiscountedPrice | undefined {
  const data = options.staged === true ? product.masterData.staged : product.masterData.current;
  const subject = productPredicateSubject(product, data, variant, price, options.keys);
  const ordered = [...productDiscounts].sort((a, b) => compareSortOrders(b.sortOrder, a.sortOrder));
  for (const discount of ordered) {
    if (!discount.isActive || !isValidAt(discount, now)) continue;
    const amount = discount.value.type === 'external' ? externalAmount(discount, price) : discountedAmount(discount, price.value);
    if (amount === undefined || !compiledPredicate(discount.predicate, 'product').test(subject)) continue;
    return { value: centPrecision(price.value.currencyCode, amount), discount: { typeId: 'product-discount', id: discount.id } };
  }
  return undefined;
}
