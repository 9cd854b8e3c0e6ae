/**
 * Shared support of the security tests: a gateway with two projects (A and B) seeded through the
 * public API with one resource of every type, the routes it registers (so that a new route joins
 * every property automatically), request helpers that fill path parameters, and the oracle every
 * hostile answer must pass:
 *
 *   - never a 5xx, never a hang (each request is bounded);
 *   - every 4xx in the error shape `{statusCode, message, errors: [{code, message}]}` (GraphQL's
 *     documents answer in the GraphQL error shape; HEAD and the public subscription health
 *     endpoint answer without a body);
 *   - nothing logged at error level (the error boundary logs every 500 cause there), and no sign
 *     of a stack overflow in an answer or a log line.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Writable } from 'node:stream';
import { parseWorkerConfig } from '@herald/delivery';
import type { SqsPeer } from '@herald/testkit';
import type { LightMyRequestResponse } from 'fastify';
import { pino, type Level } from 'pino';
import { expect } from 'vitest';
import type { RouteRecord } from '../../src/auth/hook.js';
import { basicAuth, bearer, customerTokenFor, tokenFor, type TestGateway } from '../support/gateway.js';
import { gatewayBesideSqsPeer } from '../support/sqs-gateway.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are JSON read field by field
export type Json = Record<string, any>;

export const REGION = 'us-east-1';
export const AWS_ACCESS_KEY = 'AKIAHERALDSECURITY01';

/** Collects log lines: all of them, or (with `keep`) only those a test wants to look at. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  constructor(private readonly keep: (line: string) => boolean = () => true) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line !== '' && this.keep(line)) this.lines.push(line);
    done();
  }
  /** Lines at error level or above (pino: 50 error, 60 fatal). */
  errors(): string[] {
    return this.lines.filter((line) => /"level":(5\d|6\d)/.test(line));
  }
}

/** Signs of a stack overflow, caught or not, in an answer or a log line. */
export const STACK_OVERFLOW = /Maximum call stack size exceeded|RangeError|stack depth limit|too deeply nested/i;

/** A log capture for the oracle: error lines, and any line that mentions a stack overflow. */
export function oracleLogCapture(): LogCapture {
  return new LogCapture((line) => /"level":(5\d|6\d)/.test(line) || STACK_OVERFLOW.test(line));
}

export interface Seeded {
  id: string;
  key?: string;
}

export interface World {
  gateway: TestGateway;
  sqs: SqsPeer;
  queueUrl: string;
  logs: LogCapture;
  /** `manage_project` of the project. */
  admin: string;
  /** A customer's password-flow token with `manage_project` of the project (for `/me` routes). */
  customer: { token: string; id: string; email: string; password: string };
  storeKey: string;
  /** One resource per collection path (`stores`, `me/carts`, `subscriptions`, `api-clients`, …). */
  seeds: Map<string, Seeded>;
  /** Every id of a resource the project holds (the seeds, plus what they produced: messages). */
  ids: Set<string>;
  close(): Promise<void>;
}

export interface WorldOptions {
  projects: readonly string[];
  /** Which projects to seed (default: the first). */
  seed?: readonly string[];
  logLevel?: Level;
  logs?: LogCapture;
  /** Runs an in-process delivery worker (as `herald serve`), delivering to the local fauxqs. */
  worker?: boolean;
  /** `HERALD_BODY_LIMIT_BYTES` (default 1 MiB). */
  bodyLimitBytes?: number;
}

export interface MultiWorld {
  gateway: TestGateway;
  sqs: SqsPeer;
  logs: LogCapture;
  projects: Map<string, ProjectWorld>;
  close(): Promise<void>;
}

export type ProjectWorld = Omit<World, 'gateway' | 'sqs' | 'logs' | 'close'>;

/** A gateway (no in-process worker; test notifications go to a local fauxqs) and seeded projects. */
export function startWorld(options: WorldOptions): Promise<MultiWorld> {
  const logs = options.logs ?? oracleLogCapture();
  return gatewayBesideSqsPeer(
    (sqs) => ({
      projects: options.projects,
      logger: pino({ level: options.logLevel ?? 'info' }, logs),
      ...(options.worker === true ? { delivery: { environment: { endpoints: { sqs: sqs.endpoint } } } } : {}),
      config: {
        ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
        delivery: parseWorkerConfig({
          HERALD_SQS_ENDPOINT: sqs.endpoint,
          HERALD_ALLOW_INSECURE_DESTINATIONS: 'true',
          HERALD_DELIVERY_SEND_TIMEOUT_MS: '2000',
        }),
      },
    }),
    async (gateway, sqs) => {
      const projects = new Map<string, ProjectWorld>();
      for (const projectKey of options.seed ?? options.projects.slice(0, 1)) {
        projects.set(projectKey, await seedProject(gateway, sqs, projectKey));
      }
      return { logs, projects };
    },
  );
}

