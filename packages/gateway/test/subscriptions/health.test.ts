import { startEventBridgePeer, startSqsPeer, type EventBridgePeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startEventBridgePartnerShim, type EventBridgePartnerShim } from '../compat/eventbridge-partner-shim.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestDelivery, type TestGateway } from '../support/gateway.js';
import {
  EVENTBRIDGE_CREDENTIALS,
  eventually,
  expectTestNotification,
  healthOf,
  labels,
  REGION,
  sqsDestination,
  sqsDocuments,
  subscriptionOf,
  waitForHealth,
  WAIT_MS,
} from './support.js';

const TEMPORARY = 'health-temporary';
const DEVELOPMENT = 'health-development';
const PRODUCTION = 'health-production';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Issue 5, §3.3 health and §6.2 retry windows over HTTP: the gateway and its in-process worker
 * share one ManualClock, so retries become due, and windows elapse, only when the test moves it.
 * The worker's loops poll in real time (a few ms); the test waits on the peers and on the API.
 *
 * The scenarios run in order on one clock: each ends with nothing pending before the next moves it.
 */
describe('Subscription health and delivery windows', { timeout: 60_000 }, () => {
  const clock = new ManualClock('2025-06-01T08:00:00.000Z');
  let sqs: SqsPeer;
  let eventBridge: EventBridgePeer;
  let eventBridgeShim: EventBridgePartnerShim;
  let gateway: TestGateway;
  let delivery: TestDelivery;

  beforeAll(async () => {
    [sqs, eventBridge] = await Promise.all([
      startSqsPeer({ region: REGION }),
      startEventBridgePeer({ accessKeyId: EVENTBRIDGE_CREDENTIALS.accessKeyId, partnerEventSources: [] }),
    ]);
    eventBridgeShim = await startEventBridgePartnerShim(eventBridge);
    gateway = await startTestGateway({
      projects: [TEMPORARY, DEVELOPMENT, PRODUCTION],
      clock,
      // Tokens must outlive the windows this suite moves the clock through.
      config: { oauth: { accessTokenTtlSeconds: 31_536_000 } },
      delivery: {
        environment: {
          endpoints: { sqs: sqs.endpoint, eventBridge: eventBridgeShim.endpoint },
          // The shim answers CreatePartnerEventSource for the peer, which models PutPartnerEvents only.
          eventBridge: { credentials: EVENTBRIDGE_CREDENTIALS, createPartnerEventSources: true },
          timeouts: { sendMs: 10_000 },
        },
        // Leases follow the clock too: longer than any jump below, so that moving the clock never
        // expires the lease of a send in flight (which would send it twice, at-least-once).
        worker: { leaseMs: 30 * 24 * HOUR },
      },
    });
    delivery = gateway.delivery as TestDelivery;
  });

  afterAll(async () => {
    await gateway?.close();
    await eventBridgeShim?.stop();
    await Promise.all([sqs?.stop(), eventBridge?.stop()]);
  });

  async function callerFor(projectKey: string): Promise<Caller> {
    return callerWith(gateway, projectKey, ['manage_subscriptions', 'manage_stores', 'manage_project_settings']);
  }

  /** Moves the shared clock and lets the worker look at once (retries due, windows elapsed). */
  async function advance(ms: number): Promise<void> {
    clock.advance(ms);
    delivery.worker.wake();
    await delivery.worker.engine.maintenance.runOnce();
  }

  /**
   * Moves the clock step by step until `condition` holds. A send still in flight when the clock
   * moved records its retry relative to the new time, so a single jump may leave it in the future.
   */
  async function advanceUntil(stepMs: number, condition: () => Promise<void> | void): Promise<void> {
    await eventually(async () => {
      await advance(stepMs);
      await condition();
    });
  }

  async function deliveryStatus(api: Caller, projectKey: string, id: string): Promise<Json> {
    return api.read(`/${projectKey}/subscriptions/${id}/delivery-status`);
  }

  async function createStore(api: Caller, projectKey: string, key: string): Promise<Json> {
    return api.ok(`/${projectKey}/stores`, { key, languages: ['en'] }, 201);
  }

  it('an outage gives TemporaryError (503); after recovery everything pending is delivered (200)', async () => {
    const api = await callerFor(TEMPORARY);
    const subscription = await api.ok(
      `/${TEMPORARY}/subscriptions`,
      { key: 'outage', destination: { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' }, changes: [{ resourceTypeId: 'store' }] },
      201,
    );
    expectTestNotification((await eventBridge.waitFor(1, WAIT_MS))[0]?.Detail as Json, TEMPORARY, subscription);
    expect((await healthOf(gateway, TEMPORARY, subscription.id)).status).toBe(200);

    eventBridge.faults.inject({ kind: 'server-error' });
    const first = await createStore(api, TEMPORARY, 'outage-1');
    await waitForHealth(gateway, TEMPORARY, subscription.id, 503);
    expect((await subscriptionOf(api, TEMPORARY, subscription.id)).status).toBe('TemporaryError');
    // Health changes never bump the version (ARCHITECTURE.md invariants).
    expect((await subscriptionOf(api, TEMPORARY, subscription.id)).version).toBe(1);
    const second = await createStore(api, TEMPORARY, 'outage-2');
    await eventually(async () => {
      const status = await deliveryStatus(api, TEMPORARY, subscription.id);
      expect(status).toMatchObject({ pendingCount: 2, lastError: { class: 'temporary' } });
    });
    expect(eventBridge.received).toHaveLength(1);

    // Recovery: the destination answers again; the retries become due when the clock moves.
    eventBridge.faults.clear();
    await advanceUntil(MINUTE, () => expect(eventBridge.received).toHaveLength(3));
    const arrived = eventBridge.received;
    expect(labels(arrived.slice(1).map((event) => event.Detail as Json))).toEqual(
      [`store:${first.id}:ResourceCreated:1`, `store:${second.id}:ResourceCreated:1`].sort(),
    );
    await waitForHealth(gateway, TEMPORARY, subscription.id, 200);
    expect((await subscriptionOf(api, TEMPORARY, subscription.id)).status).toBe('Healthy');
    await eventually(async () => expect(await deliveryStatus(api, TEMPORARY, subscription.id)).toMatchObject({ pendingCount: 0 }));
    expect((await api.read(`/${TEMPORARY}/subscriptions/${subscription.id}/dropped?withTotal=true`)).total).toBe(0);
  });

  it('a deleted queue: ConfigurationError (400), stopped after 1 h in development, dropped, then changeDestination and replay', async () => {
    const api = await callerFor(DEVELOPMENT);
    const project = await api.read(`/${DEVELOPMENT}`);
    const changed = await api.update(`/${DEVELOPMENT}`, project.version, [{ action: 'changeEnvironment', environment: 'development' }]);
    expect(changed.environment).toBe('development');

    const oldQueue = sqs.createQueue('dev-old');
    const subscription = await api.ok(
      `/${DEVELOPMENT}/subscriptions`,
      {
        key: 'dev-orders',
        destination: sqsDestination(oldQueue),
        changes: [{ resourceTypeId: 'store' }],
        messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }],
      },
      201,
    );
    await sqs.waitForMessages(oldQueue, 1, WAIT_MS);
    const url = `/${DEVELOPMENT}/subscriptions/${subscription.id}`;

    sqs.fauxqs.deleteQueue('dev-old', { region: REGION });
    const first = await createStore(api, DEVELOPMENT, 'dev-1');
    await waitForHealth(gateway, DEVELOPMENT, subscription.id, 400);
    expect((await api.read(url)).status).toBe('ConfigurationError');
    const failing = await deliveryStatus(api, DEVELOPMENT, subscription.id);
    expect(failing).toMatchObject({ pendingCount: 2, lastError: { class: 'configuration' } });
    expect(failing.lastError.code).toMatch(/QueueDoesNotExist|NonExistentQueue/);

    // Retries within the window keep failing, and the window has not elapsed yet.
    await advance(59 * MINUTE);
    expect((await api.read(url)).status).toBe('ConfigurationError');
    expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(0);

    // §3.3: after 1 hour (development) delivery stops and what was undelivered is dropped.
    // (By the last retry, due at the window's end, or by the sweep: whichever comes first.)
    await advance(2 * MINUTE);
    await eventually(async () => expect((await api.read(url)).status).toBe('ConfigurationErrorDeliveryStopped'));
    expect((await healthOf(gateway, DEVELOPMENT, subscription.id)).status).toBe(400);
    const dropped = await api.read(`${url}/dropped?withTotal=true`);
    expect(dropped.total).toBe(2);
    for (const record of dropped.results as Json[]) {
      expect(record).toMatchObject({ reason: 'ConfigurationErrorDeliveryStopped', error: { class: 'configuration' } });
      expect(record.payload.resource).toEqual({ typeId: 'store', id: first.id });
    }
    expect(await deliveryStatus(api, DEVELOPMENT, subscription.id)).toMatchObject({ pendingCount: 0, lastError: { class: 'configuration' } });
    expect((await api.get(`${url}/dropped?limit=0`)).status).toBe(400);

    // While stopped, a new delivery gets one try and is dropped too.
    const second = await createStore(api, DEVELOPMENT, 'dev-2');
    await eventually(async () => expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(4));
    expect((await api.read(url)).status).toBe('ConfigurationErrorDeliveryStopped');

    // §3.3 last row: changeDestination (its test message delivered) makes it Healthy.
    const newQueue = sqs.createQueue('dev-new');
    const moved = await api.update(url, 1, [{ action: 'changeDestination', destination: sqsDestination(newQueue) }]);
    expect(moved).toMatchObject({ version: 2, status: 'Healthy', destination: { queueUrl: newQueue } });
    expectTestNotification(sqsDocuments(await sqs.waitForMessages(newQueue, 1, WAIT_MS))[0] as Json, DEVELOPMENT, subscription);
    expect((await healthOf(gateway, DEVELOPMENT, subscription.id)).status).toBe(200);

    // Dropped deliveries are not redelivered by themselves (§3.3), but can be replayed: one by id,
    // then all the others.
    expect((await api.post(`${url}/dropped/replay`, { ids: 'all' })).status).toBe(400);
    const [firstDrop] = (await api.read(`${url}/dropped?limit=1`)).results as Json[];
    expect(await api.ok(`${url}/dropped/replay`, { ids: [firstDrop?.id] })).toEqual({ replayed: 1 });
    const [, replayedFirst] = sqsDocuments(await sqs.waitForMessages(newQueue, 2, WAIT_MS));
    expect(labels([replayedFirst as Json])).toEqual(labels([firstDrop?.payload as Json]));
    expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(3);
    expect(await api.ok(`${url}/dropped/replay`, {})).toEqual({ replayed: 3 });
    const arrived = sqsDocuments(await sqs.waitForMessages(newQueue, 5, WAIT_MS));
    expect(labels(arrived.slice(1))).toEqual(
      [
        `store:${first.id}:ResourceCreated:1`,
        `store:${first.id}:Message:StoreCreated:1`,
        `store:${second.id}:ResourceCreated:1`,
        `store:${second.id}:Message:StoreCreated:1`,
      ].sort(),
    );
    await eventually(async () => expect(await deliveryStatus(api, DEVELOPMENT, subscription.id)).toMatchObject({ pendingCount: 0 }));
    expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(0);
    expect((await api.read(url)).status).toBe('Healthy');
  });

  it('in a production project the ConfigurationError window is 24 h', async () => {
    const api = await callerFor(PRODUCTION);
    expect((await api.read(`/${PRODUCTION}`)).environment ?? 'production').toBe('production');
    const queue = sqs.createQueue('prod-queue');
    const subscription = await api.ok(`/${PRODUCTION}/subscriptions`, { destination: sqsDestination(queue), changes: [{ resourceTypeId: 'store' }] }, 201);
    await sqs.waitForMessages(queue, 1, WAIT_MS);
    const url = `/${PRODUCTION}/subscriptions/${subscription.id}`;
    sqs.fauxqs.deleteQueue('prod-queue', { region: REGION });
    await createStore(api, PRODUCTION, 'prod-1');
    await waitForHealth(gateway, PRODUCTION, subscription.id, 400);

    await advance(2 * HOUR);
    expect((await api.read(url)).status).toBe('ConfigurationError');
    await advance(21 * HOUR + 58 * MINUTE);
    expect((await api.read(url)).status).toBe('ConfigurationError');
    expect((await deliveryStatus(api, PRODUCTION, subscription.id)).pendingCount).toBe(1);

    // The last retry, due at the window's end, fails and stops it (the sweep leaves that try the decision).
    await advance(3 * MINUTE);
    await eventually(async () => expect((await api.read(url)).status).toBe('ConfigurationErrorDeliveryStopped'));
    const dropped = await api.read(`${url}/dropped?withTotal=true`);
    expect(dropped).toMatchObject({ total: 1, results: [{ reason: 'ConfigurationErrorDeliveryStopped' }] });
    expect((await healthOf(gateway, PRODUCTION, subscription.id)).status).toBe(400);

    // §3.3: the queue exists again and a new message is delivered: Healthy; the dropped one is not
    // redelivered.
    expect(sqs.createQueue('prod-queue')).toBe(queue);
    const later = await createStore(api, PRODUCTION, 'prod-2');
    const [, delivered] = sqsDocuments(await sqs.waitForMessages(queue, 2, WAIT_MS));
    expect(labels([delivered as Json])).toEqual([`store:${later.id}:ResourceCreated:1`]);
    await waitForHealth(gateway, PRODUCTION, subscription.id, 200);
    expect((await api.read(url)).status).toBe('Healthy');
    expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(1);
    expect((await sqs.receiveAll(queue)).length).toBe(1);

    // Deleted, it is gone from every endpoint, the public health included.
    expect((await api.delete(`${url}?version=1`)).status).toBe(200);
    expect((await healthOf(gateway, PRODUCTION, subscription.id)).status).toBe(404);
    expect((await api.get(`${url}/dropped`)).status).toBe(404);
    expect((await api.get(`${url}/delivery-status`)).status).toBe(404);
  });
});
