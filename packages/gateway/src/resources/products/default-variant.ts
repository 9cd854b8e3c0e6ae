import { ApiError, invalidInput, invalidOperation, type Reference } from '@herald/model';
import type { ActionHandler } from '../shared/update-actions.js';
import { allVariants, type Product, type ProductData, type ProductVariant } from './product.js';
import { dataToChange, isStaged } from './staging.js';

/*
 * ProductSetDefaultVariantAction (types/product/updates/ProductSetDefaultVariantAction.raml, beta):
 * only for Projects whose productCatalogModel is `Modular` (types/project/ProductCatalogModel.raml;
 * an absent model is `Classic`). The reference names the Variant by a VariantResourceIdentifier of
 * its Variants API, which Herald lacks; here it names one of the product's own variants: `id` is
 * the variant's id (number or its string form), `key` its key, `sku` its SKU. The VariantReference
 * stored in ProductData.defaultVariant carries that id as a string. No message: types/message has none.
 */

export const VARIANT_TYPE_ID = 'variant';

interface VariantIdentifier {
  id?: unknown;
  key?: unknown;
  sku?: unknown;
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** The `variant` of the action as an identifier, or undefined when absent (which clears the default). */
function variantIdentifier(value: unknown): VariantIdentifier | undefined {
  if (!present(value)) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput("'variant' must be a VariantResourceIdentifier with 'id' or 'key'.", { field: 'variant', invalidValue: value });
  }
  const identifier = value as VariantIdentifier & { typeId?: unknown };
  if (present(identifier.typeId) && identifier.typeId !== VARIANT_TYPE_ID) {
    throw invalidInput(`'variant.typeId' must be '${VARIANT_TYPE_ID}'.`, { field: 'variant', invalidValue: identifier.typeId });
  }
  // VariantResourceIdentifier: "If both are set, an InvalidJsonInput error is returned."
  if (present(identifier.id) && present(identifier.key)) {
    throw new ApiError(400, { code: 'InvalidJsonInput', message: "'variant' must have either an 'id' or a 'key', not both." });
  }
  if (![identifier.id, identifier.key, identifier.sku].some(present)) {
    throw invalidInput("'variant' must have an 'id' or a 'key'.", { field: 'variant' });
  }
  return identifier;
}

function matches(variant: ProductVariant, { id, key, sku }: VariantIdentifier): boolean {
  if (present(id)) return variant.id === id || String(variant.id) === id;
  if (present(key)) return variant.key === key;
  return variant.sku === sku;
}

/** The reference to the variant `identifier` names in `data`; a variant of another product is a 400 naming `variant`. */
function defaultVariantIn(data: ProductData, identifier: VariantIdentifier): Reference<typeof VARIANT_TYPE_ID> {
  const variant = allVariants(data).find((candidate) => matches(candidate, identifier));
  if (variant === undefined) {
    throw invalidInput("'variant' must name a variant of the product.", { field: 'variant', invalidValue: identifier });
  }
  return { typeId: VARIANT_TYPE_ID, id: String(variant.id) };
}

/** Sets (or, without `variant`, clears) the default variant of the staged data, or of both with `staged: false`. */
export const setDefaultVariant: ActionHandler<Product> = (product, action, { ctx }) => {
  if (ctx.project.productCatalogModel !== 'Modular') {
    throw invalidOperation("'setDefaultVariant' is only available for Projects with the productCatalogModel 'Modular'.");
  }
  const identifier = variantIdentifier(action.variant);
  for (const data of dataToChange(product, isStaged(action))) {
    if (identifier === undefined) delete data.defaultVariant;
    else data.defaultVariant = defaultVariantIn(data, identifier);
  }
};

/** "The reference is automatically cleared when the referenced Variant is deleted" (ProductData.defaultVariant). */
export function clearDefaultVariantIfRemoved(data: ProductData, removed: ProductVariant): void {
  if (data.defaultVariant?.id === String(removed.id)) delete data.defaultVariant;
}
