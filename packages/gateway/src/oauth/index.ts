import type { SecretBox } from '@herald/delivery';
import type { Clock } from '@herald/model';
import type { Database, DocumentStore, Project } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { OAuthAuthenticator } from '../auth/oauth-authenticator.js';
import type { OAuthSettings } from '../config/config.js';
import type { ApiClientRoutesDeps } from '../resources/api-clients/routes.js';
import { CustomerCredentials } from '../resources/customers/credentials.js';
import { CustomerService } from '../resources/customers/service.js';
import type { ProjectActions } from '../resources/projects/routes.js';
import { ApiClientStore } from './api-client-store.js';
import { ClientAuthenticator } from './client-auth.js';
import { ExternalTokenValidator } from './external/external-validator.js';
import { introspectExternally, type IntrospectionCall } from './external/introspection-client.js';
import { externalOAuthActions, installExternalOAuthMasking } from './external/settings.js';
import { TokenBucketLimiter } from './rate-limit.js';
import { registerOAuthRoutes } from './routes.js';
import { TokenService } from './token-service.js';
import { deleteTokensOfCustomer, TokenStore, type TokenStoreLog } from './token-store.js';

export interface OAuthDeps {
  db: Database;
  clock: Clock;
  documents: DocumentStore;
  /** The project cache of the gateway: external OAuth settings changed here are seen at once. */
  projects: { get(key: string): Promise<Project | undefined> };
  settings: OAuthSettings;
  /** Seals the external OAuth authorization header at rest: the box of destination secrets (HERALD_SECRET_KEY). */
  secrets: SecretBox;
  /** The call to external introspection endpoints (§5.7); the real HTTP call unless replaced. */
  introspection?: IntrospectionCall;
  /** Where background failures (the token sweep) are logged. */
  logger?: TokenStoreLog;
}

/**
 * The OAuth 2.0 token service, its authenticator, and what the resources tied to tokens need (API
 * clients, customers); app.ts registers those resources' routes with the others.
 */
export interface OAuth {
  authenticator: OAuthAuthenticator;
  /** Customers: the password flow signs them in, and deleting one revokes its tokens. */
  customers: CustomerService;
  /** `/{projectKey}/api-clients`: the client store, and the token cache that forgets a deleted client. */
  apiClients: ApiClientRoutesDeps;
  /** Project update actions contributed by OAuth (`setExternalOAuth`). */
  projectActions: ProjectActions;
  /** HERALD_BOOTSTRAP_CLIENT: ensures the client with `manage_project` on every listed project. */
  ensureBootstrapClient(projectKeys: readonly string[]): Promise<void>;
  /** The authorization header of external OAuth is partially hidden in every response (§5.7). */
  installResponseMasking(app: FastifyInstance): void;
  /** Registers the token endpoints, `/oauth/*`. */
  registerRoutes(app: FastifyInstance): Promise<void>;
}

/** Composes the OAuth module from the database, the clock and the configuration. */
export function createOAuth(deps: OAuthDeps): OAuth {
  const { db, clock, documents, settings } = deps;
  const clients = new ApiClientStore(db, clock);
  const tokens = new TokenStore(db, clock, settings.refreshTokenCap, deps.logger);
  const credentials = new CustomerCredentials(db);
  const authenticator = new OAuthAuthenticator(
    {
      tokens,
      external: new ExternalTokenValidator(clock, deps.introspection ?? introspectExternally, deps.secrets),
      projects: deps.projects,
      customers: {
        exists: (projectKey, id) => customers.exists(projectKey, id),
        mayActInStore: (projectKey, id, storeKey) => customers.mayActInStore(projectKey, id, storeKey),
      },
      clock,
    },
    { cacheSeconds: settings.tokenCacheSeconds },
  );
  const customers = new CustomerService({
    documents,
    credentials,
    clock,
    tokens: {
      async deleteCustomerTokens(tx, customerId) {
        await deleteTokensOfCustomer(tx, customerId);
      },
      forgetCustomerTokens(customerId) {
        authenticator.forgetWhere((grant) => grant.customerId === customerId);
      },
    },
  });
  const tokenService = new TokenService({ tokens, customers, clock, revocations: authenticator }, { accessTokenTtlSeconds: settings.accessTokenTtlSeconds });

  return {
    authenticator,
    customers,
    apiClients: {
      clients,
      forgetClientTokens: (clientId) => authenticator.forgetWhere((grant) => grant.clientId === clientId),
    },
    projectActions: externalOAuthActions(deps.secrets),
    installResponseMasking: installExternalOAuthMasking,
    async ensureBootstrapClient(projectKeys) {
      const bootstrap = settings.bootstrapClient;
      if (bootstrap === undefined) return;
      await clients.ensureBootstrap(
        bootstrap.id,
        bootstrap.secret,
        projectKeys.map((key) => `manage_project:${key}`),
      );
    },
    async registerRoutes(app) {
      await registerOAuthRoutes(app, {
        clients: new ClientAuthenticator(clients),
        tokens: tokenService,
        limiter: new TokenBucketLimiter(clock, settings.tokenRateLimitPerMinute),
        projects: deps.projects,
      });
    },
  };
}
