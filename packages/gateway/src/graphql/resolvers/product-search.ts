import { invalidInput, type Clock, type Reference } from '@herald/model';
import type { RawQuery } from '../../resources/product-projections/options.js';
import type { SearchResponse } from '../../resources/product-projections/search/search.js';
import { searchProjections } from '../../resources/product-projections/search/service.js';
import type { SearchVariant } from '../../resources/product-projections/search/search-variant.js';
import type { ProductProjection } from '../../resources/products/projection.js';
import { hasScope, insufficientScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { categoryOrderHintList, localizedResolvers, stagedVariant } from './product-fields.js';

/**
 * `productProjectionSearch` (the official Query field): its arguments become REST's search
 * parameters and run the same search (resources/product-projections/search/service.ts), so both
 * APIs answer alike. Filters and facets are taken in their string form (REST's expressions).
 */
interface SearchExpressionInput {
  model?: unknown;
  string?: string | null;
}

interface PriceSelectorInput {
  currency: string;
  country?: string | null;
  customerGroup?: { id: string } | null;
  customerGroupAssignments?: ReadonlyArray<{ id: string }> | null;
  channel?: { id: string } | null;
  date?: string | null;
}

export interface ProductProjectionSearchArgs {
  locale?: string | null;
  text?: string | null;
  fuzzy?: boolean | null;
  fuzzyLevel?: number | null;
  facets?: readonly SearchExpressionInput[] | null;
  filters?: readonly SearchExpressionInput[] | null;
  queryFilters?: readonly SearchExpressionInput[] | null;
  facetFilters?: readonly SearchExpressionInput[] | null;
  sorts?: readonly string[] | null;
  limit?: number | null;
  offset?: number | null;
  priceSelector?: PriceSelectorInput | null;
  markMatchingVariants?: boolean | null;
  markMatchingVariant?: boolean | null;
  storeProjection?: string | null;
  localeProjection?: readonly string[] | null;
  staged?: boolean | null;
}

/** As REST's search (resources/product-projections-search.raml securedBy). */
const SEARCH_SCOPES = ['view_products', 'view_published_products'] as const;

function expressionStrings(inputs: readonly SearchExpressionInput[] | null | undefined, argument: string): string[] {
  return (inputs ?? []).map((input, index) => {
    if (typeof input.string === 'string' && (input.model === undefined || input.model === null)) return input.string;
    throw invalidInput(`'${argument}[${index}]' must give its expression as 'string' (Herald does not take the 'model' form).`, { field: argument });
  });
}

function textParameters(args: ProductProjectionSearchArgs): RawQuery {
  if (typeof args.text !== 'string') return {};
  if (typeof args.locale !== 'string') throw invalidInput("'text' needs its 'locale'.", { field: 'locale' });
  return {
    [`text.${args.locale}`]: args.text,
    ...(args.fuzzy === true ? { fuzzy: 'true' } : {}),
    ...(typeof args.fuzzyLevel === 'number' ? { fuzzyLevel: String(args.fuzzyLevel) } : {}),
  };
}

function priceParameters(selector: PriceSelectorInput | null | undefined): RawQuery {
  if (selector === undefined || selector === null) return {};
  const query: RawQuery = { priceCurrency: selector.currency };
  if (typeof selector.country === 'string') query.priceCountry = selector.country;
  if (typeof selector.customerGroup?.id === 'string') query.priceCustomerGroup = selector.customerGroup.id;
  // REST's priceCustomerGroupAssignments checks the list (product-projections/options.ts).
  if (Array.isArray(selector.customerGroupAssignments)) query.priceCustomerGroupAssignments = selector.customerGroupAssignments.map(({ id }) => id);
  if (typeof selector.channel?.id === 'string') query.priceChannel = selector.channel.id;
  return query;
}

/** The REST query the GraphQL arguments stand for (resources/product-projections/search/request.ts). */
export function searchQuery(args: ProductProjectionSearchArgs): RawQuery {
  const mark = args.markMatchingVariants ?? args.markMatchingVariant;
  return {
    ...textParameters(args),
    ...priceParameters(args.priceSelector),
    filter: expressionStrings(args.filters, 'filters'),
    'filter.query': expressionStrings(args.queryFilters, 'queryFilters'),
    'filter.facets': expressionStrings(args.facetFilters, 'facetFilters'),
    facet: expressionStrings(args.facets, 'facets'),
    sort: [...(args.sorts ?? [])],
    ...(typeof args.limit === 'number' ? { limit: String(args.limit) } : {}),
    ...(typeof args.offset === 'number' ? { offset: String(args.offset) } : {}),
    ...(typeof mark === 'boolean' ? { markMatchingVariants: String(mark) } : {}),
    ...(typeof args.storeProjection === 'string' ? { storeProjection: args.storeProjection } : {}),
    ...(Array.isArray(args.localeProjection) ? { localeProjection: [...args.localeProjection] } : {}),
    ...(args.staged === true ? { staged: 'true' } : {}),
  };
}

interface FacetResultValue {
  facet: string;
  value: Record<string, unknown>;
}

interface SearchResult {
  offset: number;
  count: number;
  total: number;
  results: ProductProjection[];
  facets: FacetResultValue[];
}

/** A staged projection's variants select their `price` among staged StandalonePrices (product-fields.ts). */
const stagedProjection = (projection: ProductProjection): ProductProjection => ({
  ...projection,
  masterVariant: stagedVariant(projection.masterVariant),
  variants: projection.variants.map(stagedVariant),
});

function searchResult(response: SearchResponse, staged: boolean): SearchResult {
  const facets = Object.entries(response.facets ?? {}).map(([facet, value]) => ({ facet, value }));
  const results = staged ? response.results.map(stagedProjection) : response.results;
  return { offset: response.offset, count: response.count, total: response.total, results, facets };
}

/** PriceSelectorInput.date: prices are selected at that moment instead of now. */
const clockAt = (selector: PriceSelectorInput | null | undefined, clock: Clock): Clock =>
  typeof selector?.date === 'string' ? { now: () => new Date(selector.date as string) } : clock;

export const productSearchQueryResolvers = {
  async productProjectionSearch(_root: unknown, args: ProductProjectionSearchArgs, context: GraphQLContext): Promise<SearchResult> {
    if (!SEARCH_SCOPES.some((scope) => hasScope(context.auth, scope))) throw insufficientScope(SEARCH_SCOPES[1], context.projectKey);
    const response = await searchProjections({
      documents: context.services.documents,
      clock: clockAt(args.priceSelector, context.services.clock),
      projectKey: context.projectKey,
      query: searchQuery(args),
      auth: context.auth,
    });
    return searchResult(response, args.staged === true);
  },
};

export const productProjectionResolvers = {
  ...localizedResolvers(),
  productTypeRef: (projection: ProductProjection): Reference => projection.productType,
  taxCategoryRef: (projection: ProductProjection): Reference | null => projection.taxCategory ?? null,
  stateRef: (projection: ProductProjection): Reference | null => projection.state ?? null,
  categoriesRef: (projection: ProductProjection): Reference[] => projection.categories,
  categoryOrderHints: (projection: ProductProjection) => categoryOrderHintList(projection.categoryOrderHints),
  /** onlyMatching: the variants markMatchingVariants marked (all of them when the search did not mark). */
  variants: (projection: ProductProjection, args: { onlyMatching?: boolean | null }): SearchVariant[] => matching(projection.variants, args),
  allVariants: (projection: ProductProjection, args: { onlyMatching?: boolean | null }): SearchVariant[] =>
    matching([projection.masterVariant, ...projection.variants], args),
};

function matching(variants: readonly SearchVariant[], args: { onlyMatching?: boolean | null }): SearchVariant[] {
  return args.onlyMatching === true ? variants.filter((variant) => variant.isMatchingVariant !== false) : [...variants];
}

/** REST's facet results by their `type` (terms, range, filter) as the official schema's types. */
export const facetResultResolvers = {
  resolveType: (result: { type?: string }): string =>
    result.type === 'terms' ? 'TermsFacetResult' : result.type === 'range' ? 'RangeFacetResult' : 'ValueFacetResult',
};

export const rangeFacetResultResolvers = {
  dataType: (result: { dataType?: string }): string => result.dataType ?? 'number',
};

interface RangeCountValue {
  from: number;
  to: number;
  count: number;
  total: number;
  min: number;
  max: number;
}

const isWhole = (range: RangeCountValue): boolean => [range.from, range.to, range.total, range.min, range.max].every(Number.isSafeInteger);

export const rangeCountResolvers = {
  resolveType: (range: RangeCountValue): string => (isWhole(range) ? 'RangeCountLong' : 'RangeCountDouble'),
};

const rangeCountFields = (type: string) => ({
  type: (): string => type,
  totalCount: (range: RangeCountValue): number => range.count,
});

export const rangeCountDoubleResolvers = rangeCountFields('double');
export const rangeCountLongResolvers = rangeCountFields('long');
