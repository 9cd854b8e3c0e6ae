import { invalidOperation, type Clock } from '@herald/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission, type AssociateScope } from '../associates/require-permission.js';
import { createOrderFromCart } from '../orders/from-cart.js';
import { createOrderFromQuote } from '../orders/from-quote.js';
import type { Order } from '../orders/order.js';
import { ORDER_SCOPES } from '../orders/routes.js';
import { requestContext, type RequestContext, type ResourceDeps } from '../shared/context.js';
import { expanding } from '../shared/route-helpers.js';
import { associateScopeOf, IN_BUSINESS_UNIT } from './associate-path.js';
import type { InBusinessUnitResource } from './in-business-unit.js';

/** `…/in-business-unit/key={businessUnitKey}/orders`: the unit's orders, read with View{My,Others}Orders. */
export const associateOrders: InBusinessUnitResource<Order> = {
  typeId: 'order',
  path: 'orders',
  scopes: ORDER_SCOPES,
  customerPath: ['customerId'],
  permissions: { view: { my: 'ViewMyOrders', others: 'ViewOthersOrders' } },
};

/** The reference: the cart or quote must reference the path's business unit, else InvalidOperation. */
function assertInUnit(what: string, businessUnitKey: string | undefined, scope: AssociateScope): void {
  if (businessUnitKey !== scope.businessUnitKey) throw invalidOperation(`The ${what} does not reference the business unit '${scope.businessUnitKey}'.`);
}

function associateContext(request: FastifyRequest, deps: ResourceDeps, scope: AssociateScope): RequestContext {
  const ctx = requestContext(request, deps.documents);
  return { ...ctx, write: { ...ctx.write, initiator: { ...ctx.write.initiator, associate: { typeId: 'customer', id: scope.associateId } } } };
}

/**
 * The as-associate order creates (reference as-associate.raml): from a cart of the unit with
 * CreateMyOrdersFromMyCarts / CreateOrdersFromOthersCarts, from a quote of the unit with
 * CreateMyOrdersFromMyQuotes / CreateOrdersFromOthersQuotes; each commits like `POST /orders`.
 */
export function registerAssociateOrderCreates(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const { documents } = deps;
  const manage = { auth: { anyOf: [...ORDER_SCOPES.manage, 'manage_quotes'] } };
  app.post(
    `${IN_BUSINESS_UNIT}/orders`,
    { config: manage },
    expanding(documents, async (request, expansion, reply) => {
      const scope = associateScopeOf(request);
      const doc = await createOrderFromCart(request.body, associateContext(request, deps, scope), documents, {
        async authorize(cart) {
          const permission = { my: 'CreateMyOrdersFromMyCarts', others: 'CreateOrdersFromOthersCarts' } as const;
          await requirePermission({ documents }, scope, permission, cart.customerId, { action: 'create orders' });
          assertInUnit('cart', cart.businessUnit?.key, scope);
        },
      });
      return reply.status(201).send(await expansion.one(doc));
    }),
  );
  app.post(
    `${IN_BUSINESS_UNIT}/orders/quotes`,
    { config: manage },
    expanding(documents, async (request, expansion, reply) => {
      const scope = associateScopeOf(request);
      const doc = await createOrderFromQuote(request.body, associateContext(request, deps, scope), documents, clock.now(), {
        async authorize(quote) {
          const permission = { my: 'CreateMyOrdersFromMyQuotes', others: 'CreateOrdersFromOthersQuotes' } as const;
          await requirePermission({ documents }, scope, permission, quote.customer?.id, { action: 'create orders from quotes' });
          assertInUnit('quote', quote.businessUnit?.key, scope);
        },
      });
      return reply.status(201).send(await expansion.one(doc));
    }),
  );
}
