import { invalidInput } from '@herald/model';
import { PROJECT_ENVIRONMENTS } from '@herald/delivery';
import type { ProjectActions } from './routes.js';

/**
 * §3.3 / §6.2: configuration errors are retried for 24 hours in production projects and 1 hour in
 * development and staging projects. The project's kind is this setting (default `production`).
 */
export const environmentProjectActions: ProjectActions = {
  changeEnvironment(project, action) {
    if (typeof action.environment !== 'string' || !(PROJECT_ENVIRONMENTS as readonly string[]).includes(action.environment)) {
      throw invalidInput(`'environment' must be one of ${PROJECT_ENVIRONMENTS.join(', ')}.`, { field: 'environment' });
    }
    project.environment = action.environment;
  },
};
