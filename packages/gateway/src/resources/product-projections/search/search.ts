import type { Price, Product } from '../../products/product.js';
import type { ProductProjection } from '../../products/projection.js';
import type { PriceDiscounter } from '../discounting.js';
import type { ProjectionOptions } from '../options.js';
import { presentProjection, priceCandidates } from '../present.js';
import { selectPrice } from '../../shared/price-selection.js';
import { NO_STANDALONE_PRICES, type StandalonePriceBook } from '../standalone-pricing.js';
import type { FilterExpression } from './expression.js';
import { facetResults, type FacetHit } from './facets.js';
import { matchingVariants, productMatches, variantMatches, type FilterContext } from './filters.js';
import type { SearchRequest } from './request.js';
import type { SearchVariant } from './search-variant.js';
import { sortHits, type SortedHit } from './sort.js';
import { textScore } from './text.js';
import { isVariantPath } from './expression.js';

/** ProductProjectionPagedSearchResponse. */
export interface SearchResponse {
  limit: number;
  offset: number;
  count: number;
  total: number;
  results: ProductProjection[];
  facets?: Record<string, Record<string, unknown>>;
}

export interface Hit extends SortedHit {
  product: Product;
  /** Ids of the variants that match the text, filter.query and filter. */
  matching: ReadonlySet<number>;
}

/**
 * What scopes a search's prices: the request's options, its instant, its product discounts, and the
 * StandalonePrices of its `Standalone` products (standalone-pricing.ts; none read without price selection).
 */
export interface Pricing {
  options: ProjectionOptions;
  now: Date;
  discounter: PriceDiscounter;
  standalone?: StandalonePriceBook;
}

/**
 * A search variant carries the selected price as `price` and `scopedPrice`, whose `currentValue` is
 * the discounted value when a Product Discount applies (then `scopedPriceDiscounted` is true), as
 * the reference's price-selecting search answers (ProductVariant.raml, ScopedPrice.raml).
 */
function withScopedPrice(product: Product, variant: SearchVariant, { options, now, discounter, standalone = NO_STANDALONE_PRICES }: Pricing): SearchVariant {
  if (options.price === undefined) return variant;
  // Embedded Prices, or a Standalone product's StandalonePrices (those come discounted already).
  const selected = selectPrice(priceCandidates(product, variant, options, { discounter, standalone }), options.price, now);
  if (selected === undefined) return variant;
  const price = product.priceMode === 'Standalone' ? selected : discounter.discount(product, variant, selected as Price);
  const scopedPrice = { ...price, currentValue: price.discounted?.value ?? price.value };
  return { ...variant, price, scopedPrice, scopedPriceDiscounted: price.discounted !== undefined };
}

/** The projection search evaluates: no copy of the data, variants shallow-copied with their scoped price. */
function searchView(product: Product, pricing: Pricing): ProductProjection {
  const data = pricing.options.staged ? product.masterData.staged : product.masterData.current;
  return {
    ...product,
    ...data,
    masterVariant: withScopedPrice(product, data.masterVariant, pricing),
    variants: data.variants.map((variant) => withScopedPrice(product, variant, pricing)),
    hasStagedChanges: product.masterData.hasStagedChanges,
    published: product.masterData.published,
  } as ProductProjection;
}

function passes(projection: ProductProjection, filters: readonly FilterExpression[], variant: SearchVariant, context: FilterContext): boolean {
  return filters.every((filter) => (isVariantPath(filter.path) ? variantMatches(variant, filter, context) : productMatches(projection, filter, context)));
}

/** The answered projection of a hit: the request's projection, scoped prices and matching variants marked. */
export function answer(hit: Pick<Hit, 'product' | 'matching'>, request: SearchRequest, pricing: Pricing): ProductProjection {
  const projection = presentProjection(hit.product, pricing.options, pricing.now, pricing.discounter, pricing.standalone);
  const mark = (variant: SearchVariant): SearchVariant => {
    const scoped = withScopedPrice(hit.product, variant, pricing);
    return request.markMatchingVariants ? { ...scoped, isMatchingVariant: hit.matching.has(variant.id) } : scoped;
  };
  return { ...projection, masterVariant: mark(projection.masterVariant), variants: projection.variants.map(mark) };
}

/**
 * Runs a search over the candidate products (narrowing.ts): text, `filter.query`, facets over
 * those hits, then `filter` for the results, the sort (score descending when there is a text and
 * no sort; else by creation), the page.
 */
export function runSearch(products: readonly Product[], request: SearchRequest, pricing: Pricing, context: FilterContext): SearchResponse {
  const facetHits: FacetHit[] = [];
  const hits: Hit[] = [];
  for (const product of products) {
    const projection = searchView(product, pricing);
    const score = request.text === undefined ? 0 : textScore(projection, request.text);
    if (score === undefined) continue;
    const variants = matchingVariants(projection, request.filterQuery, context);
    if (variants.length === 0) continue;
    facetHits.push({ projection, variants });
    const matching = variants.filter((variant) => passes(projection, request.filter, variant, context));
    if (matching.length > 0) hits.push({ product, projection, score, matching: new Set(matching.map(({ id }) => id)) });
  }
  const sort =
    request.sort.length > 0
      ? request.sort
      : request.text !== undefined
        ? [{ read: (hit: SortedHit) => hit.score, descending: true }]
        : [{ read: (hit: SortedHit) => hit.projection.createdAt, descending: false }];
  sortHits(hits, sort);
  const page = hits.slice(request.offset, request.offset + request.limit).map((hit) => answer(hit, request, pricing));
  const response: SearchResponse = { limit: request.limit, offset: request.offset, count: page.length, total: hits.length, results: page };
  if (request.facets.length > 0) response.facets = facetResults(request.facets, facetHits, request.filterFacets, context);
  return response;
}
