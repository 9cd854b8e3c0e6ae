import type { Queryable } from '@herald/store';
import type { FacetExpression, FilterExpression, Range, RangeEnd } from './expression.js';
import { dataTypeOf, MAX_TERMS, samePath } from './facets.js';
import { inRange } from './filters.js';
import { inScope, rangeCondition, scopeParams, termPath, unitsPassing, valueCondition, type SqlParams, type TermScope } from './index-sql.js';
import type { Scalar } from './values.js';
import { EVERY_PRODUCT_PATH } from '../search-index/terms.js';

/**
 * Facets (facets.ts has their semantics) counted in SQL over `search_terms`: the units of a facet
 * are the variants that pass `filter.query` and the `filter.facets` on other paths (a variant
 * path), or their products (a product path); a term's count is its units, `productCount` their
 * products. Only the aggregates leave the database (a term per row; per range, its counts and the
 * sum, min and max of its numbers; dates in a range are summed in process, by their distinct texts).
 */
export interface FacetSource {
  db: Queryable;
  scope: TermScope;
  filterQuery: readonly FilterExpression[];
  filterFacets: readonly FilterExpression[];
  subtrees: ReadonlyMap<string, readonly string[]>;
}

interface ValueRow {
  kind: string;
  str: string;
  num: number | null;
}

export const scalarOf = ({ kind, str, num }: ValueRow): Scalar => (kind === 'n' ? (num ?? Number(str)) : kind === 'b' ? str === 'true' : str);

/**
 * CTEs `facet_units` (the facet's units) and `facet_values` (their values at the facet's path), with
 * the statement's parameters. Without filters every variant is a unit (a product path: every
 * product, each having a master variant), so its values are every row at the path, read by the
 * path's index without visiting the variants' markers.
 */
function facetScope(facet: FacetExpression, source: FacetSource): { params: SqlParams; ctes: string } {
  const params = scopeParams(source.scope);
  const others = source.filterFacets.filter(({ path }) => !samePath(path, facet.path));
  const filters = [...source.filterQuery, ...others];
  const { path, variant } = termPath(facet.path);
  if (filters.length === 0) {
    const units = variant
      ? `SELECT u.resource_id, u.unit FROM search_terms u WHERE ${inScope('u')} AND u.path = ''`
      : `SELECT u.resource_id, 0 AS unit FROM search_terms u WHERE ${inScope('u')} AND u.path = '${EVERY_PRODUCT_PATH}'`;
    const values = `SELECT t.resource_id, t.unit, t.kind, t.str, t.num FROM search_terms t
      WHERE ${inScope('t')} AND t.path = ${params.bind(path)}::text AND t.unit ${variant ? '> 0' : '= 0'}`;
    return { params, ctes: `WITH facet_units AS (${units}), facet_values AS (${values})` };
  }
  const pool = unitsPassing(filters, params, source.subtrees);
  const units = variant ? 'SELECT resource_id, unit FROM pool' : 'SELECT DISTINCT resource_id, 0 AS unit FROM pool';
  const ctes = `WITH pool AS (${pool}),
    facet_units AS (${units}),
    facet_values AS (SELECT f.resource_id, f.unit, t.kind, t.str, t.num FROM facet_units f
      JOIN search_terms t ON ${inScope('t')} AND t.resource_id = f.resource_id AND t.unit = f.unit AND t.path = ${params.bind(path)}::text)`;
  return { params, ctes };
}

interface TermRow extends ValueRow {
  count: number;
  products: number;
}

async function termsFacet(facet: FacetExpression, source: FacetSource): Promise<Record<string, unknown>> {
  const { params, ctes } = facetScope(facet, source);
  // Distinct values per unit, then units per product and value, then per value: hashed groups
  // instead of count(DISTINCT …), which sorts every value row. The last row ('u') holds the units
  // and those with a value: `missing` is the difference.
  const result = await source.db.query<TermRow>(
    `${ctes},
    per_unit AS (SELECT resource_id, unit, kind, str, num FROM facet_values GROUP BY resource_id, unit, kind, str, num),
    per_product AS (SELECT kind, str, num, count(*) AS units FROM per_unit GROUP BY kind, str, num, resource_id)
    SELECT kind, str, num, sum(units)::int AS count, count(*)::int AS products FROM per_product GROUP BY kind, str, num
    UNION ALL
    SELECT 'u', NULL, NULL, (SELECT count(*) FROM facet_units)::int, (SELECT count(*) FROM (SELECT DISTINCT resource_id, unit FROM per_unit) v)::int`,
    params.values,
  );
  const summary = result.rows.find((row) => row.kind === 'u');
  const units = summary?.count ?? 0;
  const valued = summary?.products ?? 0;
  const rank = (row: TermRow): number => (facet.countingProducts ? row.products : row.count);
  const ordered = result.rows
    .filter((row) => row.kind !== 'u')
    .map((row) => ({ row, term: scalarOf(row) }))
    .sort((a, b) => rank(b.row) - rank(a.row) || String(a.term).localeCompare(String(b.term)));
  const terms = ordered
    .slice(0, MAX_TERMS)
    .map(({ row, term }) => ({ term, count: row.count, ...(facet.countingProducts ? { productCount: row.products } : {}) }));
  return {
    type: 'terms',
    dataType: dataTypeOf(ordered.map(({ term }) => term)),
    missing: units - valued,
    total: valued,
    other: ordered.length - terms.length,
    terms,
  };
}

function endNumber(end: RangeEnd): number {
  if (end === undefined) return 0;
  if (end.kind === 'number') return end.value;
  const time = Date.parse(end.value);
  return Number.isNaN(time) ? 0 : time;
}

