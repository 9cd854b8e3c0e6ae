/**
 * The filter and facet expressions of Product Projection Search (the reference's "filters" and
 * "facets" of resources/product-projections-search.raml), as parser.ts reads them.
 */

/** A literal of the expression language: "text", a number, true/false, or subtree("categoryId"). */
export type TermValue =
  { kind: 'string'; value: string } | { kind: 'number'; value: number } | { kind: 'boolean'; value: boolean } | { kind: 'subtree'; id: string };

/** One end of a range; undefined is `*` (open). */
export type RangeEnd = { kind: 'string'; value: string } | { kind: 'number'; value: number } | undefined;

export interface Range {
  from: RangeEnd;
  to: RangeEnd;
  /** The range as written, for facet results' `fromStr`/`toStr`. */
  text: string;
}

export type FilterTest = { kind: 'terms'; values: TermValue[] } | { kind: 'ranges'; ranges: Range[] } | { kind: 'missing' } | { kind: 'exists' };

/** `path:test`, e.g. `variants.attributes.color:"red","blue"`. */
export interface FilterExpression {
  path: readonly string[];
  test: FilterTest;
  /** The whole expression as written (filter.facets are matched to facets by path). */
  source: string;
}

/** A facet: `path` (terms), `path:range (…)` (ranges) or `path:"value"` (filtered), with `as alias` and `counting products`. */
export interface FacetExpression {
  path: readonly string[];
  kind: 'terms' | 'range' | 'filter';
  /** For range and filter facets. */
  test?: FilterTest;
  /** The key of the facet result: the alias, else the expression without its extensions. */
  name: string;
  countingProducts: boolean;
}

/** Whether a path names a variant field (counted per variant) rather than a product field. */
export function isVariantPath(path: readonly string[]): boolean {
  return path[0] === 'variants';
}
