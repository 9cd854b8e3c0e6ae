import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { bootstrap, createCustomer, get, postJson, token } from './helpers.js';
import { IntrospectionServer } from './introspection-server.js';

const P = 'ext';
const OTHER = 'ext-other';
const HEADER = 'Bearer s3cr3t-introspection-credential';
const SECOND = 1000;

describe('External OAuth (§5.7): tokens Herald did not issue, introspected at the project’s endpoint', () => {
  const clock = new ManualClock();
  const endpoint = new IntrospectionServer();
  let gateway: TestGateway;
  let admin: string;
  let projectVersion: number;

  const expIn = (seconds: number) => Math.floor(clock.now().getTime() / 1000) + seconds;
  const configure = async (externalOAuth: unknown, accessToken = admin) => {
    const response = await postJson(gateway, `/${P}`, accessToken, {
      version: projectVersion,
      actions: [{ action: 'setExternalOAuth', ...(externalOAuth === undefined ? {} : { externalOAuth }) }],
    });
    if (response.statusCode === 200) projectVersion = response.json().version;
    return response;
  };

  beforeAll(async () => {
    await endpoint.start();
    gateway = await startTestGateway({ projects: [P, OTHER], clock });
    admin = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
    projectVersion = (await get(gateway, `/${P}`, admin)).json().version;
    const configured = await configure({ url: endpoint.url, authorizationHeader: HEADER });
    expect(configured.statusCode).toBe(200);
  });
  afterAll(async () => {
    await gateway?.close();
    await endpoint.stop();
  });

  it('is set with manage_project only, and its authorization header is partially hidden', async () => {
    const settingsOnly = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project_settings:${P}` }))
      .access_token;
    const refused = await configure({ url: endpoint.url, authorizationHeader: HEADER }, settingsOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('insufficient_scope');

    const project = await get(gateway, `/${P}`, admin);
    expect(project.json().externalOAuth).toEqual({ url: endpoint.url, authorizationHeader: 'Bearer s3cr****' });
    expect(project.body).not.toContain('s3cr3t-introspection-credential');

    const invalid = await configure({ url: 'ftp://example.com', authorizationHeader: HEADER });
    expect(invalid.statusCode).toBe(400);
    const injected = await configure({ url: endpoint.url, authorizationHeader: 'Bearer x\r\nX-Evil: 1' });
    expect(injected.statusCode).toBe(400);
    expect(injected.body).not.toContain('Bearer x');
  });

  it('honours only Herald’s own scopes of this project, and sends the token, header and correlation id', async () => {
    endpoint.answer('ext-active', {
      kind: 'json',
      body: { active: true, scope: `view_stores:${P} openid profile manage_project:${OTHER} manage_project:${P}x`, exp: expIn(3600), client_id: 'idp-app' },
    });
    const response = await gateway.app.inject({
      method: 'GET',
      url: `/${P}/stores`,
      headers: { ...bearer('ext-active'), 'x-correlation-id': 'corr-ext-active-1' },
    });
    expect(response.statusCode).toBe(200);
    expect(endpoint.received.at(-1)).toEqual({
      token: 'ext-active',
      authorization: HEADER,
      correlationId: 'corr-ext-active-1',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect((await get(gateway, `/${P}/customers`, 'ext-active')).statusCode).toBe(403);
    // The token is not valid for the other project (it has no external OAuth, and the scope is ignored).
    expect((await get(gateway, `/${OTHER}/stores`, 'ext-active')).statusCode).toBe(401);
  });

  it('caches an active answer until exp (at most one hour), then asks again', async () => {
    endpoint.answer('ext-cached', { kind: 'json', body: { active: true, scope: `view_stores:${P}`, exp: expIn(120) } });
    for (let i = 0; i < 3; i++) expect((await get(gateway, `/${P}/stores`, 'ext-cached')).statusCode).toBe(200);
    expect(endpoint.callsFor('ext-cached')).toBe(1);

    clock.advance(119 * SECOND);
    expect((await get(gateway, `/${P}/stores`, 'ext-cached')).statusCode).toBe(200);
    expect(endpoint.callsFor('ext-cached')).toBe(1);
    clock.advance(2 * SECOND);
    endpoint.answer('ext-cached', { kind: 'json', body: { active: false } });
    expect((await get(gateway, `/${P}/stores`, 'ext-cached')).statusCode).toBe(401);
    expect(endpoint.callsFor('ext-cached')).toBe(2);

    endpoint.answer('ext-long', { kind: 'json', body: { active: true, scope: `view_stores:${P}`, exp: expIn(86_400) } });
    expect((await get(gateway, `/${P}/stores`, 'ext-long')).statusCode).toBe(200);
    clock.advance(3599 * SECOND);
    expect((await get(gateway, `/${P}/stores`, 'ext-long')).statusCode).toBe(200);
    expect(endpoint.callsFor('ext-long')).toBe(1);
    clock.advance(2 * SECOND);
    expect((await get(gateway, `/${P}/stores`, 'ext-long')).statusCode).toBe(200);
    expect(endpoint.callsFor('ext-long')).toBe(2);
  });

  it('inactive and expired answers are 401 invalid_token, and not cached', async () => {
    endpoint.answer('ext-inactive', { kind: 'json', body: { active: false } });
    const inactive = await get(gateway, `/${P}/stores`, 'ext-inactive');
    expect(inactive.statusCode).toBe(401);
    expect(inactive.json().error).toBe('invalid_token');
    endpoint.answer('ext-inactive', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await get(gateway, `/${P}/stores`, 'ext-inactive')).statusCode).toBe(200);

    endpoint.answer('ext-expired', { kind: 'json', body: { active: true, scope: `view_stores:${P}`, exp: expIn(-1) } });
    expect((await get(gateway, `/${P}/stores`, 'ext-expired')).statusCode).toBe(401);
  });

  it('garbage answers are 502 ExternalOAuthFailed', async () => {
    const cases = {
      'ext-not-json': { kind: 'raw', status: 200, body: 'this is not json' },
      'ext-500': { kind: 'raw', status: 500, body: 'Internal Server Error' },
      'ext-no-active': { kind: 'json', body: { scope: `view_stores:${P}` } },
      'ext-401': { kind: 'json', status: 401, body: { active: true } },
    } as const;
    for (const [name, behaviour] of Object.entries(cases)) {
      endpoint.answer(name, behaviour);
      const response = await get(gateway, `/${P}/stores`, name);
      expect(response.statusCode, name).toBe(502);
      expect(response.json()).toMatchObject({ statusCode: 502, errors: [{ code: 'ExternalOAuthFailed' }] });
      expect(endpoint.callsFor(name), `${name} is not retried`).toBe(1);
    }
  });

  it('no answer within 500 ms is 504 ExternalOAuthFailed, without a retry', async () => {
    endpoint.answer('ext-slow', { kind: 'hang' });
    const abandoned = endpoint.nextAbandoned();
    const response = await get(gateway, `/${P}/stores`, 'ext-slow');
    await abandoned;
    expect(response.statusCode).toBe(504);
    expect(response.json()).toMatchObject({ statusCode: 504, errors: [{ code: 'ExternalOAuthFailed' }] });
    expect(endpoint.callsFor('ext-slow')).toBe(1);
  });

  it('/me needs customer_id of an existing customer', async () => {
    const customer = await createCustomer(gateway, P, { email: 'ext@example.com', password: 'pw' });
    endpoint.answer('ext-customer', { kind: 'json', body: { active: true, scope: `view_my_profile:${P} customer_id:${customer.id}`, exp: expIn(600) } });
    const me = await get(gateway, `/${P}/me`, 'ext-customer');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(customer.id);
    endpoint.answer('ext-ghost', { kind: 'json', body: { active: true, scope: `view_my_profile:${P} customer_id:no-such-customer`, exp: expIn(600) } });
    expect((await get(gateway, `/${P}/me`, 'ext-ghost')).statusCode).toBe(403);
    endpoint.answer('ext-nobody', { kind: 'json', body: { active: true, scope: `view_my_profile:${P}`, exp: expIn(600) } });
    expect((await get(gateway, `/${P}/me`, 'ext-nobody')).statusCode).toBe(403);
  });

  it('Herald’s own tokens never go to the endpoint; removing the setting ends external tokens', async () => {
    const before = endpoint.received.length;
    expect((await get(gateway, `/${P}/stores`, admin)).statusCode).toBe(200);
    expect(endpoint.received.length).toBe(before);

    endpoint.answer('ext-after-removal', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await configure(undefined)).statusCode).toBe(200);
    expect((await get(gateway, `/${P}`, admin)).json().externalOAuth).toBeUndefined();
    expect((await get(gateway, `/${P}/stores`, 'ext-after-removal')).statusCode).toBe(401);
    expect(endpoint.callsFor('ext-after-removal')).toBe(0);
  });

  it('an endpoint that cannot be reached is 504', async () => {
    const gone = new IntrospectionServer();
    await gone.start();
    const url = gone.url;
    await gone.stop();
    expect((await configure({ url, authorizationHeader: HEADER })).statusCode).toBe(200);
    const response = await get(gateway, `/${P}/stores`, 'ext-unreachable');
    expect(response.statusCode).toBe(504);
    expect(response.json().errors[0].code).toBe('ExternalOAuthFailed');
  });
});
