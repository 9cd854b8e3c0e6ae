import type { FilterExpression, FilterTest, Range, RangeEnd, TermValue } from './expression.js';
import { isVariantPath } from './expression.js';

/**
 * The search's filters as SQL over `search_terms` (migration 015; rows: search-index/terms.ts),
 * with the semantics of filters.ts: a quoted term matches a text equal to it or a number or
 * boolean spelled so (`str`), a number term a number or a text spelling it (`num`), a range
 * compares numbers with number ends and texts with text ends (both ends inclusive for filters,
 * the upper exclusive for facet ranges), `subtree` the category ids below. Texts compare by
 * their 200-character prefix first (what the index holds) and then whole.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Where a search reads: project, type and part (current or staged), bound first. */
export interface TermScope {
  projectKey: string;
  typeId: string;
  part: 'current' | 'staged';
}

export const scopeParams = (scope: TermScope): SqlParams => {
  const params = new SqlParams();
  params.bind(scope.projectKey);
  params.bind(scope.typeId);
  params.bind(scope.part);
  return params;
};

/** The scope condition of a `search_terms` alias (parameters $1–$3). */
export const inScope = (alias: string): string => `${alias}.project_key = $1 AND ${alias}.type_id = $2 AND ${alias}.part = $3`;

/** A path's rows: a variant path's without `variants.` (unit > 0), a product path's at unit 0. */
export function termPath(path: readonly string[]): { path: string; variant: boolean } {
  return isVariantPath(path) ? { path: path.slice(1).join('.'), variant: true } : { path: path.join('.'), variant: false };
}

function textEquals(alias: string, text: string, params: SqlParams): string {
  const bound = params.bind(text);
  return `(left(${alias}.str, 200) = left(${bound}::text, 200) AND ${alias}.str = ${bound}::text)`;
}

function termCondition(term: TermValue, alias: string, params: SqlParams, subtrees: ReadonlyMap<string, readonly string[]>): string {
  switch (term.kind) {
    case 'string':
      return textEquals(alias, term.value, params);
    case 'number':
      return `${alias}.num = ${params.bind(term.value)}::float8`;
    case 'boolean':
      return `(${alias}.kind = 'b' AND ${alias}.str = ${params.bind(String(term.value))}::text)`;
    case 'subtree':
      return `(${alias}.kind = 's' AND ${alias}.str = ANY(${params.bind(subtrees.get(term.id) ?? [term.id])}::text[]))`;
  }
}

/** `value <operator> end`; a text's prefix bound first (`<` bounds the prefix by `<=`), which the index answers. */
function endCondition(alias: string, end: NonNullable<RangeEnd>, operator: '>=' | '<=' | '<', params: SqlParams): string {
  if (end.kind === 'number') return `${alias}.num ${operator} ${params.bind(end.value)}::float8`;
  const bound = params.bind(end.value);
  const prefixOperator = operator === '>=' ? '>=' : '<=';
  return `left(${alias}.str, 200) ${prefixOperator} left(${bound}::text, 200) AND ${alias}.str ${operator} ${bound}::text`;
}

/** `from ≤ value ≤ to` (or `< to`); an end of one kind needs a value of that kind; `(* to *)` holds for any value. */
export function rangeCondition(range: Range, alias: string, params: SqlParams, upperInclusive: boolean): string {
  const kinds = new Set([range.from, range.to].flatMap((end) => (end === undefined ? [] : [end.kind])));
  if (kinds.size > 1) return 'false';
  const conditions = kinds.has('number') ? [`${alias}.kind = 'n'`] : kinds.has('string') ? [`${alias}.kind = 's'`] : [];
  if (range.from !== undefined) conditions.push(endCondition(alias, range.from, '>=', params));
  if (range.to !== undefined) conditions.push(endCondition(alias, range.to, upperInclusive ? '<=' : '<', params));
  return conditions.length === 0 ? 'true' : `(${conditions.join(' AND ')})`;
}

/** The condition a value row meets for a terms or ranges test (undefined for missing/exists). */
export function valueCondition(test: FilterTest, alias: string, params: SqlParams, subtrees: ReadonlyMap<string, readonly string[]>): string | undefined {
  if (test.kind === 'terms') return `(${test.values.map((term) => termCondition(term, alias, params, subtrees)).join(' OR ')})`;
  if (test.kind === 'ranges') return `(${test.ranges.map((range) => rangeCondition(range, alias, params, true)).join(' OR ')})`;
  return undefined;
}

/**
 * The condition a unit row `u` (a variant's marker) meets for a filter: a variant path tests the
 * variant's values, a product path the product's (unit 0).
 */
export function unitCondition(filter: FilterExpression, params: SqlParams, subtrees: ReadonlyMap<string, readonly string[]>): string {
  const { path, variant } = termPath(filter.path);
  const rows = `SELECT 1 FROM search_terms t WHERE ${inScope('t')} AND t.resource_id = u.resource_id AND t.unit = ${variant ? 'u.unit' : '0'} AND t.path = ${params.bind(path)}::text`;
  if (filter.test.kind === 'missing') return `NOT EXISTS (${rows})`;
  const value = valueCondition(filter.test, 't', params, subtrees);
  return `EXISTS (${rows}${value === undefined ? '' : ` AND ${value}`})`;
}

/**
 * The rows `u` the units passing are drawn from. A filter on values (terms or ranges) names its
 * rows through the path-and-value indexes, so a search reads the rows of its values (and probes
 * each of them for the other filters) instead of probing every variant of the catalogue: a
 * variant path's value rows are the variants with such a value (each unit once), a product path's
 * are the products whose variants are then the units. Without one, every variant's marker.
 */
function unitSource(driver: FilterExpression | undefined, params: SqlParams, subtrees: ReadonlyMap<string, readonly string[]>): string {
  const markers = (extra: string) => `SELECT u.resource_id, u.unit FROM search_terms u WHERE ${inScope('u')} AND u.path = ''${extra}`;
  if (driver === undefined) return markers('');
  const { path, variant } = termPath(driver.path);
  const value = valueCondition(driver.test, 't', params, subtrees) ?? 'true';
  const rows = `FROM search_terms t WHERE ${inScope('t')} AND t.path = ${params.bind(path)}::text AND t.unit ${variant ? '> 0' : '= 0'} AND ${value}`;
  if (variant) return `SELECT DISTINCT t.resource_id, t.unit ${rows}`;
  return markers(` AND u.resource_id IN (SELECT t.resource_id ${rows})`);
}

const namesValues = (filter: FilterExpression): boolean => filter.test.kind === 'terms' || filter.test.kind === 'ranges';

/** The variants (rows `resource_id`, `unit`) of the scope that pass every filter. */
export function unitsPassing(filters: readonly FilterExpression[], params: SqlParams, subtrees: ReadonlyMap<string, readonly string[]>): string {
  // A variant path first: its rows are the units themselves, a product path's need the markers.
  const driver = filters.find((filter) => namesValues(filter) && isVariantPath(filter.path)) ?? filters.find(namesValues);
  const source = unitSource(driver, params, subtrees);
  const conditions = filters.filter((filter) => filter !== driver).map((filter) => unitCondition(filter, params, subtrees));
  if (conditions.length === 0) return source;
  return `SELECT u.resource_id, u.unit FROM (${source}) u WHERE ${conditions.join(' AND ')}`;
}
