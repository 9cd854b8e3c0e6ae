import type { ProductProjection } from '../../products/projection.js';
import { isVariantPath, type FacetExpression, type FilterExpression, type Range, type RangeEnd } from './expression.js';
import { inRange, productMatches, testMatches, variantMatches, type FilterContext } from './filters.js';
import type { SearchVariant } from './search-variant.js';
import { productValues, variantValues, type Scalar } from './values.js';

/**
 * Facets (FacetResults: TermFacetResult, RangeFacetResult, FilteredFacetResult), computed over the
 * products that match the text and `filter.query` (not `filter`), each narrowed by the
 * `filter.facets` expressions on other paths ("a facet's own aggregation is not filtered by its
 * corresponding filter.facets criteria"). Variant paths count variants (and products with
 * `counting products`); product paths count products. Terms come by descending count (or
 * productCount when counting products), at most 200 (TermFacetResult.terms maxItems), ties by
 * term. Facet ranges hold from ≤ value < to.
 */
export interface FacetHit {
  projection: ProductProjection;
  /** The variants that match the text and filter.query. */
  variants: readonly SearchVariant[];
}

export const MAX_TERMS = 200;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** One counted unit: a variant (values of a variant path) or the product (a product path). */
interface Unit {
  productId: string;
  values: Scalar[];
}

export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index]);
}

/** The units of one facet: each hit that passes the other facet filters, by variant or by product. */
function unitsOf(facet: FacetExpression, hits: readonly FacetHit[], facetFilters: readonly FilterExpression[], context: FilterContext): Unit[] {
  const others = facetFilters.filter(({ path }) => !samePath(path, facet.path));
  const units: Unit[] = [];
  for (const { projection, variants } of hits) {
    if (!others.every((filter) => isVariantPath(filter.path) || productMatches(projection, filter, context))) continue;
    const pool = variants.filter((variant) => others.every((filter) => !isVariantPath(filter.path) || variantMatches(variant, filter, context)));
    if (pool.length === 0) continue;
    if (!isVariantPath(facet.path)) units.push({ productId: projection.id, values: productValues(projection, facet.path) });
    else for (const variant of pool) units.push({ productId: projection.id, values: variantValues(variant, facet.path.slice(1)) });
  }
  return units;
}

export function dataTypeOf(values: readonly Scalar[]): string {
  const sample = values[0];
  if (typeof sample === 'number') return 'number';
  if (typeof sample === 'boolean') return 'boolean';
  if (typeof sample === 'string') return ISO_DATE_TIME.test(sample) ? 'datetime' : ISO_DATE.test(sample) ? 'date' : ISO_TIME.test(sample) ? 'time' : 'text';
  return 'text';
}

function termsResult(facet: FacetExpression, units: readonly Unit[]): Record<string, unknown> {
  const counts = new Map<Scalar, { count: number; products: Set<string> }>();
  let missing = 0;
  const seen: Scalar[] = [];
  for (const unit of units) {
    const distinct = [...new Set(unit.values)];
    if (distinct.length === 0) missing++;
    for (const term of distinct) {
      const entry = counts.get(term) ?? { count: 0, products: new Set<string>() };
      entry.count++;
      entry.products.add(unit.productId);
      counts.set(term, entry);
      seen.push(term);
    }
  }
  const rank = (entry: { count: number; products: Set<string> }): number => (facet.countingProducts ? entry.products.size : entry.count);
  const ordered = [...counts.entries()].sort(([a, x], [b, y]) => rank(y) - rank(x) || String(a).localeCompare(String(b)));
  const terms = ordered
    .slice(0, MAX_TERMS)
    .map(([term, entry]) => ({ term, count: entry.count, ...(facet.countingProducts ? { productCount: entry.products.size } : {}) }));
  return { type: 'terms', dataType: dataTypeOf(seen), missing, total: units.length - missing, other: ordered.length - terms.length, terms };
}

function endNumber(end: RangeEnd): number {
  if (end === undefined) return 0;
  if (end.kind === 'number') return end.value;
  const time = Date.parse(end.value);
  return Number.isNaN(time) ? 0 : time;
}

const endText = (end: RangeEnd): string => (end === undefined ? '' : String(end.value));

function rangeResult(range: Range, facet: FacetExpression, units: readonly Unit[]): Record<string, unknown> {
  let count = 0;
  const products = new Set<string>();
  const numbers: number[] = [];
  for (const unit of units) {
    const inside = unit.values.filter((value) => inRange(value, range, false));
    if (inside.length === 0) continue;
    count++;
    products.add(unit.productId);
    for (const value of inside) numbers.push(typeof value === 'number' ? value : Date.parse(String(value)));
  }
  const total = numbers.reduce((sum, value) => sum + value, 0);
  return {
    from: endNumber(range.from),
    fromStr: endText(range.from),
    to: endNumber(range.to),
    toStr: endText(range.to),
    count,
    ...(facet.countingProducts ? { productCount: products.size } : {}),
    total,
    min: numbers.length === 0 ? 0 : Math.min(...numbers),
    max: numbers.length === 0 ? 0 : Math.max(...numbers),
    mean: numbers.length === 0 ? 0 : total / numbers.length,
  };
}

function facetResult(facet: FacetExpression, units: readonly Unit[], context: FilterContext): Record<string, unknown> {
  if (facet.kind === 'terms') return termsResult(facet, units);
  const test = facet.test;
  if (facet.kind === 'range' && test?.kind === 'ranges') return { type: 'range', ranges: test.ranges.map((range) => rangeResult(range, facet, units)) };
  const matching = test === undefined ? [] : units.filter((unit) => testMatches(unit.values, test, context));
  return {
    type: 'filter',
    count: matching.length,
    ...(facet.countingProducts ? { productCount: new Set(matching.map(({ productId }) => productId)).size } : {}),
  };
}

export function facetResults(
  facets: readonly FacetExpression[],
  hits: readonly FacetHit[],
  facetFilters: readonly FilterExpression[],
  context: FilterContext,
): Record<string, Record<string, unknown>> {
  const results: Record<string, Record<string, unknown>> = {};
  for (const facet of facets) results[facet.name] = facetResult(facet, unitsOf(facet, hits, facetFilters, context), context);
  return results;
}
