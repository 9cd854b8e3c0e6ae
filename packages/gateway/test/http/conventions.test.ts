import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

/** The HTTP conventions of §4.4, §7 and §8 that every route shares. */
describe('HTTP conventions', () => {
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: ['conv'] });
    token = await tokenFor(gateway, 'conv', ['manage_stores']);
  });
  afterAll(() => gateway.close());

  const errorShape = (body: unknown, statusCode: number, code: string) => {
    expect(body).toMatchObject({ statusCode, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
  };

  it('answers unknown routes with 404 in the error shape', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/conv/no-such-thing/abc', headers: bearer(token) });
    expect(response.statusCode).toBe(404);
    errorShape(response.json(), 404, 'ResourceNotFound');
  });

  it('answers an unknown project with 404', async () => {
    const other = await tokenFor(gateway, 'conv', ['manage_project']);
    const response = await gateway.app.inject({ method: 'GET', url: '/conv', headers: bearer(other) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ key: 'conv', version: 1 });
  });

  it('rejects malformed JSON with 400 InvalidJsonInput', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/conv/stores',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"key": "a",',
    });
    expect(response.statusCode).toBe(400);
    errorShape(response.json(), 400, 'InvalidJsonInput');
  });

  it('rejects a POST that is not application/json with a 4xx in the error shape', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/conv/stores',
      headers: { ...bearer(token), 'content-type': 'text/plain' },
      payload: 'key=a',
    });
    expect(response.statusCode).toBe(415);
    errorShape(response.json(), 415, 'InvalidInput');
  });

  it('echoes a valid X-Correlation-ID and generates one otherwise', async () => {
    const echoed = await gateway.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-correlation-id': 'my-trace_0001' } });
    expect(echoed.headers['x-correlation-id']).toBe('my-trace_0001');
    const generated = await gateway.app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-correlation-id']).toMatch(/^[A-Za-z0-9_-]{8,256}$/);
  });

  it.each(['short', 'has space in it', 'x'.repeat(257), 'bad/char+s!'])('rejects the correlation id %j with 400', async (id) => {
    const response = await gateway.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-correlation-id': id } });
    expect(response.statusCode).toBe(400);
    errorShape(response.json(), 400, 'InvalidInput');
    expect(response.headers['x-correlation-id']).toMatch(/^[A-Za-z0-9_-]{8,256}$/);
  });

  it('blocks URL plus headers over 15 KB', async () => {
    const response = await gateway.app.inject({
      method: 'GET',
      url: '/conv/stores',
      headers: { ...bearer(token), 'x-padding': 'p'.repeat(16 * 1024) },
    });
    expect(response.statusCode).toBe(431);
    errorShape(response.json(), 431, 'InvalidInput');
  });

  it('blocks a body on GET and DELETE, and an Upgrade header', async () => {
    const get = await gateway.app.inject({
      method: 'GET',
      url: '/conv/stores',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(get.statusCode).toBe(400);
    const del = await gateway.app.inject({
      method: 'DELETE',
      url: '/conv/stores/key=x?version=1',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"a":1}',
    });
    expect(del.statusCode).toBe(400);
    const upgrade = await gateway.app.inject({
      method: 'GET',
      url: '/conv/stores',
      headers: { ...bearer(token), connection: 'upgrade', upgrade: 'websocket' },
    });
    expect(upgrade.statusCode).toBe(400);
    errorShape(upgrade.json(), 400, 'InvalidInput');
  });

  it('accepts the SDK habit of Content-Type: application/json on a GET without a body', async () => {
    const response = await gateway.app.inject({
      method: 'GET',
      url: '/conv/stores',
      headers: { ...bearer(token), 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers an oversized body with 413', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/conv/stores',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ key: 'big', name: { en: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(response.statusCode).toBe(413);
    errorShape(response.json(), 413, 'RequestEntityTooLarge');
  });

  it('serves health, readiness and Prometheus metrics with request-duration histograms', async () => {
    expect((await gateway.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await gateway.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    await gateway.app.inject({ method: 'GET', url: '/conv/stores', headers: bearer(token) });
    const metrics = await gateway.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toContain('herald_http_request_duration_seconds_bucket{');
    expect(metrics.body).toContain('route="/:projectKey/stores"');
  });
});
