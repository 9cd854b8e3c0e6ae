import { DeliveryAdmin, DeliveryMetrics, destinationPoolFor, secretBoxFor, type DestinationPool, type SecretBox } from '@herald/delivery';
import { systemClock, type Clock } from '@herald/model';
import { subscriptionDelivery } from './delivery/subscription-delivery.js';
import { environmentProjectActions } from './resources/projects/environment.js';
import { registerSubscriptionRoutes } from './resources/subscriptions/routes.js';
import { DocumentStore, ProjectStore, type Database } from '@herald/store';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { installAuthHook, requireAuthDeclaration, type RouteRecord } from './auth/hook.js';
import type { HeraldConfig } from './config/config.js';
import { correlationIdFor, installCorrelation } from './http/correlation.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorBoundary, refuseConnect } from './http/errors.js';
import { installRequestGuards } from './http/guards.js';
import { installHeadExistenceChecks } from './http/head.js';
import { installHealthRoutes } from './http/health.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installHttpMetrics } from './http/metrics.js';
import { registerGraphqlApi } from './graphql/index.js';
import { registerGraphiqlAssets } from './graphql/graphiql-assets.js';
import { withSecretRedaction } from './oauth/log-redaction.js';
import { createOAuth } from './oauth/index.js';
import { registerApiClientRoutes } from './resources/api-clients/routes.js';
import { associateRoleDefinition } from './resources/associate-roles/definition.js';
import { registerAsAssociateRoutes } from './resources/as-associate/routes.js';
import { registerAssociateNegotiationRoutes } from './resources/as-associate/negotiation.js';
import { businessUnitProjectActions } from './resources/business-units/project-settings.js';
import { registerBusinessUnitRoutes } from './resources/business-units/routes.js';
import { BusinessUnitService } from './resources/business-units/service.js';
import { registerCustomerRoutes } from './resources/customers/routes.js';
import { apiExtensions, type LambdaOptions } from './resources/extensions/index.js';
import type { ResourceDeps } from './resources/shared/context.js';
import { ProjectCache, installProjectResolver } from './resources/projects/project-resolver.js';
import { registerProjectRoutes, type ProjectActions } from './resources/projects/routes.js';
import { storeDefinition } from './resources/stores/definition.js';
import { registerCartRoutes } from './resources/carts/routes.js';
import { messagesProjectActions } from './resources/messages/configuration.js';
import { cartsProjectActions, scheduleCartCleanup } from './resources/carts/retention.js';
import { registerMessageRoutes } from './resources/messages/routes.js';
import { registerCustomObjectRoutes } from './resources/custom-objects/routes.js';
import { registerQuoteRequestRoutes } from './resources/quote-requests/routes.js';
import { registerStagedQuoteRoutes } from './resources/staged-quotes/routes.js';
import { registerQuoteRoutes } from './resources/quotes/routes.js';
import { registerOrderRoutes } from './resources/orders/routes.js';
import { registerOrderEditRoutes } from './resources/order-edits/routes.js';
import { stateDefinition } from './resources/states/definition.js';
import { typeDefinition } from './resources/types/definition.js';
import { taxCategoryDefinition } from './resources/tax-categories/definition.js';
import { zoneDefinition } from './resources/zones/definition.js';
import { customerGroupDefinition } from './resources/customer-groups/definition.js';
import { channelDefinition } from './resources/channels/definition.js';
import { productDefinition } from './resources/products/definition.js';
import { productDocuments } from './resources/products/type-guard.js';
import { registerProductProjectionRoutes } from './resources/product-projections/routes.js';
import { registerProductSelectionRoutes } from './resources/product-selections/routes.js';
import { paymentDefinition } from './resources/payments/definition.js';
import { registerMyPaymentRoutes } from './resources/payments/my-payments.js';
import { inventoryEntryDefinition } from './resources/inventory/definition.js';
import { standalonePriceDefinition } from './resources/standalone-prices/definition.js';
import { standalonePriceDocuments } from './resources/standalone-prices/price-documents.js';
import { registerShippingMethodRoutes } from './resources/shipping-methods/definition.js';
import { registerProductDiscountRoutes } from './resources/product-discounts/definition.js';
import { cartDiscountDefinition } from './resources/cart-discounts/definition.js';
import { discountGroupDefinition } from './resources/discount-groups/definition.js';
import { discountCodeDefinition } from './resources/discount-codes/definition.js';
import { categoryDefinition } from './resources/categories/definition.js';
import { productTypeDefinition } from './resources/product-types/definition.js';
import { categoryDocuments } from './resources/categories/category-documents.js';
import { registerVersionedRoutes } from './resources/shared/versioned-routes.js';
import { registerShoppingListRoutes } from './resources/shopping-lists/routes.js';
import { reviewDefinition } from './resources/reviews/definition.js';
import { reviewDocuments } from './resources/reviews/review-documents.js';
import { installDraining } from './server/draining.js';
import { httpsOptions } from './server/tls.js';
// Type-only: fastify.d.ts has no runtime module; this keeps its augmentation for consumers of app.ts.
import type {} from './fastify.js';