async function call(gateway: TestGateway, token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<Json> {
  const response = await gateway.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as Json }) });
  if (response.statusCode >= 300) throw new Error(`seed ${method} ${url}: ${response.statusCode} ${response.body.slice(0, 500)}`);
  return response.json() as Json;
}

/** A Type for custom fields; seeded per project as `{projectKey}-fields`. */
export const TYPE_DRAFT = {
  key: 'sec-fields',
  name: { en: 'Security fields' },
  resourceTypeIds: ['store', 'order', 'customer', 'business-unit'],
  fieldDefinitions: [{ name: 'label', type: { name: 'String' }, required: false, label: { en: 'Label' } }],
};

export const lineItem = (sku: string) => ({ sku, name: { en: `Item ${sku}` }, quantity: 2, externalPrice: { currencyCode: 'EUR', centAmount: 1000 } });

/**
 * One resource of every type in `projectKey`, through the public API: a store, a type, a state,
 * a customer (with a password-flow token), carts (staff and `/me`), a business unit (the customer
 * is its Admin), quote requests (staff and `/me`), a subscription to a fauxqs queue, an API client,
 * and the messages all of that recorded.
 */
export async function seedProject(gateway: TestGateway, sqs: SqsPeer, projectKey: string): Promise<ProjectWorld> {
  const admin = await tokenFor(gateway, projectKey, ['manage_project']);
  const seeds = new Map<string, Seeded>();
  const remember = (path: string, doc: Json) => {
    seeds.set(path, { id: doc.id as string, ...(typeof doc.key === 'string' ? { key: doc.key } : {}) });
    return doc;
  };
  const post = (path: string, payload: unknown) => call(gateway, admin, 'POST', `/${projectKey}${path}`, payload);

  const project = await call(gateway, admin, 'GET', `/${projectKey}`);
  await post('', {
    version: project.version,
    actions: [{ action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 30 } }],
  });
  const storeKey = `${projectKey}-store`;
  remember('stores', await post('/stores', { key: storeKey, name: { en: `Store of ${projectKey}` }, languages: ['en'] }));
  remember('types', await post('/types', { ...TYPE_DRAFT, key: `${projectKey}-fields` }));
  remember('states', await post('/states', { key: `${projectKey}-state`, type: 'QuoteRequestState', initial: false, name: { en: 'Seeded' } }));
  remember(
    'tax-categories',
    await post('/tax-categories', {
      key: `${projectKey}-tax`,
      name: `Taxes of ${projectKey}`,
      rates: [{ name: 'VAT', amount: 0.19, includedInPrice: true, country: 'DE' }],
    }),
  );
  // Custom Objects are addressed by container and key: every project's seed is in the container `isolation`.
  remember('custom-objects', await post('/custom-objects', { container: 'isolation', key: `${projectKey}-object`, value: { seeded: projectKey } }));
  // Triggered by payment methods, which Herald does not serve: the seeding's own writes call no Extension.
  remember(
    'extensions',
    await post('/extensions', {
      key: `${projectKey}-extension`,
      destination: {
        type: 'HTTP',
        url: 'https://extensions.example.com/seed',
        authentication: { type: 'AuthorizationHeader', headerValue: `Bearer seed-${randomUUID()}` },
      },
      triggers: [{ resourceTypeId: 'payment-method', actions: ['Create'] }],
    }),
  );
  remember('zones', await post('/zones', { key: `${projectKey}-zone`, name: `Zone of ${projectKey}`, locations: [{ country: 'DE' }] }));
  remember(
    'shipping-methods',
    await post('/shipping-methods', {
      key: `${projectKey}-shipping`,
      name: `Shipping of ${projectKey}`,
      taxCategory: { key: `${projectKey}-tax` },
      zoneRates: [{ zone: { key: `${projectKey}-zone` }, shippingRates: [{ price: { currencyCode: 'EUR', centAmount: 500 } }] }],
      isDefault: false,
    }),
  );
  remember(
    'product-types',
    await post('/product-types', {
      key: `${projectKey}-product-type`,
      name: `Products of ${projectKey}`,
      description: 'Seeded',
      attributes: [{ name: 'seeded', label: { en: 'Seeded' }, isRequired: false, type: { name: 'text' } }],
    }),
  );
  remember('customer-groups', await post('/customer-groups', { key: `${projectKey}-group`, groupName: `Group of ${projectKey}` }));
  remember('channels', await post('/channels', { key: `${projectKey}-channel`, roles: ['InventorySupply'] }));
  remember(
    'inventory',
    await post('/inventory', { key: `${projectKey}-inventory`, sku: `${projectKey}-sku`, quantityOnStock: 1, supplyChannel: { key: `${projectKey}-channel` } }),
  );
  remember(
    'standalone-prices',
    await post('/standalone-prices', { key: `${projectKey}-price`, sku: `${projectKey}-sku`, value: { currencyCode: 'EUR', centAmount: 100 } }),
  );
  remember('payments', await post('/payments', { key: `${projectKey}-payment`, amountPlanned: { currencyCode: 'EUR', centAmount: 100 } }));
  // Discounts (issue 29): a product discount, a cart discount and a discount code that applies it.
  const discountValue = { type: 'relative', permyriad: 1000 };
  remember(
    'product-discounts',
    await post('/product-discounts', {
      key: `${projectKey}-pd`,
      name: { en: 'PD' },
      value: discountValue,
      predicate: '1 = 1',
      sortOrder: '0.5',
      isActive: true,
    }),
  );
  remember(
    'cart-discounts',
    await post('/cart-discounts', {
      key: `${projectKey}-cd`,
      name: { en: 'CD' },
      value: discountValue,
      cartPredicate: '1 = 1',
      target: { type: 'shipping' },
      sortOrder: '0.5',
    }),
  );
  remember('discount-groups', await post('/discount-groups', { key: `${projectKey}-dg`, sortOrder: '0.6' }));
  remember(
    'discount-codes',
    await post('/discount-codes', { key: `${projectKey}-dc`, code: `${projectKey}-CODE`, cartDiscounts: [{ key: `${projectKey}-cd` }] }),
  );
  remember(
    'categories',
    await post('/categories', { key: `${projectKey}-category`, name: { en: `Category of ${projectKey}` }, slug: { en: `${projectKey}-category` } }),
  );
  remember(
    'products',
    await post('/products', {
      key: `${projectKey}-product`,
      productType: { key: `${projectKey}-product-type` },
      name: { en: `Product of ${projectKey}` },
      slug: { en: `${projectKey}-product` },
      masterVariant: { sku: `${projectKey}-sku` },
      // Published: the current projection, which the isolation walk reads, exists only then.
      publish: true,
    }),
  );
  // Product projections are views of products: the same id and key.
  seeds.set('product-projections', seeds.get('products') as Seeded);
  remember(
    'product-selections',
    await post('/product-selections', { key: `${projectKey}-selection`, name: { en: 'Selection' } }).then((selection) =>
      post(`/product-selections/${selection.id as string}`, { version: 1, actions: [{ action: 'addProduct', product: { key: `${projectKey}-product` } }] }),
    ),
  );

  const email = `sec-${randomUUID()}@example.com`;
  const password = `Pw-${randomUUID()}`;
  // Sign-up answers `{customer, …}`.
  remember('customers', (await post('/customers', { email, password, firstName: 'Sec', lastName: 'Urity', key: `${projectKey}-customer` })).customer as Json);
  const customer = await customerTokenFor(gateway, projectKey, ['manage_project'], { email, password });
  remember(
    'shopping-lists',
    await post('/shopping-lists', {
      key: `${projectKey}-list`,
      name: { en: 'List' },
      customer: { id: customer.customerId },
      lineItems: [{ sku: `${projectKey}-sku` }],
    }),
  );
  remember('me/shopping-lists', await call(gateway, customer.accessToken, 'POST', `/${projectKey}/me/shopping-lists`, { name: { en: 'Mine' } }));
  // Customer tokens are addressed by their value (`customers/email-token=:id`).
  for (const kind of ['email', 'password'] as const) {
    const token = await post(`/customers/${kind}-token`, kind === 'email' ? { id: customer.customerId, ttlMinutes: 60 } : { email });
    remember(`customers/${kind}-token=:id`, { id: token.value });
  }
  remember(
    'me/payments',
    await call(gateway, customer.accessToken, 'POST', `/${projectKey}/me/payments`, { amountPlanned: { currencyCode: 'EUR', centAmount: 100 } }),
  );
  remember('reviews', await post('/reviews', { key: `${projectKey}-review`, rating: 5, target: { typeId: 'product', key: `${projectKey}-product` } }));

  remember(
    'carts',
    await post('/carts', { key: `${projectKey}-cart`, currency: 'EUR', country: 'DE', customerId: customer.customerId, lineItems: [lineItem('SKU-1')] }),
  );
  // The customer's own carts (`me/carts`), priced by the merchant: a buyer cannot set an external price (MyLineItemDraft has none).
  const myCart = remember(
    'me/carts',
    await post('/carts', { key: `${projectKey}-my-cart`, currency: 'EUR', country: 'DE', customerId: customer.customerId, lineItems: [lineItem('SKU-2')] }),
  );
  const quoteCart = await post('/carts', { currency: 'EUR', country: 'DE', customerId: customer.customerId, lineItems: [lineItem('SKU-3')] });
  remember(
    'business-units',
    await post('/business-units', {
      key: `${projectKey}-unit`,
      name: `Unit of ${projectKey}`,
      unitType: 'Company',
      associates: [{ roles: ['Admin'], customer: { id: customer.customerId } }],
    }),
  );
  seeds.set('me/business-units', seeds.get('business-units') as Seeded);
  remember(
    'me/quote-requests',
    await call(gateway, customer.accessToken, 'POST', `/${projectKey}/me/quote-requests`, {
      cart: { id: myCart.id },
      cartVersion: myCart.version,
      key: `${projectKey}-my-quote`,
    }),
  );
  const quoteRequest = remember(
    'quote-requests',
    await post('/quote-requests', { cart: { id: quoteCart.id }, cartVersion: quoteCart.version, key: `${projectKey}-quote` }),
  );
  await seedNegotiation(post, remember, projectKey, quoteRequest, customer.customerId);

  const queueUrl = sqs.createQueue(`${projectKey}-queue-${randomUUID().slice(0, 8)}`);
  remember(
    'subscriptions',
    await post('/subscriptions', {
      key: `${projectKey}-subscription`,
      destination: { type: 'SQS', queueUrl, region: REGION, accessKey: AWS_ACCESS_KEY, accessSecret: `sqs-secret-${projectKey}-${randomUUID()}` },
      changes: [{ resourceTypeId: 'store' }],
    }),
  );
  remember('api-clients', await post('/api-clients', { name: `client of ${projectKey}`, scope: `view_stores:${projectKey}` }));
  const messages = await call(gateway, admin, 'GET', `/${projectKey}/messages?limit=500`);
  const [firstMessage] = messages.results as Json[];
  if (firstMessage === undefined) throw new Error('seed: no messages recorded');
  remember('messages', firstMessage);

  for (const [collection, seed] of seeds) if (typeof seed.id !== 'string') throw new Error(`seed: no id for ${collection}`);
  const ids = new Set<string>([...seeds.values()].map((seed) => seed.id));
  for (const message of messages.results as Json[]) ids.add(message.id as string);
  ids.add(customer.customerId);
  return { admin, customer: { token: customer.accessToken, id: customer.customerId, email, password }, storeKey, seeds, ids, queueUrl };
}

