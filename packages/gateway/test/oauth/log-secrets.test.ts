import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCustomer, get, postForm, postJson, token, type Client } from './helpers.js';
import { IntrospectionServer } from './introspection-server.js';

const P = 'logs';

/** Collects every log line the gateway writes. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
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
    const customer = await token(
      gateway,
      client,
      { grant_type: 'password', username: 'logged@example.com', password },
      `/oauth/${P}/customers/token`,
    );
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
