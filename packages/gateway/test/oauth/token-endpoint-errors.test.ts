/**
 * The error answers of the token endpoints.
 *
 * RFC 6749 §5.2: an error of the token endpoint is HTTP 400 (401 only for `invalid_client`) with a
 * JSON body whose `error` is one of invalid_request, invalid_client, invalid_grant,
 * unauthorized_client, unsupported_grant_type, invalid_scope. ARCHITECTURE.md "HTTP conventions":
 * errors are `{statusCode, message, errors}`, and OAuth errors add `error` and `error_description`.
 * RFC 6749 §3.1: "Parameters sent without a value MUST be treated as if they were omitted".
 *
 * Found in review: bodies that are not form-encoded got the resource endpoints' 415 or 400
 * InvalidJsonInput (oauth/form-body.ts), the anonymous flow without `create_anonymous_token` a 403
 * `insufficient_scope` (token-service.ts), and `anonymous_id=` was refused as invalid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createClient, postForm, type Client } from './helpers.js';

const P = 'token-errors';

describe('token endpoint error answers (RFC 6749 §5.2, §3.1)', () => {
  let gateway: TestGateway;
  let frontend: Client;
  let plain: Client;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    frontend = await createClient(gateway, P, `manage_my_orders:${P} create_anonymous_token:${P}`);
    plain = await createClient(gateway, P, `view_stores:${P}`);
  });
  afterAll(async () => gateway?.close());

  const send = (client: Client, url: string, contentType: string, payload: string) =>
    gateway.app.inject({ method: 'POST', url, headers: { ...basicAuth(client.id, client.secret), 'content-type': contentType }, payload });

  const NOT_FORMS = [
    ['/oauth/token', 'text/plain', 'grant_type=client_credentials'],
    ['/oauth/token', 'application/json', '{"grant_type":'],
    ['/oauth/token', 'application/json', '{"grant_type":"client_credentials"}'],
    ['/oauth/token', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--\r\n'],
    ['/oauth/introspect', 'text/plain', 'token=abc'],
    [`/oauth/${P}/anonymous/token`, 'text/plain', 'grant_type=client_credentials'],
    [`/oauth/${P}/customers/token`, 'application/xml', '<grant_type>password</grant_type>'],
  ] as const;

  it('answers a body that is not form-encoded with 400 invalid_request, as an OAuth error', async () => {
    for (const [url, contentType, payload] of NOT_FORMS) {
      const response = await send(frontend, url, contentType, payload);
      const label = `${url} ${contentType}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.json(), label).toMatchObject({
        statusCode: 400,
        message: expect.any(String),
        error: 'invalid_request',
        error_description: expect.any(String),
        errors: [{ code: 'invalid_request' }],
      });
      // Not the message of the JSON resource endpoints.
      expect(response.json().error_description, label).not.toMatch(/must send Content-Type: application\/json/);
    }
  });

  it('authenticates the client before it looks at the body: wrong credentials are 401 invalid_client whatever the body', async () => {
    for (const [url, contentType, payload] of NOT_FORMS) {
      const response = await send({ id: frontend.id, secret: 'wrong' }, url, contentType, payload);
      expect({ status: response.statusCode, error: response.json().error }, `${url} ${contentType}`).toEqual({ status: 401, error: 'invalid_client' });
    }
  });

  it('refuses the anonymous flow to a client without create_anonymous_token as a token-endpoint error (400, not 403 insufficient_scope)', async () => {
    const response = await postForm(gateway, `/oauth/${P}/anonymous/token`, plain, { grant_type: 'client_credentials' });
    expect(response.statusCode).toBe(400);
    // `insufficient_scope` is a resource-server code (RFC 6750 §3.1), not one of RFC 6749 §5.2.
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'unauthorized_client', errors: [{ code: 'unauthorized_client' }] });
  });

  it('treats an empty anonymous_id as omitted and generates one (RFC 6749 §3.1)', async () => {
    const response = await postForm(gateway, `/oauth/${P}/anonymous/token`, frontend, { grant_type: 'client_credentials', anonymous_id: '' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().scope).toMatch(/ anonymous_id:[0-9a-f-]{36}$/);
  });

  it('treats other empty parameters as omitted too: `scope=` asks for all of the client’s scopes', async () => {
    const response = await postForm(gateway, '/oauth/token', plain, { grant_type: 'client_credentials', scope: '' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().scope).toBe(`view_stores:${P}`);
    const noGrant = await postForm(gateway, '/oauth/token', plain, { grant_type: '' });
    expect(noGrant.json()).toMatchObject({ error: 'invalid_request', error_description: 'Missing required parameter: grant_type.' });
  });
});
