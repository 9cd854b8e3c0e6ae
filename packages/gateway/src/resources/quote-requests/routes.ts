import type { FastifyInstance } from 'fastify';
import { customerOf } from '../shared/buyer.js';
import { registerScopedRoutes } from '../shared/scoped-routes.js';
import type { ResourceDeps } from '../shared/context.js';
import { registerVersionedRoutes } from '../shared/versioned-routes.js';
import { myQuoteRequestActions } from './actions.js';
import { MY_QUOTE_REQUEST_SCOPES, quoteRequestCreated, quoteRequestDefinition } from './definition.js';
import { quoteRequestFromDraft } from './draft.js';
import type { QuoteRequest } from './quote-request.js';

/**
 * `/quote-requests` (§4.1, for sellers) and `/me/quote-requests` (for buyers: create from their
 * own cart, read their own, cancel; no delete).
 */
export function registerQuoteRequestRoutes(app: FastifyInstance, deps: ResourceDeps): void {
  registerVersionedRoutes(app, quoteRequestDefinition, deps);

  registerScopedRoutes<QuoteRequest>(
    app,
    {
      typeId: 'quote-request',
      path: 'me/quote-requests',
      scopes: MY_QUOTE_REQUEST_SCOPES,
      me: 'customer',
      scopeOf: (request) => ({ conditions: [{ path: ['customer', 'id'], value: customerOf(request.auth) }] }),
      create: (body, ctx) => quoteRequestFromDraft(body, ctx, { customerId: customerOf(ctx.auth) }),
      createdMessages: (quoteRequest) => [quoteRequestCreated(quoteRequest)],
      actions: myQuoteRequestActions,
    },
    deps,
  );
}
