import { invalidInput } from '@herald/model';
import type { Project } from '@herald/store';
import type { ActionScope, UpdateAction } from '../shared/update-actions.js';
import type { ProjectActions } from './routes.js';

/*
 * The reference's SearchIndexingConfiguration and the actions that switch each search index
 * (types/project/updates). Herald has no search endpoints; it records the status a client set so
 * that it reads back what it wrote. An index switched on reads `Activated` at once: with nothing
 * to index there is no `Indexing` phase. `lastModifiedAt` (optional in the reference) is left out:
 * the project routes have no injected clock, and the project's own `lastModifiedAt` says when.
 */

type Index = 'products' | 'productsSearch' | 'orders' | 'customers' | 'businessUnits';

function setStatus(project: Project, index: Index, status: 'Activated' | 'Deactivated', scope: ActionScope): void {
  const current = (project.searchIndexing ?? {}) as Record<string, unknown>;
  const lastModifiedBy = scope.ctx.write.initiator;
  project.searchIndexing = {
    ...current,
    [index]: { status, ...(lastModifiedBy === undefined ? {} : { lastModifiedBy }) },
  };
}

function statusOf(action: UpdateAction): 'Activated' | 'Deactivated' {
  if (action.status !== 'Activated' && action.status !== 'Deactivated') {
    throw invalidInput("'status' must be Activated or Deactivated.", { field: 'status', invalidValue: action.status });
  }
  return action.status;
}

const statusAction =
  (index: Index): ProjectActions[string] =>
  (project, action, scope) =>
    setStatus(project, index, statusOf(action), scope);

/** The search-status actions. */
export const searchIndexingActions: ProjectActions = {
  /** `mode` picks the index: ProductProjectionsSearch (default) or ProductsSearch. */
  changeProductSearchIndexingEnabled(project, action, scope) {
    if (typeof action.enabled !== 'boolean') throw invalidInput("'enabled' must be a boolean.", { field: 'enabled' });
    const mode = action.mode ?? 'ProductProjectionsSearch';
    if (mode !== 'ProductProjectionsSearch' && mode !== 'ProductsSearch') {
      throw invalidInput("'mode' must be ProductProjectionsSearch or ProductsSearch.", { field: 'mode', invalidValue: mode });
    }
    setStatus(project, mode === 'ProductsSearch' ? 'productsSearch' : 'products', action.enabled ? 'Activated' : 'Deactivated', scope);
  },
  changeOrderSearchStatus: statusAction('orders'),
  changeCustomerSearchStatus: statusAction('customers'),
  changeBusinessUnitSearchStatus: statusAction('businessUnits'),
};
