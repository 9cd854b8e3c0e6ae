import type { Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { AuthContext } from '../../../auth/types.js';
import { priceDiscounter } from '../discounting.js';
import { standalonePriceBook } from '../standalone-pricing.js';
import { projectionOptions, type RawQuery } from '../options.js';
import { answersFromIndex, indexedSearch } from './indexed.js';
import { candidateProducts, categorySubtrees } from './narrowing.js';
import { searchRequest } from './request.js';
import { runSearch, type SearchResponse } from './search.js';

/** What one search needs: the query parameters (or form), the token, the project. */
export interface SearchSource {
  documents: DocumentStore;
  clock: Clock;
  projectKey: string;
  query: RawQuery;
  auth: AuthContext | undefined;
}

/**
 * One product projection search, as REST's GET/POST `/product-projections/search` and GraphQL's
 * `productProjectionSearch` both run it (the answer before reference expansion).
 */
export async function searchProjections({ documents, clock, projectKey, query, auth }: SearchSource): Promise<SearchResponse> {
  const options = await projectionOptions({ query, auth, documents, projectKey });
  const parsed = searchRequest(query);
  const filters = [...parsed.filterQuery, ...parsed.filter, ...parsed.filterFacets];
  const subtrees = await categorySubtrees(documents.db, projectKey, filters);
  // Filters, facets, sort and paging from the search terms when they can answer (indexed.ts).
  if (answersFromIndex(parsed, options)) return indexedSearch({ documents, projectKey, request: parsed, options, now: clock.now(), subtrees });
  const context = { subtree: (id: string) => new Set(subtrees.get(id) ?? [id]) };
  // Facets count the hits of filter.query only, so `filter` narrows in SQL only without facets.
  const narrowing = [...parsed.filterQuery, ...(parsed.facets.length === 0 ? parsed.filter : [])];
  const products = await candidateProducts(documents.db, projectKey, { staged: options.staged, filters: narrowing, text: parsed.text, subtrees });
  const now = clock.now();
  // One read of the discounts for every candidate: filters and sorts on scopedPrice see discounted values.
  const discounter = await priceDiscounter({ documents, projectKey, products, staged: options.staged, now });
  // …and one read of the candidates' StandalonePrices (Standalone products, with price selection only).
  const standalone = await standalonePriceBook({ db: documents.db, projectKey, products, staged: options.staged, criteria: options.price });
  return runSearch(products, parsed, { options, now, discounter, standalone }, context);
}
