import type { Clock } from '@herald/model';
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../auth/types.js';
import { requirePermission } from '../associates/require-permission.js';
import { buyerOf, customerOf, type Buyer } from '../shared/buyer.js';
import { requestContext, type RequestContext, type ResourceDeps } from '../shared/context.js';
import { UNSCOPED, type DocumentScope } from '../shared/document-scope.js';
import { expanding } from '../shared/route-helpers.js';
import { registerScopedRoutes } from '../shared/scoped-routes.js';
import { createOrderActions } from './actions.js';
import { createOrderFromCart } from './from-cart.js';
import { createOrderFromQuote } from './from-quote.js';
import type { Order } from './order.js';

/** Reference resources/orders.raml. Ordering a quote asks `manage_quotes` there; `manage_orders` is accepted too. */
export const ORDER_SCOPES = { view: ['view_orders'], manage: ['manage_orders'] } as const;
export const ORDER_FROM_QUOTE_SCOPES = ['manage_orders', 'manage_quotes'] as const;
/** Reference resources/me.raml `/me/orders` (and `/me/orders/quotes`, which also takes `manage_my_quotes`). */
export const MY_ORDER_SCOPES = { view: [], manage: ['manage_my_orders'] } as const;
export const MY_ORDER_FROM_QUOTE_SCOPES = ['manage_my_orders', 'manage_my_quotes'] as const;

/**
 * §1.4: a buyer's order of a business unit's cart or quote needs their own permission in that
 * unit (reference: CreateMyOrdersFromMyCarts, CreateMyOrdersFromMyQuotes on the My endpoints).
 */
export function myPermission(
  auth: AuthContext | undefined,
  permission: 'CreateMyOrdersFromMyCarts' | 'CreateMyOrdersFromMyQuotes',
  deps: Pick<ResourceDeps, 'documents'>,
) {
  return async (source: { businessUnit?: { key: string } }): Promise<void> => {
    const associateId = auth?.customerId;
    if (source.businessUnit === undefined || associateId === undefined || auth === undefined) return;
    const place = { projectKey: auth.projectKey, associateId, businessUnitKey: source.businessUnit.key };
    await requirePermission({ documents: deps.documents }, place, permission, associateId, { action: 'create orders' });
  };
}

function buyerScope(buyer: Buyer): DocumentScope {
  return 'customerId' in buyer
    ? { conditions: [{ path: ['customerId'], value: buyer.customerId }] }
    : { conditions: [{ path: ['anonymousId'], value: buyer.anonymousId }] };
}

/**
 * `/{projectKey}/orders` for API clients (get, query, update, delete through the scoped template
 * with no restriction; creates from a cart and from a quote of their own, since each commits with
 * the cart or quote it consumes) and `/me/orders` for the buyer: their own orders, read and created.
 */
export function registerOrderRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const { documents } = deps;
  registerScopedRoutes<Order>(
    app,
    {
      typeId: 'order',
      path: 'orders',
      scopes: ORDER_SCOPES,
      scopeOf: () => UNSCOPED,
      actions: createOrderActions(clock),
      remove: { messages: (order) => [{ type: 'OrderDeleted', order }], personalData: true },
    },
    deps,
  );
  const created = (create: (ctx: RequestContext, body: unknown, auth: AuthContext | undefined) => Promise<Order>) =>
    expanding(documents, async (request, expansion, reply) => {
      const doc = await create(requestContext(request, documents), request.body, request.auth);
      return reply.status(201).send(await expansion.one(doc));
    });
  app.post(
    '/:projectKey/orders',
    { config: { auth: { anyOf: ORDER_SCOPES.manage } } },
    created((ctx, body) => createOrderFromCart(body, ctx, documents)),
  );
  app.post(
    '/:projectKey/orders/quotes',
    { config: { auth: { anyOf: ORDER_FROM_QUOTE_SCOPES } } },
    created((ctx, body) => createOrderFromQuote(body, ctx, documents, clock.now())),
  );

  registerScopedRoutes<Order>(
    app,
    { typeId: 'order', path: 'me/orders', scopes: MY_ORDER_SCOPES, me: 'customer-or-anonymous', scopeOf: (request) => buyerScope(buyerOf(request.auth)) },
    deps,
  );
  app.post(
    '/:projectKey/me/orders',
    { config: { auth: { anyOf: MY_ORDER_SCOPES.manage, me: 'customer-or-anonymous' } } },
    created((ctx, body, auth) =>
      createOrderFromCart(body, ctx, documents, { buyer: buyerOf(auth), authorize: myPermission(auth, 'CreateMyOrdersFromMyCarts', deps) }),
    ),
  );
  app.post(
    '/:projectKey/me/orders/quotes',
    { config: { auth: { anyOf: MY_ORDER_FROM_QUOTE_SCOPES, me: 'customer' } } },
    created((ctx, body, auth) =>
      createOrderFromQuote(body, ctx, documents, clock.now(), {
        customerId: customerOf(auth),
        authorize: myPermission(auth, 'CreateMyOrdersFromMyQuotes', deps),
      }),
    ),
  );
}
