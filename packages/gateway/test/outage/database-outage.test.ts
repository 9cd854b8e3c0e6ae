/**
 * PostgreSQL stopped while the gateway runs (an operator's restart, a crash, a failover). Every
 * request that needs it answers 503 with the reference's code for "retry with backoff"
 * (`OverCapacity`, errorable.raml's 503 codes; §7 names none) and `Retry-After`, never an opaque
 * 500: a read, a write, the token endpoint and GraphQL alike. A write cut off inside its
 * transaction leaves nothing behind, and once the server is back the same gateway serves again,
 * without a restart.
 */
import { postgresAvailable } from '@herald/testkit';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatedGateway, type GatedGateway } from '../support/gated-gateway.js';
import { bearer } from '../support/gateway.js';
import { bootstrap, createCustomer, postForm, token } from '../oauth/helpers.js';
import { startStoppablePostgres, type StoppablePostgres } from './support/stoppable-postgres.js';

const P = 'outage';
const UNIT_TOTAL = '{ businessUnits { total } }';

if (!postgresAvailable()) console.warn('[skip] the database outage test needs initdb and pg_ctl (PostgreSQL 15)');

/** The error shape of §7 / ARCHITECTURE.md with the outage's code and Retry-After. */
function expectOutage(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.json()).toEqual({
    statusCode: 503,
    message: expect.any(String),
    errors: [{ code: 'OverCapacity', message: expect.any(String) }],
  });
}

describe.skipIf(!postgresAvailable())('requests while PostgreSQL is stopped', { timeout: 120_000 }, () => {
  let cluster: StoppablePostgres;
  let gateway: GatedGateway;
  /** The same, with the token rate limit on (3 a minute per client and address). */
  let limited: GatedGateway;
  let accessToken: string;

  const read = (key: string) => gateway.app.inject({ method: 'GET', url: `/${P}/stores/key=${key}`, headers: bearer(accessToken) });
  const write = (key: string) => gateway.app.inject({ method: 'POST', url: `/${P}/stores`, headers: bearer(accessToken), payload: { key } });
  const graphql = () => gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(accessToken), payload: { query: UNIT_TOTAL } });
  const tokenRequest = () => postForm(gateway, '/oauth/token', bootstrap(gateway), { grant_type: 'client_credentials', scope: `view_stores:${P}` });
  const count = async (sql: string, params: unknown[]) => Number((await gateway.db.query<{ n: number }>(sql, params)).rows[0]?.n);

  beforeAll(async () => {
    cluster = await startStoppablePostgres();
    gateway = await startGatedGateway([P], { serverUrl: cluster.url });
    limited = await startGatedGateway([P], { serverUrl: cluster.url, oauth: { tokenRateLimitPerMinute: 3 } });
    accessToken = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
    expect((await write('before')).statusCode).toBe(201);
  }, 120_000);

  afterAll(async () => {
    try {
      cluster?.start();
    } catch {
      // already running
    }
    await gateway?.close();
    await limited?.close();
    cluster?.destroy();
  });

  it('answers a read, a write, the token endpoint and GraphQL with 503 OverCapacity and Retry-After, then serves them again', async () => {
    cluster.stop();
    try {
      expectOutage(await read('before'));
      expectOutage(await write('during'));
      const refused = await tokenRequest();
      expectOutage(refused);
      // No OAuth error for a server-side failure: nothing about the client's request was wrong.
      expect(refused.json()).not.toHaveProperty('error');
      const query = await graphql();
      expect(query.statusCode, query.body).toBe(503);
      expect(query.headers['retry-after']).toBe('5');
      expect(query.json()).toEqual({
        data: null,
        errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'OverCapacity', statusCode: 503 }) })],
      });
      // A client retrying through the outage is not charged for it: 503 every time, never 429.
      for (let attempt = 0; attempt < 5; attempt++)
        expectOutage(await postForm(limited, '/oauth/token', bootstrap(limited), { grant_type: 'client_credentials' }));
    } finally {
      cluster.start();
    }

    // The same gateway, no restart: its connection pool reconnects.
    expect((await read('before')).json()).toMatchObject({ key: 'before' });
    expect((await write('during')).statusCode).toBe(201);
    expect((await tokenRequest()).statusCode).toBe(200);
    const query = await graphql();
    expect(query.statusCode, query.body).toBe(200);
    expect(query.json()).toEqual({ data: { businessUnits: { total: 0 } } });
  });

  it('leaves nothing of a write whose transaction the outage cut off', async () => {
    // The password flow writes its refresh and access tokens in one transaction (token-store.ts).
    // The refresh token's INSERT ran, the access token's and the COMMIT have not: then the server
    // goes away.
    const customer = { email: 'outage@example.com', password: 'correct horse' };
    await createCustomer(gateway, P, customer);
    const tokens = () => count('SELECT (SELECT count(*) FROM oauth_refresh_tokens) + (SELECT count(*) FROM oauth_access_tokens) AS n', []);
    const before = await tokens();
    const signIn = () =>
      postForm(gateway, `/oauth/${P}/customers/token`, bootstrap(gateway), { grant_type: 'password', username: customer.email, password: customer.password });
    const gate = gateway.holdAfter((sql, _params, inTransaction) => inTransaction && /INSERT INTO oauth_refresh_tokens/i.test(sql));
    const pending = signIn();
    await gate.reached;
    cluster.stop();
    gate.open();
    try {
      expectOutage(await pending);
    } finally {
      cluster.start();
    }
    expect(await tokens()).toBe(before);
    // The same sign-in succeeds now and writes its two tokens once.
    const signedIn = await signIn();
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await tokens()).toBe(before + 2);
  });
});
