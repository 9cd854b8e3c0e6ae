/**
 * §8 "Correlation ID: 8 to 256 characters, letters, digits, underscore, hyphen" (§4.4.10)
 * at its exact bounds, on a resource route, the token endpoint and an unknown route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'limits-correlation';
const VALID = /^[A-Za-z0-9_-]{8,256}$/;

describe('§8 correlation id bounds', () => {
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    token = await tokenFor(gateway, P, ['view_stores']);
  });
  afterAll(() => gateway?.close());

  const requests = () => [
    { method: 'GET' as const, url: `/${P}/stores`, headers: bearer(token) },
    {
      method: 'POST' as const,
      url: '/oauth/token',
      headers: { ...basicAuth(gateway.bootstrapClient.id, gateway.bootstrapClient.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&scope=view_stores:${P}`,
    },
  ];

  it.each([
    ['8 characters', 'aB3_-xY9'],
    ['256 characters', `${'a'.repeat(128)}${'Z9_-'.repeat(32)}`],
  ])('accepts and echoes %s', async (_what, id) => {
    expect(id.length === 8 || id.length === 256).toBe(true);
    for (const request of requests()) {
      const response = await gateway.app.inject({ ...request, headers: { ...request.headers, 'x-correlation-id': id } });
      expect(response.statusCode, `${request.url}: ${response.body}`).toBe(200);
      expect(response.headers['x-correlation-id']).toBe(id);
    }
  });

  it.each([
    ['7 characters', 'aB3_-xY'],
    ['257 characters', 'a'.repeat(257)],
    ['a dot', 'abcd.efgh'],
    ['a non-ASCII letter', 'abcdéfgh'],
    ['empty', ''],
  ])('refuses %s with 400 InvalidInput in the error shape, answering a generated id', async (_what, id) => {
    for (const request of [...requests(), { method: 'GET' as const, url: `/${P}/no-such-route`, headers: bearer(token) }]) {
      const response = await gateway.app.inject({ ...request, headers: { ...request.headers, 'x-correlation-id': id } });
      expect(response.statusCode, `${request.url}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code: 'InvalidInput', message: expect.any(String) }] });
      expect(response.headers['x-correlation-id']).toMatch(VALID);
      expect(response.headers['x-correlation-id']).not.toBe(id);
    }
  });
});