export interface GatewayDeps {
  db: Database;
  logger: Logger | false;
  clock?: Clock;
  registry?: Registry;
  /**
   * The delivery side the subscriptions API talks to: the in-process worker's pool and admin when
   * `herald serve` runs one; otherwise built here (test notifications and health still work).
   */
  delivery?: DeliveryParts;
  /** API Extensions: where AWSLambda destinations are invoked (a local Lambda-compatible peer in tests). */
  extensions?: { lambda?: LambdaOptions };
}

export interface DeliveryParts {
  pool: DestinationPool;
  admin: DeliveryAdmin;
  secrets: SecretBox;
}

export interface Gateway {
  app: FastifyInstance;
  documents: DocumentStore;
  projects: ProjectStore;
  registry: Registry;
  /** Every registered route and its `config.auth` (the scope-matrix test walks this). */
  routes: readonly RouteRecord[];
}

/** Fastify's `trustProxy` for HERALD_TRUST_PROXY; a hop count as the function Fastify's types accept. */
function trustProxyOption(trust: HeraldConfig['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'boolean' ? trust : [...trust];
}

/** The Fastify app factory: everything is injected; only the entry point calls `listen`. */
export async function buildGateway(config: HeraldConfig, deps: GatewayDeps): Promise<Gateway> {
  const clock = deps.clock ?? systemClock;
  const registry = deps.registry ?? new Registry();
  const projects = new ProjectStore(deps.db, clock);

  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : { loggerInstance: withSecretRedaction(deps.logger) as FastifyBaseLogger }),
    genReqId: correlationIdFor,
    // The request id is the correlation id, so request log lines carry it as `correlationId`.
    // Fastify 5 takes the label through its LogController (the top-level option warns FSTDEP024).
    logController: new LogController({ requestIdLogLabel: 'correlationId' }),
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    // Requests arriving while closing get a 503 in the spec's shape (server/draining.ts).
    return503OnClosing: false,
    // A whole request (headers and body) must arrive within two minutes; Fastify's default (0)
    // leaves the body phase unbounded, so a client trickling a body holds its socket forever.
    requestTimeout: 120_000,
    // Failures before routing and malformed HTTP answer in the spec's error shape too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // maxParamLength allows `/{projectKey}/stores/key=abc` with long keys; longer params are 404s.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    ...(config.tls === undefined ? {} : { https: httpsOptions(config.tls) }),
  }) as unknown as FastifyInstance;

  installErrorBoundary(app);
  installDraining(app);
  app.server.on('connect', refuseConnect);
  // Node keeps only the first 2,000 headers of a request (maxHeadersCount); the §8 URL-plus-headers
  // limit must count every one of them. Node's own header size limit still bounds the total.
  app.server.maxHeadersCount = 0;
  installCorrelation(app);
  installRequestGuards(app);
  installHeadExistenceChecks(app);
  installJsonBodyParser(app);
  const routes = requireAuthDeclaration(app);
  const projectCache = new ProjectCache(projects, clock);
  const delivery = deps.delivery ?? ownDeliveryParts(config, deps.db, clock, app, registry);
  // Every resource writes through this store: it calls the project's API Extensions (issue 29).
  const extensions = apiExtensions(app, {
    documents: new DocumentStore(deps.db, clock),
    clock,
    projects: projectCache,
    secrets: delivery.secrets,
    ...deps.extensions,
  });
  const documents = extensions.documents;
  const resourceDeps: ResourceDeps = { documents, projects };
  const oauth = createOAuth({
    db: deps.db,
    clock,
    documents,
    projects: projectCache,
    settings: config.oauth,
    secrets: delivery.secrets,
    logger: app.log.child({ component: 'oauth' }),
  });
  installAuthHook(app, oauth.authenticator);
  oauth.installResponseMasking(app);
  installProjectResolver(app, projectCache);
  installHttpMetrics(app, registry, config.metricsPort !== undefined);
  installHealthRoutes(app, deps.db);

  const projectActions: ProjectActions = {
    ...messagesProjectActions,
    ...cartsProjectActions,
    ...oauth.projectActions,
    ...businessUnitProjectActions,
    ...environmentProjectActions,
  };
  // Every resource's routes, in one list (the OAuth module owns the customers' and API clients' stores).
  const businessUnits = new BusinessUnitService({ documents, clock, projects: projectCache });
  registerProjectRoutes(app, resourceDeps, projectCache, projectActions);
  registerVersionedRoutes(app, storeDefinition, resourceDeps);
  registerVersionedRoutes(app, typeDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, stateDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, associateRoleDefinition, resourceDeps);
  registerVersionedRoutes(app, productTypeDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, categoryDefinition, { ...resourceDeps, documents: categoryDocuments(documents) });
  registerVersionedRoutes(app, taxCategoryDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, zoneDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, customerGroupDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, channelDefinition, resourceDeps);
  registerVersionedRoutes(app, productDefinition(documents), { ...resourceDeps, documents: productDocuments(documents) });
  registerProductProjectionRoutes(app, resourceDeps, clock);
  registerProductSelectionRoutes(app, resourceDeps, clock);
  registerVersionedRoutes(app, paymentDefinition(documents), resourceDeps);
  registerMyPaymentRoutes(app, resourceDeps);
  registerVersionedRoutes(app, inventoryEntryDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, standalonePriceDefinition(documents), { ...resourceDeps, documents: standalonePriceDocuments(documents) });
  registerVersionedRoutes(app, reviewDefinition, { ...resourceDeps, documents: reviewDocuments(documents) });
  registerShippingMethodRoutes(app, resourceDeps, clock);
  registerProductDiscountRoutes(app, resourceDeps);
  registerVersionedRoutes(app, discountGroupDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, cartDiscountDefinition(documents), resourceDeps);
  registerVersionedRoutes(app, discountCodeDefinition(documents), resourceDeps);
  registerCartRoutes(app, resourceDeps);
  registerShoppingListRoutes(app, resourceDeps, clock);
  scheduleCartCleanup(app, documents, clock);
  registerQuoteRequestRoutes(app, resourceDeps);
  registerStagedQuoteRoutes(app, resourceDeps);
  registerQuoteRoutes(app, resourceDeps);
  registerOrderRoutes(app, resourceDeps, clock);
  registerOrderEditRoutes(app, resourceDeps, clock);
  registerMessageRoutes(app, resourceDeps, clock);
  registerCustomObjectRoutes(app, resourceDeps);
  registerBusinessUnitRoutes(app, businessUnits, documents);
  registerAsAssociateRoutes(app, resourceDeps, businessUnits);
  registerAssociateNegotiationRoutes(app, resourceDeps, clock);
  registerGraphqlApi(app, { documents, businessUnits, projects, projectCache, projectActions, clock }, config);
  // The development GraphiQL page's scripts and styles, from Herald's own dependencies (issue 25).
  if (config.mode === 'development') registerGraphiqlAssets(app);
  registerSubscriptionRoutes(app, resourceDeps, subscriptionDelivery(delivery.pool, delivery.admin, delivery.secrets, clock));
  extensions.registerRoutes(app, resourceDeps);

  // The token endpoints (`/oauth/*`), then the resources whose stores the OAuth module holds.
  await oauth.registerRoutes(app);
  registerApiClientRoutes(app, oauth.apiClients);
  registerCustomerRoutes(app, oauth.customers, documents);
  await oauth.ensureBootstrapClient(config.projects);

  await app.ready();
  return { app, documents, projects, registry, routes };
}

/** Delivery parts for a gateway without an in-process worker; the pool closes with the app. */
function ownDeliveryParts(config: HeraldConfig, db: Database, clock: Clock, app: FastifyInstance, registry: Registry): DeliveryParts {
  const pool = destinationPoolFor(config.delivery, app.log as unknown as Logger);
  app.addHook('onClose', async () => pool.closeAll());
  // Deleting a subscription drops its pending deliveries here: counted on this /metrics (issue 25).
  const metrics = new DeliveryMetrics({ registry });
  return { pool, admin: new DeliveryAdmin({ db, clock, metrics }), secrets: secretBoxFor(config.delivery.secretKey) };
}
