import type { Clock } from '@herald/model';
import type { FastifyInstance } from 'fastify';
import { requestContext, type ResourceDeps } from '../shared/context.js';
import { expanding } from '../shared/route-helpers.js';
import { registerVersionedRoutes } from '../shared/versioned-routes.js';
import { applyOrderEdit } from './apply.js';
import { ORDER_EDIT_SCOPES, orderEditDefinition } from './definition.js';
import { resultOf } from './preview.js';
import { stagedOrderActions } from './staged-actions.js';

/**
 * Order edits under both paths (`/order-edits`, and the reference's `/orders/edits`): the eight
 * operations of the versioned template, and `POST …/{id}/apply`.
 */
export function registerOrderEditRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const { documents } = deps;
  const accepted = stagedOrderActions(clock, documents);
  for (const path of ['order-edits', 'orders/edits'] as const) {
    registerVersionedRoutes(app, orderEditDefinition(path, accepted), deps);
    app.post(
      `/:projectKey/${path}/:id/apply`,
      { config: { auth: { anyOf: ORDER_EDIT_SCOPES.manage } } },
      expanding(documents, async (request, expansion) => {
        const ctx = requestContext(request, documents);
        const edit = await applyOrderEdit(documents, accepted, clock, ctx, (request.params as { id: string }).id, request.body);
        const expanded = await expansion.one(edit);
        return { ...expanded, result: await resultOf(expanded, accepted, ctx) };
      }),
    );
  }
}
