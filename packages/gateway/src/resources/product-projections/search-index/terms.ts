import type { DocumentStore, SearchTerm } from '@herald/store';
import { PRODUCT_TYPE_ID, type Product, type ProductData, type ProductVariant } from '../../products/product.js';

/**
 * A product's search terms (migration 015, store documents/search-terms.ts): every scalar a
 * search path reads (search/values.ts), per data (`current` only while published, as search
 * answers only published current projections; `staged` always) and per unit: 0 for the
 * projection's own fields, a variant's id for its fields. A variant's `attributes.{name}.…` are
 * its attributes by name (a text value also as `….key`, as an enum stored by its key reads),
 * `price.centAmount` and `price.currencyCode` of each embedded price; every other field by its
 * own path. Arrays are crossed. Only segments the filter language can name ([A-Za-z0-9_-]+) are
 * kept. Bulky fields that searches hardly name are not held (`prices`, `images`, `assets`, the
 * price's other fields, `createdBy`/`lastModifiedBy`): a search naming one is answered in process
 * (`indexedPath`), as are `reviewRatingStatistics` (written beside the store by reviews) and
 * `masterData`/`masterVariant`, which the projection search evaluates only by accident.
 */
export const PRODUCT_SEARCH_TERMS_VERSION = 'product-search-2';

/**
 * A path every projection has once, at unit 0, and no variant has (the catalogue flag `published`
 * of dataTerms' view): its rows count a part's products from the path index alone.
 */
export const EVERY_PRODUCT_PATH = 'published';

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** Product fields that are not terms of the projection's own unit. */
const NOT_PRODUCT_TERMS = new Set(['masterData', 'masterVariant', 'variants', 'reviewRatingStatistics', 'createdBy', 'lastModifiedBy']);
/** Variant fields read by name (search/values.ts), request-dependent (scoped prices) or not held. */
const NOT_PLAIN_VARIANT_TERMS = new Set(['attributes', 'price', 'scopedPrice', 'scopedPriceDiscounted', 'prices', 'images', 'assets']);
const PRICE_TERMS = ['centAmount', 'currencyCode'] as const;

/** Whether the terms hold a search path (`variants.…` a variant's); else the search runs in process. */
export function indexedPath(path: readonly string[]): boolean {
  const [head = '', field = '', rest] = path;
  if (head !== 'variants') return !NOT_PRODUCT_TERMS.has(head);
  if (field === 'price') return rest !== undefined && path.length === 3 && (PRICE_TERMS as readonly string[]).includes(rest);
  return path.length >= 2 && (field === 'attributes' || !NOT_PLAIN_VARIANT_TERMS.has(field));
}

type Emit = (path: string, value: string | number | boolean) => void;

function flatten(value: unknown, path: readonly string[], emit: Emit): void {
  if (Array.isArray(value)) {
    for (const item of value) flatten(item, path, emit);
    return;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    emit(path.join('.'), value);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, inner] of Object.entries(value)) if (SEGMENT.test(key)) flatten(inner, [...path, key], emit);
}

/** A value's row: a text that spells a number (as `Number` reads it) also carries the number (search/filters.ts). */
export function termOf(part: string, unit: number, path: string, value: string | number | boolean): SearchTerm {
  if (typeof value === 'number') return { part, unit, path, kind: 'n', str: String(value), num: value };
  if (typeof value === 'boolean') return { part, unit, path, kind: 'b', str: String(value), num: null };
  const spelled = value.trim() === '' ? Number.NaN : Number(value);
  return { part, unit, path, kind: 's', str: value, num: Number.isFinite(spelled) ? spelled : null };
}

function variantTerms(part: string, variant: ProductVariant, into: SearchTerm[]): void {
  const emit: Emit = (path, value) => into.push(termOf(part, variant.id, path, value));
  into.push({ part, unit: variant.id, path: '', kind: 'u', str: null, num: null });
  for (const attribute of variant.attributes ?? []) {
    if (!SEGMENT.test(attribute.name)) continue;
    flatten(attribute.value, ['attributes', attribute.name], emit);
    if (typeof attribute.value === 'string') emit(`attributes.${attribute.name}.key`, attribute.value);
  }
  for (const price of variant.prices) for (const field of PRICE_TERMS) emit(`price.${field}`, price.value[field]);
  for (const [key, value] of Object.entries(variant)) if (!NOT_PLAIN_VARIANT_TERMS.has(key) && SEGMENT.test(key)) flatten(value, [key], emit);
}

function dataTerms(product: Product, part: 'current' | 'staged', data: ProductData): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const emit: Emit = (path, value) => terms.push(termOf(part, 0, path, value));
  // The projection search evaluates: the product's fields, the data's, and the catalogue flags.
  const view = { ...product, ...data, hasStagedChanges: product.masterData.hasStagedChanges, published: product.masterData.published };
  for (const [key, value] of Object.entries(view)) if (!NOT_PRODUCT_TERMS.has(key) && SEGMENT.test(key)) flatten(value, [key], emit);
  for (const variant of [data.masterVariant, ...data.variants]) variantTerms(part, variant, terms);
  return terms;
}

export function productSearchTerms(product: Product): SearchTerm[] {
  const { current, staged, published } = product.masterData;
  return [...(published ? dataTerms(product, 'current', current) : []), ...dataTerms(product, 'staged', staged)];
}

/** Every write of a product replaces its search terms (search/indexed.ts answers searches from them). */
export function declareProductSearchTerms(documents: DocumentStore): void {
  documents.declareSearchTerms<Product>(PRODUCT_TYPE_ID, { version: PRODUCT_SEARCH_TERMS_VERSION, termsOf: productSearchTerms });
}
