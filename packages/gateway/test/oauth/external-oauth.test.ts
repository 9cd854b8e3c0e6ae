import { secretBoxFor } from '@herald/delivery';
import { ProjectStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { ManualClock } from '../support/clock.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { bootstrap, createCustomer, get, postJson, token } from './helpers.js';
import { IntrospectionServer } from './introspection-server.js';

const P = 'ext';
const OTHER = 'ext-other';
const HEADER = 'Bearer s3cr3t-introspection-credential';
const PLAIN_CREDENTIAL = 's3cr3t-introspection-credential';
const SECOND = 1000;
/** HERALD_SECRET_KEY of the gateways below: the header is sealed at rest like destination secrets. */
const SECRET_KEY = 'external-oauth-test-secret-key';
const withSecretKey = (secretKey: string | undefined) => ({ delivery: { ...defaultConfig().delivery, secretKey } });

/** The project document as stored, read from the store, not through the API. */
async function storedProject(gateway: TestGateway, key: string): Promise<Record<string, unknown>> {
  const project = await new ProjectStore(gateway.db).get(key);
  if (project === undefined) throw new Error(`no project ${key}`);
  return project as unknown as Record<string, unknown>;
}

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
    gateway = await startTestGateway({ projects: [P, OTHER], clock, config: withSecretKey(SECRET_KEY) });
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
    const settingsOnly = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project_settings:${P}` })).access_token;
    const refused = await configure({ url: endpoint.url, authorizationHeader: HEADER }, settingsOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('insufficient_scope');

    const project = await get(gateway, `/${P}`, admin);
    expect(project.json().externalOAuth).toEqual({ url: endpoint.url, authorizationHeader: 'Bearer s3cr****' });
    expect(project.body).not.toContain('s3cr3t-introspection-credential');

    const invalid = await configure({ url: 'ftp://example.com', authorizationHeader: HEADER });
    expect(invalid.statusCode).toBe(400);
    // Credentials in the URL would be shown as is: they belong in the sealed, masked header.
    const withCredentials = await configure({ url: 'https://introspector:pa55word@example.com/introspect', authorizationHeader: HEADER });
    expect(withCredentials.statusCode).toBe(400);
    expect(withCredentials.json().errors[0]).toMatchObject({ code: 'InvalidInput', field: 'externalOAuth.url' });
    expect(withCredentials.body).not.toContain('pa55word');
    const injected = await configure({ url: endpoint.url, authorizationHeader: 'Bearer x\r\nX-Evil: 1' });
    expect(injected.statusCode).toBe(400);
    expect(injected.body).not.toContain('Bearer x');
    // The form of a sealed value would be stored as if sealed and never open: refused up front.
    const sealedLooking = await configure({ url: endpoint.url, authorizationHeader: 'enc:v1:AAAA:BBBB:CCCC' });
    expect(sealedLooking.statusCode).toBe(400);
    expect(sealedLooking.json().errors[0].code).toBe('InvalidInput');
    expect(sealedLooking.body).not.toContain('AAAA');
  });

  it('keeps the authorization header sealed at rest; only the call to the endpoint carries it', async () => {
    const stored = await storedProject(gateway, P);
    expect(JSON.stringify(stored)).not.toContain(PLAIN_CREDENTIAL);
    expect(stored.externalOAuth).toEqual({
      url: endpoint.url,
      authorizationHeader: expect.stringMatching(/^enc:v1:/),
      maskedAuthorizationHeader: 'Bearer s3cr****',
    });

    endpoint.answer('ext-sealed', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await get(gateway, `/${P}/stores`, 'ext-sealed')).statusCode).toBe(200);
    expect(endpoint.received.at(-1)).toMatchObject({ token: 'ext-sealed', authorization: HEADER });
    const shown = await get(gateway, `/${P}`, admin);
    expect(shown.json().externalOAuth).toEqual({ url: endpoint.url, authorizationHeader: 'Bearer s3cr****' });
    expect(shown.body).not.toContain('enc:v1:');
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

describe('External OAuth headers stored before sealing, and gateways without HERALD_SECRET_KEY', () => {
  const endpoint = new IntrospectionServer();
  const clock = new ManualClock();
  let sealing: TestGateway;
  let plain: TestGateway;

  /** Writes `externalOAuth` into the stored project directly: the API no longer writes these shapes. */
  const storeExternalOAuth = async (gateway: TestGateway, externalOAuth: Record<string, string>) => {
    const projects = new ProjectStore(gateway.db);
    const current = await projects.get(P);
    await projects.update(P, current?.version ?? 0, (project) => ({ ...project, externalOAuth }));
  };
  const adminOf = async (gateway: TestGateway) =>
    (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;

  beforeAll(async () => {
    await endpoint.start();
    sealing = await startTestGateway({ projects: [P], config: withSecretKey(SECRET_KEY) });
    plain = await startTestGateway({ projects: [P], clock, config: withSecretKey(undefined) });
  });
  afterAll(async () => {
    await sealing?.close();
    await plain?.close();
    await endpoint.stop();
  });

  it('a legacy plain-text header keeps working, is masked, and is sealed by the next setExternalOAuth', async () => {
    // Before any request, so that the gateway's project cache reads this document.
    await storeExternalOAuth(sealing, { url: endpoint.url, authorizationHeader: HEADER });
    const admin = await adminOf(sealing);

    endpoint.answer('ext-legacy', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await get(sealing, `/${P}/stores`, 'ext-legacy')).statusCode).toBe(200);
    expect(endpoint.received.at(-1)).toMatchObject({ token: 'ext-legacy', authorization: HEADER });
    const shown = await get(sealing, `/${P}`, admin);
    expect(shown.json().externalOAuth).toEqual({ url: endpoint.url, authorizationHeader: 'Bearer s3cr****' });
    expect(shown.body).not.toContain(PLAIN_CREDENTIAL);

    const rewritten = await postJson(sealing, `/${P}`, admin, {
      version: shown.json().version,
      actions: [{ action: 'setExternalOAuth', externalOAuth: { url: endpoint.url, authorizationHeader: HEADER } }],
    });
    expect(rewritten.statusCode).toBe(200);
    expect(JSON.stringify(await storedProject(sealing, P))).not.toContain(PLAIN_CREDENTIAL);
    endpoint.answer('ext-resealed', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await get(sealing, `/${P}/stores`, 'ext-resealed')).statusCode).toBe(200);
    expect(endpoint.received.at(-1)).toMatchObject({ token: 'ext-resealed', authorization: HEADER });
  });

  it('without a key the header is stored as given; one sealed with a key the gateway lacks is never sent', async () => {
    const admin = await adminOf(plain);
    const project = (await get(plain, `/${P}`, admin)).json();
    const configured = await postJson(plain, `/${P}`, admin, {
      version: project.version,
      actions: [{ action: 'setExternalOAuth', externalOAuth: { url: endpoint.url, authorizationHeader: HEADER } }],
    });
    expect(configured.statusCode).toBe(200);
    expect((await storedProject(plain, P)).externalOAuth).toMatchObject({ authorizationHeader: HEADER });
    expect(configured.json().externalOAuth).toEqual({ url: endpoint.url, authorizationHeader: 'Bearer s3cr****' });
    endpoint.answer('ext-unsealed', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await get(plain, `/${P}/stores`, 'ext-unsealed')).statusCode).toBe(200);
    expect(endpoint.received.at(-1)).toMatchObject({ token: 'ext-unsealed', authorization: HEADER });

    // As after removing HERALD_SECRET_KEY: the sealed header cannot be opened, so no call is made.
    await storeExternalOAuth(plain, { url: endpoint.url, authorizationHeader: secretBoxFor(SECRET_KEY).seal(HEADER) });
    clock.advance(10 * SECOND); // past the gateway's project cache
    endpoint.answer('ext-no-key', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    const refused = await get(plain, `/${P}/stores`, 'ext-no-key');
    expect(refused.statusCode).toBe(500);
    expect(refused.body).not.toContain('enc:v1:');
    expect(endpoint.callsFor('ext-no-key')).toBe(0);
  });
});
