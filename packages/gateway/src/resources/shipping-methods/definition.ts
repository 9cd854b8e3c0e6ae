import type { Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { ResourceDeps } from '../shared/context.js';
import { registerVersionedRoutes, type ResourceDefinition } from '../shared/versioned-routes.js';
import { shippingMethodActions } from './actions.js';
import { shippingMethodFromDraft } from './draft.js';
import { registerMatchingRoutes } from './matching-routes.js';
import { SHIPPING_METHOD_TYPE_ID, type ShippingMethod } from './shipping-method.js';
import { declareShippingMethodUniqueValues } from './uniqueness.js';

/**
 * `/{projectKey}/shipping-methods` (reference: resources/shipping-methods.raml,
 * types/shipping-method). The reference has no ShippingMethod messages: changes are notified
 * only. Its delete names no ReferenceExists rule (carts and orders keep their own copy of the
 * shipping info), so none is applied; the TaxCategory and Zones it references refuse their own
 * delete while it holds them where their reference says so.
 */
export function shippingMethodDefinition(documents: DocumentStore): ResourceDefinition<ShippingMethod> {
  declareShippingMethodUniqueValues(documents);
  return {
    typeId: SHIPPING_METHOD_TYPE_ID,
    path: 'shipping-methods',
    // resources/shipping-methods.raml securedBy: view_shipping_methods, view_orders or manage_my_orders to
    // read; manage_shipping_methods or manage_orders to write.
    scopes: { view: ['view_shipping_methods', 'view_orders', 'manage_my_orders'], manage: ['manage_shipping_methods', 'manage_orders'] },
    fromDraft: (body, ctx) => shippingMethodFromDraft(body, ctx, documents),
    actions: shippingMethodActions(documents),
  };
}

/** The template's eight operations and the matching endpoints (registered first: their paths are static). */
export function registerShippingMethodRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  registerMatchingRoutes(app, deps.documents, clock);
  registerVersionedRoutes(app, shippingMethodDefinition(deps.documents), deps);
}
