import type { FastifyInstance } from 'fastify';
import { requestContext, type ResourceDeps } from '../shared/context.js';
import { UNSCOPED } from '../shared/document-scope.js';
import { expanding } from '../shared/route-helpers.js';
import { registerScopedRoutes } from '../shared/scoped-routes.js';
import { stagedQuoteActions } from './actions.js';
import { createStagedQuote } from './draft.js';
import type { StagedQuote } from './staged-quote.js';

/** Reference resources/staged-quotes.raml: the seller's API clients only (no `/me` form). */
export const STAGED_QUOTE_SCOPES = { view: ['view_staged_quotes'], manage: ['manage_staged_quotes'] } as const;

/**
 * `/{projectKey}/staged-quotes`: get, query, update and delete through the scoped template (with
 * no restriction), and a create of its own, because a staged quote commits together with its
 * quote request and quotation cart (draft.ts).
 */
export function registerStagedQuoteRoutes(app: FastifyInstance, deps: ResourceDeps): void {
  const { documents } = deps;
  registerScopedRoutes<StagedQuote>(
    app,
    {
      typeId: 'staged-quote',
      path: 'staged-quotes',
      scopes: STAGED_QUOTE_SCOPES,
      scopeOf: () => UNSCOPED,
      actions: stagedQuoteActions,
      remove: { messages: () => [{ type: 'StagedQuoteDeleted' }], personalData: true },
    },
    deps,
  );
  app.post(
    '/:projectKey/staged-quotes',
    { config: { auth: { anyOf: STAGED_QUOTE_SCOPES.manage } } },
    expanding(documents, async (request, expansion, reply) => {
      const doc = await createStagedQuote(request.body, requestContext(request, documents), documents);
      return reply.status(201).send(await expansion.one(doc));
    }),
  );
}
