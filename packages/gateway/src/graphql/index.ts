import type { Clock } from '@herald/model';
import type { DocumentStore, Project, ProjectStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { HeraldConfig } from '../config/config.js';
import { registerBusinessUnitRoutes } from '../resources/business-units/routes.js';
import { BusinessUnitService } from '../resources/business-units/service.js';
import type { ProjectActions } from '../resources/projects/routes.js';
import { registerGraphql } from './plugin.js';
import { projectSettings } from './project-settings.js';

export interface BusinessUnitApiDeps {
  documents: DocumentStore;
  projects: ProjectStore;
  /** The gateway's project cache: GraphQL's settings updates refresh it, business units read it. */
  projectCache: { get(projectKey: string): Promise<Project | undefined>; remember(project: Project): void };
  /** The project update actions of `POST /{projectKey}`; GraphQL's `updateProject` applies the same. */
  projectActions: ProjectActions;
  clock: Clock;
}

/**
 * Business units over REST and GraphQL (one service behind both), and the GraphQL endpoint
 * with its GraphiQL page in development mode.
 */
export function registerBusinessUnitApis(app: FastifyInstance, deps: BusinessUnitApiDeps, config: Pick<HeraldConfig, 'mode' | 'projects'>): void {
  const { documents, projects, projectCache, projectActions, clock } = deps;
  const businessUnits = new BusinessUnitService({ documents, clock, projects: projectCache });
  registerBusinessUnitRoutes(app, businessUnits, documents);
  registerGraphql(
    app,
    { documents, businessUnits, projectSettings: projectSettings({ projects, documents, cache: projectCache, actions: projectActions }) },
    { mode: config.mode, defaultProjectKey: config.projects[0] ?? '' },
  );
}
