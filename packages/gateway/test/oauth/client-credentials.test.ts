import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { bootstrap, createClient, FORM, get, postForm, token } from './helpers.js';

const P = 'cc-project';
const OTHER = 'cc-other';

describe('POST /oauth/token: client credentials (§5.3)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P, OTHER] });
  });
  afterAll(async () => gateway?.close());

  it('issues a token with all of the client’s scopes when none are requested', async () => {
    const response = await postForm(gateway, '/oauth/token', bootstrap(gateway), { grant_type: 'client_credentials' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: 172800,
      scope: `manage_project:${P} manage_project:${OTHER}`,
      token_type: 'Bearer',
    });
    expect(body.refresh_token).toBeUndefined();
  });

  it('grants a requested subset, including scopes implied by manage_project', async () => {
    const body = await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `view_stores:${P} manage_customers:${P}` });
    expect(body.scope).toBe(`view_stores:${P} manage_customers:${P}`);
    expect((await get(gateway, `/${P}/stores`, body.access_token)).statusCode).toBe(200);
    expect((await get(gateway, `/${P}/customers`, body.access_token)).statusCode).toBe(200);
  });

  it('accepts the form the official SDK sends: the scope value not URL-encoded', async () => {
    const response = await postForm(gateway, '/oauth/token', bootstrap(gateway), `grant_type=client_credentials&scope=manage_project:${P} view_orders:${P}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().scope).toBe(`manage_project:${P} view_orders:${P}`);
  });

  it('refuses scopes the client does not have with 400 invalid_scope', async () => {
    const client = await createClient(gateway, P, `view_stores:${P}`);
    for (const scope of [`manage_stores:${P}`, `view_stores:${OTHER}`, 'view_stores', `customer_id:${P}`]) {
      const response = await postForm(gateway, '/oauth/token', client, { grant_type: 'client_credentials', scope });
      expect(response.statusCode, scope).toBe(400);
      expect(response.json()).toMatchObject({
        statusCode: 400,
        errors: [{ code: 'invalid_scope' }],
        error: 'invalid_scope',
        error_description: expect.any(String),
      });
    }
  });

  it('answers 401 invalid_client for missing or wrong credentials, without naming the secret', async () => {
    const missing = await gateway.app.inject({ method: 'POST', url: '/oauth/token', headers: FORM, payload: 'grant_type=client_credentials' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Basic/);
    expect(missing.json()).toMatchObject({ statusCode: 401, errors: [{ code: 'invalid_client' }], error: 'invalid_client' });

    const wrong = await postForm(gateway, '/oauth/token', { id: bootstrap(gateway).id, secret: 'not-the-secret' }, { grant_type: 'client_credentials' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('not-the-secret');
    const unknown = await postForm(gateway, '/oauth/token', { id: 'nobody', secret: 'whatever' }, { grant_type: 'client_credentials' });
    expect(unknown.statusCode).toBe(401);
  });

  it('answers 400 unsupported_grant_type and invalid_request for malformed requests', async () => {
    const grant = await postForm(gateway, '/oauth/token', bootstrap(gateway), { grant_type: 'password' });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error).toBe('unsupported_grant_type');

    const missing = await postForm(gateway, '/oauth/token', bootstrap(gateway), {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_request');

    const repeated = await postForm(gateway, '/oauth/token', bootstrap(gateway), 'grant_type=client_credentials&grant_type=client_credentials');
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().error).toBe('invalid_request');

    const json = await gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: postFormAuth(gateway) },
      payload: { grant_type: 'client_credentials' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('invalid_request');
  });

  it('does not let resource endpoints accept form bodies', async () => {
    const admin = await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` });
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/stores`,
      headers: { authorization: `Bearer ${admin.access_token}`, ...FORM },
      payload: 'key=from-a-form',
    });
    expect(response.statusCode).toBe(415);
  });

  it('creates clients through /{projectKey}/api-clients whose secret appears only in the create response', async () => {
    const admin = await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_api_clients:${P} view_stores:${P}` });
    const created = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/api-clients`,
      headers: { authorization: `Bearer ${admin.access_token}` },
      payload: { name: 'shop frontend', scope: `view_stores:${P}` },
    });
    expect(created.statusCode).toBe(201);
    const client = created.json();
    expect(client).toEqual({
      id: expect.any(String),
      name: 'shop frontend',
      scope: `view_stores:${P}`,
      createdAt: expect.any(String),
      secret: expect.any(String),
    });

    const fetched = await get(gateway, `/${P}/api-clients/${client.id}`, admin.access_token);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({ id: client.id, name: 'shop frontend', scope: `view_stores:${P}`, createdAt: client.createdAt });
    const listed = await get(gateway, `/${P}/api-clients`, admin.access_token);
    expect(listed.json().results).toContainEqual(fetched.json());
    expect(listed.body).not.toContain(client.secret);

    // The new client works, and only within its scopes.
    const own = await token(gateway, client, { grant_type: 'client_credentials' });
    expect(own.scope).toBe(`view_stores:${P}`);

    // A manage_api_clients token cannot hand out more than it holds.
    const escalation = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/api-clients`,
      headers: { authorization: `Bearer ${admin.access_token}` },
      payload: { name: 'too strong', scope: `manage_project:${P}` },
    });
    expect(escalation.statusCode).toBe(403);
    const foreign = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/api-clients`,
      headers: { authorization: `Bearer ${admin.access_token}` },
      payload: { name: 'other project', scope: `view_stores:${OTHER}` },
    });
    expect(foreign.statusCode).toBe(400);

    // Deleting the client revokes its tokens at once, even one validated a moment ago.
    expect((await get(gateway, `/${P}/stores`, own.access_token)).statusCode).toBe(200);
    const deleted = await gateway.app.inject({
      method: 'DELETE',
      url: `/${P}/api-clients/${client.id}`,
      headers: { authorization: `Bearer ${admin.access_token}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await get(gateway, `/${P}/stores`, own.access_token)).statusCode).toBe(401);
    expect((await postForm(gateway, '/oauth/token', client, { grant_type: 'client_credentials' })).statusCode).toBe(401);
    expect((await get(gateway, `/${P}/api-clients/${client.id}`, admin.access_token)).statusCode).toBe(404);
  });
});

function postFormAuth(gateway: TestGateway): string {
  const { id, secret } = bootstrap(gateway);
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}
