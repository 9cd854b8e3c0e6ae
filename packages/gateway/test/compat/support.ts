/**
 * Helpers for the compatibility suite: SDK clients built exactly as an application would build
 * them (ClientBuilder + createApiBuilderFromCtpClient), changed only in their base URLs, and small
 * readers for SDK errors.
 */
import { createApiBuilderFromCtpClient, type ByProjectKeyRequestBuilder } from '@commercetools/platform-sdk';
import { ClientBuilder, type TokenCache, type TokenStore } from '@commercetools/ts-client';
import { createIsolatedDatabase } from '@herald/testkit';
import { loadConfig } from '../../src/config/config.js';
import { startHerald, type RunningHerald } from '../../src/server/start.js';
import { TEST_BOOTSTRAP_CLIENT } from '../support/gateway.js';

// SDK errors are plain objects with extra fields; the assertions read them field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SdkError = Record<string, any>;

/** An in-memory token cache an application can pass to any auth flow; the test reads it back. */
export class MemoryTokenCache implements TokenCache {
  stored: TokenStore | undefined;
  constructor(initial?: TokenStore) {
    this.stored = initial;
  }
  async get(): Promise<TokenStore | undefined> {
    return this.stored;
  }
  async set(cache: TokenStore): Promise<void> {
    this.stored = cache;
  }
}

export interface SdkTarget {
  /** Herald's base URL, both the API host and the auth host. */
  url: string;
  projectKey: string;
}

/** The API root over a built client: `createApiBuilderFromCtpClient(client).withProjectKey(...)`. */
export function apiRoot(client: ReturnType<ClientBuilder['build']>, target: SdkTarget): ByProjectKeyRequestBuilder {
  return createApiBuilderFromCtpClient(client).withProjectKey({ projectKey: target.projectKey });
}

/** `new ClientBuilder().withProjectKey(...).withHttpMiddleware({ host })`: the flows are added by the caller. */
export function baseBuilder(target: SdkTarget): ClientBuilder {
  return new ClientBuilder().withProjectKey(target.projectKey).withHttpMiddleware({ host: target.url, httpClient: fetch });
}

/** Runs an SDK call that must fail and returns the SDK's error object. */
export async function sdkFailure(call: Promise<unknown>): Promise<SdkError> {
  let answer: unknown;
  try {
    answer = await call;
  } catch (error) {
    return error as SdkError;
  }
  throw new Error(`The SDK call succeeded, but it was expected to fail: ${JSON.stringify(answer).slice(0, 2000)}`);
}

/** Herald as `herald serve` starts it, on a real socket, and the database it runs on. */
export interface ServedHerald {
  herald: RunningHerald;
  /** Stops Herald and drops its database. */
  stop(): Promise<void>;
}

/**
 * Starts Herald the way `herald serve` does — `startHerald(loadConfig(env))` on 127.0.0.1, with
 * `projectKey` and the test bootstrap client — on in-memory PGlite, or on a fresh database of the
 * PostgreSQL server in DATABASE_URL. `env` adds the suite's own variables (peers' endpoints …).
 */
export async function serveHerald(projectKey: string, env: Readonly<Record<string, string>>): Promise<ServedHerald> {
  const server = process.env.DATABASE_URL;
  const database = await createIsolatedDatabase(server?.startsWith('postgres') === true ? server : 'pglite://memory');
  const herald = await startHerald(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      HERALD_PROJECTS: projectKey,
      HERALD_BOOTSTRAP_CLIENT: `${TEST_BOOTSTRAP_CLIENT.id}:${TEST_BOOTSTRAP_CLIENT.secret}`,
      HERALD_TOKEN_RATE_LIMIT: '0',
      LOG_LEVEL: 'silent',
      HERALD_ALLOW_INSECURE_DESTINATIONS: 'true',
      HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS: '0',
      ...env,
    }),
  );
  return {
    herald,
    async stop() {
      await herald.stop();
      await database.drop();
    },
  };
}
