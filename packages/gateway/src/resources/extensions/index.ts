import type { SecretBox } from '@herald/delivery';
import type { Clock } from '@herald/model';
import type { DocumentStore, Project } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { ResourceDeps } from '../shared/context.js';
import { ExtensionCaller, type LambdaOptions } from './calls/index.js';
import { extensionDefinition } from './definition.js';
import { ExtensionDirectory } from './directory.js';
import { extensionCallingDocuments } from './extension-documents.js';
import { registerExtensionRoutes } from './routes.js';
import { triggeredActions } from './triggered-actions.js';

export type { LambdaOptions } from './calls/index.js';

export interface ApiExtensionsDeps {
  /** The gateway's document store; the one the resources get is `ApiExtensions.documents`. */
  documents: DocumentStore;
  clock: Clock;
  projects: { get(projectKey: string): Promise<Project | undefined> };
  /** The box of destination secrets (HERALD_SECRET_KEY): seals Extension secrets at rest. */
  secrets: SecretBox;
  /** Where AWSLambda destinations are called: AWS unless a local peer's endpoint is given (tests). */
  lambda?: LambdaOptions;
}

export interface ApiExtensions {
  /** The store every resource must write through for its Extensions to be called. */
  documents: DocumentStore;
  /** `/{projectKey}/extensions`. */
  registerRoutes(app: FastifyInstance, deps: ResourceDeps): void;
}

/** API Extensions (issue 29): the `/extensions` resource and the write hook that calls them. */
export function apiExtensions(app: FastifyInstance, deps: ApiExtensionsDeps): ApiExtensions {
  const directory = new ExtensionDirectory(deps.documents, deps.clock);
  const caller = new ExtensionCaller(deps.secrets, deps.lambda);
  app.addHook('onClose', async () => caller.close());
  const documents = extensionCallingDocuments(deps.documents, {
    directory,
    caller,
    actions: triggeredActions(deps.documents, deps.documents.db, deps.clock),
    projects: deps.projects,
    clock: deps.clock,
  });
  return {
    documents,
    registerRoutes: (target, resourceDeps) =>
      registerExtensionRoutes(target, extensionDefinition({ documents, secrets: deps.secrets, directory }), resourceDeps),
  };
}
