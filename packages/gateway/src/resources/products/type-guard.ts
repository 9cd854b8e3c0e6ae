import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '@herald/model';
import type { DocumentStore, Queryable, ServerFields } from '@herald/store';
import { referencedResourceNotFound } from '../shared/references.js';
import { withWriteFollowers, type WriteInTransaction } from '../shared/write-followers.js';
import { PRODUCT_TYPE_TYPE_ID, type ProductType } from '../product-types/product-type.js';
import type { Product } from './product.js';

/**
 * A product is checked against its ProductType's attribute definitions before its create's
 * transaction (the route's `fromDraft`), and a ProductType update makes the products of the type
 * follow it in its own transaction (follow-product-type.ts). A product checked against the old
 * definitions but committed after the update followed the others would keep what the type no longer
 * has (a removed attribute, an old enum key), and a ProductType deleted meanwhile would leave it
 * pointing at nothing.
 *
 * One advisory lock per ProductType closes both: a product create holds it shared and, under it,
 * finds the type's definitions still the ones it was checked against; a ProductType update or
 * delete holds it exclusively before it reads the type's products, so the creates in flight commit
 * first and are followed (or counted) like the others. Advisory, not a `FOR SHARE` row lock on the
 * type: that would write to the type's row for every product created and share it through MultiXacts.
 */
const CHECKED_AGAINST = Symbol('productTypeAttributes');

/** A product's fields from `productFromDraft` (every product create's), which records what they were checked against. */
type CheckedFields = Omit<Product, ServerFields> & { [CHECKED_AGAINST]?: ProductType['attributes'] };

/** Records on the product's fields the definitions they were checked against (never stored: a symbol is not JSON). */
export function markCheckedAgainst<F extends object>(fields: F, productType: ProductType): F {
  Object.defineProperty(fields, CHECKED_AGAINST, { value: productType.attributes, enumerable: false });
  return fields;
}

const lockKey = (projectKey: string, productTypeId: string) => `product-type:${projectKey}:${productTypeId}`;

/** Taken by a ProductType update or delete, in its transaction, before it reads the type's products. */
export async function holdProductTypeExclusively(tx: Queryable, projectKey: string, productTypeId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey(projectKey, productTypeId)]);
}

/** The type as it is under the shared lock (undefined: it was deleted). */
async function typeUnderSharedLock(write: WriteInTransaction, productTypeId: string): Promise<ProductType | undefined> {
  await write.tx.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [lockKey(write.ctx.projectKey, productTypeId)]);
  // Read after the lock, in a statement of its own: one statement's snapshot is taken before it waits.
  return write.joined.get<ProductType>(write.ctx.projectKey, PRODUCT_TYPE_TYPE_ID, { id: productTypeId });
}

/** The ProductType changed between the product's check and its create: the client sends the draft again. */
const productTypeChanged = (productTypeId: string) =>
  new ApiError(409, {
    code: 'ConcurrentModification',
    message: `The product type '${productTypeId}' changed while the product was created; send the draft again.`,
  });

/** The document store products are written through: each create under its ProductType's shared lock. */
export function productDocuments(documents: DocumentStore): DocumentStore {
  return withWriteFollowers<Product>(documents, {
    async beforeCreate(write, fields) {
      const checked = (fields as CheckedFields)[CHECKED_AGAINST];
      const productTypeId = fields.productType.id;
      const current = await typeUnderSharedLock(write, productTypeId);
      if (current === undefined) throw referencedResourceNotFound(PRODUCT_TYPE_TYPE_ID, { id: productTypeId });
      if (checked !== undefined && !isDeepStrictEqual(current.attributes, checked)) throw productTypeChanged(productTypeId);
      return { fields };
    },
  });
}
