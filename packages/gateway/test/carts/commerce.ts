/**
 * Test helpers for carts, states, types, quote requests and messages: a caller bound to a real
 * token, and fixtures made through the public HTTP API (customers and their password-flow
 * tokens, anonymous sessions, carts). Built on test/support/gateway.ts.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { basicAuth, bearer, customerTokenFor, tokenFor, type TestGateway } from '../support/gateway.js';

// Response bodies in these tests are read field by field; `any` keeps the assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  body: Json;
}

/** Everything the API sends as JSON: a response whose shape the test asserts on. */
export class Caller {
  constructor(
    private readonly gateway: TestGateway,
    readonly token: string,
  ) {}

  async request(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<Answer> {
    const response = await this.gateway.app.inject({
      method,
      url,
      headers: bearer(this.token),
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    return { status: response.statusCode, body: response.json() as Json };
  }

  get(url: string): Promise<Answer> {
    return this.request('GET', url);
  }

  post(url: string, payload: unknown): Promise<Answer> {
    return this.request('POST', url, payload);
  }

  delete(url: string): Promise<Answer> {
    return this.request('DELETE', url);
  }

  /** POST that must succeed with `status`; returns the body. */
  async ok(url: string, payload: unknown, status = 200): Promise<Json> {
    const answer = await this.post(url, payload);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    return answer.body;
  }

  async read(url: string): Promise<Json> {
    const answer = await this.get(url);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** An update with `actions` at `version`, which must succeed. */
  update(url: string, version: number, actions: Json[]): Promise<Json> {
    return this.ok(url, { version, actions });
  }

  /** A caller on the same gateway with an API client token of `scopes` (e.g. the merchant beside a buyer). */
  withClient(projectKey: string, scopes: readonly string[]): Promise<Caller> {
    return callerWith(this.gateway, projectKey, scopes);
  }
}

export async function callerWith(gateway: TestGateway, projectKey: string, scopes: readonly string[]): Promise<Caller> {
  return new Caller(gateway, await tokenFor(gateway, projectKey, scopes));
}

async function formPost(gateway: TestGateway, url: string, form: Record<string, string>): Promise<Json> {
  const { id, secret } = gateway.bootstrapClient;
  const response = await gateway.app.inject({
    method: 'POST',
    url,
    headers: { ...basicAuth(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Json;
}

export interface Customer {
  id: string;
  email: string;
  /** A caller with the customer's own password-flow token. */
  caller: Caller;
}

/**
 * A customer created through `POST /customers`, and a password-flow token for it (§5.3, through
 * the shared `customerTokenFor`) with the given scopes; the token also names the customer.
 */
export async function customerWithToken(gateway: TestGateway, projectKey: string, admin: Caller, scopes: readonly string[]): Promise<Customer> {
  const credentials = { email: `buyer-${randomUUID()}@example.com`, password: 'correct horse battery staple' };
  await admin.ok(`/${projectKey}/customers`, { ...credentials, firstName: 'Bea', lastName: 'Buyer' }, 201);
  const { accessToken, customerId } = await customerTokenFor(gateway, projectKey, scopes, credentials);
  return { id: customerId, email: credentials.email, caller: new Caller(gateway, accessToken) };
}

/** An anonymous session token (§5.3) with the given scopes; returns the caller and its id. */
export async function anonymousWithToken(
  gateway: TestGateway,
  projectKey: string,
  scopes: readonly string[],
): Promise<{ anonymousId: string; caller: Caller }> {
  const anonymousId = `anon-${randomUUID()}`;
  const token = await formPost(gateway, `/oauth/${projectKey}/anonymous/token`, {
    grant_type: 'client_credentials',
    anonymous_id: anonymousId,
    scope: scopes.map((scope) => `${scope}:${projectKey}`).join(' '),
  });
  return { anonymousId, caller: new Caller(gateway, token.access_token as string) };
}

export const eur = (centAmount: number) => ({ currencyCode: 'EUR', centAmount });

export const lineItem = (sku: string, centAmount: number, quantity = 1, extra: Json = {}): Json => ({
  sku,
  name: { en: `Item ${sku}` },
  quantity,
  externalPrice: eur(centAmount),
  ...extra,
});

export const address = (country = 'DE', extra: Json = {}): Json => ({
  country,
  firstName: 'Bea',
  lastName: 'Buyer',
  streetName: 'Hauptstraße',
  streetNumber: '1',
  postalCode: '10115',
  city: 'Berlin',
  ...extra,
});
