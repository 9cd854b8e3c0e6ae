import type { DocumentStore, Project, ProjectStore } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { applyActions, type ActionHandlers, type UpdateAction } from '../shared/update-actions.js';

export interface ProjectUpdateDeps {
  projects: ProjectStore;
  documents: DocumentStore;
  /** The gateway's project cache: a change made here is seen by the next request at once. */
  cache: { remember(project: Project): void };
  /** Every feature module's project actions (messages, external OAuth, …). */
  actions: ActionHandlers<Project>;
}

/**
 * Updates the project, for `POST /{projectKey}` and GraphQL alike: versioned, all actions or none,
 * their reads in the update's transaction (it holds the project row).
 */
export async function updateProject(deps: ProjectUpdateDeps, ctx: RequestContext, version: number, actions: readonly UpdateAction[]): Promise<Project> {
  const updated = await deps.projects.update(ctx.projectKey, version, async (project, tx) => {
    await applyActions(deps.actions, project, actions, {
      ctx,
      reader: { tx, get: (typeId, locator) => deps.documents.within(tx).get(ctx.projectKey, typeId, locator) },
    });
    return project;
  });
  deps.cache.remember(updated);
  return updated;
}
