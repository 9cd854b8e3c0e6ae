import type { FastifyInstance } from 'fastify';
import type { Project } from '@herald/store';
import { parseUpdateBody, type ActionHandlers } from '../shared/update-actions.js';
import { requestContext, type ResourceDeps } from '../shared/context.js';
import type { ProjectCache } from './project-resolver.js';
import { updateProject } from './update.js';
import { presentProject } from './configuration.js';
import { projectSettingsActions } from './settings-actions.js';
import { searchIndexingActions } from './search-indexing.js';

/** Project update actions; each feature module contributes its own (messages, external OAuth, …). */
export type ProjectActions = ActionHandlers<Project>;

const VIEW = ['view_project_settings', 'manage_project_settings'];

/** Every project action, REST's and GraphQL's: the reference's own first; a feature module's action of the same name wins. */
export function allProjectActions(featureActions: ProjectActions): ProjectActions {
  return { ...projectSettingsActions, ...searchIndexingActions, ...featureActions };
}

export function registerProjectRoutes(app: FastifyInstance, deps: ResourceDeps, cache: ProjectCache, actions: ProjectActions): void {
  const all = allProjectActions(actions);
  app.get('/:projectKey', { config: { auth: { anyOf: VIEW } } }, async (request) =>
    request.project === undefined ? undefined : presentProject(request.project),
  );

  app.post('/:projectKey', { config: { auth: { anyOf: ['manage_project_settings'] } } }, async (request) => {
    const { version, actions: requested } = parseUpdateBody(request.body);
    return presentProject(await updateProject({ ...deps, cache, actions: all }, requestContext(request, deps.documents), version, requested));
  });
}