/**
 * An associate role, and the negotiation that follows the seeded quote request: its staged quote,
 * the quote (the customer's, also under `me/quotes`) and an order of a cart of the customer (also
 * under `me/orders`).
 */
async function seedNegotiation(
  post: (path: string, payload: unknown) => Promise<Json>,
  remember: (path: string, doc: Json) => Json,
  projectKey: string,
  quoteRequest: Json,
  customerId: string,
): Promise<void> {
  remember('associate-roles', await post('/associate-roles', { key: `${projectKey}-role`, name: `Role of ${projectKey}`, permissions: ['ViewMyCarts'] }));
  const staged = remember(
    'staged-quotes',
    await post('/staged-quotes', {
      key: `${projectKey}-staged`,
      quoteRequest: { id: quoteRequest.id },
      quoteRequestVersion: quoteRequest.version,
      quoteRequestStateToAccepted: true,
    }),
  );
  const quote = remember(
    'quotes',
    await post('/quotes', { key: `${projectKey}-quote`, stagedQuote: { id: staged.id }, stagedQuoteVersion: staged.version, stagedQuoteStateToSent: true }),
  );
  remember('me/quotes', quote);
  const orderCart = await post('/carts', {
    currency: 'EUR',
    country: 'DE',
    customerId,
    lineItems: [lineItem('SKU-4')],
    shippingAddress: { country: 'DE', firstName: 'Sec', lastName: 'Urity' },
  });
  const order = remember(
    'orders',
    await post('/orders', { cart: { id: orderCart.id, typeId: 'cart' }, version: orderCart.version, orderNumber: `${projectKey}-order` }),
  );
  remember('me/orders', order);
  const edit = remember('order-edits', await post('/order-edits', { key: `${projectKey}-edit`, resource: { id: order.id } }));
  remember('orders/edits', edit);
}

