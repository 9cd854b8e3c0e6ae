import type { Clock } from '@herald/model';
import type { DocumentStore, Project } from '@herald/store';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../auth/types.js';
import type { BusinessUnit } from '../resources/business-units/business-unit.js';
import type { BusinessUnitService } from '../resources/business-units/service.js';
import type { RequestContext } from '../resources/shared/context.js';
import type { Customer } from '../resources/customers/customer.js';
import type { Store } from '../resources/stores/store.js';
import type { UpdateAction } from '../resources/shared/update-actions.js';
import { BatchLoader, byId, byKey } from './loaders.js';
import type { ReadBudget } from './read-budget.js';

/** Project settings as GraphQL changes them: the same path as `POST /{projectKey}` (§4.3). */
export interface ProjectSettings {
  update(ctx: RequestContext, version: number, actions: readonly UpdateAction[]): Promise<Project>;
}

/** The services the resolvers call (the same ones REST calls). */
export interface GraphQLServices {
  documents: DocumentStore;
  businessUnits: BusinessUnitService;
  projectSettings: ProjectSettings;
  /** Price selection's "now" (validFrom/validUntil), the gateway's clock as REST uses it. */
  clock: Clock;
}

export interface Loaders {
  businessUnitByKey: BatchLoader<BusinessUnit>;
  storeByKey: BatchLoader<Store>;
  customerById: BatchLoader<Customer>;
}

/** What every resolver receives as its context. */
export interface GraphQLContext {
  auth: AuthContext;
  projectKey: string;
  /** The request as the resource services know it (project, initiator, reference loading). */
  request: RequestContext;
  services: GraphQLServices;
  loaders: Loaders;
  /** Shared by the loaders; the error formatter answers 400 once it is spent. */
  readBudget: ReadBudget;
  log: FastifyBaseLogger;
}

export function createLoaders(documents: DocumentStore, projectKey: string, budget: ReadBudget): Loaders {
  return {
    businessUnitByKey: new BatchLoader(byKey<BusinessUnit>(documents, projectKey, 'business-unit'), budget),
    storeByKey: new BatchLoader(byKey<Store>(documents, projectKey, 'store'), budget),
    customerById: new BatchLoader(byId<Customer>(documents, projectKey, 'customer'), budget),
  };
}

/**
 * §9.2 read-after-write within one document: a mutation field may have changed any loaded
 * document (a moved unit also rewrites all its descendants), so nothing read before it is reused.
 */
export function clearLoaders(loaders: Loaders): void {
  for (const loader of Object.values(loaders) as Array<Loaders[keyof Loaders]>) loader.clear();
}
