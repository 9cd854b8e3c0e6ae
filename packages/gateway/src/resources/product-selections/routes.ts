import { resourceNotFound, type Clock } from '@herald/model';
import type { FastifyInstance } from 'fastify';
import { queryRequest } from '../../http/query-params.js';
import { PRODUCT_TYPE_ID } from '../products/product.js';
import type { ResourceDeps } from '../shared/context.js';
import { expanding, locatorOf, type ResourceParams } from '../shared/route-helpers.js';
import { notFoundMessage, registerVersionedRoutes } from '../shared/versioned-routes.js';
import type { Store } from '../stores/store.js';
import { assignmentsOfSelections, productsOfSelection, queryAssignments, selectionsOfProduct, type AssignmentSource } from './assignment-query.js';
import { activeSelectionIds } from './availability.js';
import { productSelectionDefinition } from './definition.js';
import { PRODUCT_SELECTION_TYPE_ID } from './product-selection.js';

type Query = Record<string, string | string[] | undefined>;
type Params = ResourceParams & { storeKey?: string };

/** Every assignment endpoint is securedBy view_product_selections (manage implies it). */
const VIEW = { auth: { anyOf: ['view_product_selections', 'manage_product_selections'] } } as const;

/**
 * `/{projectKey}/product-selections` (the versioned template) and the reference's assignment
 * endpoints: a selection's products (resources/product-selections.raml `/products`), a product's
 * selections (resources/products.raml `/product-selections`) and a Store's active assignments
 * (resources/in-store/product-selection-assignments-in-store.raml).
 */
export function registerProductSelectionRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const { documents } = deps;
  registerVersionedRoutes(app, productSelectionDefinition(clock), deps);

  /** A handler answering a page of `source`'s rows with the request's where, sort, paging and expand. */
  const page = (source: (params: Params) => Promise<AssignmentSource>) =>
    expanding(documents, async (request, expansion) => {
      const found = await queryAssignments<Record<string, unknown>>(documents.db, await source(request.params as Params), queryRequest(request.query as Query));
      return { ...found, results: await expansion.all(found.results) };
    });

  /** The id of the path's resource; 404 when there is none. */
  const existingId = async (typeId: string, params: Params): Promise<string> => {
    const doc = await documents.get(params.projectKey, typeId, locatorOf(params));
    if (doc === undefined) throw resourceNotFound(notFoundMessage(typeId, locatorOf(params)));
    return doc.id;
  };

  const selectionProducts = page(async (params) => productsOfSelection(params.projectKey, await existingId(PRODUCT_SELECTION_TYPE_ID, params)));
  for (const path of ['/:projectKey/product-selections/:id/products', '/:projectKey/product-selections/key=:key/products']) {
    app.get(path, { config: VIEW }, selectionProducts);
  }
  const productSelections = page(async (params) => selectionsOfProduct(params.projectKey, await existingId(PRODUCT_TYPE_ID, params)));
  for (const path of ['/:projectKey/products/:id/product-selections', '/:projectKey/products/key=:key/product-selections']) {
    app.get(path, { config: VIEW }, productSelections);
  }
  app.get(
    '/:projectKey/in-store/key=:storeKey/product-selection-assignments',
    { config: VIEW },
    page(async ({ projectKey, storeKey = '' }) => {
      const store = await documents.get<Store>(projectKey, 'store', { key: storeKey });
      if (store === undefined) throw resourceNotFound(`The store with key '${storeKey}' was not found.`);
      // "Only Products of Product Selections that are activated in the Store will be returned."
      return assignmentsOfSelections(projectKey, activeSelectionIds(store));
    }),
  );
}
