import type { DocumentStore } from '@herald/store';
import { PRODUCT_TYPE_ID, type Product } from '../../products/product.js';
import { priceDiscounter } from '../discounting.js';
import { standalonePriceBook } from '../standalone-pricing.js';
import type { ProjectionOptions } from '../options.js';
import { indexedPath } from '../search-index/terms.js';
import { indexedFacetResults, scalarOf } from './index-facets.js';
import { inScope, scopeParams, termPath, unitsPassing, type TermScope } from './index-sql.js';
import type { SearchRequest } from './request.js';
import { answer, type SearchResponse } from './search.js';
import { compareIds, compareSortValues, parseSearchSort, pick, type SortKey } from './sort.js';
import type { Scalar } from './values.js';

/**
 * A search answered from the search terms (migration 015, search-index/terms.ts) instead of
 * every product: the hits (products with a variant that passes `filter.query` and `filter`) and
 * their matching variants, the facets and the sort values come from SQL over indexed rows; the
 * hits are ordered in process by those values alone (sort.ts semantics: locale-aware text order,
 * the lowest or highest of a product's values, missing last, ties by id), and only the page's
 * products are read and presented. Searches the terms cannot answer run as before (search.ts over
 * the candidates of narrowing.ts): a text (scored in process), paths that depend on the request's
 * price selection (`variants.scopedPrice…`, the `price` sort with a price selection) and paths
 * the terms do not hold (search-index/terms.ts `indexedPath`).
 */

function indexedSort(key: SortKey, options: ProjectionOptions): boolean {
  const source = key.source;
  if (source === undefined) return false;
  if (source.kind === 'price') return options.price === undefined;
  return source.kind === 'score' || indexedPath(source.path);
}

export function answersFromIndex(request: SearchRequest, options: ProjectionOptions): boolean {
  if (request.text !== undefined) return false;
  const filters = [...request.filterQuery, ...request.filter, ...request.filterFacets];
  return (
    filters.every(({ path }) => indexedPath(path)) &&
    request.facets.every(({ path }) => indexedPath(path)) &&
    request.sort.every((key) => indexedSort(key, options))
  );
}

export interface IndexedSearch {
  documents: DocumentStore;
  projectKey: string;
  request: SearchRequest;
  options: ProjectionOptions;
  now: Date;
  subtrees: ReadonlyMap<string, readonly string[]>;
}

interface IndexedHit {
  id: string;
  /** Ids of the variants that pass filter.query and filter. */
  matching: ReadonlySet<number>;
  sortValues: Array<Scalar | undefined>;
}

async function hitsOf(search: IndexedSearch, scope: TermScope): Promise<IndexedHit[]> {
  const params = scopeParams(scope);
  const units = unitsPassing([...search.request.filterQuery, ...search.request.filter], params, search.subtrees);
  const result = await search.documents.db.query<{ id: string; units: number[] }>(
    `SELECT u.resource_id AS id, array_agg(u.unit) AS units FROM (${units}) u GROUP BY u.resource_id`,
    params.values,
  );
  return result.rows.map((row) => ({ id: row.id, matching: new Set(row.units), sortValues: [] }));
}

/** The path a sort key reads in the terms: `price` is the embedded prices' centAmount (no price selection). */
function sortPath(key: SortKey): readonly string[] | undefined {
  if (key.source?.kind === 'price') return ['variants', 'price', 'centAmount'];
  return key.source?.kind === 'path' ? key.source.path : undefined;
}

/** Each hit's value of one sort key: the lowest or highest of its values at the key's path. */
async function sortValuesOf(search: IndexedSearch, scope: TermScope, key: SortKey, ids: readonly string[]): Promise<Map<string, Scalar | undefined>> {
  const path = sortPath(key);
  if (path === undefined) return new Map(ids.map((id) => [id, 0]));
  const params = scopeParams(scope);
  const { path: rowsPath, variant } = termPath(path);
  const result = await search.documents.db.query<{ id: string; kind: string; str: string; num: number | null }>(
    `SELECT t.resource_id AS id, t.kind, t.str, t.num FROM search_terms t
     WHERE ${inScope('t')} AND t.path = ${params.bind(rowsPath)}::text AND t.unit ${variant ? '> 0' : '= 0'} AND t.resource_id = ANY(${params.bind(ids)}::text[])`,
    params.values,
  );
  const values = new Map<string, Scalar[]>();
  for (const row of result.rows) values.set(row.id, [...(values.get(row.id) ?? []), scalarOf(row)]);
  return new Map(ids.map((id) => [id, pick(values.get(id) ?? [], key.useMax ?? key.descending)]));
}

