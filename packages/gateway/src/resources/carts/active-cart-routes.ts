import { resourceNotFound } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { single } from '../../http/query-params.js';
import { expanding } from '../shared/route-helpers.js';
import { findActiveCart } from './active-cart.js';
import { buyerOf, type Buyer } from '../shared/buyer.js';
import { CART_SCOPES, MY_CART_SCOPES } from './definition.js';

type Params = { projectKey: string; storeKey?: string; customerId?: string };
type Query = Record<string, string | string[] | undefined>;

const VIEW = { auth: { anyOf: [...CART_SCOPES.view, ...CART_SCOPES.manage] } } as const;
const MY_VIEW = { auth: { anyOf: [...MY_CART_SCOPES.view, ...MY_CART_SCOPES.manage], me: 'customer-or-anonymous' } } as const;

function noActiveCart(): Error {
  return resourceNotFound('No active cart exists.');
}

/**
 * The active cart routes of the reference (carts.raml, me.raml and their in-store variants):
 * `GET /carts/customer-id={customerId}`, `GET /me/active-cart`, each also under
 * `/in-store/key={storeKey}`; 404 ResourceNotFound when the buyer has no active cart.
 */
export function registerActiveCartRoutes(app: FastifyInstance, documents: DocumentStore): void {
  const answer = (buyerOfRequest: (request: FastifyRequest) => Buyer) =>
    expanding(documents, async (request, expansion) => {
      const { projectKey, storeKey } = request.params as Params;
      const cart = await findActiveCart(documents.db, projectKey, buyerOfRequest(request), storeKey);
      if (cart === undefined) throw noActiveCart();
      return expansion.one(cart);
    });
  const byCustomerId = answer((request) => ({ customerId: (request.params as Params).customerId ?? '' }));
  const mine = answer((request) => buyerOf(request.auth));
  for (const prefix of ['/:projectKey', '/:projectKey/in-store/key=:storeKey']) {
    app.get(`${prefix}/carts/customer-id=:customerId`, { config: VIEW }, byCustomerId);
    app.get(`${prefix}/me/active-cart`, { config: MY_VIEW }, mine);
  }
}

/**
 * `GET /{projectKey}/carts?customerId=…`: the platform's older form of "Get Cart by Customer ID"
 * (carts.raml had a `customerId` query parameter on the query endpoint) answers that customer's
 * active cart, not a page. The query route is the resource template's (versioned-routes.ts), so
 * this is a preHandler added to it as it is registered; without `customerId` it does nothing.
 * Call before the carts' routes are registered.
 */
export function answerActiveCartOnQuery(app: FastifyInstance, documents: DocumentStore, paths: readonly string[]): void {
  const activeCart = expanding(documents, async (request, expansion) => {
    const { projectKey, storeKey } = request.params as Params;
    const customerId = single(request.query as Query, 'customerId') ?? '';
    const cart = await findActiveCart(documents.db, projectKey, { customerId }, storeKey);
    if (cart === undefined) throw noActiveCart();
    return expansion.one(cart);
  });
  const activeCartByQuery = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (single(request.query as Query, 'customerId') === undefined) return undefined;
    return reply.send(await activeCart(request, reply));
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET') || !paths.includes(route.url ?? '')) return;
    const existing = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...existing, activeCartByQuery];
  });
}
