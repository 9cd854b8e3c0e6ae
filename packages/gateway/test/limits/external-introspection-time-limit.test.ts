/**
 * §8 "External introspection time limit: 500 ms" (§5.7, §7): an endpoint that answers
 * well within 500 ms is honoured; one that answers (or finishes its body) after it is a 504
 * ExternalOAuthFailed in the error shape, not retried. (An endpoint that never answers would pass
 * with a much shorter or longer limit as well; these pin the limit from both sides.)
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, postJson, token } from '../oauth/helpers.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'limits-ext-time';

/**
 * Per token: how long to wait before the head, and before the (JSON) body ends; with `stall`, the
 * process is blocked (a loaded host) from `atMs` after the head for `forMs`.
 */
const plans = new Map<string, { headMs: number; bodyMs: number; stall?: { atMs: number; forMs: number } }>();
const calls = new Map<string, number>();

function handle(request: IncomingMessage, response: ServerResponse): void {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  request.on('end', () => {
    const name = new URLSearchParams(text).get('token') ?? '';
    calls.set(name, (calls.get(name) ?? 0) + 1);
    const plan = plans.get(name) ?? { headMs: 0, bodyMs: 0 };
    const body = JSON.stringify({ active: true, scope: `view_stores:${P}` });
    setTimeout(() => {
      if (response.destroyed) return;
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      response.write(body.slice(0, 5));
      if (plan.stall !== undefined) setTimeout(() => blockFor(plan.stall?.forMs ?? 0), plan.stall.atMs);
      setTimeout(() => {
        if (!response.destroyed) response.end(body.slice(5));
      }, plan.bodyMs);
    }, plan.headMs);
  });
}

/** Keeps the event loop busy, as a host whose cores are taken does: timers fall due meanwhile. */
function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe('§8 external introspection time limit (500 ms)', () => {
  const server = createServer(handle);
  let gateway: TestGateway;

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
    gateway = await startTestGateway({ projects: [P] });
    const admin = (await token(gateway, gateway.bootstrapClient, { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
    const version = (await get(gateway, `/${P}`, admin)).json().version as number;
    const configured = await postJson(gateway, `/${P}`, admin, {
      version,
      actions: [{ action: 'setExternalOAuth', externalOAuth: { url, authorizationHeader: 'Bearer introspection-credential' } }],
    });
    expect(configured.statusCode, configured.body).toBe(200);
  });
  afterAll(async () => {
    await gateway?.close();
    server.closeAllConnections();
    server.close();
  });

  it('honours an answer that arrives within the limit (250 ms)', async () => {
    plans.set('ext-250', { headMs: 200, bodyMs: 50 });
    const response = await get(gateway, `/${P}/stores`, 'ext-250');
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each([
    ['a head after 800 ms', 'ext-late-head', { headMs: 800, bodyMs: 0 }, 780],
    ['a head at once and the body after 800 ms', 'ext-late-body', { headMs: 0, bodyMs: 800 }, 780],
    // The limit's timer and the body's both fall due while the process is blocked (400 → 1,000 ms).
    ['the body after 800 ms while the process stalls', 'ext-stalled-body', { headMs: 0, bodyMs: 800, stall: { atMs: 400, forMs: 600 } }, 1_280],
  ])('answers %s with 504 ExternalOAuthFailed in the error shape, without a retry', async (_what, name, plan, withinMs) => {
    plans.set(name, plan);
    const started = Date.now();
    const response = await get(gateway, `/${P}/stores`, name);
    const elapsed = Date.now() - started;
    expect(response.statusCode, response.body).toBe(504);
    expect(response.json()).toMatchObject({
      statusCode: 504,
      message: expect.any(String),
      errors: [{ code: 'ExternalOAuthFailed', message: expect.any(String) }],
    });
    // Given up at about 500 ms (or as soon as a stalled process runs again), not after waiting for the endpoint.
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(withinMs);
    expect(calls.get(name)).toBe(1);
  });
});