/** The sort by `createdAt` alone (the default), descending or ascending; undefined for any other sort. */
function creationSort(keys: readonly SortKey[]): { descending: boolean } | undefined {
  const [key, ...others] = keys;
  const path = key?.source?.kind === 'path' ? key.source.path : undefined;
  return others.length === 0 && path?.length === 1 && path[0] === 'createdAt' ? { descending: key?.descending ?? false } : undefined;
}

/**
 * Hits in creation order from the resources' `created_at`, which the store writes from the same
 * clock reading as the document's `createdAt` (ISO texts of one format order as their instants),
 * ties by id as sort.ts breaks them: the products' rows, not a search term per hit. A hit whose
 * product is gone since comes last (as a product without a value would; the page leaves it out).
 */
async function inCreationOrder(search: IndexedSearch, hits: readonly IndexedHit[], descending: boolean): Promise<IndexedHit[]> {
  const result = await search.documents.db.query<{ id: string }>(
    `SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND id = ANY($3::text[])
     ORDER BY created_at ${descending ? 'DESC' : 'ASC'}, id COLLATE "C"`,
    [search.projectKey, PRODUCT_TYPE_ID, hits.map(({ id }) => id)],
  );
  const byId = new Map(hits.map((hit) => [hit.id, hit]));
  const ordered = result.rows.flatMap(({ id }) => byId.get(id) ?? []);
  const found = new Set(ordered.map(({ id }) => id));
  return [...ordered, ...hits.filter(({ id }) => !found.has(id)).sort((a, b) => compareIds(a.id, b.id))];
}

async function sortHits(search: IndexedSearch, scope: TermScope, hits: IndexedHit[]): Promise<IndexedHit[]> {
  const keys = search.request.sort.length > 0 ? search.request.sort : [parseSearchSort('createdAt asc')];
  const creation = creationSort(keys);
  if (creation !== undefined) return inCreationOrder(search, hits, creation.descending);
  const ids = hits.map(({ id }) => id);
  for (const key of keys) {
    const values = await sortValuesOf(search, scope, key, ids);
    for (const hit of hits) hit.sortValues.push(values.get(hit.id));
  }
  return hits.sort((a, b) => compareSortValues(a.sortValues, b.sortValues, keys) || compareIds(a.id, b.id));
}

/** The page's products, read whole and presented (a product deleted since the hits were read is left out). */
async function presentPage(search: IndexedSearch, page: readonly IndexedHit[]): Promise<SearchResponse['results']> {
  const { documents, projectKey, options, now, request } = search;
  const read = await documents.getMany<Product>(
    projectKey,
    PRODUCT_TYPE_ID,
    page.map(({ id }) => id),
  );
  const hits = page.flatMap((hit) => {
    const product = read.get(hit.id);
    return product === undefined ? [] : [{ product, matching: hit.matching }];
  });
  const products = hits.map(({ product }) => product);
  const [discounter, standalone] = await Promise.all([
    priceDiscounter({ documents, projectKey, products, staged: options.staged, now }),
    standalonePriceBook({ db: documents.db, projectKey, products, staged: options.staged, criteria: options.price }),
  ]);
  return hits.map((hit) => answer(hit, request, { options, now, discounter, standalone }));
}

/** The facets of a search, or undefined without any. */
function facetsOf(search: IndexedSearch, scope: TermScope): Promise<SearchResponse['facets']> {
  const { documents, request } = search;
  if (request.facets.length === 0) return Promise.resolve(undefined);
  return indexedFacetResults(request.facets, {
    db: documents.db,
    scope,
    filterQuery: request.filterQuery,
    filterFacets: request.filterFacets,
    subtrees: search.subtrees,
  });
}

export async function indexedSearch(search: IndexedSearch): Promise<SearchResponse> {
  const { documents, projectKey, request, options } = search;
  await documents.ensureSearchTerms(projectKey, PRODUCT_TYPE_ID);
  const scope: TermScope = { projectKey, typeId: PRODUCT_TYPE_ID, part: options.staged ? 'staged' : 'current' };
  // The facets do not depend on the hits: their statements run beside the hits' and the page's.
  const [facets, hits] = await Promise.all([facetsOf(search, scope), hitsOf(search, scope).then((found) => sortHits(search, scope, found))]);
  const results = await presentPage(search, hits.slice(request.offset, request.offset + request.limit));
  const response: SearchResponse = { limit: request.limit, offset: request.offset, count: results.length, total: hits.length, results };
  if (facets !== undefined) response.facets = facets;
  return response;
}
