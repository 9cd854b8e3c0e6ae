import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceDeps } from '../shared/context.js';
import { registerVersionedRoutes } from '../shared/versioned-routes.js';
import { cartActions, myCartActions } from './actions.js';
import { answerActiveCartOnQuery, registerActiveCartRoutes } from './active-cart-routes.js';
import { buyerOf, type Buyer } from '../shared/buyer.js';
import type { Cart } from './cart.js';
import { CART_SCOPES, cartDefinition, MY_CART_SCOPES } from './definition.js';
import { cartFromDraft } from './draft.js';
import type { DocumentScope } from '../shared/document-scope.js';
import { registerScopedRoutes } from '../shared/scoped-routes.js';

function storeKeyOf(request: FastifyRequest): string {
  return (request.params as { storeKey: string }).storeKey;
}

function buyerConditions(buyer: Buyer): DocumentScope['conditions'] {
  return 'customerId' in buyer ? [{ path: ['customerId'], value: buyer.customerId }] : [{ path: ['anonymousId'], value: buyer.anonymousId }];
}

const storeCondition = (storeKey: string) => ({ path: ['store', 'key'], value: storeKey });

/**
 * Carts under their four paths: `/carts` (the template's eight operations), `/me/carts` (the
 * token's buyer's carts), `/in-store/key={storeKey}/carts` (the store's carts) and
 * `/in-store/key={storeKey}/me/carts` (both restrictions); and the active cart of a customer or
 * of the token's buyer (active-cart-routes.ts).
 */
export function registerCartRoutes(app: FastifyInstance, deps: ResourceDeps): void {
  answerActiveCartOnQuery(app, deps.documents, ['/:projectKey/carts', '/:projectKey/in-store/key=:storeKey/carts']);
  registerActiveCartRoutes(app, deps.documents);
  registerVersionedRoutes(app, cartDefinition, deps);

  registerScopedRoutes<Cart>(
    app,
    {
      typeId: 'cart',
      path: 'me/carts',
      scopes: MY_CART_SCOPES,
      me: 'customer-or-anonymous',
      scopeOf: (request) => ({ conditions: buyerConditions(buyerOf(request.auth)) }),
      create: (body, ctx) => cartFromDraft(body, ctx, { buyer: buyerOf(ctx.auth) }),
      actions: myCartActions,
      remove: { personalData: true },
    },
    deps,
  );

  registerScopedRoutes<Cart>(
    app,
    {
      typeId: 'cart',
      path: 'in-store/key=:storeKey/carts',
      scopes: CART_SCOPES,
      scopeOf: (request) => ({ conditions: [storeCondition(storeKeyOf(request))] }),
      create: (body, ctx, request) => cartFromDraft(body, ctx, { storeKey: storeKeyOf(request) }),
      actions: cartActions,
      remove: { personalData: true },
    },
    deps,
  );

  registerScopedRoutes<Cart>(
    app,
    {
      typeId: 'cart',
      path: 'in-store/key=:storeKey/me/carts',
      scopes: MY_CART_SCOPES,
      me: 'customer-or-anonymous',
      scopeOf: (request) => ({
        conditions: [storeCondition(storeKeyOf(request)), ...buyerConditions(buyerOf(request.auth))],
      }),
      create: (body, ctx, request) => cartFromDraft(body, ctx, { buyer: buyerOf(ctx.auth), storeKey: storeKeyOf(request) }),
      actions: myCartActions,
      remove: { personalData: true },
    },
    deps,
  );
}
