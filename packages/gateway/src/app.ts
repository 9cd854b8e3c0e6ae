import { systemClock, type Clock } from '@herald/model';
import { DocumentStore, ProjectStore, type Database } from '@herald/store';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { installAuthHook, requireAuthDeclaration, type RouteRecord } from './auth/hook.js';
import type { HeraldConfig } from './config/config.js';
import { correlationIdFor, installCorrelation } from './http/correlation.js';
import { installErrorBoundary } from './http/errors.js';
import { installRequestGuards } from './http/guards.js';
import { installHealthRoutes } from './http/health.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installHttpMetrics } from './http/metrics.js';
import { registerBusinessUnitApis } from './graphql/index.js';
import { withSecretRedaction } from './oauth/log-redaction.js';
import { createOAuth } from './oauth/index.js';
import { businessUnitProjectActions } from './resources/business-units/project-settings.js';
import type { ResourceDeps } from './resources/context.js';
import { ProjectCache, installProjectResolver } from './resources/project-resolver.js';
import { registerProjectRoutes, type ProjectActions } from './resources/projects/routes.js';
import { storeDefinition } from './resources/stores/definition.js';
import { registerCartRoutes } from './resources/carts/routes.js';
import { messagesProjectActions } from './resources/messages/configuration.js';
import { registerMessageRoutes } from './resources/messages/routes.js';
import { registerQuoteRequestRoutes } from './resources/quote-requests/routes.js';
import { stateDefinition } from './resources/states/definition.js';
import { typeDefinition } from './resources/types/definition.js';
import { registerVersionedRoutes } from './resources/versioned-routes.js';
import { httpsOptions } from './server/tls.js';
// Type-only: fastify.d.ts has no runtime module; this keeps its augmentation for consumers of app.ts.
import type {} from './fastify.js';

export interface GatewayDeps {
  db: Database;
  logger: Logger | false;
  clock?: Clock;
  registry?: Registry;
}

export interface Gateway {
  app: FastifyInstance;
  documents: DocumentStore;
  projects: ProjectStore;
  registry: Registry;
  /** Every registered route and its `config.auth` (the scope-matrix test walks this). */
  routes: readonly RouteRecord[];
}

/** The Fastify app factory: everything is injected; only the entry point calls `listen`. */
export async function buildGateway(config: HeraldConfig, deps: GatewayDeps): Promise<Gateway> {
  const clock = deps.clock ?? systemClock;
  const registry = deps.registry ?? new Registry();
  const documents = new DocumentStore(deps.db, clock);
  const projects = new ProjectStore(deps.db, clock);
  const resourceDeps: ResourceDeps = { documents, projects };

  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : { loggerInstance: withSecretRedaction(deps.logger) as FastifyBaseLogger }),
    genReqId: correlationIdFor,
    requestIdLogLabel: 'correlationId',
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    // Allows `/{projectKey}/stores/key=abc` and long-enough ids; longer params are 404s.
    maxParamLength: 512,
    disableRequestLogging: false,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
    ...(config.tls === undefined ? {} : { https: httpsOptions(config.tls) }),
  }) as unknown as FastifyInstance;

  installErrorBoundary(app);
  installCorrelation(app);
  installRequestGuards(app);
  installJsonBodyParser(app);
  const routes = requireAuthDeclaration(app);
  const projectCache = new ProjectCache(projects, clock);
  const oauth = createOAuth({ db: deps.db, clock, documents, projects: projectCache, settings: config.oauth });
  installAuthHook(app, oauth.authenticator);
  oauth.installResponseMasking(app);
  installProjectResolver(app, projectCache);
  installHttpMetrics(app, registry);
  installHealthRoutes(app, deps.db);

  const projectActions: ProjectActions = {
    ...messagesProjectActions,
    ...oauth.projectActions,
    ...businessUnitProjectActions,
  };
  registerProjectRoutes(app, resourceDeps, projectCache, projectActions);
  registerVersionedRoutes(app, storeDefinition, resourceDeps);
  registerVersionedRoutes(app, typeDefinition, resourceDeps);
  registerVersionedRoutes(app, stateDefinition, resourceDeps);
  registerCartRoutes(app, resourceDeps);
  registerQuoteRequestRoutes(app, resourceDeps);
  registerMessageRoutes(app, resourceDeps, clock);
  registerBusinessUnitApis(app, { documents, projects, projectCache, projectActions, clock }, config);

  await oauth.registerRoutes(app);
  await oauth.ensureBootstrapClient(config.projects);

  await app.ready();
  return { app, documents, projects, registry, routes };
}
