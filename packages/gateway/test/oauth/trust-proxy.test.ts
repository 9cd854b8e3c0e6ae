import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/index.js';
import { ManualClock } from '../support/clock.js';
import { basicAuth, startTestGateway, type TestGateway } from '../support/gateway.js';
import { createClient, FORM } from './helpers.js';

const P = 'proxied';
const LOAD_BALANCER = '10.1.2.3';

describe('HERALD_TRUST_PROXY', () => {
  it('reads false, true, a hop count, or addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ HERALD_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ HERALD_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ HERALD_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ HERALD_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
  });

  it('refuses anything else at start, naming the variable', () => {
    for (const bad of ['yes', '10.0.0.0/33', 'lb.internal', '10.0.0.1/8/9', '::1/129', '101']) {
      expect(() => loadConfig({ HERALD_TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ HERALD_TRUST_PROXY: bad }), bad).toThrow(/HERALD_TRUST_PROXY/);
    }
  });
});

describe('token request limits behind a trusted load balancer (§5.9)', () => {
  const clock = new ManualClock();
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({
      projects: [P],
      clock,
      config: { trustProxy: [LOAD_BALANCER], oauth: { tokenRateLimitPerMinute: 3 } },
    });
  });
  afterAll(async () => gateway?.close());

  const attempt = (clientId: string, secret: string, forwardedFor: string, remoteAddress = LOAD_BALANCER) =>
    gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress,
      headers: { ...basicAuth(clientId, secret), ...FORM, 'x-forwarded-for': forwardedFor },
      payload: 'grant_type=client_credentials',
    });

  it('charges failed attempts to the forwarded client address, not to the load balancer', async () => {
    const victim = await createClient(gateway, P, `view_stores:${P}`);
    for (let i = 0; i < 3; i++) expect((await attempt(victim.id, `wrong-${i}`, '198.51.100.9')).statusCode).toBe(401);
    expect((await attempt(victim.id, 'wrong-3', '198.51.100.9')).statusCode).toBe(429);
    // Every caller reaches Herald from the load balancer's address: the victim, elsewhere, is not limited.
    expect((await attempt(victim.id, victim.secret, '192.0.2.44')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from an address it does not trust', async () => {
    clock.advance(60_000);
    const target = await createClient(gateway, P, `view_stores:${P}`);
    // A direct caller rotating forged X-Forwarded-For values is still one address.
    for (let i = 0; i < 3; i++) expect((await attempt(target.id, `wrong-${i}`, `198.51.100.${i}`, '203.0.113.5')).statusCode).toBe(401);
    expect((await attempt(target.id, 'wrong-3', '198.51.100.200', '203.0.113.5')).statusCode).toBe(429);
  });
});

describe('a hop count: the address one hop in front of the proxy is the client', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P], config: { trustProxy: 1, oauth: { tokenRateLimitPerMinute: 2 } } });
  });
  afterAll(async () => gateway?.close());

  it('limits per forwarded address, whatever the client wrote further left in the header', async () => {
    const client = await createClient(gateway, P, `view_stores:${P}`);
    const attempt = (forwardedFor: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress: LOAD_BALANCER,
        headers: { ...basicAuth(client.id, 'wrong'), ...FORM, 'x-forwarded-for': forwardedFor },
        payload: 'grant_type=client_credentials',
      });
    // The balancer appends the address it saw; what the client sent before it is not believed.
    for (let i = 0; i < 2; i++) expect((await attempt(`10.9.9.${i}, 198.51.100.1`)).statusCode).toBe(401);
    expect((await attempt('10.9.9.99, 198.51.100.1')).statusCode).toBe(429);
    expect((await attempt('198.51.100.2')).statusCode).toBe(401);
  });
});
