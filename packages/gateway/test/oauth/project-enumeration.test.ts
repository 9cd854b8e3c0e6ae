/**
 * The project-specific token endpoints reveal nothing about which project keys exist before the
 * client authenticated, and probing them is rate limited.
 *
 * resources/projects/project-resolver.ts states the rule: the project is loaded "after authentication, so a
 * caller without a token learns nothing about which projects exist" — and resource routes keep it
 * (`GET /ghost/stores` without a token is 401). `/oauth/{projectKey}/…` are `auth: 'public'` routes
 * that authenticate the client inside the handler; the resolver (a preHandler) used to run before
 * that handler, so an unknown project answered 404 `ResourceNotFound` and a known one 401
 * `invalid_client`, and the 404 came before the token rate limit (§5.9, charged in the handler):
 * an unlimited enumeration. Now the resolver skips them and the handler checks the project after
 * client authentication. RFC 6749 §5.2: a failed client authentication is 401 `invalid_client`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createClient, FORM, postForm, type Client } from './helpers.js';

const P = 'enumeration-existing';
const PATHS = ['anonymous/token', 'customers/token', 'in-store/key=berlin/customers/token'];

describe('/oauth/{projectKey}/… does not reveal project keys to unauthenticated callers', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
  });
  afterAll(async () => gateway?.close());

  it('answers an existing and a missing project alike (401 invalid_client) without valid client credentials', async () => {
    const wrongSecret = { ...FORM, authorization: `Basic ${Buffer.from(`${gateway.bootstrapClient.id}:wrong`).toString('base64')}` };
    for (const headers of [FORM, wrongSecret]) {
      for (const path of PATHS) {
        const answers = [];
        for (const project of [P, 'no-such-project']) {
          const response = await gateway.app.inject({ method: 'POST', url: `/oauth/${project}/${path}`, headers, payload: 'grant_type=client_credentials' });
          answers.push({ status: response.statusCode, error: response.json().error });
        }
        expect(answers, path).toEqual([
          { status: 401, error: 'invalid_client' },
          { status: 401, error: 'invalid_client' },
        ]);
      }
    }
  });

  it('still tells an authenticated client that the project does not exist (404, as before)', async () => {
    const client: Client = await createClient(gateway, P, `create_anonymous_token:${P} manage_my_profile:${P}`);
    expect((await postForm(gateway, `/oauth/${P}/anonymous/token`, client, { grant_type: 'client_credentials' })).statusCode).toBe(200);
    for (const path of PATHS) {
      const response = await postForm(gateway, `/oauth/no-such-project/${path}`, client, { grant_type: 'client_credentials' });
      expect(response.statusCode, path).toBe(404);
      expect(response.json(), path).toMatchObject({
        statusCode: 404,
        message: "The project 'no-such-project' was not found.",
        errors: [{ code: 'ResourceNotFound' }],
      });
    }
  });
});

describe('probing /oauth/{projectKey}/… is rate limited', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P], config: { oauth: { tokenRateLimitPerMinute: 2 } } });
  });
  afterAll(async () => gateway?.close());

  it('charges unauthenticated guesses to the caller like any token request, and never answers 404', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const url = `/oauth/guess-${i}/anonymous/token`;
      answers.push((await gateway.app.inject({ method: 'POST', url, headers: FORM, payload: 'grant_type=client_credentials' })).statusCode);
    }
    // Two requests per minute per address, then 429: the same answers as for an existing project.
    expect(answers).toEqual([401, 401, 429, 429, 429, 429]);
  });
});
