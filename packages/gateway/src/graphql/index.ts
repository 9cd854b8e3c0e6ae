import { systemClock, type Clock } from '@herald/model';
import type { DocumentStore, Project, ProjectStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { HeraldConfig } from '../config/config.js';
import type { BusinessUnitService } from '../resources/business-units/service.js';
import { allProjectActions, type ProjectActions } from '../resources/projects/routes.js';
import { registerGraphql } from './plugin.js';
import { projectSettings } from './project-settings.js';

export interface GraphqlApiDeps {
  documents: DocumentStore;
  /** The service behind REST's `/{projectKey}/business-units` too: both APIs answer alike. */
  businessUnits: BusinessUnitService;
  projects: ProjectStore;
  /** The gateway's project cache: GraphQL's settings updates refresh it. */
  projectCache: { get(projectKey: string): Promise<Project | undefined>; remember(project: Project): void };
  /** The feature modules' project actions (app.ts); `updateProject` applies them with the project's own, as `POST /{projectKey}` does. */
  projectActions: ProjectActions;
  /** Price selection's "now" in product queries; the system clock unless the app passes its own. */
  clock?: Clock;
}

/** The GraphQL endpoint (business units, carts, project settings) with its GraphiQL page in development mode. */
export function registerGraphqlApi(app: FastifyInstance, deps: GraphqlApiDeps, config: Pick<HeraldConfig, 'mode' | 'projects'>): void {
  const { documents, businessUnits, projects, projectCache, clock = systemClock } = deps;
  const actions = allProjectActions(deps.projectActions);
  registerGraphql(
    app,
    { documents, businessUnits, clock, projectSettings: projectSettings({ projects, documents, cache: projectCache, actions }) },
    { mode: config.mode, defaultProjectKey: config.projects[0] ?? '' },
  );
}
