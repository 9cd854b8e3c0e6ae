import { invalidInput } from '@herald/model';
import type { Queryable } from '@herald/store';
import { referencedResourceNotFound, type Load } from '../shared/references.js';
import { allVariants, PRODUCT_TYPE_ID, type Product, type ProductVariant } from '../products/product.js';
import { productWithCurrentSku } from '../products/sku-lookup.js';

/** What a ShoppingListLineItemDraft / addLineItem names: `productId` (+ `variantId`) or `sku`. */
export interface VariantSelector {
  productId?: string;
  variantId?: number;
  sku?: string;
}

/** The product and variant a line item refers to; `variantId` is absent when it follows the master variant. */
export interface ResolvedVariant {
  product: Product;
  variant: ProductVariant;
  variantId?: number;
}

/** Reads products: by id through the request's loader, by SKU with one indexed query. */
export interface ProductFinder {
  load: Load;
  db: Queryable;
  projectKey: string;
}

function variantWithId(product: Product, id: number): ProductVariant {
  const variant = allVariants(product.masterData.current).find((candidate) => candidate.id === id);
  if (variant === undefined) throw invalidInput(`The product '${product.id}' has no variant with id ${id}.`, { field: 'variantId', invalidValue: id });
  return variant;
}

/**
 * ShoppingListLineItemDraft: "must be specified using the productID and variantID, or by the sku".
 * A product id that names no product is the reference's ReferencedResourceNotFound; an unknown SKU
 * or variant id is InvalidInput naming the field.
 */
export async function resolveVariant(finder: ProductFinder, selector: VariantSelector): Promise<ResolvedVariant> {
  if (selector.productId !== undefined) {
    const product = await finder.load<Product>(PRODUCT_TYPE_ID, { id: selector.productId });
    if (product === undefined) throw referencedResourceNotFound(PRODUCT_TYPE_ID, { id: selector.productId });
    if (selector.variantId === undefined) return { product, variant: product.masterData.current.masterVariant };
    return { product, variant: variantWithId(product, selector.variantId), variantId: selector.variantId };
  }
  if (selector.sku !== undefined) {
    const product = await productWithCurrentSku(finder.db, finder.projectKey, selector.sku);
    const variant = product === undefined ? undefined : allVariants(product.masterData.current).find((candidate) => candidate.sku === selector.sku);
    if (product === undefined || variant === undefined) {
      throw invalidInput(`No product has a variant with the SKU '${selector.sku}'.`, { field: 'sku', invalidValue: selector.sku });
    }
    return { product, variant, variantId: variant.id };
  }
  throw invalidInput("A line item needs a 'productId' (and 'variantId') or a 'sku'.", { field: 'productId' });
}