/** The collection a route template addresses: `stores`, `me/carts`, `subscriptions`, '' (project). */
export function collectionOf(template: string): string {
  const rest = template
    .replace(/^\/:projectKey/, '')
    .replace(/^\/in-store\/key=:storeKey/, '')
    .replace(/^\/as-associate\/:associateId(\/in-business-unit\/key=:businessUnitKey)?/, '')
    .replace(/\/(:id|key=:key|:container).*$/, '')
    .replace(/^\//, '');
  return rest;
}

/** The names of a template's path parameters, in order. */
export function paramNames(template: string): string[] {
  return [...template.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);
}

/** A route template with its parameters replaced by the given (already URL-safe) values. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/:([A-Za-z]+)/g, (whole, name: string) => values[name] ?? whole);
}

/** The parameters that address `projectKey`'s own seeded resource of the route (real ids and keys). */
export function realParams(route: RouteRecord, projectKey: string, world: ProjectWorld): Record<string, string> {
  const seed = world.seeds.get(collectionOf(route.url));
  return {
    projectKey,
    storeKey: world.storeKey,
    associateId: world.customer.id,
    businessUnitKey: encodeURIComponent(world.seeds.get('business-units')?.key ?? 'no-such-unit'),
    container: 'isolation',
    id: seed?.id ?? randomUUID(),
    key: encodeURIComponent(seed?.key ?? 'no-such-key'),
  };
}

export function isRestErrorShape(body: unknown, status: number): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Json;
  return (
    b.statusCode === status &&
    typeof b.message === 'string' &&
    b.message.length > 0 &&
    Array.isArray(b.errors) &&
    b.errors.length > 0 &&
    b.errors.every(
      (error: unknown) =>
        typeof error === 'object' && error !== null && typeof (error as Json).code === 'string' && typeof (error as Json).message === 'string',
    )
  );
}

