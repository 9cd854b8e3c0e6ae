import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox, MIN_SECRET_KEY_LENGTH } from '../../src/secrets/secret-box.js';
import { LOG_LEVELS, parseWorkerConfig, WORKER_VARIABLES, WorkerConfigError } from '../../src/worker/config.js';
import { startWorkerHttp } from '../../src/worker/http.js';
import { silentLogger } from '../engine/support.js';

describe('herald-delivery configuration', () => {
  it('has defaults for everything', () => {
    const config = parseWorkerConfig({});
    expect(config).toMatchObject({
      port: 9464,
      routeBatchSize: 500,
      sendBatchSize: 100,
      maxLeasesInFlight: 8,
      leaseMs: 30_000,
      sendTimeoutMs: 10_000,
      listen: true,
      destinations: { allowInsecureConnections: false },
    });
    expect(Object.isFrozen(config.destinations)).toBe(true);
  });

  it('reads the variables it documents', () => {
    const config = parseWorkerConfig({
      DATABASE_URL: 'postgres://db/herald',
      PORT: '9999',
      HERALD_DELIVERY_SEND_BATCH: '50',
      HERALD_DELIVERY_LISTEN: 'off',
      HERALD_SQS_ENDPOINT: 'http://127.0.0.1:4566',
      HERALD_DELIVERY_LEASE_MS: '5000',
      HERALD_DELIVERY_SEND_TIMEOUT_MS: '2000',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://db/herald',
      port: 9999,
      sendBatchSize: 50,
      listen: false,
      leaseMs: 5_000,
      sendTimeoutMs: 2_000,
      destinations: { endpoints: { sqs: 'http://127.0.0.1:4566' } },
    });
    expect(WORKER_VARIABLES.map((v) => v.name)).toEqual(expect.arrayContaining(['DATABASE_URL', 'PORT', 'LOG_LEVEL']));
  });

  it('rejects unknown delivery variables, bad numbers and a lease shorter than a send', () => {
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_SEND_BACH: '5' })).toThrow(WorkerConfigError);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_SEND_BATCH: 'lots' })).toThrow(/HERALD_DELIVERY_SEND_BATCH/);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_LISTEN: 'yes' })).toThrow(/on.*off/);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_LEASE_MS: '5000', HERALD_DELIVERY_SEND_TIMEOUT_MS: '5000' })).toThrow(/LEASE/);
  });

  it('reads how often the scrape-time gauges may be read from the database (HERALD_DELIVERY_GAUGE_REFRESH_MS)', () => {
    expect(parseWorkerConfig({}).gaugeRefreshMs).toBe(10_000);
    expect(WORKER_VARIABLES.find((v) => v.name === 'HERALD_DELIVERY_GAUGE_REFRESH_MS')?.default).toBe('10000');
    expect(parseWorkerConfig({ HERALD_DELIVERY_GAUGE_REFRESH_MS: '0' }).gaugeRefreshMs).toBe(0);
    expect(parseWorkerConfig({ HERALD_DELIVERY_GAUGE_REFRESH_MS: '60000' }).gaugeRefreshMs).toBe(60_000);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_GAUGE_REFRESH_MS: '-1' })).toThrow(/HERALD_DELIVERY_GAUGE_REFRESH_MS/);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_GAUGE_REFRESH_MS: '300001' })).toThrow(/from 0 to 300000/);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_GAUGE_REFRESH_MS: '10s' })).toThrow(WorkerConfigError);
  });

  it("accepts only pino's log levels", () => {
    expect(parseWorkerConfig({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(parseWorkerConfig({ LOG_LEVEL: '' }).logLevel).toBe('info');
    expect(() => parseWorkerConfig({ LOG_LEVEL: 'verbose' })).toThrow(WorkerConfigError);
    expect(() => parseWorkerConfig({ LOG_LEVEL: 'verbose' })).toThrow(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "verbose")`);
  });

  it('refuses a HERALD_SECRET_KEY the secret box would refuse, without echoing it', () => {
    const short = 'x'.repeat(MIN_SECRET_KEY_LENGTH - 1);
    expect(() => parseWorkerConfig({ HERALD_SECRET_KEY: short })).toThrow(WorkerConfigError);
    expect(() => parseWorkerConfig({ HERALD_SECRET_KEY: short })).toThrow(/^HERALD_SECRET_KEY must be at least 16 characters \(got 15\)$/);
    expect(() => new AesGcmSecretBox(short)).toThrow(/HERALD_SECRET_KEY/);
    const key = 'k'.repeat(MIN_SECRET_KEY_LENGTH);
    expect(parseWorkerConfig({ HERALD_SECRET_KEY: key }).secretKey).toBe(key);
    expect(new AesGcmSecretBox(key).open(new AesGcmSecretBox(key).seal('s'))).toBe('s');
    expect(parseWorkerConfig({ HERALD_SECRET_KEY: '' }).secretKey).toBeUndefined();
  });
});

describe('herald-delivery HTTP surface', () => {
  it('serves /metrics from the injected registry and /healthz from the worker state', async () => {
    const registry = new Registry();
    registry.registerMetric(new (await import('prom-client')).Counter({ name: 'herald_probe_total', help: 'probe', registers: [] }));
    let healthy = true;
    const server = await startWorkerHttp({ registry, healthy: () => healthy, logger: silentLogger }, { port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('herald_probe_total 0');
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      healthy = false;
      expect((await fetch(`${base}/healthz`)).status).toBe(503);
      expect((await fetch(`${base}/other`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
