import type { Product } from '../../products/product.js';
import type { ProductProjection } from '../../products/projection.js';
import type { ProjectionOptions } from '../options.js';
import { presentProjection, selectedPrice } from '../present.js';
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

interface Hit extends SortedHit {
  product: Product;
  /** Ids of the variants that match the text, filter.query and filter. */
  matching: ReadonlySet<number>;
}

/**
 * A search variant carries the selected price as `price` and `scopedPrice` (with `currentValue`;
 * Herald has no product discounts, so `scopedPriceDiscounted` is false), as the reference's
 * price-selecting search answers (ProductVariant.raml, ScopedPrice.raml).
 */
function withScopedPrice(variant: SearchVariant, options: ProjectionOptions, now: Date): SearchVariant {
  if (options.price === undefined) return variant;
  const price = selectedPrice(variant.prices, options.price, now);
  if (price === undefined) return variant;
  return { ...variant, price, scopedPrice: { ...price, currentValue: price.value }, scopedPriceDiscounted: false };
}

/** The projection search evaluates: no copy of the data, variants shallow-copied with their scoped price. */
function searchView(product: Product, options: ProjectionOptions, now: Date): ProductProjection {
  const data = options.staged ? product.masterData.staged : product.masterData.current;
  return {
    ...product,
    ...data,
    masterVariant: withScopedPrice(data.masterVariant, options, now),
    variants: data.variants.map((variant) => withScopedPrice(variant, options, now)),
    hasStagedChanges: product.masterData.hasStagedChanges,
    published: product.masterData.published,
  } as ProductProjection;
}

function passes(projection: ProductProjection, filters: readonly FilterExpression[], variant: SearchVariant, context: FilterContext): boolean {
  return filters.every((filter) => (isVariantPath(filter.path) ? variantMatches(variant, filter, context) : productMatches(projection, filter, context)));
}

/** The answered projection of a hit: the request's projection, scoped prices and matching variants marked. */
function answer(hit: Hit, request: SearchRequest, options: ProjectionOptions, now: Date): ProductProjection {
  const projection = presentProjection(hit.product, options, now);
  const mark = (variant: SearchVariant): SearchVariant => {
    const scoped = withScopedPrice(variant, options, now);
    return request.markMatchingVariants ? { ...scoped, isMatchingVariant: hit.matching.has(variant.id) } : scoped;
  };
  return { ...projection, masterVariant: mark(projection.masterVariant), variants: projection.variants.map(mark) };
}

/**
 * Runs a search over the candidate products (narrowing.ts): text, `filter.query`, facets over
 * those hits, then `filter` for the results, the sort (score descending when there is a text and
 * no sort; else by creation), the page.
 */
export function runSearch(products: readonly Product[], request: SearchRequest, options: ProjectionOptions, context: FilterContext, now: Date): SearchResponse {
  const facetHits: FacetHit[] = [];
  const hits: Hit[] = [];
  for (const product of products) {
    const projection = searchView(product, options, now);
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
  const page = hits.slice(request.offset, request.offset + request.limit).map((hit) => answer(hit, request, options, now));
  const response: SearchResponse = { limit: request.limit, offset: request.offset, count: page.length, total: hits.length, results: page };
  if (request.facets.length > 0) response.facets = facetResults(request.facets, facetHits, request.filterFacets, context);
  return response;
}