/** GraphQL documents that cannot run answer `{errors: [{message, extensions: {code}}]}`. */
export function isGraphqlErrorShape(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const errors = (body as Json).errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every(
      (error: unknown) =>
        typeof error === 'object' && error !== null && typeof (error as Json).message === 'string' && typeof (error as Json).extensions?.code === 'string',
    )
  );
}

const isHealthRoute = (url: string) => /\/health$/.test(url);
const isGraphqlRoute = (url: string) => url.endsWith('/graphql');

export interface Sent {
  route: RouteRecord;
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string | Buffer;
}

/** Long runs of one character shortened, then the text cut at `max`. */
function clip(text: string, max: number): string {
  const squeezed = text
    .replace(/(.)\1{20,}/gsu, (run, char: string) => `${char.repeat(3)}…×${run.length / char.length}`)
    .replace(/((?:%[0-9A-F]{2}){3})\1{10,}/g, (run, unit: string) => `${unit}…×${run.length / unit.length}`);
  return squeezed.length > max ? `${squeezed.slice(0, max)}…(${text.length} chars)` : squeezed;
}

/** A readable, bounded description of a request and its answer for assertion messages. */
export function describeExchange(sent: Sent, response: { statusCode: number; body: string } | undefined): string {
  const payload =
    sent.payload === undefined ? '' : typeof sent.payload === 'string' ? sent.payload : `<Buffer ${sent.payload.subarray(0, 200).toString('hex')}>`;
  const headers = Object.fromEntries(Object.entries(sent.headers).map(([name, value]) => [name, String(value).slice(0, 120)]));
  return [
    `${sent.route.method} ${sent.route.url}`,
    `  sent ${sent.method} ${clip(sent.url, 300)}`,
    `  headers ${clip(JSON.stringify(headers), 400)}`,
    `  body (${payload.length}) ${clip(payload, 400)}`,
    response === undefined ? '  no answer' : `  → ${response.statusCode} ${clip(response.body, 400)}`,
  ].join('\n');
}

