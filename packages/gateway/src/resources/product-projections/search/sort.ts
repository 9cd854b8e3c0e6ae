import { invalidInput } from '@herald/model';
import type { ProductProjection } from '../../products/projection.js';
import { isVariantPath } from './expression.js';
import { allVariantsOf } from './filters.js';
import type { SearchVariant } from './search-variant.js';
import { productValues, variantValues, type Scalar } from './values.js';

/**
 * Search sorting: `score`, a product path (`name.en`, `createdAt`, `key`,
 * `categoryOrderHints.{categoryId}`, …), a variant path (`variants.attributes.size`,
 * `variants.sku`, …) or `price` (the selected price's centAmount; without price selection the
 * embedded prices'), each `asc` or `desc`. A variant value sorts by the lowest value among the
 * variants ascending and the highest descending, unless `asc.max` / `desc.min` says otherwise.
 * Products without a value come last. Ties keep the order of the next sort, then the id.
 */
export interface SortedHit {
  projection: ProductProjection;
  score: number;
}

/** What a sort reads: the text score, the price, or a path (a variant path with `variants.`). */
export type SortSource = { kind: 'score' } | { kind: 'price' } | { kind: 'path'; path: readonly string[] };

export interface SortKey {
  read(hit: SortedHit): Scalar | undefined;
  descending: boolean;
  /** For the search index (indexed.ts): what it reads, and which of several values a product sorts by. */
  source?: SortSource;
  useMax?: boolean;
}

const SORT = /^([A-Za-z0-9_.-]+)(?:\s+(asc|desc)(?:\.(min|max))?)?$/i;

export function pick(values: readonly Scalar[], useMax: boolean): Scalar | undefined {
  if (values.length === 0) return undefined;
  return [...values].sort(compareValues)[useMax ? values.length - 1 : 0];
}

function compareValues(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function priceValues(variant: SearchVariant): Scalar[] {
  const selected = variant.scopedPrice ?? variant.price;
  return selected !== undefined ? [selected.value.centAmount] : variantValues(variant, ['price', 'centAmount']);
}

export function parseSearchSort(value: string): SortKey {
  const match = SORT.exec(value.trim());
  if (match === null) throw invalidInput(`Malformed sort '${value}': expected '<field> asc|desc' (e.g. 'name.en asc', 'score desc').`, { parameter: 'sort' });
  const [, pathText = '', direction = 'asc', selection] = match;
  const descending = direction.toLowerCase() === 'desc';
  const useMax = selection === undefined ? descending : selection.toLowerCase() === 'max';
  const path = pathText.split('.');
  const described = { descending, useMax };
  if (pathText === 'score') return { read: (hit) => hit.score, ...described, source: { kind: 'score' } };
  if (pathText === 'price') return { read: (hit) => pick(allVariantsOf(hit.projection).flatMap(priceValues), useMax), ...described, source: { kind: 'price' } };
  if (isVariantPath(path)) {
    if (path.length < 2) throw invalidInput(`Malformed sort '${value}': expected a variant field after 'variants.'.`, { parameter: 'sort' });
    return {
      read: (hit) =>
        pick(
          allVariantsOf(hit.projection).flatMap((variant) => variantValues(variant, path.slice(1))),
          useMax,
        ),
      ...described,
      source: { kind: 'path', path },
    };
  }
  return { read: (hit) => pick(productValues(hit.projection, path), useMax), ...described, source: { kind: 'path', path } };
}

/** The order of two products' sort values (undefined: no value, sorted last), 0 when tied. */
export function compareSortValues(left: ReadonlyArray<Scalar | undefined>, right: ReadonlyArray<Scalar | undefined>, keys: readonly SortKey[]): number {
  for (const [index, key] of keys.entries()) {
    const x = left[index];
    const y = right[index];
    if (x === undefined || y === undefined) {
      if (x !== y) return x === undefined ? 1 : -1;
      continue;
    }
    const order = compareValues(x, y);
    if (order !== 0) return key.descending ? -order : order;
  }
  return 0;
}

export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts `hits` in place by `keys`, then by id. */
export function sortHits<H extends SortedHit>(hits: H[], keys: readonly SortKey[]): H[] {
  const values = new Map(hits.map((hit) => [hit, keys.map((key) => key.read(hit))]));
  return hits.sort((a, b) => compareSortValues(values.get(a) ?? [], values.get(b) ?? [], keys) || compareIds(a.projection.id, b.projection.id));
}
