import type { DocumentStore } from '@herald/store';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { assetActions } from './asset-actions.js';
import { dataActions } from './data-actions.js';
import { setDiscountedPrice } from './discounted-price.js';
import { setDefaultVariant } from './default-variant.js';
import { productFromDraft } from './draft.js';
import { allImageUrls, imageActions } from './image-actions.js';
import { priceActions } from './price-actions.js';
import { priceCustomActions } from './price-custom-actions.js';
import { PRODUCT_TYPE_ID, type Product } from './product.js';
import { projectionOf } from './projection.js';
import { withStagedChanges } from './staging.js';
import { transitionState } from './state-transition.js';
import { declareProductUniqueValues } from './uniqueness.js';
import { variantActions } from './variant-actions.js';

/**
 * `/{projectKey}/products` (reference: resources/products.raml, types/product). `documents` claims
 * the project-wide unique slugs and SKUs in each write (uniqueness.ts). A delete is not refused by references in
 * the reference (carts and orders keep snapshots); ProductDeleted carries the current projection.
 */
export function productDefinition(documents: DocumentStore): ResourceDefinition<Product> {
  declareProductUniqueValues(documents);
  return {
    typeId: PRODUCT_TYPE_ID,
    path: 'products',
    // resources/products.raml securedBy: manage_products / view_products.
    scopes: { view: ['view_products'], manage: ['manage_products'] },

    fromDraft: productFromDraft,

    createdMessages: (product) => [{ type: 'ProductCreated', productProjection: projectionOf(product, { staged: true }) }],

    actions: withStagedChanges({
      ...dataActions,
      ...variantActions,
      ...priceActions,
      ...priceCustomActions,
      setDiscountedPrice,
      setDefaultVariant,
      ...imageActions,
      ...assetActions,
      transitionState,
    }),

    deletedMessages: (product) => [
      { type: 'ProductDeleted', removedImageUrls: allImageUrls(product), currentProjection: projectionOf(product, { staged: false }) },
    ],
  };
}
