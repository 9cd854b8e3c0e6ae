import type { DocumentStore, Project, ProjectStore } from '@herald/store';
import type { ProjectActions } from '../resources/projects/routes.js';
import { applyActions } from '../resources/update-actions.js';
import type { ProjectSettings } from './context.js';

export interface ProjectSettingsDeps {
  projects: ProjectStore;
  documents: DocumentStore;
  /** The gateway's project cache: a change made here is seen by the next request at once. */
  cache: { remember(project: Project): void };
  /** The same action map `POST /{projectKey}` applies. */
  actions: ProjectActions;
}

/** Project settings updates for GraphQL, the way `POST /{projectKey}` makes them (versioned, all or none). */
export function projectSettings(deps: ProjectSettingsDeps): ProjectSettings {
  return {
    async update(ctx, version, actions) {
      const updated = await deps.projects.update(ctx.projectKey, version, async (project, tx) => {
        await applyActions(deps.actions, project, actions, {
          ctx,
          reader: { tx, get: (typeId, locator) => deps.documents.within(tx).get(ctx.projectKey, typeId, locator) },
        });
        return project;
      });
      deps.cache.remember(updated);
      return updated;
    },
  };
}
