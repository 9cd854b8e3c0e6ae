import type { DocumentStore, UniqueValue } from '@herald/store';
import { declareProductSearchTerms } from '../product-projections/search-index/terms.js';
import { allVariants, PRODUCT_TYPE_ID, type Product, type ProductData } from './product.js';

/*
 * The project-wide unique fields of a Product (reference ProductDraft): `slug` per locale and the
 * variants' `sku`, in current or staged data of any other product. The store claims them in the
 * write itself (packages/store documents/unique-values.ts, migration 012): one index probe per
 * value instead of a scan of every product, and two writes racing for one value cannot both
 * succeed. The encoding (`locale:text` for slugs) is the one migration 012 claims stored products with.
 */

const slugValues = (data: ProductData): UniqueValue[] =>
  Object.entries(data.slug).map(([locale, text]) => ({ field: 'slug', value: `${locale}:${text}`, duplicateValue: text }));

const skuValues = (data: ProductData): UniqueValue[] => allVariants(data).flatMap(({ sku }) => (sku === undefined ? [] : [{ field: 'sku', value: sku }]));

/** Slugs first: a draft whose slug and SKU are both taken is refused for its slug (as before the claims). */
export function productUniqueValues(product: Product): UniqueValue[] {
  const versions = [product.masterData.current, product.masterData.staged];
  return [...versions.flatMap(slugValues), ...versions.flatMap(skuValues)];
}

/** Every write of a product claims its slugs and SKUs (400 DuplicateField `slug` or `sku` when taken). */
export function declareProductUniqueValues(documents: DocumentStore): void {
  documents.declareUniqueValues<Product>(PRODUCT_TYPE_ID, productUniqueValues);
  declareProductSearchTerms(documents); // and its search terms (product-projections/search-index, issue 28)
}
