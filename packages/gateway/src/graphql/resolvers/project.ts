import type { Project } from '@herald/store';
import { businessUnitConfiguration, type BusinessUnitConfiguration } from '../../resources/business-units/project-settings.js';
import { requireScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { restActions, type InputObject } from '../inputs.js';
import { expectedVersion } from '../../http/version.js';

export const projectQueryResolvers = {
  project(_root: unknown, _args: unknown, context: GraphQLContext): Project {
    requireScope(context.auth, 'view_project_settings');
    return context.request.project;
  },
};

export const projectMutationResolvers = {
  /** §4.3 `changeMyBusinessUnitStatusOnCreation` and every other project action of REST, through the project's own update path. */
  updateProject(_root: unknown, args: { version: number; actions: readonly InputObject[] }, context: GraphQLContext): Promise<Project> {
    requireScope(context.auth, 'manage_project_settings');
    return context.services.projectSettings.update(context.request, expectedVersion(args.version), restActions(args.actions));
  },
};

export const projectFieldResolvers = {
  businessUnits: (project: Project): BusinessUnitConfiguration => businessUnitConfiguration(project),
};
