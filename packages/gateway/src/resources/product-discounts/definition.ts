import type { DocumentStore, ServerFields } from '@herald/store';
import { updateReads } from '../carts/catalogue.js';
import type { FastifyInstance } from 'fastify';
import { describedActions, requiredBoolean, requiredLocalized, optionalLocalized } from '../discounts/common-actions.js';
import { compiledField, predicateReferences } from '../discounts/predicate-field.js';
import { assertSortOrderFree, sortOrderField } from '../discounts/sort-order.js';
import { validityActions, validityFromDraft } from '../discounts/validity.js';
import type { ResourceDeps } from '../shared/context.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import { registerVersionedRoutes, type ResourceDefinition } from '../shared/versioned-routes.js';
import { productDiscountDocuments } from './discounted-standalone-prices.js';
import { registerProductDiscountMatching } from './matching.js';
import { PRODUCT_DISCOUNT_TYPE_ID, type ProductDiscount } from './product-discount.js';
import { productDiscountValue } from './value.js';

/**
 * `/{projectKey}/product-discounts` (reference: resources/product-discounts.raml,
 * types/product-discount). The reference has no ProductDiscount messages: changes are notified
 * only, but each write changes the `discounted` of the standalone prices it discounts (with their
 * StandalonePriceDiscountSet). Nothing references a product discount in a way that refuses its
 * delete, so none is checked.
 */
export function productDiscountDefinition(documents: DocumentStore): ResourceDefinition<ProductDiscount> {
  return {
    typeId: PRODUCT_DISCOUNT_TYPE_ID,
    path: 'product-discounts',
    // securedBy: view_product_discounts or view_products to read; manage_product_discounts or manage_products to write.
    scopes: { view: ['view_product_discounts', 'view_products'], manage: ['manage_product_discounts', 'manage_products'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'ProductDiscountDraft');
      const predicate = compiledField(draft.predicate, 'predicate', 'product');
      const fields: Omit<ProductDiscount, ServerFields> = {
        name: requiredLocalized(draft.name, 'name'),
        value: productDiscountValue(draft.value),
        predicate: predicate.source,
        sortOrder: sortOrderField(draft.sortOrder),
        isActive: requiredBoolean(draft.isActive, 'isActive'),
        references: predicateReferences([predicate]),
        ...validityFromDraft(draft),
      };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      const description = optionalLocalized(draft.description, 'description');
      if (description !== undefined) fields.description = description;
      await assertSortOrderFree(documents.db, ctx.projectKey, PRODUCT_DISCOUNT_TYPE_ID, fields.sortOrder);
      return fields;
    },

    actions: {
      ...describedActions<ProductDiscount>(),
      ...validityActions<ProductDiscount>(),
      changeName(discount, action) {
        discount.name = requiredLocalized(action.name, 'name');
      },
      changeValue(discount, action) {
        discount.value = productDiscountValue(action.value);
      },
      changePredicate(discount, action) {
        const predicate = compiledField(action.predicate, 'predicate', 'product');
        discount.predicate = predicate.source;
        discount.references = predicateReferences([predicate]);
      },
      async changeSortOrder(discount, action, { ctx, reader }) {
        const sortOrder = sortOrderField(action.sortOrder);
        // Through the update's transaction: the update holds the row lock (discounted-standalone-prices.ts).
        const { db } = updateReads(ctx, reader);
        if (sortOrder !== discount.sortOrder) await assertSortOrderFree(db, ctx.projectKey, PRODUCT_DISCOUNT_TYPE_ID, sortOrder, discount.id);
        discount.sortOrder = sortOrder;
      },
    },
  };
}

/** The template's eight operations and `POST /product-discounts/matching` (static path, registered first). */
export function registerProductDiscountRoutes(app: FastifyInstance, deps: ResourceDeps): void {
  registerProductDiscountMatching(app, deps.documents);
  // Writes follow the standalone prices' platform discount in their transaction (discounted-standalone-prices.ts).
  registerVersionedRoutes(app, productDiscountDefinition(deps.documents), { ...deps, documents: productDiscountDocuments(deps.documents) });
}
