/**
 * The dashboards against a real Prometheus (Debian's `prometheus`, started on a loopback port with
 * a generated configuration and Herald's alert rules) scraping a real gateway (`herald serve`,
 * in-process delivery) and a real worker (`herald-delivery`) on PostgreSQL every second, with
 * subscriptions delivering to fauxqs: after traffic that delivers, fails (a queue deleted under a
 * subscription: configuration errors, retries), drops (that subscription deleted with
 * deliveries pending) and answers 503 (the gateway's database out of reach for two requests),
 * every expression of the delivery and HTTP dashboards returns series over the run, and the
 * per-subscription panels name subscriptions by key.
 *
 * Skipped, with the reason in its name, without `prometheus` on PATH (CI installs it) or PostgreSQL.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createIsolatedDatabase, freePort, postgresAvailable, startPostgres, startSqsPeer, type RunningService, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { herald, heraldDelivery, killIfRunning, type HeraldProcess } from '../support/processes.js';
import { startDatabaseProxy, type DatabaseProxy } from './support/database-proxy.js';
import { isRecord, readJson, repoPath } from './support/repository.js';

const prometheusVersion = await promisify(execFile)('prometheus', ['--version']).then(
  ({ stdout }) => stdout.split('\n')[0] ?? 'prometheus',
  () => undefined,
);
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const skipReason =
  prometheusVersion === undefined ? 'prometheus is not on PATH' : serverUrl === undefined && !postgresAvailable() ? 'no PostgreSQL' : undefined;
const title = `dashboards against a real Prometheus${skipReason === undefined ? ` (${prometheusVersion})` : ` (SKIPPED: ${skipReason})`}`;
if (skipReason !== undefined) console.warn(`[real-prometheus] ${title}`);

/** Dashboard variables as "All" selects them; `$__rate_interval` as Grafana makes it for a 1 s scrape. */
function asQueried(expression: string): string {
  return expression.replace(/\$__rate_interval/g, '10s').replace(/\$\{?(project|subscription|destination_type|route|instance)\}?/g, '.*');
}

interface Target {
  panel: string;
  expr: string;
}

function dashboardTargets(file: string): Target[] {
  const board = readJson('deploy/grafana/dashboards', file);
  if (!isRecord(board)) throw new Error(file);
  const panels = (board.panels ?? []) as { title: string; targets?: { expr: string }[]; panels?: unknown[] }[];
  return panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
}

/** The HTTP dashboard's panel with the expression of the HeraldHttpServerErrors alert. */
const SERVER_ERROR_PANEL = 'Server error ratio (5xx, as HeraldHttpServerErrors counts it)';

