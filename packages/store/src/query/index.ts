/**
 * The query engine: `where`, `var.*` and `sort` parameters (§4.4) compiled to parameterised SQL
 * over the row alias `r`, and paging validation (§8). See compile.ts for the predicate semantics.
 */
import { invalidInput } from '@herald/model';
import { compilePredicate, fieldPlaces } from './compile.js';
import { MAX_QUERY_VALUES, MAX_WHERE_PARAMETERS } from './limits.js';
import { SqlParameters } from './parameters.js';
import { parsePredicate } from './parser.js';
import { compileSort } from './sort.js';
import type { CompiledQuery, QueryParameters } from './types.js';

export type { CompiledQuery, PagedQueryResponse, Paging, QueryParameters } from './types.js';
export type { DocumentOf, FieldRoot } from './columns.js';
export type * from './ast.js';
export { parsePredicate, type Variables } from './parser.js';
export { isPointWithinCircle } from './geo.js';
export { parseSort, type SortExpression, type SortDirection, type SortTerm } from './sort.js';
export { parsePaging, type RawPaging, TOTAL_CAP, DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from './paging.js';
export { MAX_PREDICATE_LENGTH, MAX_NESTING_DEPTH, MAX_LIST_VALUES, MAX_WHERE_PARAMETERS, MAX_SORT_PARAMETERS } from './limits.js';

/**
 * Compiles the query parameters of a list request. Placeholders start at `$firstParam` (the store
 * binds its own scope conditions before them). Throws a 400 InvalidInput for any malformed
 * predicate, unknown variable or invalid sort; never produces SQL that fails for user input.
 */
export function compileQuery(query: QueryParameters, firstParam: number): CompiledQuery {
  const params = new SqlParameters(firstParam);
  const where = query.where ?? [];
  if (where.length > MAX_WHERE_PARAMETERS) {
    throw invalidInput(`At most ${MAX_WHERE_PARAMETERS} where parameters are allowed.`, { parameter: 'where' });
  }
  // Several `where` parameters are AND-ed (§4.4).
  const budget = { remaining: MAX_QUERY_VALUES };
  const places = fieldPlaces(query);
  const clauses = where.map((predicate) => compilePredicate(parsePredicate(predicate, query.vars ?? {}, budget), params, places));
  const whereParamCount = params.values.length;
  const orderTerms = compileSort(query.sort ?? [], params, query.columns, query.fieldRoot);
  return {
    whereParamCount,
    whereSql: clauses.length === 0 ? 'TRUE' : clauses.map((clause) => `(${clause})`).join(' AND '),
    orderBySql: orderTerms.map(({ sql, order }) => `${sql} ${order}`).join(', '),
    orderTerms,
    params: params.values,
    filtered: clauses.length > 0,
  };
}
