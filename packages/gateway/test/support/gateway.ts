/**
 * Shared test support: a real gateway on a throwaway database, and real OAuth tokens.
 *
 *   const gateway = await startTestGateway({ projects: ['shop'] });
 *   const token = await tokenFor(gateway, 'shop', ['manage_stores']);
 *   const { accessToken } = await customerTokenFor(gateway, 'shop', ['manage_my_orders']); // for /me routes
 *   const res = await gateway.app.inject({ method: 'GET', url: '/shop/stores', headers: bearer(token) });
 *   await gateway.close();
 *
 * Nothing is faked: `tokenFor` goes through `POST /oauth/token` with the bootstrap client, so
 * every test also exercises the token service and the scope checks.
 *
 * With `delivery`, a delivery worker runs in-process (as in `herald serve`) on the same database
 * and clock, and the gateway uses its pool and admin:
 *
 *   const gateway = await startTestGateway({ clock, delivery: { environment: { endpoints: { sqs: peer.endpoint } } } });
 *   gateway.delivery?.worker.wake();
 */
import { randomUUID } from 'node:crypto';
import {
  createDestinationEnvironment,
  DestinationPool,
  secretBoxFor,
  startDeliveryWorker,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
  type DestinationEnvironmentOptions,
  type SecretBox,
} from '@herald/delivery';
import { createIsolatedDatabase } from '@herald/testkit';
import type { Clock } from '@herald/model';
import { openDatabase, ProjectStore, type Database } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildGateway, type Gateway, type GatewayDeps } from '../../src/app.js';
import { defaultConfig, type HeraldConfig, type OAuthSettings } from '../../src/config/config.js';

/** The bootstrap client every test gateway has (`manage_project` on each of its projects). */
export const TEST_BOOTSTRAP_CLIENT = { id: 'test-bootstrap', secret: 'test-bootstrap-secret' } as const;

export interface TestGatewayOptions {
  /** Projects created before start (default: `['test-project']`). */
  projects?: readonly string[];
  /** Configuration overrides; `oauth` is merged field by field. */
  config?: Partial<Omit<HeraldConfig, 'oauth'>> & { oauth?: Partial<OAuthSettings> };
  /** An injected clock (timestamps, token expiry, caches). */
  clock?: Clock;
  /** A pino logger; default: no logging. */
  logger?: Logger;
  /**
   * Runs a delivery worker in-process, as `herald serve` does, sharing the gateway's database, its
   * clock (`clock` above) and its destination pool. Without it the gateway builds its own pool and
   * admin from `config.delivery` and nothing routes the outbox.
   */
  delivery?: TestDeliveryOptions;
  /** API Extensions' options (the Lambda endpoint of a local peer). */
  extensions?: GatewayDeps['extensions'];
}

export interface TestDeliveryOptions {
  /** The adapters' environment: endpoint overrides pointing at local peers, credentials, timeouts. */
  environment?: DestinationEnvironmentOptions;
  /** Seals destination secrets at rest, like `HERALD_SECRET_KEY`. */
  secretKey?: string;
  /** Worker options over the test defaults (fast polls, subscriptions re-read on every use). */
  worker?: DeliveryWorkerOptions;
}

/** The in-process delivery side of a test gateway started with `delivery`. */
export interface TestDelivery {
  worker: DeliveryWorker;
  pool: DestinationPool;
  secrets: SecretBox;
}

/**
 * Worker defaults for tests: polls are short so that nothing waits long in real time, and the
 * subscription cache is read on every use (§4.2 allows up to a minute; a test should not wait).
 * Due dates, leases and windows follow the injected clock, so retries wait until a test moves it.
 */
const TEST_WORKER_OPTIONS: DeliveryWorkerOptions = {
  workerId: 'test-worker',
  pollIntervalMs: 20,
  senderPollIntervalMs: 20,
  subscriptionRefreshMs: 0,
  maintenanceIntervalMs: 60_000,
  shutdownGraceMs: 1_000,
  sendTimeoutMs: 5_000,
};

export interface TestGateway {
  app: FastifyInstance;
  gateway: Gateway;
  db: Database;
  projects: readonly string[];
  bootstrapClient: { id: string; secret: string };
  /** The in-process delivery worker, when started with `delivery`. */
  delivery?: TestDelivery;
  /** Closes the app, the worker and the database (and drops an isolated PostgreSQL database). */
  close(): Promise<void>;
}

