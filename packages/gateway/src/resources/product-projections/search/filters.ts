import type { ProductProjection } from '../../products/projection.js';
import { isVariantPath, type FilterExpression, type FilterTest, type Range, type RangeEnd, type TermValue } from './expression.js';
import type { SearchVariant } from './search-variant.js';
import { productValues, variantValues, type Scalar } from './values.js';

/**
 * Filter semantics. A term matches a value of its type (a quoted term also matches the number it
 * spells, so `"42"` finds 42); `subtree("id")` matches the category and its descendants; a range
 * `(from to to)` includes both ends, `*` is open, numbers compare as numbers and text (dates)
 * as text. A path crossing several values matches if any value does. Product paths test the
 * product; variant paths (`variants.…`) must all hold for ONE variant, which is then a matching
 * variant (ProductVariant.isMatchingVariant).
 */
export interface FilterContext {
  /** A category and every category below it (`subtree`). */
  subtree(categoryId: string): ReadonlySet<string>;
}

function termMatches(value: Scalar, term: TermValue, context: FilterContext): boolean {
  switch (term.kind) {
    case 'string':
      return typeof value === 'string' ? value === term.value : String(value) === term.value;
    case 'number':
      return typeof value === 'number' ? value === term.value : typeof value === 'string' && value.trim() !== '' && Number(value) === term.value;
    case 'boolean':
      return value === term.value;
    case 'subtree':
      return typeof value === 'string' && context.subtree(term.id).has(value);
  }
}

/** value − end as a sign, or undefined when they cannot be compared (a number against text). */
function compare(value: Scalar, end: NonNullable<RangeEnd>): number | undefined {
  if (end.kind === 'number') return typeof value === 'number' ? Math.sign(value - end.value) : undefined;
  return typeof value === 'string' ? (value < end.value ? -1 : value > end.value ? 1 : 0) : undefined;
}

/** Whether `value` lies in `range`; `upperInclusive` false for facet ranges (from ≤ value < to). */
export function inRange(value: Scalar, range: Range, upperInclusive: boolean): boolean {
  const fromSign = range.from === undefined ? 1 : compare(value, range.from);
  const toSign = range.to === undefined ? -1 : compare(value, range.to);
  if (fromSign === undefined || toSign === undefined) return false;
  return fromSign >= 0 && (upperInclusive ? toSign <= 0 : toSign < 0);
}

export function testMatches(values: readonly Scalar[], test: FilterTest, context: FilterContext): boolean {
  switch (test.kind) {
    case 'missing':
      return values.length === 0;
    case 'exists':
      return values.length > 0;
    case 'terms':
      return values.some((value) => test.values.some((term) => termMatches(value, term, context)));
    case 'ranges':
      return values.some((value) => test.ranges.some((range) => inRange(value, range, true)));
  }
}

export function variantMatches(variant: SearchVariant, filter: FilterExpression, context: FilterContext): boolean {
  return testMatches(variantValues(variant, filter.path.slice(1)), filter.test, context);
}

export function productMatches(projection: ProductProjection, filter: FilterExpression, context: FilterContext): boolean {
  return testMatches(productValues(projection, filter.path), filter.test, context);
}

export function allVariantsOf(projection: ProductProjection): SearchVariant[] {
  return [projection.masterVariant, ...projection.variants];
}

/**
 * The variants of `projection` that match every filter, or [] when the product does not match:
 * a product filter fails, or no variant passes every variant filter.
 */
export function matchingVariants(projection: ProductProjection, filters: readonly FilterExpression[], context: FilterContext): SearchVariant[] {
  const variantFilters = filters.filter(({ path }) => isVariantPath(path));
  if (!filters.every((filter) => isVariantPath(filter.path) || productMatches(projection, filter, context))) return [];
  return allVariantsOf(projection).filter((variant) => variantFilters.every((filter) => variantMatches(variant, filter, context)));
}
