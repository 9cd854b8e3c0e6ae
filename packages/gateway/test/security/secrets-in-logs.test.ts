/**
 * Secrets never reach the logs, the API's answers, or (in plain text) the database.
 *
 * A gateway with an in-process delivery worker, both logging at `trace` into memory, destination
 * secrets sealed at rest (`HERALD_SECRET_KEY`), goes through a scenario that touches every secret:
 *
 *   - client secrets: the bootstrap client's (Basic credentials on every token request), an API
 *     client created through the API, a wrong secret;
 *   - tokens: client credentials, password (global and in-store), anonymous, refresh, introspect,
 *     revoke, a token in a query parameter, an access token used as a Bearer credential;
 *   - customer passwords: sign-up, login, a wrong password;
 *   - destination secrets: SQS `accessSecret` (create and `changeDestination`), Service Bus
 *     connection string (`SharedAccessKey`), Event Grid `accessKey`, each also refused by its peer
 *     (a wrong key), and real deliveries through all three;
 *   - External OAuth: the configured authorization header, a token it validates, an endpoint that
 *     fails;
 *   - HERALD_SECRET_KEY itself.
 *
 * Then: no log line holds any secret value (nor the Basic credentials' base64); no answer holds a
 * client secret (except the API client's one-time create answer), a full destination secret, the
 * external authorization header, a password or a password hash; no table holds a client secret, a
 * token, a password or a destination secret in plain text.
 */
import { randomBytes } from 'node:crypto';
import { startEventGridPeer, startServiceBusPeer, startSqsPeer, type EventGridPeer, type ServiceBusPeer, type SqsPeer } from '@herald/testkit';
import type { LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntrospectionServer } from '../oauth/introspection-server.js';
import { basicAuth, bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture, type Json } from './support.js';

const P = 'secrets';
const REGION = 'us-east-1';
const unique = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** Every secret value of the scenario, by name. */
const secrets = new Map<string, string>();
function secret<T extends string>(name: string, value: T): T {
  secrets.set(name, value);
  return value;
}

interface Recorded {
  label: string;
  status: number;
  text: string;
  /** Answers that may hold the named secrets (the API client's create answer, token answers). */
  allowed: readonly string[];
}

