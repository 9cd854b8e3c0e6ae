import type { Price, Product, ProductVariant } from '../products/product.js';
import { projectionOf, type ProductProjection } from '../products/projection.js';
import { selectPrice } from '../shared/price-selection.js';
import { discountedVariant, type PriceDiscounter } from './discounting.js';
import type { Store } from '../stores/store.js';
import { localeFilter, projectLocales } from './locales.js';
import type { ProjectionOptions } from './options.js';
import { NO_STANDALONE_PRICES, type SelectablePrice, type StandalonePriceBook } from './standalone-pricing.js';

/** A variant as projections answer it: `price` when price selection applies (ProductVariant.raml). */
export type ProjectedVariant = ProductVariant & { price?: Price | SelectablePrice };

/** How one answer prices its variants: Product Discounts, and the StandalonePrices of `Standalone` products. */
export interface ProjectionPricing {
  discounter: PriceDiscounter;
  standalone: StandalonePriceBook;
}

/**
 * Projection by store (ProductProjectionPrices): a store with `countries` keeps the prices without
 * a country or of one of them; a store with `distributionChannels` keeps the prices without a
 * channel or of one of them. Supply channels select inventory availability, which Herald's
 * projections do not carry. The store's Product Selections do not apply here: `storeProjection`
 * "does not take the availability of the Product in the specified Store into account"
 * (traits/store-projecting.raml); the in-store routes apply them (product-selections/offered-projection.ts).
 */
function storePrices<P extends SelectablePrice>(prices: readonly P[], store: Store): P[] {
  const countries = new Set(store.countries.map(({ code }) => code));
  const channels = new Set(store.distributionChannels.map(({ id }) => id));
  return prices.filter(
    (price) =>
      (countries.size === 0 || price.country === undefined || countries.has(price.country)) &&
      (channels.size === 0 || price.channel === undefined || channels.has(price.channel.id)),
  );
}

/**
 * The prices `price` is selected among: the variant's (store-projected) Embedded Prices, or for a
 * `Standalone` product its SKU's StandalonePrices, projected by the store and discounted alike.
 * Exported for the search's `scopedPrice`, which selects the same way.
 */
export function priceCandidates(product: Product, variant: ProductVariant, options: ProjectionOptions, pricing: ProjectionPricing): readonly SelectablePrice[] {
  if (product.priceMode !== 'Standalone') return variant.prices;
  const prices = pricing.standalone.pricesOf(variant.sku);
  const inStore = options.store === undefined ? prices : storePrices(prices, options.store);
  return inStore.map((price) => pricing.discounter.discount(product, variant, price));
}

function projectVariant(product: Product, variant: ProductVariant, options: ProjectionOptions, now: Date, pricing: ProjectionPricing): ProjectedVariant {
  const prices = options.store === undefined ? variant.prices : storePrices(variant.prices, options.store);
  const projected: ProjectedVariant = { ...variant, prices };
  if (options.price !== undefined) {
    const price = selectPrice(priceCandidates(product, projected, options, pricing), options.price, now);
    if (price !== undefined) projected.price = price;
  }
  return projected;
}

/**
 * The ProductProjection a request answers for `product` (options.ts). Prices are discounted before
 * the selection, so the selected `price` carries its `discounted` too (ProductVariant.price).
 * `product` must be the request's own (as every document read is): the projection shares its data.
 */
export function presentProjection(
  product: Product,
  options: ProjectionOptions,
  now: Date,
  discounter: PriceDiscounter,
  standalone: StandalonePriceBook = NO_STANDALONE_PRICES,
): ProductProjection {
  const pricing: ProjectionPricing = { discounter, standalone };
  let projection = projectionOf(product, { staged: options.staged, share: true });
  projection.masterVariant = discountedVariant(discounter, product, projection.masterVariant);
  projection.variants = projection.variants.map((variant) => discountedVariant(discounter, product, variant));
  if (options.store !== undefined || options.price !== undefined) {
    projection.masterVariant = projectVariant(product, projection.masterVariant, options, now, pricing);
    projection.variants = projection.variants.map((variant) => projectVariant(product, variant, options, now, pricing));
  }
  if (options.locales !== undefined) projection = projectLocales(projection, localeFilter(options.locales));
  return projection;
}