let cluster: RunningService | undefined;
let isolated: { url: string; drop(): Promise<void> } | undefined;
let sqs: SqsPeer | undefined;
let databaseProxy: DatabaseProxy | undefined;
const processes: HeraldProcess[] = [];
let prometheus: ChildProcess | undefined;
let work: string | undefined;

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  for (const process of processes) killIfRunning(process);
  await Promise.all(processes.map((process) => process.exited));
  await sqs?.stop();
  await databaseProxy?.close();
  await isolated?.drop();
  await cluster?.stop();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(skipReason !== undefined)(title, () => {
  let api: string;
  let prometheusUrl: string;
  let token: string;
  let started: number;

  beforeAll(async () => {
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
    sqs = await startSqsPeer();
    // The gateway reaches the database through a relay the test can cut; the worker directly.
    databaseProxy = await startDatabaseProxy(isolated.url);
    const common = { DATABASE_URL: isolated.url, HERALD_SQS_ENDPOINT: sqs.endpoint, HERALD_DELIVERY_GAUGE_REFRESH_MS: '500' };
    const gateway = herald(['serve'], {
      ...common,
      DATABASE_URL: databaseProxy.url,
      PORT: '0',
      HERALD_PROJECTS: 'shop',
      HERALD_BOOTSTRAP_CLIENT: 'ops-test:ops-test-secret',
      HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS: '200',
    });
    const worker = heraldDelivery({ ...common, PORT: '0', HERALD_DELIVERY_HOST: '127.0.0.1', HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS: '200' });
    processes.push(gateway, worker);
    await Promise.all([gateway.waitFor('herald gateway listening'), worker.waitFor('listening for /metrics and /healthz')]);
    api = (
      JSON.parse(
        gateway
          .stdout()
          .split('\n')
          .find((line) => line.includes('herald gateway listening')) as string,
      ) as { address: string }
    ).address;
    const workerPort = (
      JSON.parse(
        worker
          .stdout()
          .split('\n')
          .find((line) => line.includes('listening for /metrics')) as string,
      ) as { port: number }
    ).port;

    work = mkdtempSync(join(tmpdir(), 'herald-prometheus-'));
    const config = join(work, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: [${JSON.stringify(repoPath('deploy/prometheus/alerts.yml'))}]`,
        'scrape_configs:',
        `  - { job_name: herald-gateway, static_configs: [{ targets: ["${new URL(api).host}"] }] }`,
        `  - { job_name: herald-delivery, static_configs: [{ targets: ["127.0.0.1:${workerPort}"] }] }`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [`--config.file=${config}`, `--storage.tsdb.path=${join(work, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    started = Date.now() / 1000;
    await until(async () => (await fetch(`${prometheusUrl}/-/ready`).catch(() => undefined))?.status === 200, 'Prometheus ready');
    token = await accessToken();
  }, 120_000);

  async function accessToken(): Promise<string> {
    const response = await fetch(`${api}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('ops-test:ops-test-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'manage_project:shop' }).toString(),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  async function subscribe(key: string): Promise<void> {
    const queueUrl = sqs!.createQueue(`shop-${key}`);
    const created = await call('POST', '/shop/subscriptions', {
      key,
      destination: { type: 'SQS', queueUrl, accessKey: 'test', accessSecret: 'test', region: sqs!.region },
      changes: [{ resourceTypeId: 'store' }],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
  }

  let stores = 0;
  async function writeStores(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const created = await call('POST', '/shop/stores', { key: `store-${++stores}`, name: { en: `Store ${stores}` } });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
    }
  }

  type Series = { metric: Record<string, string>; values: [number, string][] };

  async function queryRange(expr: string): Promise<Series[]> {
    const params = new URLSearchParams({ query: expr, start: String(started), end: String(Date.now() / 1000), step: '1' });
    const response = await fetch(`${prometheusUrl}/api/v1/query_range?${params}`);
    const body = (await response.json()) as { status: string; error?: string; data?: { result: Series[] } };
    if (body.status !== 'success') throw new Error(`${expr}: ${body.error ?? response.status}`);
    return body.data?.result ?? [];
  }

  async function query(expr: string): Promise<number> {
    const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query: expr })}`);
    const body = (await response.json()) as { data?: { result: { value: [number, string] }[] } };
    return Number(body.data?.result[0]?.value[1] ?? Number.NaN);
  }

  it('every expression of the delivery and HTTP dashboards returns series after the traffic it describes', { timeout: 180_000 }, async () => {
    await subscribe('orders');
    await subscribe('audit');
    await writeStores(5);
    // Delivered, counted per subscription by key and scraped.
    await until(async () => (await query('sum(herald_deliveries_total{project="shop", subscription="audit", outcome="delivered"})')) >= 5, 'audit delivered');
    await until(async () => (await query('sum(herald_deliveries_total{project="shop", subscription="orders", outcome="delivered"})')) >= 5, 'orders delivered');

    // The audit queue is deleted: configuration errors, retries, a backlog, ConfigurationError.
    sqs!.fauxqs.deleteQueue('shop-audit');
    await writeStores(3);
    await until(async () => (await query('sum(herald_delivery_retries_total{subscription="audit", failure_class="configuration"})')) > 0, 'audit retried');
    await until(
      async () => (await query('max(herald_subscription_health{subscription="audit", status="ConfigurationError"})')) === 1,
      'audit in ConfigurationError',
    );
    await until(async () => (await query('max(herald_deliveries_pending{subscription="audit"})')) > 0, 'audit backlog scraped');

    // Deleted with deliveries pending: dropped (SubscriptionDeleted), counted by the gateway under its key.
    const audit = await call('GET', '/shop/subscriptions/key=audit');
    expect((await call('DELETE', `/shop/subscriptions/key=audit?version=${String(audit.json.version)}`)).status).toBe(200);
    await until(async () => (await query('sum(herald_deliveries_dropped_total{subscription="audit", reason="SubscriptionDeleted"})')) > 0, 'audit drops');

    // The gateway's database out of reach (its network cut; the worker keeps its own): API requests
    // answer 503 OverCapacity, a server error HeraldHttpServerErrors counts. Two of them, each
    // scraped before the next, so that rate() sees the counter grow and not only appear.
    await databaseProxy!.cut();
    for (const scraped of [1, 2]) {
      const outage = await call('GET', '/shop/stores/key=store-1');
      expect(outage.status, JSON.stringify(outage.json)).toBe(503);
      expect(outage.json.errors).toEqual([expect.objectContaining({ code: 'OverCapacity' })]);
      await until(
        async () => (await query(`sum(herald_http_request_duration_seconds_count{route!~"/metrics|/healthz|/readyz", status_code="503"})`)) >= scraped,
        `503 number ${scraped} scraped`,
      );
    }
    await databaseProxy!.restore();
    await until(async () => (await call('GET', '/shop/stores/key=store-1')).status === 200, 'the gateway serves again');
    // Enough samples after the last event for rate() and increase() over 10 s.
    await new Promise((done) => setTimeout(done, 12_000));

    const empty: string[] = [];
    for (const file of ['herald-delivery.json', 'herald-http.json']) {
      for (const target of dashboardTargets(file)) {
        const series = await queryRange(asQueried(target.expr));
        if (series.length === 0) empty.push(`${file} "${target.panel}": ${target.expr}`);
      }
    }
    expect(empty).toEqual([]);
    // The 5xx panel shows the errors (a ratio above 0), not only a series of zeros.
    const [serverErrors] = dashboardTargets('herald-http.json').filter((target) => target.panel === SERVER_ERROR_PANEL);
    const ratios = (await queryRange(asQueried(serverErrors!.expr)))
      .flatMap((series) => series.values.map(([, value]) => Number(value)))
      .filter(Number.isFinite);
    expect(Math.max(...ratios)).toBeGreaterThan(0);

    // Keys, not UUIDs, on the per-subscription panels.
    const perSubscription = await queryRange('sum by (subscription) (herald_delivery_attempts_total{project="shop"})');
    expect(perSubscription.map((series) => series.metric.subscription).sort()).toEqual(['audit', 'orders']);
    // Both processes report the database up, one worker each, and build info.
    await until(async () => (await query('count(herald_database_up == 1)')) === 2, 'both processes report the database up again');
    expect(await query('sum(herald_delivery_workers)')).toBe(2);
    expect(await query('count(herald_build_info)')).toBe(2);
  });
});

async function until(condition: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`timed out waiting for: ${what}`);
}
