import type { DocumentStore } from '@herald/store';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { assetActions } from './asset-actions.js';
import { dataActions } from './data-actions.js';
import { productFromDraft } from './draft.js';
import { allImageUrls, imageActions } from './image-actions.js';
import { priceActions } from './price-actions.js';
import { allVariants, PRODUCT_TYPE_ID, type Product } from './product.js';
import { projectionOf } from './projection.js';
import { withStagedChanges } from './staging.js';
import { transitionState } from './state-transition.js';
import { assertSkuFree, assertSlugFree } from './uniqueness.js';
import { variantActions } from './variant-actions.js';

/** Every SKU of the product's staged data, checked free in the project before a create. */
function skusOf(product: Omit<Product, 'id' | 'version' | 'createdAt' | 'lastModifiedAt'>): string[] {
  return allVariants(product.masterData.staged).flatMap(({ sku }) => (sku === undefined ? [] : [sku]));
}

/**
 * `/{projectKey}/products` (reference: resources/products.raml, types/product). `documents` answers
 * the project-wide slug and SKU checks (uniqueness.ts). A delete is not refused by references in
 * the reference (carts and orders keep snapshots); ProductDeleted carries the current projection.
 */
export function productDefinition(documents: DocumentStore): ResourceDefinition<Product> {
  return {
    typeId: PRODUCT_TYPE_ID,
    path: 'products',
    // resources/products.raml securedBy: manage_products / view_products.
    scopes: { view: ['view_products'], manage: ['manage_products'] },

    async fromDraft(body, ctx) {
      const fields = await productFromDraft(body, ctx);
      await assertSlugFree(documents.db, ctx.projectKey, fields.masterData.staged.slug);
      for (const sku of skusOf(fields)) await assertSkuFree(documents.db, ctx.projectKey, sku);
      return fields;
    },

    createdMessages: (product) => [{ type: 'ProductCreated', productProjection: projectionOf(product, { staged: true }) }],

    actions: withStagedChanges({
      ...dataActions(documents.db),
      ...variantActions(documents.db),
      ...priceActions,
      ...imageActions,
      ...assetActions,
      transitionState,
    }),

    deletedMessages: (product) => [
      { type: 'ProductDeleted', removedImageUrls: allImageUrls(product), currentProjection: projectionOf(product, { staged: false }) },
    ],
  };
}
