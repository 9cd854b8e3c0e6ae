import type { LightMyRequestResponse } from 'fastify';
import { basicAuth, bearer, type TestGateway } from '../support/gateway.js';

/** Helpers of the OAuth tests (not shared support: other suites only need tokenFor). */

export interface Client {
  id: string;
  secret: string;
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** What these helpers need of a gateway: a TestGateway, or a GatedGateway (support/gated-gateway.ts). */
export type OAuthGateway = Pick<TestGateway, 'app' | 'bootstrapClient'>;

/** POSTs a form to an OAuth endpoint as `client`. `body` is sent as it is when a string. */
export function postForm(gateway: OAuthGateway, url: string, client: Client, body: Record<string, string> | string): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: 'POST',
    url,
    headers: { ...basicAuth(client.id, client.secret), ...FORM },
    payload: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
  });
}

export interface TokenBody {
  access_token: string;
  expires_in: number;
  scope: string;
  token_type: string;
  refresh_token?: string;
}

export async function token(gateway: OAuthGateway, client: Client, body: Record<string, string>, url = '/oauth/token'): Promise<TokenBody> {
  const response = await postForm(gateway, url, client, body);
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json() as TokenBody;
}

export function bootstrap(gateway: OAuthGateway): Client {
  return gateway.bootstrapClient;
}

export async function get(gateway: OAuthGateway, url: string, accessToken?: string): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'GET', url, headers: accessToken === undefined ? {} : bearer(accessToken) });
}

export async function postJson(gateway: OAuthGateway, url: string, accessToken: string, payload: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'POST', url, headers: bearer(accessToken), payload: payload as object });
}

/** Creates an API client through the API (as the bootstrap client) and returns its credentials. */
export async function createClient(gateway: OAuthGateway, projectKey: string, scope: string): Promise<Client> {
  const admin = await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${projectKey}` });
  const response = await postJson(gateway, `/${projectKey}/api-clients`, admin.access_token, { name: 'test client', scope });
  if (response.statusCode !== 201) throw new Error(`create client: ${response.statusCode} ${response.body}`);
  const body = response.json() as { id: string; secret: string };
  return { id: body.id, secret: body.secret };
}

/** Signs up a customer (global, or in a store) through the API. */
export async function createCustomer(
  gateway: OAuthGateway,
  projectKey: string,
  draft: { email: string; password: string; [field: string]: unknown },
  storeKey?: string,
): Promise<{ id: string; version: number; email: string }> {
  const admin = await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${projectKey}` });
  const url = storeKey === undefined ? `/${projectKey}/customers` : `/${projectKey}/in-store/key=${storeKey}/customers`;
  const response = await postJson(gateway, url, admin.access_token, draft);
  if (response.statusCode !== 201) throw new Error(`create customer: ${response.statusCode} ${response.body}`);
  return (response.json() as { customer: { id: string; version: number; email: string } }).customer;
}
