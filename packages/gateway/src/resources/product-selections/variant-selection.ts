import { invalidInput } from '@herald/model';
import type { Product, ProductData } from '../products/product.js';
import { asDraft, stringArray } from '../shared/validation.js';
import { VARIANT_SELECTION_TYPES, type VariantExclusion, type VariantSelection, type VariantSelectionType } from './product-selection.js';

/** Every SKU of the product's variants, current and staged. */
function skusOf(product: Product): Set<string> {
  const skus = new Set<string>();
  const collect = (data: ProductData) => {
    for (const variant of [data.masterVariant, ...data.variants]) if (variant.sku !== undefined) skus.add(variant.sku);
  };
  collect(product.masterData.current);
  collect(product.masterData.staged);
  return skus;
}

/**
 * The reference's "non-empty array of SKUs", each a SKU of one of the product's variants (the
 * selection names variants of this product; a SKU of another product would select nothing).
 * Each SKU is kept once.
 */
function productSkus(value: unknown, field: string, product: Product): string[] {
  const skus = stringArray(value, field);
  if (skus.length === 0) throw invalidInput(`'${field}' must be a non-empty array of SKUs.`, { field });
  const known = skusOf(product);
  const unknown = skus.find((sku) => !known.has(sku));
  if (unknown !== undefined) {
    throw invalidInput(`'${field}' names the SKU '${unknown}', which no variant of the product has.`, { field, invalidValue: unknown });
  }
  return [...new Set(skus)];
}

/** A ProductVariantSelection (`{type, skus}`), or undefined when absent or null ("all Variants"). */
export function variantSelection(value: unknown, product: Product, field = 'variantSelection'): VariantSelection | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asDraft(value, `ProductVariantSelection '${field}'`);
  if (typeof draft.type !== 'string' || !(VARIANT_SELECTION_TYPES as readonly string[]).includes(draft.type)) {
    throw invalidInput(`'${field}.type' must be one of ${VARIANT_SELECTION_TYPES.join(', ')}.`, { field: `${field}.type`, invalidValue: draft.type });
  }
  return { type: draft.type as VariantSelectionType, skus: productSkus(draft.skus, `${field}.skus`, product) };
}

/** A ProductVariantExclusion (`{skus}`), or undefined when absent or null ("all Variants are excluded"). */
export function variantExclusion(value: unknown, product: Product, field = 'variantExclusion'): VariantExclusion | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asDraft(value, `ProductVariantExclusion '${field}'`);
  return { skus: productSkus(draft.skus, `${field}.skus`, product) };
}

/** Whether a variant's SKU is part of the selection (absent selection: every variant). */
export function selectsSku(selection: VariantSelection | undefined, sku: string | undefined): boolean {
  if (selection === undefined) return true;
  const listed = sku !== undefined && selection.skus.includes(sku);
  return selection.type === 'includeOnly' || selection.type === 'inclusion' ? listed : !listed;
}
