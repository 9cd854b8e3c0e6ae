import type { BaseResource, Initiator } from '@herald/model';
import type { DocumentStore, Locator, Project, ProjectStore, Queryable, WriteContext } from '@herald/store';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../auth/types.js';

declare module '@herald/store' {
  /** What the gateway's write hooks (API Extensions, §4.4.10) need of the request that writes. */
  interface WriteRequest {
    project: Project;
    auth: AuthContext | undefined;
  }
}

/** What a resource service knows about the request it serves. */
export interface RequestContext {
  projectKey: string;
  project: Project;
  auth: AuthContext | undefined;
  write: WriteContext;
  /** Reads another resource of the project (reference validation). */
  load<T extends BaseResource>(typeId: string, locator: Locator): Promise<T | undefined>;
  /**
   * The project database, for reads `load` cannot express (a product by SKU when pricing a cart).
   * Inside a locked update, read through the update's `reader.tx` instead (update-actions.ts says why).
   */
  db: Queryable;
}

/** Services every resource module receives (constructor-style injection, no globals). */
export interface ResourceDeps {
  documents: DocumentStore;
  projects: ProjectStore;
}

/** `createdBy` / `lastModifiedBy` from the token (§2.1). */
export function initiatorOf(auth: AuthContext | undefined): Initiator | undefined {
  if (auth === undefined) return undefined;
  const initiator: Initiator = { isPlatformClient: false, clientId: auth.clientId };
  if (auth.customerId !== undefined) initiator.customer = { typeId: 'customer', id: auth.customerId };
  if (auth.anonymousId !== undefined) initiator.anonymousId = auth.anonymousId;
  return initiator;
}

export function requestContext(request: FastifyRequest, documents: DocumentStore): RequestContext {
  const project = request.project;
  if (project === undefined) throw new Error('requestContext() used on a route without a project');
  const initiator = initiatorOf(request.auth);
  return {
    projectKey: project.key,
    project,
    auth: request.auth,
    write: {
      projectKey: project.key,
      storeMessages: project.messages.enabled,
      ...(initiator === undefined ? {} : { initiator }),
      // Carried to the write hooks below the resources, which see only the WriteContext (an
      // AsyncLocalStorage scope did this before, at the price of promise hooks on every request).
      request: { correlationId: request.id, project, auth: request.auth },
    },
    load: (typeId, locator) => documents.get(project.key, typeId, locator),
    db: documents.db,
  };
}
