/**
 * HERALD_METRICS_PORT (issue 25): `/metrics` on its own listener at HOST:port, and then absent from
 * the public API port (404 in the spec's error shape, as any unknown route). Unset: on the API port.
 * Real sockets through `startHerald`, as `herald serve` runs.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startHerald, type RunningHerald } from '../../src/index.js';

const PROMETHEUS_TEXT = /^text\/plain; version=0\.0\.4/;

const BASE_ENV = { DATABASE_URL: 'pglite://memory', PORT: '0', LOG_LEVEL: 'silent', HERALD_PROJECTS: 'scraped', HERALD_DELIVERY: 'off' };

async function serve(env: Record<string, string>): Promise<RunningHerald> {
  return startHerald(loadConfig({ ...BASE_ENV, ...env }));
}

/** Resolves true when a TCP connection to the port is refused (nothing listens any more). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('HERALD_METRICS_PORT set', () => {
  let herald: RunningHerald;
  let stopped = false;
  beforeAll(async () => {
    herald = await serve({ HERALD_METRICS_PORT: '0' });
  }, 60_000);
  afterAll(async () => {
    if (!stopped) await herald.stop();
  });

  it('serves /metrics from the same registry on its own port', async () => {
    expect(herald.metricsPort).toEqual(expect.any(Number));
    expect(String(herald.metricsPort)).not.toBe(new URL(herald.url).port);
    // A request on the API port shows up in the API's request histogram on the metrics port.
    await fetch(`${herald.url}/healthz`);

    const response = await fetch(`http://127.0.0.1:${herald.metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(PROMETHEUS_TEXT);
    const text = await response.text();
    expect(text).toContain('herald_database_up 1');
    expect(text).toMatch(/herald_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} 1/);
  });

  it('takes /metrics off the API port: 404 in the spec error shape, like an unknown route', async () => {
    for (const url of [`${herald.url}/metrics`, `${herald.url}/no/such/route`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(404);
      expect(await response.json(), url).toEqual({
        statusCode: 404,
        message: expect.stringMatching(/^No endpoint for GET /),
        errors: [{ code: 'ResourceNotFound', message: expect.stringMatching(/^No endpoint for GET /) }],
      });
    }
  });

  it('answers other paths and methods on the metrics port 404 in the spec error shape', async () => {
    for (const [method, path] of [
      ['GET', '/healthz'],
      ['GET', '/scraped/stores'],
      ['POST', '/metrics'],
    ] as const) {
      const response = await fetch(`http://127.0.0.1:${herald.metricsPort}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toEqual({
        statusCode: 404,
        message: `No endpoint for ${method} ${path}.`,
        errors: [{ code: 'ResourceNotFound', message: `No endpoint for ${method} ${path}.` }],
      });
    }
  });

  it('closes the metrics listener when the server stops, an idle keep-alive scraper included', async () => {
    const port = herald.metricsPort as number;
    // fetch keeps this connection alive in its pool: stop() must not wait for it.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    stopped = true;
    await herald.stop();
    expect(await refused(port)).toBe(true);
  });
});

describe('HERALD_METRICS_PORT unset', () => {
  it('keeps /metrics on the API port, with no metrics listener', async () => {
    const herald = await serve({});
    try {
      expect(herald.metricsPort).toBeUndefined();
      const response = await fetch(`${herald.url}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(PROMETHEUS_TEXT);
      expect(await response.text()).toContain('herald_database_up 1');
    } finally {
      await herald.stop();
    }
  }, 60_000);

  it('is refused when it is not a port number', () => {
    expect(() => loadConfig({ ...BASE_ENV, HERALD_METRICS_PORT: '65536' })).toThrow(/HERALD_METRICS_PORT/);
    expect(() => loadConfig({ ...BASE_ENV, HERALD_METRICS_PORT: 'metrics' })).toThrow(/HERALD_METRICS_PORT/);
  });
});