/** How long one request may take before it counts as a hang (generous: 2 busy cores). */
export const REQUEST_BOUND_MS = 20_000;

export async function send(gateway: TestGateway, sent: Sent): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_BOUND_MS} ms (hang)\n${describeExchange(sent, undefined)}`)), REQUEST_BOUND_MS);
  });
  try {
    return await Promise.race([
      gateway.app.inject({
        method: sent.method as 'GET',
        url: sent.url,
        headers: sent.headers,
        ...(sent.payload === undefined ? {} : { payload: sent.payload }),
      }),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface OracleOptions {
  /** The status the answer must have (e.g. 413), or a predicate. */
  expectStatus?: number | ((status: number) => boolean);
}

/**
 * The oracle: no 5xx, 4xx in the error shape, no error logged, no stack overflow. Returns the
 * status. `logs` is read from `logMark` on, so that a failure names the request that caused it.
 */
export function checkAnswer(sent: Sent, response: LightMyRequestResponse, logs: LogCapture, logMark: number, options: OracleOptions = {}): number {
  const status = response.statusCode;
  const context = describeExchange(sent, response);
  const newLogs = logs.lines.slice(logMark);
  expect(
    newLogs.filter((line) => /"level":(5\d|6\d)/.test(line)),
    `error logged\n${context}`,
  ).toEqual([]);
  expect(
    newLogs.filter((line) => STACK_OVERFLOW.test(line)),
    `stack overflow logged\n${context}`,
  ).toEqual([]);
  expect(STACK_OVERFLOW.test(response.body), `stack overflow in the answer\n${context}`).toBe(false);
  expect(status, `5xx\n${context}`).toBeLessThan(500);
  if (options.expectStatus !== undefined) {
    const ok = typeof options.expectStatus === 'number' ? status === options.expectStatus : options.expectStatus(status);
    expect(ok, `unexpected status\n${context}`).toBe(true);
  }
  if (status >= 400) {
    if (sent.method === 'HEAD') {
      expect(response.body, `HEAD answered with a body\n${context}`).toBe('');
    } else if (isHealthRoute(sent.route.url) && response.body === '') {
      // §4.2: the health endpoint encodes health in the status code alone (400, 503).
      expect([400, 503], context).toContain(status);
    } else {
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        body = undefined;
      }
      const shaped = isRestErrorShape(body, status) || (isGraphqlRoute(sent.route.url) && status === 400 && isGraphqlErrorShape(body));
      expect(shaped, `4xx not in the error shape\n${context}`).toBe(true);
      expect(String(response.headers['content-type'] ?? ''), context).toContain('application/json');
    }
  } else if (isGraphqlRoute(sent.route.url) && status === 200) {
    // An executed GraphQL request reports a resolver's crash as `General` (the REST 500).
    const body = JSON.parse(response.body) as Json;
    const general = ((body.errors ?? []) as Json[]).filter((error) => error.extensions?.code === 'General');
    expect(general, `GraphQL internal error\n${context}`).toEqual([]);
  }
  return status;
}

/** Headers that authenticate a route as project A's admin, its customer, or the OAuth client. */
export function authFor(route: RouteRecord, world: ProjectWorld, gateway: TestGateway): Record<string, string> {
  if (route.url.startsWith('/oauth/')) return basicAuth(gateway.bootstrapClient.id, gateway.bootstrapClient.secret);
  if (route.auth !== 'public' && route.auth.me !== undefined) return bearer(world.customer.token);
  if (route.auth === 'public') return {};
  return bearer(world.admin);
}

export const isBodyRoute = (route: RouteRecord) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
export const isOAuthRoute = (route: RouteRecord) => route.url.startsWith('/oauth/');

/** `/healthz` answers: the server is still up. */
export async function expectAlive(gateway: TestGateway): Promise<void> {
  const response = await gateway.app.inject({ method: 'GET', url: '/healthz' });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ status: 'ok' });
}

/**
 * Runs a property (no shrinking: the oracle's message already shows the whole exchange) and
 * returns its failure as text: seed, path and the assertion that failed, or undefined.
 */
export async function runProperty<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<string | undefined> {
  const details = await fc.check(property, { numRuns, endOnFailure: true });
  if (!details.failed) return undefined;
  const error = details.errorInstance;
  const message = error instanceof Error ? error.message : String(error);
  return `seed ${details.seed} path ${details.counterexamplePath ?? ''} after ${details.numRuns} runs\n${message.slice(0, 3_000)}`;
}