describe('secrets never reach the logs, the answers or the database in plain text', { timeout: 60_000 }, () => {
  const logs = new LogCapture();
  const introspection = new IntrospectionServer();
  const answers: Recorded[] = [];
  let sqs: SqsPeer;
  let serviceBus: ServiceBusPeer;
  let eventGrid: EventGridPeer;
  let gateway: TestGateway;

  const bootstrap = { id: 'sec-bootstrap', secret: secret('bootstrap secret', unique('boot-secret')) };
  const secretKey = secret('HERALD_SECRET_KEY', unique('sealing-key'));

  beforeAll(async () => {
    await introspection.start();
    [sqs, serviceBus, eventGrid] = await Promise.all([startSqsPeer({ region: REGION }), startServiceBusPeer(), startEventGridPeer()]);
    secret('Service Bus SharedAccessKey', serviceBus.key);
    secret('Event Grid accessKey', eventGrid.accessKey);
    gateway = await startTestGateway({
      projects: [P],
      logger: pino({ level: 'trace' }, logs),
      config: { oauth: { bootstrapClient: bootstrap } },
      delivery: { environment: { endpoints: { sqs: sqs.endpoint } }, secretKey },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([sqs?.stop(), serviceBus?.stop(), eventGrid?.stop(), introspection.stop()]);
  });

  /** Every request of the scenario goes through here, so that every answer is checked. */
  async function call(
    label: string,
    options: { method: 'GET' | 'POST' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: string | Json },
    allowed: readonly string[] = [],
  ): Promise<LightMyRequestResponse> {
    const response = await gateway.app.inject({ ...options, headers: options.headers ?? {} });
    answers.push({
      label: `${label}: ${options.method} ${options.url}`,
      status: response.statusCode,
      text: `${JSON.stringify(response.headers)}\n${response.body}`,
      allowed,
    });
    return response;
  }

  const form = (client: { id: string; secret: string }, body: Record<string, string>) => ({
    headers: { ...basicAuth(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  });

  /** A token request that must succeed; its tokens become secrets (allowed in this answer only). */
  async function tokenRequest(label: string, url: string, client: { id: string; secret: string }, body: Record<string, string>): Promise<Json> {
    const response = await call(label, { method: 'POST', url, ...form(client, body) }, ['*tokens*']);
    expect(response.statusCode, `${label}: ${response.body}`).toBe(200);
    const issued = response.json() as Json;
    secret(`${label} access token`, issued.access_token as string);
    if (typeof issued.refresh_token === 'string') secret(`${label} refresh token`, issued.refresh_token);
    return issued;
  }

  async function ok(label: string, method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: Json, status = 200): Promise<Json> {
    const response = await call(label, { method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
    expect(response.statusCode, `${label}: ${response.body}`).toBe(status);
    return response.json() as Json;
  }

  it('goes through a scenario that touches every secret', async () => {
    secret('bootstrap Basic credentials', Buffer.from(`${bootstrap.id}:${bootstrap.secret}`).toString('base64'));
    const admin = (
      await tokenRequest('client credentials (bootstrap)', '/oauth/token', bootstrap, { grant_type: 'client_credentials', scope: `manage_project:${P}` })
    ).access_token as string;

    // An API client: its secret is shown once, in the create answer.
    const created = await call(
      'create API client',
      {
        method: 'POST',
        url: `/${P}/api-clients`,
        headers: bearer(admin),
        payload: { name: 'secrets client', scope: `manage_project:${P} create_anonymous_token:${P}` },
      },
      ['api client secret'],
    );
    expect(created.statusCode, created.body).toBe(201);
    const client = { id: (created.json() as Json).id as string, secret: secret('api client secret', (created.json() as Json).secret as string) };
    secret('api client Basic credentials', Buffer.from(`${client.id}:${client.secret}`).toString('base64'));
    await ok('read API client', 'GET', `/${P}/api-clients/${client.id}`, admin);
    await ok('list API clients', 'GET', `/${P}/api-clients`, admin);
    const clientToken = (await tokenRequest('client credentials (api client)', '/oauth/token', client, { grant_type: 'client_credentials' }))
      .access_token as string;
    const wrong = secret('wrong client secret', unique('wrong-secret'));
    expect(
      (
        await call('wrong client secret', {
          method: 'POST',
          url: '/oauth/token',
          ...form({ id: client.id, secret: wrong }, { grant_type: 'client_credentials' }),
        })
      ).statusCode,
    ).toBe(401);

    // Customers: sign-up (global and in a store), login, a wrong password, refresh.
    const store = await ok('create store', 'POST', `/${P}/stores`, clientToken, { key: 'secret-store', name: { en: 'S' } }, 201);
    const password = secret('customer password', unique('Pw'));
    const storePassword = secret('in-store customer password', unique('Pw-store'));
    const email = `${unique('c')}@example.com`;
    await ok('sign up', 'POST', `/${P}/customers`, clientToken, { email, password, firstName: 'Sec' }, 201);
    await ok('sign up in store', 'POST', `/${P}/in-store/key=${store.key}/customers`, clientToken, { email: `store-${email}`, password: storePassword }, 201);
    const customer = await tokenRequest('password flow', `/oauth/${P}/customers/token`, client, {
      grant_type: 'password',
      username: email,
      password,
      scope: `manage_my_profile:${P} manage_my_orders:${P}`,
    });
    await tokenRequest('in-store password flow', `/oauth/${P}/in-store/key=${store.key}/customers/token`, client, {
      grant_type: 'password',
      username: `store-${email}`,
      password: storePassword,
    });
    const wrongPassword = secret('wrong customer password', unique('Pw-wrong'));
    expect(
      (
        await call('wrong password', {
          method: 'POST',
          url: `/oauth/${P}/customers/token`,
          ...form(client, { grant_type: 'password', username: email, password: wrongPassword }),
        })
      ).statusCode,
    ).toBe(400);
    const refreshed = await tokenRequest('refresh', '/oauth/token', client, { grant_type: 'refresh_token', refresh_token: customer.refresh_token as string });
    const anonymous = await tokenRequest('anonymous', `/oauth/${P}/anonymous/token`, client, {
      grant_type: 'client_credentials',
      scope: `manage_my_orders:${P}`,
    });
    await tokenRequest('anonymous refresh', '/oauth/token', client, { grant_type: 'refresh_token', refresh_token: anonymous.refresh_token as string });
    await ok('me', 'GET', `/${P}/me`, refreshed.access_token as string);
    await ok('me carts', 'POST', `/${P}/me/carts`, anonymous.access_token as string, { currency: 'EUR' }, 201);
    expect(
      (await call('introspect', { method: 'POST', url: '/oauth/introspect', ...form(client, { token: customer.access_token as string }) })).statusCode,
    ).toBe(200);
    expect(
      (
        await call('revoke', {
          method: 'POST',
          url: '/oauth/token/revoke',
          ...form(client, { token: customer.refresh_token as string, token_type_hint: 'refresh_token' }),
        })
      ).statusCode,
    ).toBe(200);
    // A token in the URL is refused (§5.1) and must not be logged with the URL.
    expect([400, 401]).toContain((await call('token in the query', { method: 'GET', url: `/${P}/stores?access_token=${clientToken}` })).statusCode);
    await ok('customers query', 'GET', `/${P}/customers?limit=500`, clientToken);

    // Subscriptions: SQS (then a new secret by changeDestination), Service Bus, Event Grid.
    const queue = sqs.createQueue(unique('secrets-queue'));
    const sqsSecret = secret('SQS accessSecret', unique('sqs-secret'));
    const sqsSecret2 = secret('SQS accessSecret (changed)', unique('sqs-secret-2'));
    const sqsDestination = (accessSecret: string) => ({ type: 'SQS', queueUrl: queue, region: REGION, accessKey: 'AKIASECRETSTEST00001', accessSecret });
    const onStores = { changes: [{ resourceTypeId: 'store' }] };
    const sqsSubscription = await ok(
      'SQS subscription',
      'POST',
      `/${P}/subscriptions`,
      clientToken,
      { key: 'sqs', destination: sqsDestination(sqsSecret), ...onStores },
      201,
    );
    await ok('change SQS destination', 'POST', `/${P}/subscriptions/${sqsSubscription.id}`, clientToken, {
      version: sqsSubscription.version,
      actions: [{ action: 'changeDestination', destination: sqsDestination(sqsSecret2) }],
    });
    serviceBus.createEntity('secrets-queue');
    const connectionString = secret('Service Bus connection string', serviceBus.connectionString('secrets-queue'));
    await ok(
      'Service Bus subscription',
      'POST',
      `/${P}/subscriptions`,
      clientToken,
      { key: 'bus', destination: { type: 'ProviderBServiceBus', connectionString }, ...onStores },
      201,
    );
    await ok(
      'Event Grid subscription',
      'POST',
      `/${P}/subscriptions`,
      clientToken,
      {
        key: 'grid',
        destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey },
        format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
        ...onStores,
      },
      201,
    );
    // Keys the destinations refuse: the test notification fails, the error must not echo them.
    const wrongBusKey = secret('wrong Service Bus key', randomBytes(32).toString('base64'));
    const wrongGridKey = secret('wrong Event Grid key', randomBytes(32).toString('base64'));
    const refusedBus = await call('refused Service Bus key', {
      method: 'POST',
      url: `/${P}/subscriptions`,
      headers: bearer(clientToken),
      payload: {
        destination: { type: 'ProviderBServiceBus', connectionString: connectionString.replace(/SharedAccessKey=[^;]*/, `SharedAccessKey=${wrongBusKey}`) },
        ...onStores,
      },
    });
    expect(refusedBus.statusCode, refusedBus.body).toBe(400);
    const refusedGrid = await call('refused Event Grid key', {
      method: 'POST',
      url: `/${P}/subscriptions`,
      headers: bearer(clientToken),
      payload: {
        destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: wrongGridKey },
        format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
        ...onStores,
      },
    });
    expect(refusedGrid.statusCode, refusedGrid.body).toBe(400);
    // Predicates on hidden secrets are refused (they would be an oracle for guessing them).
    const probe = await call('where on a secret', {
      method: 'GET',
      url: `/${P}/subscriptions?where=${encodeURIComponent('destination(accessSecret > "sqs-secret")')}`,
      headers: bearer(clientToken),
    });
    expect(probe.statusCode).toBe(400);

    // Real deliveries through all three, with the sealed secrets opened by the worker.
    await ok('store change', 'POST', `/${P}/stores/${store.id}`, clientToken, {
      version: store.version,
      actions: [{ action: 'setName', name: { en: 'Delivered' } }],
    });
    await sqs.waitForMessages(queue, 2, 20_000);
    await serviceBus.waitFor('secrets-queue', 2, 20_000);
    await eventGrid.waitFor(2, 20_000);
    for (const key of ['sqs', 'bus', 'grid']) {
      const subscription = await ok(`read ${key}`, 'GET', `/${P}/subscriptions/key=${key}`, clientToken);
      await ok(`delivery status ${key}`, 'GET', `/${P}/subscriptions/${subscription.id}/delivery-status`, clientToken);
      await ok(`dropped ${key}`, 'GET', `/${P}/subscriptions/${subscription.id}/dropped`, clientToken);
    }
    await ok('subscriptions query', 'GET', `/${P}/subscriptions?limit=500`, clientToken);
    await ok('messages query', 'GET', `/${P}/messages?limit=500`, clientToken);

    // External OAuth: the authorization header Herald sends to the endpoint.
    const header = secret('External OAuth authorization header', `Bearer ${unique('ext-credential')}`);
    const project = await ok('project', 'GET', `/${P}`, admin);
    await ok('setExternalOAuth', 'POST', `/${P}`, admin, {
      version: project.version,
      actions: [{ action: 'setExternalOAuth', externalOAuth: { url: introspection.url, authorizationHeader: header } }],
    });
    await ok('project with External OAuth', 'GET', `/${P}`, admin);
    const graphql = await call('project through GraphQL', {
      method: 'POST',
      url: `/${P}/graphql`,
      headers: bearer(admin),
      payload: { query: '{ project { key version } }' },
    });
    expect(graphql.statusCode).toBe(200);
    const external = secret('external token', unique('external-token'));
    introspection.answer(external, { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    await ok('external token', 'GET', `/${P}/stores`, external);
    const failing = secret('external token (failing endpoint)', unique('external-failing'));
    introspection.answer(failing, { kind: 'raw', status: 500, body: `boom ${header}` });
    expect((await call('external endpoint fails', { method: 'GET', url: `/${P}/stores`, headers: bearer(failing) })).statusCode).toBe(502);
    expect(introspection.received.some((request) => request.authorization === header)).toBe(true);
    expect(secrets.size).toBeGreaterThan(25);
  });

  it('logs none of the secrets (and did log the scenario, at trace level)', () => {
    const text = logs.lines.join('\n');
    expect(logs.lines.length).toBeGreaterThan(100);
    expect(text).toContain('"level":20'); // debug lines were captured (the logger runs at trace), not only info
    expect(text).toContain('"correlationId"');
    expect(text).toContain(`/${P}/subscriptions`);
    const leaks: string[] = [];
    for (const [name, value] of secrets) {
      for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
        const line = logs.lines.find((candidate) => candidate.includes(form));
        if (line !== undefined) leaks.push(`${name} in: ${line.slice(0, 400)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('answers with no client secret (but once), no full destination secret, no password and no password hash', async () => {
    const hashes = (await gateway.db.query<{ password_hash: string }>('SELECT password_hash FROM customer_passwords')).rows.map((row) => row.password_hash);
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    const never = [...secrets].filter(([name]) => !/token/.test(name));
    const leaks: string[] = [];
    for (const answer of answers) {
      for (const [name, value] of never) {
        if (answer.allowed.includes(name)) continue;
        if (answer.text.includes(value)) leaks.push(`${name} in the answer to ${answer.label} (${answer.status})`);
      }
      for (const hash of hashes)
        if (answer.text.includes(hash) || answer.text.includes(hash.slice(0, 40))) leaks.push(`a password hash in the answer to ${answer.label}`);
      if (/"password(Hash|_hash)?"\s*:/.test(answer.text)) leaks.push(`a password field in the answer to ${answer.label}`);
    }
    // Tokens appear only in the token endpoints' own answers.
    for (const [name, value] of secrets) {
      if (!/token/.test(name)) continue;
      for (const answer of answers)
        if (!answer.allowed.includes('*tokens*') && answer.text.includes(value)) leaks.push(`${name} in the answer to ${answer.label}`);
    }
    expect(leaks).toEqual([]);
    // The one-time answer did hold the secret; reading the client again does not.
    expect(answers.find((answer) => answer.label.startsWith('create API client'))?.text).toContain(secrets.get('api client secret'));
    // The one 5xx is the 502 of §7 for an External OAuth endpoint that fails.
    expect(answers.filter((answer) => answer.status >= 500).map((answer) => `${answer.label} ${answer.status}`)).toEqual([
      'external endpoint fails: GET /secrets/stores 502',
    ]);
  });

  it('stores no client secret, token, password or destination secret in plain text', async () => {
    const tables = (await gateway.db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map(
      (row) => row.tablename,
    );
    expect(tables.length).toBeGreaterThan(3);
    const dump: string[] = [];
    for (const table of tables) {
      const rows = await gateway.db.query<{ row: string }>(`SELECT t::text AS row FROM "${table.replaceAll('"', '""')}" t`);
      for (const { row } of rows.rows) dump.push(`${table}: ${row}`);
    }
    expect(dump.some((row) => row.includes('secrets-queue'))).toBe(true); // the dump did read the subscriptions
    const atRest = [...secrets].filter(
      ([name]) => !['External OAuth authorization header', 'HERALD_SECRET_KEY'].includes(name) && !/Basic credentials/.test(name),
    );
    const leaks: string[] = [];
    for (const [name, value] of atRest) {
      const row = dump.find((candidate) => candidate.includes(value));
      if (row !== undefined) leaks.push(`${name} stored in plain text: ${row.slice(0, 300)}`);
    }
    expect(leaks).toEqual([]);
  });

  it('answered every request with its own correlation id', () => {
    expect(answers.length).toBeGreaterThan(40);
    expect(new Set(answers.map((answer) => /"x-correlation-id":"([^"]+)"/.exec(answer.text)?.[1])).size).toBe(answers.length);
  });
});