const endText = (end: RangeEnd): string => (end === undefined ? '' : String(end.value));

interface RangeCounts {
  units: number;
  products: number;
  numbers: number;
  total: number | null;
  min: number | null;
  max: number | null;
}

/** Per range: units and products with a value in it, and its numbers' count, sum, min and max. */
async function rangeCounts(ranges: readonly Range[], facet: FacetExpression, source: FacetSource): Promise<RangeCounts[]> {
  const { params, ctes } = facetScope(facet, source);
  const columns = ranges.map((range, index) => {
    const inside = rangeCondition(range, 'facet_values', params, false);
    const number = `${inside} AND kind = 'n'`;
    return `count(DISTINCT (resource_id, unit)) FILTER (WHERE ${inside})::int AS units_${index},
      count(DISTINCT resource_id) FILTER (WHERE ${inside})::int AS products_${index},
      count(*) FILTER (WHERE ${number})::int AS numbers_${index}, sum(num) FILTER (WHERE ${number}) AS total_${index},
      min(num) FILTER (WHERE ${number}) AS min_${index}, max(num) FILTER (WHERE ${number}) AS max_${index}`;
  });
  const result = await source.db.query<Record<string, number | null>>(`${ctes} SELECT ${columns.join(', ')} FROM facet_values`, params.values);
  const row = result.rows[0] ?? {};
  const at = (name: string, index: number): number | null => row[`${name}_${index}`] ?? null;
  return ranges.map((_, index) => ({
    units: at('units', index) ?? 0,
    products: at('products', index) ?? 0,
    numbers: at('numbers', index) ?? 0,
    total: at('total', index),
    min: at('min', index),
    max: at('max', index),
  }));
}

/** The texts (dates) and booleans in any of the ranges, by distinct value, with how often each occurs. */
async function rangeTexts(ranges: readonly Range[], facet: FacetExpression, source: FacetSource): Promise<Array<{ value: Scalar; occurrences: number }>> {
  const { params, ctes } = facetScope(facet, source);
  const inside = ranges.map((range) => rangeCondition(range, 'facet_values', params, false)).join(' OR ');
  const result = await source.db.query<ValueRow & { occurrences: number }>(
    `${ctes} SELECT kind, str, NULL AS num, count(*)::int AS occurrences FROM facet_values WHERE kind <> 'n' AND (${inside}) GROUP BY kind, str`,
    params.values,
  );
  return result.rows.map((row) => ({ value: scalarOf(row), occurrences: row.occurrences }));
}

async function rangeFacet(ranges: readonly Range[], facet: FacetExpression, source: FacetSource): Promise<Record<string, unknown>> {
  const [counts, texts] = await Promise.all([rangeCounts(ranges, facet, source), rangeTexts(ranges, facet, source)]);
  return {
    type: 'range',
    ranges: ranges.map((range, index) => {
      const numbers = counts[index] ?? { units: 0, products: 0, numbers: 0, total: null, min: null, max: null };
      // A text in a range counts as its time (facets.ts), like the reference's date ranges.
      const times = texts
        .filter(({ value }) => inRange(value, range, false))
        .map(({ value, occurrences }) => ({ time: Date.parse(String(value)), occurrences }));
      const count = numbers.numbers + times.reduce((sum, { occurrences }) => sum + occurrences, 0);
      const total = (numbers.total ?? 0) + times.reduce((sum, { time, occurrences }) => sum + time * occurrences, 0);
      const extremes = [...(numbers.min === null ? [] : [numbers.min]), ...(numbers.max === null ? [] : [numbers.max]), ...times.map(({ time }) => time)];
      return {
        from: endNumber(range.from),
        fromStr: endText(range.from),
        to: endNumber(range.to),
        toStr: endText(range.to),
        count: numbers.units,
        ...(facet.countingProducts ? { productCount: numbers.products } : {}),
        total,
        min: count === 0 ? 0 : Math.min(...extremes),
        max: count === 0 ? 0 : Math.max(...extremes),
        mean: count === 0 ? 0 : total / count,
      };
    }),
  };
}

async function filterFacet(facet: FacetExpression, source: FacetSource): Promise<Record<string, unknown>> {
  const { params, ctes } = facetScope(facet, source);
  const matches = facet.test === undefined ? undefined : valueCondition(facet.test, 'facet_values', params, source.subtrees);
  const result = await source.db.query<{ count: number; products: number }>(
    `${ctes} SELECT count(DISTINCT (resource_id, unit))::int AS count, count(DISTINCT resource_id)::int AS products FROM facet_values WHERE ${matches ?? 'false'}`,
    params.values,
  );
  const row = result.rows[0] ?? { count: 0, products: 0 };
  return { type: 'filter', count: row.count, ...(facet.countingProducts ? { productCount: row.products } : {}) };
}

function facetResult(facet: FacetExpression, source: FacetSource): Promise<Record<string, unknown>> {
  if (facet.kind === 'terms') return termsFacet(facet, source);
  if (facet.kind === 'range' && facet.test?.kind === 'ranges') return rangeFacet(facet.test.ranges, facet, source);
  return filterFacet(facet, source);
}

export async function indexedFacetResults(facets: readonly FacetExpression[], source: FacetSource): Promise<Record<string, Record<string, unknown>>> {
  // Each facet is its own statement: they run side by side (on PostgreSQL, on as many connections).
  const answers = await Promise.all(facets.map((facet) => facetResult(facet, source)));
  const results: Record<string, Record<string, unknown>> = {};
  for (const [index, facet] of facets.entries()) results[facet.name] = answers[index] ?? {};
  return results;
}
