import type { FastifyInstance } from 'fastify';
import type { Project } from '@herald/store';
import { parseUpdateBody, applyActions, type ActionHandlers } from '../update-actions.js';
import { requestContext, type ResourceDeps } from '../context.js';
import type { ProjectCache } from '../project-resolver.js';

/** Project update actions; each feature module contributes its own (messages, external OAuth, …). */
export type ProjectActions = ActionHandlers<Project>;

const VIEW = ['view_project_settings', 'manage_project_settings'];

export function registerProjectRoutes(
  app: FastifyInstance,
  deps: ResourceDeps,
  cache: ProjectCache,
  actions: ProjectActions,
): void {
  app.get('/:projectKey', { config: { auth: { anyOf: VIEW } } }, async (request) => request.project);

  app.post('/:projectKey', { config: { auth: { anyOf: ['manage_project_settings'] } } }, async (request) => {
    const ctx = requestContext(request, deps.documents);
    const { version, actions: requested } = parseUpdateBody(request.body);
    const updated = await deps.projects.update(ctx.projectKey, version, async (project, tx) => {
      await applyActions(actions, project, requested, {
        ctx,
        reader: { tx, get: (typeId, locator) => deps.documents.within(tx).get(ctx.projectKey, typeId, locator) },
      });
      return project;
    });
    cache.remember(updated);
    return updated;
  });
}
