/**
 * Secrets are never logged and destination secrets are partially hidden (§2.4): deliveries that fail at the destination
 * AFTER the subscription was created (the credentials are refused by the worker's sends, not by the
 * test notification), all the way to ConfigurationErrorDeliveryStopped and dropped deliveries, with
 * the default configuration (no HERALD_SECRET_KEY: secrets stored as given). The gateway and its
 * in-process worker log at trace into memory.
 *
 * Checked: no log line, no row of the delivery tables (outbox, deliveries, subscription_health,
 * dropped_deliveries, messages) and no answer of the delivery endpoints (delivery-status, dropped,
 * health, /metrics) nor of the subscription itself holds a destination secret. A refused
 * changeDestination is checked too.
 */
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { startEventGridPeer, startServiceBusPeer, type EventGridPeer, type ServiceBusPeer } from '@herald/testkit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { bearer, startTestGateway, tokenFor, type TestDelivery, type TestGateway } from '../support/gateway.js';

const P = 'failing-dest';
const HOUR = 3_600_000;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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

describe('failed deliveries at destinations with credentials leak no secret', { timeout: 60_000 }, () => {
  const logs = new LogCapture();
  const clock = new ManualClock('2025-06-01T08:00:00.000Z');
  const answers: string[] = [];
  let serviceBus: ServiceBusPeer;
  let eventGrid: EventGridPeer;
  let gateway: TestGateway;
  let token: string;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    [serviceBus, eventGrid] = await Promise.all([startServiceBusPeer(), startEventGridPeer()]);
    secrets.set('Service Bus SharedAccessKey', serviceBus.key);
    secrets.set('Event Grid accessKey', eventGrid.accessKey);
    gateway = await startTestGateway({
      projects: [P],
      clock,
      logger: pino({ level: 'trace' }, logs),
      config: { oauth: { accessTokenTtlSeconds: 31_536_000 } },
      delivery: { worker: { leaseMs: 30 * 24 * HOUR } },
    });
    token = await tokenFor(gateway, P, ['manage_project']);
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([serviceBus?.stop(), eventGrid?.stop()]);
  });

  async function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Json): Promise<{ status: number; body: Json }> {
    const response = await gateway.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
    answers.push(`${method} ${url} ${response.statusCode} ${response.body}`);
    const json = String(response.headers['content-type'] ?? '').startsWith('application/json') && response.body !== '';
    return { status: response.statusCode, body: json ? (response.json() as Json) : {} };
  }

  it('goes from refused sends to ConfigurationErrorDeliveryStopped and dropped deliveries', async () => {
    const project = await call('GET', `/${P}`);
    expect(
      (await call('POST', `/${P}`, { version: project.body.version, actions: [{ action: 'changeEnvironment', environment: 'development' }] })).status,
    ).toBe(200);
    serviceBus.createEntity('failing-queue');
    const onStores = { changes: [{ resourceTypeId: 'store' }] };
    const bus = await call('POST', `/${P}/subscriptions`, {
      destination: { type: 'ProviderBServiceBus', connectionString: serviceBus.connectionString('failing-queue') },
      ...onStores,
    });
    const grid = await call('POST', `/${P}/subscriptions`, {
      destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey },
      format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
      ...onStores,
    });
    expect([bus.status, grid.status]).toEqual([201, 201]);

    // The keys are revoked at the destinations: every send from now on is refused.
    serviceBus.faults.inject({ kind: 'bad-credentials' });
    eventGrid.faults.inject({ kind: 'bad-credentials' });
    expect((await call('POST', `/${P}/stores`, { key: 'fail-1', name: { en: 'x' } })).status).toBe(201);
    const delivery = gateway.delivery as TestDelivery;
    await vi.waitFor(
      async () => {
        for (const id of [bus.body.id, grid.body.id]) expect((await call('GET', `/${P}/subscriptions/${id}`)).body.status).toBe('ConfigurationError');
      },
      { timeout: 20_000, interval: 50 },
    );
    // The development window (1 h) elapses: delivery stops and what is pending is dropped.
    clock.advance(2 * HOUR);
    delivery.worker.wake();
    await delivery.worker.engine.maintenance.runOnce();
    await vi.waitFor(
      async () => {
        for (const id of [bus.body.id, grid.body.id]) {
          const dropped = await call('GET', `/${P}/subscriptions/${id}/dropped?withTotal=true`);
          expect(dropped.body.total).toBeGreaterThan(0);
        }
      },
      { timeout: 20_000, interval: 50 },
    );

    // A changeDestination to a key the destination refuses: the 400 must not echo it.
    const refusedKey = randomBytes(32).toString('base64');
    secrets.set('refused Event Grid key', refusedKey);
    eventGrid.faults.clear();
    const current = await call('GET', `/${P}/subscriptions/${grid.body.id}`);
    const refused = await call('POST', `/${P}/subscriptions/${grid.body.id}`, {
      version: current.body.version,
      actions: [{ action: 'changeDestination', destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: refusedKey } }],
    });
    expect(refused.status).toBe(400);

    for (const id of [bus.body.id, grid.body.id]) {
      await call('GET', `/${P}/subscriptions/${id}/delivery-status`);
      await call('GET', `/${P}/subscriptions/${id}/health`);
      await call('GET', `/${P}/subscriptions?where=${encodeURIComponent(`id="${id}"`)}`);
    }
    await call('GET', '/metrics');
    const stopped = (await call('GET', `/${P}/subscriptions/${bus.body.id}/dropped`)).body.results as Json[];
    expect(stopped[0]?.reason).toBe('ConfigurationErrorDeliveryStopped');
    expect(stopped[0]?.error?.code).toBeDefined();
  });

  it('no log line holds a destination secret (and the failures were logged)', () => {
    const text = logs.lines.join('\n');
    expect(text).toContain('delivery attempts failed');
    expect(text).toContain('subscription health changed');
    const leaks = [...secrets].flatMap(([name, value]) => logs.lines.filter((line) => line.includes(value)).map((line) => `${name}: ${line.slice(0, 300)}`));
    expect(leaks).toEqual([]);
  });

  it('no answer holds a full destination secret', () => {
    const leaks = [...secrets].flatMap(([name, value]) =>
      answers.filter((answer) => answer.includes(value)).map((answer) => `${name}: ${answer.slice(0, 300)}`),
    );
    expect(leaks).toEqual([]);
  });

  it('no row of the delivery and message tables holds a destination secret', async () => {
    const leaks: string[] = [];
    for (const table of ['outbox', 'deliveries', 'subscription_health', 'dropped_deliveries', 'messages', 'subscription_routes']) {
      const rows = await gateway.db.query<{ row: string }>(`SELECT t::text AS row FROM ${table} t`);
      for (const { row } of rows.rows) for (const [name, value] of secrets) if (row.includes(value)) leaks.push(`${name} in ${table}: ${row.slice(0, 300)}`);
    }
    expect((await gateway.db.query('SELECT 1 FROM dropped_deliveries')).rows.length).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });
});
