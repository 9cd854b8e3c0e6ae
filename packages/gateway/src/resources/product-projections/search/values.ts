import type { ProductProjection } from '../../products/projection.js';
import type { SearchVariant } from './search-variant.js';

/**
 * The values a search path reads (filters, facets and sorts share them). A path crossing an array
 * reads every element; a missing field reads nothing. Attributes are addressed by name
 * (`variants.attributes.color`, `variants.attributes.size.key`, `variants.attributes.title.en`),
 * `variants.price` is every embedded price's value, `variants.scopedPrice` the price selection's.
 */
export type Scalar = string | number | boolean;

function collect(value: unknown, path: readonly string[], into: Scalar[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, path, into);
    return;
  }
  if (path.length === 0) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') into.push(value);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const [head = '', ...rest] = path;
  if (Object.hasOwn(value, head)) collect((value as Record<string, unknown>)[head], rest, into);
}

export function valuesAt(value: unknown, path: readonly string[]): Scalar[] {
  const values: Scalar[] = [];
  collect(value, path, values);
  return values;
}

/**
 * An enum or lenum attribute value is stored as its draft gave it, the key alone or `{key, label}`;
 * `….key` reads the key of either.
 */
function enumAsKey(value: unknown, inner: readonly string[]): unknown {
  return inner.length === 1 && inner[0] === 'key' && typeof value === 'string' ? { key: value } : value;
}

/** Values of a variant path without its `variants.` prefix. */
export function variantValues(variant: SearchVariant, path: readonly string[]): Scalar[] {
  const [head, ...rest] = path;
  if (head === 'attributes') {
    const [name, ...inner] = rest;
    return variant.attributes.filter((attribute) => attribute.name === name).flatMap((attribute) => valuesAt(enumAsKey(attribute.value, inner), inner));
  }
  if (head === 'price') return variant.prices.flatMap((price) => valuesAt(price.value, rest));
  return valuesAt(variant, path);
}

/** Values of a product path (`categories.id`, `productType.id`, `name.en`, `createdAt`, …). */
export function productValues(projection: ProductProjection, path: readonly string[]): Scalar[] {
  return valuesAt(projection, path);
}
