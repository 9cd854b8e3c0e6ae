import { invalidInput } from '@herald/model';
import { booleanParam, repeated, single } from '../../../http/query-params.js';
import type { RawQuery } from '../options.js';
import type { FacetExpression, FilterExpression } from './expression.js';
import { parseFacet, parseFilter } from './parser.js';
import { parseSearchSort } from './sort.js';
import { textQuery, type TextQuery } from './text.js';

/** The search parameters of resources/product-projections-search.raml (projection options apart: options.ts). */
export interface SearchRequest {
  text?: TextQuery;
  filterQuery: FilterExpression[];
  filter: FilterExpression[];
  filterFacets: FilterExpression[];
  facets: FacetExpression[];
  sort: Array<ReturnType<typeof parseSearchSort>>;
  limit: number;
  offset: number;
  markMatchingVariants: boolean;
}

/** Expressions per parameter: a bound on the work one request can ask for. */
const MAX_EXPRESSIONS = 100;
const TEXT_PARAMETER = /^text\.([a-z]{2}(?:-[A-Z]{2})?)$/;

function expressions(query: RawQuery, name: string): string[] {
  const values = repeated(query, name);
  if (values.length > MAX_EXPRESSIONS) throw invalidInput(`At most ${MAX_EXPRESSIONS} '${name}' parameters are allowed.`, { parameter: name });
  return values;
}

/** limit 0–500 (default 20), offset 0–10000 (default 0), as the reference states for search. */
function bounded(query: RawQuery, name: string, fallback: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]{1,6}$/.test(raw) || Number(raw) > max) throw invalidInput(`'${name}' must be an integer from 0 to ${max}.`, { parameter: name });
  return Number(raw);
}

function text(query: RawQuery): TextQuery | undefined {
  const names = Object.keys(query).filter((name) => name.startsWith('text.'));
  if (names.length === 0) return undefined;
  const [name = ''] = names;
  const locale = TEXT_PARAMETER.exec(name)?.[1];
  if (names.length > 1 || locale === undefined) throw invalidInput(`Full-text search takes one 'text.{locale}' parameter, e.g. text.en.`, { parameter: name });
  const raw = single(query, name) ?? '';
  const fuzzyLevelText = single(query, 'fuzzyLevel');
  if (fuzzyLevelText !== undefined && !/^[0-2]$/.test(fuzzyLevelText)) throw invalidInput(`'fuzzyLevel' must be 0, 1 or 2.`, { parameter: 'fuzzyLevel' });
  return textQuery(locale, raw, booleanParam(query, 'fuzzy', false), fuzzyLevelText === undefined ? undefined : Number(fuzzyLevelText));
}

export function searchRequest(query: RawQuery): SearchRequest {
  const request: SearchRequest = {
    filterQuery: expressions(query, 'filter.query').map((value) => parseFilter(value, 'filter.query')),
    filter: expressions(query, 'filter').map((value) => parseFilter(value, 'filter')),
    filterFacets: expressions(query, 'filter.facets').map((value) => parseFilter(value, 'filter.facets')),
    facets: expressions(query, 'facet').map(parseFacet),
    sort: expressions(query, 'sort').map(parseSearchSort),
    limit: bounded(query, 'limit', 20, 500),
    offset: bounded(query, 'offset', 0, 10_000),
    markMatchingVariants: booleanParam(query, 'markMatchingVariants', false),
  };
  const fullText = text(query);
  if (fullText !== undefined) request.text = fullText;
  return request;
}