/**
 * Builds a gateway on in-memory PGlite, or on a fresh database of the PostgreSQL server in
 * `DATABASE_URL` when that is a `postgres://` URL. The token rate limit is off unless configured.
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const server = process.env.DATABASE_URL;
  const isolated = await createIsolatedDatabase(server?.startsWith('postgres') === true ? server : 'pglite://memory');
  const db = await openDatabase(isolated.url);
  const projects = options.projects ?? ['test-project'];
  const base = defaultConfig();
  const { oauth, ...rest } = options.config ?? {};
  const config: HeraldConfig = Object.freeze({
    ...base,
    ...rest,
    projects,
    oauth: { ...base.oauth, bootstrapClient: { ...TEST_BOOTSTRAP_CLIENT }, tokenRateLimitPerMinute: 0, ...oauth },
  });
  let delivery: TestDelivery | undefined;
  try {
    const projectStore = new ProjectStore(db, options.clock);
    for (const key of projects) await projectStore.ensure(key);
    if (options.delivery !== undefined) delivery = startTestDelivery(db, options.delivery, options.clock, options.logger);
    const gateway = await buildGateway(config, {
      db,
      logger: options.logger ?? false,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
      ...(delivery === undefined ? {} : { delivery: { pool: delivery.pool, admin: delivery.worker.admin, secrets: delivery.secrets } }),
    });
    return {
      app: gateway.app,
      gateway,
      db,
      projects,
      bootstrapClient: config.oauth.bootstrapClient ?? { ...TEST_BOOTSTRAP_CLIENT },
      ...(delivery === undefined ? {} : { delivery }),
      async close() {
        // The worker first: it uses the database and the pool until its loops have stopped.
        await stopTestDelivery(delivery);
        await gateway.app.close();
        await db.close();
        await isolated.drop();
      },
    };
  } catch (error) {
    await stopTestDelivery(delivery);
    await db.close();
    await isolated.drop();
    throw error;
  }
}

/**
 * A delivery worker on a test gateway's database, for tests that start it late (events written
 * while no worker routes, as after an outage); `startTestGateway({ delivery })` uses it too.
 */
export function startTestDelivery(db: Database, options: TestDeliveryOptions, clock?: Clock, logger?: Logger): TestDelivery {
  const log = logger ?? pino({ level: 'silent' });
  const pool = new DestinationPool(
    createDestinationEnvironment({ allowInsecureConnections: true, logger: log.child({ component: 'destinations' }), ...options.environment }),
  );
  const secrets = secretBoxFor(options.secretKey);
  const worker = startDeliveryWorker(
    { db, logger: log, adapters: pool, secrets, ...(clock === undefined ? {} : { clock }) },
    { ...TEST_WORKER_OPTIONS, ...options.worker },
  );
  return { worker, pool, secrets };
}

export async function stopTestDelivery(delivery: TestDelivery | undefined): Promise<void> {
  if (delivery === undefined) return;
  await delivery.worker.stop();
  await delivery.pool.closeAll();
}

/** `Authorization: Basic …` for a client id and secret. */
export function basicAuth(id: string, secret: string): { authorization: string } {
  return { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` };
}

/** `Authorization: Bearer …`. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * A real access token for `projectKey` with the given scope names (without the `:{projectKey}`
 * suffix, e.g. `['view_stores']`), from `POST /oauth/token` with the bootstrap client.
 */
export async function tokenFor(gateway: TestGateway, projectKey: string, scopes: readonly string[]): Promise<string> {
  const { id, secret } = gateway.bootstrapClient;
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { ...basicAuth(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: scopes.map((scope) => `${scope}:${projectKey}`).join(' '),
    }).toString(),
  });
  if (response.statusCode !== 200) throw new Error(`tokenFor: ${response.statusCode} ${response.body}`);
  return (response.json() as { access_token: string }).access_token;
}

/**
 * A real customer token (password flow, `POST /oauth/{projectKey}/customers/token`) with the given
 * scope names, for `/me` routes. Signs up a new customer through the API unless `customer` names
 * an existing one. Returns the token and the customer's id.
 */
export async function customerTokenFor(
  gateway: TestGateway,
  projectKey: string,
  scopes: readonly string[],
  customer?: { email: string; password: string },
): Promise<{ accessToken: string; customerId: string }> {
  const { id, secret } = gateway.bootstrapClient;
  let credentials = customer;
  if (credentials === undefined) {
    credentials = { email: `customer-${randomUUID()}@example.com`, password: 'test-password' };
    const signUp = await gateway.app.inject({
      method: 'POST',
      url: `/${projectKey}/customers`,
      headers: bearer(await tokenFor(gateway, projectKey, ['manage_customers'])),
      payload: credentials,
    });
    if (signUp.statusCode !== 201) throw new Error(`customerTokenFor: sign-up ${signUp.statusCode} ${signUp.body}`);
  }
  const response = await gateway.app.inject({
    method: 'POST',
    url: `/oauth/${projectKey}/customers/token`,
    headers: { ...basicAuth(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'password',
      username: credentials.email,
      password: credentials.password,
      scope: scopes.map((scope) => `${scope}:${projectKey}`).join(' '),
    }).toString(),
  });
  if (response.statusCode !== 200) throw new Error(`customerTokenFor: ${response.statusCode} ${response.body}`);
  const body = response.json() as { access_token: string; scope: string };
  const customerId = /(?:^| )customer_id:(\S+)/.exec(body.scope)?.[1] ?? '';
  return { accessToken: body.access_token, customerId };
}
