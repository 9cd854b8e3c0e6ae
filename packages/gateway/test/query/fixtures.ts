/**
 * Shared helpers of the query tests through HTTP: GET requests with properly encoded query
 * parameters (URLSearchParams, so repeated `where`, `sort` and `var.x` stay repeated), and the
 * error shape every 4xx answer must have.
 */
import { expect } from 'vitest';
import { bearer, type TestGateway } from '../support/gateway.js';

// Response bodies are read field by field and asserted on; `unknown` would need a cast at every step.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** Query parameters in order; a name may repeat (`where`, `sort`, `var.x`, `expand`). */
export type Params = ReadonlyArray<readonly [string, string]>;

export interface Answer {
  status: number;
  body: Json;
  url: string;
}

/** `GET {path}?{params}` with the token, the body parsed as JSON. */
export async function get(gateway: TestGateway, token: string, path: string, params: Params = []): Promise<Answer> {
  const search = new URLSearchParams(params.map(([name, value]): [string, string] => [name, value])).toString();
  const url = search === '' ? path : `${path}?${search}`;
  const response = await gateway.app.inject({ method: 'GET', url, headers: bearer(token) });
  let body: Json;
  try {
    body = response.json() as Json;
  } catch {
    body = { unparsable: response.body };
  }
  return { status: response.statusCode, body, url };
}

/** POST that must answer `status`; returns the body. */
export async function post(gateway: TestGateway, token: string, path: string, payload: unknown, status = 201): Promise<Json> {
  const response = await gateway.app.inject({ method: 'POST', url: path, headers: bearer(token), payload: payload as Json });
  expect(response.statusCode, `${path}: ${response.body}`).toBe(status);
  return response.json() as Json;
}

/** Whether `body` is the spec's error shape `{statusCode, message, errors: [{code, message}, …]}`. */
export function isErrorShape(body: Json, status: number): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    body.statusCode === status &&
    typeof body.message === 'string' &&
    body.message.length > 0 &&
    Array.isArray(body.errors) &&
    body.errors.length > 0 &&
    body.errors.every(
      (error: unknown) =>
        typeof error === 'object' && error !== null && typeof (error as Json).code === 'string' && typeof (error as Json).message === 'string',
    )
  );
}
