import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'socket';

/** The flows over a real TCP socket, with requests shaped as the official SDK sends them. */
describe('OAuth over a real socket', () => {
  let gateway: TestGateway;
  let base: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    base = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => gateway?.close());

  const basic = () => `Basic ${Buffer.from(`${gateway.bootstrapClient.id}:${gateway.bootstrapClient.secret}`).toString('base64')}`;

  it('issues, uses, introspects and revokes a token', async () => {
    const issued = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: basic(), 'Content-Type': 'application/x-www-form-urlencoded' },
      // As the SDK sends it: the scope value is not URL-encoded.
      body: `grant_type=client_credentials&scope=manage_project:${P} view_orders:${P}`,
    });
    expect(issued.status).toBe(200);
    const body = (await issued.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe(`manage_project:${P} view_orders:${P}`);

    const stores = await fetch(`${base}/${P}/stores`, { headers: { Authorization: `Bearer ${body.access_token}`, 'Content-Type': 'application/json' } });
    expect(stores.status).toBe(200);

    const introspected = await fetch(`${base}/oauth/introspect`, {
      method: 'POST',
      headers: { Authorization: basic(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: body.access_token }),
    });
    expect(await introspected.json()).toMatchObject({ active: true, client_id: gateway.bootstrapClient.id });

    const revoked = await fetch(`${base}/oauth/token/revoke`, {
      method: 'POST',
      headers: { Authorization: basic(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: body.access_token }),
    });
    expect(revoked.status).toBe(200);

    const after = await fetch(`${base}/${P}/stores`, { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await after.json()).toMatchObject({ statusCode: 401, errors: [{ code: 'invalid_token' }], error: 'invalid_token' });
  });
});
