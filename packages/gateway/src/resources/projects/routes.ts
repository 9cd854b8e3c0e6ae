import type { FastifyInstance } from 'fastify';
import type { Project } from '@herald/store';
import { parseUpdateBody, type ActionHandlers } from '../update-actions.js';
import { requestContext, type ResourceDeps } from '../context.js';
import type { ProjectCache } from '../project-resolver.js';
import { updateProject } from './update.js';

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
    const { version, actions: requested } = parseUpdateBody(request.body);
    return updateProject({ ...deps, cache, actions }, requestContext(request, deps.documents), version, requested);
  });
}
