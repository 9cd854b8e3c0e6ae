import type { SortTerm } from './sort.js';
import type { ColumnLookup, DocumentOf, FieldRoot } from './columns.js';
/**
 * The contract between the document store and the query compiler.
 *
 * Queries run over a table aliased `r` with these columns (both `resources` and `messages` have
 * them): `r.id text`, `r.key text`, `r.version integer`, `r.created_at timestamptz`,
 * `r.last_modified_at timestamptz`, `r.doc jsonb` (the whole resource document, including
 * id, key, version, createdAt and lastModifiedAt). The store adds its own scope conditions
 * (project and type) with parameters $1..$n and passes `firstParam` = n + 1.
 */
export interface QueryParameters {
  /** Repeatable `where`; several are AND-ed. */
  where?: readonly string[];
  /** `var.<name>` query parameters (repeatable for lists), keyed by name without the prefix. */
  vars?: Readonly<Record<string, readonly string[]>>;
  /** Repeatable `sort`, e.g. `name.en asc`, `custom.fields.size desc`. */
  sort?: readonly string[];
  /** Which top-level fields are columns (default: id, key, version, createdAt, lastModifiedAt). */
  columns?: ColumnLookup;
  /** Where each top-level field lives inside `doc` (default: at its root), see FieldRoot. */
  fieldRoot?: FieldRoot;
  /** Which document SQL tests a top-level member (default `r.doc`), see DocumentOf. */
  documentOf?: DocumentOf;
}

export interface CompiledQuery {
  /** A boolean SQL expression (`TRUE` when there is no predicate). */
  whereSql: string;
  /** The ORDER BY list without the keywords; always ends with a unique tie-breaker (`r.id`). */
  orderBySql: string;
  /** The same list, term by term (a query may sort by the values elsewhere than on `r`). */
  orderTerms: SortTerm[];
  /** Values for $firstParam, $firstParam+1, … in order of appearance: the predicate's first. */
  params: unknown[];
  /** How many of `params` belong to `whereSql` (a count query binds only those). */
  whereParamCount: number;
  /** True when at least one predicate filters (then `total` is capped at 10000, §4.4.4). */
  filtered: boolean;
}

/** §4.4.2: the paged response of every query endpoint. */
export interface PagedQueryResponse<T> {
  limit: number;
  offset: number;
  count: number;
  total?: number;
  results: T[];
}

/** Paging as validated from the request: limit 1–500 (default 20), offset 0–10000 (§8). */
export interface Paging {
  limit: number;
  offset: number;
  withTotal: boolean;
}
