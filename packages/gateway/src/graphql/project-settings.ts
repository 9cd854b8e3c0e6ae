import { updateProject, type ProjectUpdateDeps } from '../resources/projects/update.js';
import type { ProjectSettings } from './context.js';

/** Project settings updates for GraphQL, the way `POST /{projectKey}` makes them (versioned, all or none). */
export function projectSettings(deps: ProjectUpdateDeps): ProjectSettings {
  return { update: (ctx, version, actions) => updateProject(deps, ctx, version, actions) };
}
