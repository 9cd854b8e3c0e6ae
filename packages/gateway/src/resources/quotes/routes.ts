import type { FastifyInstance } from 'fastify';
import { customerOf } from '../shared/buyer.js';
import { requestContext, type ResourceDeps } from '../shared/context.js';
import { UNSCOPED } from '../shared/document-scope.js';
import { expanding } from '../shared/route-helpers.js';
import { registerScopedRoutes } from '../shared/scoped-routes.js';
import { myQuoteActions, quoteActions } from './actions.js';
import { createQuote } from './draft.js';
import { withAnswerPermissions } from './permissions.js';
import type { Quote } from './quote.js';

/** Reference resources/quotes.raml. */
export const QUOTE_SCOPES = { view: ['view_quotes'], manage: ['manage_quotes'] } as const;
/** Reference resources/me.raml `/me/quotes`: `manage_my_quotes` with the customer's token. */
export const MY_QUOTE_SCOPES = { view: [], manage: ['manage_my_quotes'] } as const;

/**
 * `/{projectKey}/quotes` for the seller (get, query, update, delete through the scoped template
 * with no restriction; a create of its own, which commits with the staged quote, draft.ts) and
 * `/me/quotes` for the buyer: their own quotes, read and answered (no create, no delete).
 */
export function registerQuoteRoutes(app: FastifyInstance, deps: ResourceDeps): void {
  const { documents } = deps;
  registerScopedRoutes<Quote>(
    app,
    {
      typeId: 'quote',
      path: 'quotes',
      scopes: QUOTE_SCOPES,
      scopeOf: () => UNSCOPED,
      actions: quoteActions,
      remove: { messages: () => [{ type: 'QuoteDeleted' }], personalData: true },
    },
    deps,
  );
  app.post(
    '/:projectKey/quotes',
    { config: { auth: { anyOf: QUOTE_SCOPES.manage } } },
    expanding(documents, async (request, expansion, reply) => {
      const doc = await createQuote(request.body, requestContext(request, documents), documents);
      return reply.status(201).send(await expansion.one(doc));
    }),
  );

  registerScopedRoutes<Quote>(
    app,
    {
      typeId: 'quote',
      path: 'me/quotes',
      scopes: MY_QUOTE_SCOPES,
      me: 'customer',
      scopeOf: (request) => ({ conditions: [{ path: ['customer', 'id'], value: customerOf(request.auth) }] }),
      // §1.4: a B2B quote's answers need the customer's Accept/Decline/RenegotiateMyQuotes in its unit.
      actions: withAnswerPermissions(myQuoteActions, (scope) => scope.ctx.auth?.customerId),
    },
    deps,
  );
}
