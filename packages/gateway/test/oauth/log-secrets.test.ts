import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createClient, createCustomer, FORM, get, postForm, postJson, token, type Client } from './helpers.js';
import { IntrospectionServer } from './introspection-server.js';

const P = 'logs';

/** Collects every log line the gateway writes. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
    done();
  }
}

describe('secrets never reach the logs', () => {
  const logs = new LogCapture();
  const endpoint = new IntrospectionServer();
  let gateway: TestGateway;

  beforeAll(async () => {
    await endpoint.start();
    gateway = await startTestGateway({ projects: [P], logger: pino({ level: 'trace' }, logs) });
  });
  afterAll(async () => {
    await gateway?.close();
    await endpoint.stop();
  });

  it('a full flow logs requests, but no client secret, token, password or authorization header', async () => {
    const bootstrap: Client = gateway.bootstrapClient;
    const admin = (await token(gateway, bootstrap, { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;

    const created = (await postJson(gateway, `/${P}/api-clients`, admin, { name: 'logged', scope: `manage_my_profile:${P} view_stores:${P}` })).json();
    const client: Client = { id: created.id, secret: created.secret };
    const clientToken = await token(gateway, client, { grant_type: 'client_credentials' });

    const password = 'Pa55word-that-must-not-be-logged';
    await createCustomer(gateway, P, { email: 'logged@example.com', password });
    const customer = await token(gateway, client, { grant_type: 'password', username: 'logged@example.com', password }, `/oauth/${P}/customers/token`);
    const refreshed = await token(gateway, client, { grant_type: 'refresh_token', refresh_token: customer.refresh_token ?? '' });
    await postForm(gateway, '/oauth/introspect', client, { token: refreshed.access_token });
    await postForm(gateway, '/oauth/token', { id: client.id, secret: 'wrong-secret-also-secret' }, { grant_type: 'client_credentials' });
    await get(gateway, `/${P}/stores?access_token=${clientToken.access_token}`);
    await get(gateway, `/${P}/me`, customer.access_token);

    const header = 'Bearer ext-credential-never-logged-0123456789';
    const project = (await get(gateway, `/${P}`, admin)).json();
    const configured = await postJson(gateway, `/${P}`, admin, {
      version: project.version,
      actions: [{ action: 'setExternalOAuth', externalOAuth: { url: endpoint.url, authorizationHeader: header } }],
    });
    expect(configured.statusCode).toBe(200);
    endpoint.answer('external-token-never-logged', { kind: 'json', body: { active: true, scope: `view_stores:${P}` } });
    expect((await gateway.app.inject({ method: 'GET', url: `/${P}/stores`, headers: bearer('external-token-never-logged') })).statusCode).toBe(200);
    await postForm(gateway, '/oauth/token/revoke', client, { token: customer.refresh_token ?? '' });

    const secrets = {
      bootstrapSecret: bootstrap.secret,
      clientSecret: client.secret,
      adminToken: admin,
      clientToken: clientToken.access_token,
      customerToken: customer.access_token,
      refreshToken: customer.refresh_token ?? 'missing',
      refreshedToken: refreshed.access_token,
      password,
      wrongSecret: 'wrong-secret-also-secret',
      authorizationHeader: 'ext-credential-never-logged',
      externalToken: 'external-token-never-logged',
      basicCredentials: Buffer.from(`${client.id}:${client.secret}`).toString('base64'),
    };
    const text = logs.lines.join('\n');
    expect(logs.lines.length).toBeGreaterThan(20);
    expect(text).toContain('"correlationId"');
    expect(text).toContain('access_token=[redacted]');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(text.includes(secret), `${name} appears in the logs`).toBe(false);
    }
  });
});

/**
 * Credentials sent in the query string of a token request. RFC 6749 §3.2 wants the parameters in
 * the body, §2.3.1 forbids client credentials in the URI, and RFC 7009 / 7662 send `token` in the
 * body; a misconfigured client that puts them in the URL is refused, but only after the URL was
 * logged. Found in review: only `access_token` was redacted there (log-redaction.ts urlForLog).
 */
describe('token-request secrets in the URL are not logged', () => {
  const logs = new LogCapture();
  const P2 = 'url-logs';
  let gateway: TestGateway;
  let client: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P2], logger: pino({ level: 'info' }, logs) });
    client = await createClient(gateway, P2, `manage_my_profile:${P2}`);
    await createCustomer(gateway, P2, { email: 'url@example.com', password: 'Customer-Password-In-Url' });
  });
  afterAll(async () => gateway?.close());

  it('redacts password, client_secret, refresh_token and token in logged URLs, as it does access_token', async () => {
    const secrets = {
      password: 'Customer-Password-In-Url',
      client_secret: 'Client-Secret-In-Url-0123456789',
      refresh_token: 'Refresh-Token-In-Url-0123456789',
      token: 'Introspected-Token-In-Url-0123456789',
      resourcePassword: 'Password-On-A-Resource-Route-0123',
    };
    await postForm(gateway, `/oauth/${P2}/customers/token?grant_type=password&username=url%40example.com&password=${secrets.password}`, client, {});
    await gateway.app.inject({
      method: 'POST',
      url: `/oauth/token?grant_type=client_credentials&client_id=${client.id}&client_secret=${secrets.client_secret}`,
      headers: FORM,
      payload: '',
    });
    await postForm(gateway, `/oauth/token?grant_type=refresh_token&refresh_token=${secrets.refresh_token}`, client, {});
    await postForm(gateway, `/oauth/introspect?token=${secrets.token}`, client, {});
    // Not only on the token endpoints: a resource URL keeps its query, without the credential.
    await get(gateway, `/${P2}/stores?limit=1&password=${secrets.resourcePassword}`);

    // The requests were logged (so the check below is meaningful)…
    expect(logs.lines.some((line) => line.includes('/oauth/introspect'))).toBe(true);
    expect(logs.lines.some((line) => line.includes(`/${P2}/stores?limit=1&password=[redacted]`))).toBe(true);
    // …but none of the secrets they carried.
    for (const [name, value] of Object.entries(secrets)) {
      const leaking = logs.lines.filter((line) => line.includes(value));
      expect(leaking, `${name} is in the logs`).toEqual([]);
    }
  });
});
