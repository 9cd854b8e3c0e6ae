import type { DeliveryPayload, Subscription } from '@herald/model';
import { DocumentStore } from '@herald/store';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryAdmin } from '../../src/engine/admin.js';
import { DeliveryEngine, type DeliveryEngineOptions } from '../../src/engine/engine.js';
import { LAST_TRY_GRACE_MS } from '../../src/engine/maintenance.js';
import { DELIVERY_METRIC_NAMES } from '../../src/metrics/names.js';
import { startDeliveryWorker } from '../../src/worker/worker.js';
import {
  createProject,
  createSqsSubscription,
  driverName,
  engineDatabaseUrls,
  eventually,
  HOUR,
  ManualClock,
  openTestDatabase,
  OutageRelay,
  pendingDeliveries,
  silentLogger,
  writeStores,
  type TestDatabase,
  sqsPool,
} from './support.js';

const MINUTE = 60_000;

interface StoreDoc {
  id: string;
  version: number;
  key?: string;
  externalId?: string;
  createdAt: string;
  lastModifiedAt: string;
  name: string;
}

const SEND_TIMEOUT_MS = 2_000;

describe.each(engineDatabaseUrls())('delivery engine on %s', (serverUrl) => {
  const driver = driverName(serverUrl);
  let database: TestDatabase;
  let sqs: SqsPeer;
  let relay: OutageRelay;
  let pool: DestinationPool;
  let projectCounter = 0;

  beforeAll(async () => {
    [database, sqs] = await Promise.all([openTestDatabase(serverUrl), startSqsPeer()]);
    relay = await OutageRelay.start(sqs.endpoint);
    // Every SQS request goes through the relay, so a test can take the destination down.
    pool = sqsPool(relay.endpoint, SEND_TIMEOUT_MS);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await relay?.down();
    await sqs?.stop();
    await database?.close();
  });

  /** A fresh project per test keeps tests independent on one database. */
  async function setup(environment?: 'production' | 'development' | 'staging') {
    const clock = new ManualClock();
    const projectKey = `${driver}-p${++projectCounter}`;
    await createProject(database.db, clock, projectKey, environment);
    const documents = new DocumentStore(database.db, clock);
    let monotonic = 0;
    const engine = (options: DeliveryEngineOptions = {}, registry?: Registry) =>
      new DeliveryEngine(
        {
          db: database.db,
          logger: silentLogger,
          adapters: pool,
          clock,
          random: () => 0.5,
          monotonicNow: () => monotonic,
          ...(registry === undefined ? {} : { registry }),
        },
        { sendTimeoutMs: SEND_TIMEOUT_MS, leaseMs: 10_000, subscriptionRefreshMs: 1_000, ...options },
      );
    const queue = (name: string) => ({ queueUrl: sqs.createQueue(`${projectKey}-${name}`), region: sqs.region });
    return {
      clock,
      projectKey,
      documents,
      engine,
      queue,
      /** The subscription cache counts this as time passing. */
      refresh: () => (monotonic += 1_000),
    };
  }

  /** Routes and sends until nothing is left that is due now. */
  async function drain(engine: DeliveryEngine): Promise<{ routed: number; delivered: number; retried: number; dropped: number }> {
    const total = { routed: 0, delivered: 0, retried: 0, dropped: 0 };
    for (;;) {
      const routed = await engine.router.routeOnce();
      const sent = await engine.sender.sendOnce();
      total.routed += routed.events;
      total.delivered += sent.delivered;
      total.retried += sent.retried;
      total.dropped += sent.dropped;
      if (routed.events === 0 && sent.claimed === 0) return total;
    }
  }

  /**
   * Runs engines side by side until together they delivered `expected`; returns each one's count.
   * An engine that finds nothing (the other holds the due rows) polls again instead of stopping,
   * as a worker would, so neither stops while the other still has work it could share.
   */
  async function drainTogether(engines: DeliveryEngine[], expected: number): Promise<number[]> {
    const delivered = engines.map(() => 0);
    const deadline = Date.now() + 30_000;
    const total = () => delivered.reduce((sum, n) => sum + n, 0);
    await Promise.all(
      engines.map(async (engine, index) => {
        while (total() < expected && Date.now() < deadline) {
          const routed = await engine.router.routeOnce();
          const sent = await engine.sender.sendOnce();
          delivered[index] = (delivered[index] ?? 0) + sent.delivered;
          if (routed.events === 0 && sent.claimed === 0) await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }),
    );
    return delivered;
  }

  async function received(queueUrl: string): Promise<DeliveryPayload[]> {
    return (await sqs.receiveAll(queueUrl)).map((message) => JSON.parse(message.body) as DeliveryPayload);
  }

  async function outboxPayloads(projectKey: string): Promise<DeliveryPayload[]> {
    const rows = await database.db.query<{ payload: DeliveryPayload }>('SELECT payload FROM outbox WHERE project_key = $1 ORDER BY seq', [projectKey]);
    return rows.rows.map((row) => row.payload);
  }

  it('routes messages by resource type and message types, changes by resource type, and loses no field', async () => {
    const { projectKey, documents, engine, queue } = await setup();
    const created = queue('created');
    const changes = queue('changes');
    const allMessages = queue('all');
    const customers = queue('customers');
    await createSqsSubscription(documents, projectKey, created, { messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] });
    await createSqsSubscription(documents, projectKey, changes, { changes: [{ resourceTypeId: 'store' }] });
    await createSqsSubscription(documents, projectKey, allMessages, { messages: [{ resourceTypeId: 'store', types: [] }] });
    await createSqsSubscription(documents, projectKey, customers, {
      messages: [{ resourceTypeId: 'customer' }],
      changes: [{ resourceTypeId: 'customer' }],
    });
    const ctx = { projectKey };
    const store = await documents.create<StoreDoc>(ctx, 'store', { key: 'berlin', name: 'Berlin' }, (doc) => [{ type: 'StoreCreated', name: doc.name }]);
    const renamed = await documents.update<StoreDoc>(ctx, 'store', { id: store.id }, 1, (current) => ({
      doc: { ...current, name: 'Berlin Mitte' },
      messages: [{ type: 'StoreNameSet', name: 'Berlin Mitte' }],
    }));
    await documents.delete<StoreDoc>(ctx, 'store', { id: store.id }, renamed.version, {
      dataErasure: true,
      messages: () => [{ type: 'StoreDeleted' }],
    });
    const written = (await outboxPayloads(projectKey)).filter((payload) => payload.resource.typeId === 'store');
    expect(written).toHaveLength(6);

    const result = await drain(engine());
    expect(result.delivered).toBe(1 + 3 + 3);

    const byType = (payloads: DeliveryPayload[]) => payloads.map((p) => (p.notificationType === 'Message' ? p.type : p.notificationType)).sort();
    const createdPayloads = await received(created.queueUrl);
    const changePayloads = await received(changes.queueUrl);
    const messagePayloads = await received(allMessages.queueUrl);
    expect(byType(createdPayloads)).toEqual(['StoreCreated']);
    expect(byType(changePayloads)).toEqual(['ResourceCreated', 'ResourceDeleted', 'ResourceUpdated']);
    expect(byType(messagePayloads)).toEqual(['StoreCreated', 'StoreDeleted', 'StoreNameSet']);
    expect(await received(customers.queueUrl)).toEqual([]);

    // Every payload arrives exactly as the store wrote it to the outbox (Platform format, §6.2).
    const sortById = (payloads: DeliveryPayload[]) => [...payloads].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(sortById([...changePayloads, ...messagePayloads])).toEqual(sortById(written));
    const message = messagePayloads.find((p) => p.notificationType === 'Message' && p.type === 'StoreNameSet');
    expect(message).toMatchObject({
      notificationType: 'Message',
      projectKey,
      resource: { typeId: 'store', id: store.id },
      resourceUserProvidedIdentifiers: { key: 'berlin' },
      version: 1,
      sequenceNumber: 2,
      resourceVersion: 2,
      name: 'Berlin Mitte',
    });
    expect(message).toHaveProperty('id');
    expect(message).toHaveProperty('createdAt');
    expect(message).toHaveProperty('lastModifiedAt');
    expect(changePayloads.find((p) => p.notificationType === 'ResourceUpdated')).toMatchObject({ version: 2, oldVersion: 1 });
    const deleted = changePayloads.find((p) => p.notificationType === 'ResourceDeleted');
    expect(deleted).toMatchObject({ version: 2, dataErasure: true });
    expect(deleted).toHaveProperty('modifiedAt');
    // The outbox is empty once routed: rows disappear only with their deliveries.
    expect(await outboxPayloads(projectKey)).toEqual([]);
  });

  it("encodes with the subscription's format (CloudEvents wraps the same payload)", async () => {
    const { projectKey, documents, engine, queue } = await setup();
    const target = queue('cloudevents');
    await createSqsSubscription(documents, projectKey, target, {
      messages: [{ resourceTypeId: 'store' }],
      format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
    });
    const [store] = await writeStores(documents, projectKey, 1);
    const written = (await outboxPayloads(projectKey)).find((p) => p.notificationType === 'Message' && p.resource.id === store?.id);
    await drain(engine());
    const [event] = (await sqs.receiveAll(target.queueUrl)).map((m) => JSON.parse(m.body) as Record<string, unknown>);
    expect(event).toMatchObject({ specversion: '1.0', subject: store?.id, sequence: '1' });
    expect(event?.data).toEqual(written);
  });

  it('applies subscription create, update and delete after the cache refresh', async () => {
    const { projectKey, documents, engine: makeEngine, queue, refresh } = await setup();
    const engine = makeEngine();
    const first = queue('first');
    const second = queue('second');
    await drain(engine); // caches the project with no subscriptions
    const subscription = await createSqsSubscription(documents, projectKey, first, { changes: [{ resourceTypeId: 'store' }] });
    refresh();
    await writeStores(documents, projectKey, 2);
    await drain(engine);
    expect(await received(first.queueUrl)).toHaveLength(2);

    await documents.update<Subscription>({ projectKey }, 'subscription', { id: subscription.id }, subscription.version, (current) => ({
      doc: { ...current, destination: { ...current.destination, queueUrl: second.queueUrl } as Subscription['destination'] },
    }));
    refresh();
    await writeStores(documents, projectKey, 3);
    await drain(engine);
    expect(await received(first.queueUrl)).toHaveLength(0);
    expect(await received(second.queueUrl)).toHaveLength(3);

    // Deleted while deliveries are pending: they are recorded as dropped, never silently removed.
    await writeStores(documents, projectKey, 2);
    await engine.router.routeOnce();
    expect((await engine.admin.deliveryStatus(projectKey, subscription.id)).pendingCount).toBe(2);
    await documents.delete({ projectKey }, 'subscription', { id: subscription.id }, 2);
    expect(await engine.admin.forgetSubscription(projectKey, subscription.id)).toEqual({ dropped: 2 });
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    expect(await received(second.queueUrl)).toHaveLength(0);
    const dropped = await engine.admin.listDropped(projectKey, subscription.id);
    expect(dropped.results.map((d) => d.reason)).toEqual(['SubscriptionDeleted', 'SubscriptionDeleted']);
  });

  it('drops the deliveries of a subscription deleted without forgetSubscription (another process)', async () => {
    const { projectKey, documents, engine: makeEngine, queue, refresh } = await setup();
    const engine = makeEngine();
    const target = queue('gone');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    await writeStores(documents, projectKey, 2);
    await engine.router.routeOnce();
    await documents.delete({ projectKey }, 'subscription', { id: subscription.id }, 1);
    refresh();
    const sent = await engine.sender.sendOnce();
    expect(sent).toMatchObject({ claimed: 2, delivered: 0, dropped: 2 });
    expect((await engine.admin.listDropped(projectKey, subscription.id)).total).toBe(2);
  });

  it('turns a destination outage into TemporaryError and delivers everything pending after recovery', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const engine = makeEngine();
    const target = queue('outage');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    await relay.down();
    try {
      await writeStores(documents, projectKey, 5);
      const first = await drain(engine);
      expect(first).toMatchObject({ delivered: 0, retried: 5 });
      expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('TemporaryError');
      const status = await engine.admin.deliveryStatus(projectKey, subscription.id);
      expect(status).toMatchObject({ pendingCount: 5, lastError: { class: 'temporary' } });
      // Retries wait for their backoff: nothing is due yet.
      expect((await engine.sender.sendOnce()).claimed).toBe(0);
    } finally {
      await relay.up();
    }
    clock.advance(2_000);
    const second = await drain(engine);
    expect(second.delivered).toBe(5);
    expect(await received(target.queueUrl)).toHaveLength(5);
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('Healthy');
    expect((await engine.admin.deliveryStatus(projectKey, subscription.id)).pendingCount).toBe(0);
    // Health lives beside the document: the subscription's version never moved.
    expect((await documents.get<Subscription>(projectKey, 'subscription', { id: subscription.id }))?.version).toBe(1);
  });

  it('retries temporary errors for 48 hours, then drops them with the reason', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const engine = makeEngine({ retry: { backoff: { initialMs: HOUR, maxMs: 6 * HOUR } } });
    const target = queue('long-outage');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    const start = clock.now();
    await relay.down();
    try {
      await writeStores(documents, projectKey, 1);
      await drain(engine);
      let attempts = 1;
      while ((await engine.admin.deliveryStatus(projectKey, subscription.id)).pendingCount > 0) {
        expect(clock.now().getTime() - start.getTime()).toBeLessThanOrEqual(48 * HOUR);
        clock.advance(7.5 * HOUR); // longer than the longest jittered delay
        attempts += (await engine.sender.sendOnce()).claimed;
      }
      expect(attempts).toBeGreaterThan(5);
    } finally {
      await relay.up();
    }
    const page = await engine.admin.listDropped(projectKey, subscription.id);
    expect(page.results).toHaveLength(1);
    const dropped = page.results[0];
    expect(dropped).toMatchObject({ reason: 'TemporaryErrorWindowElapsed', error: { class: 'temporary' } });
    expect(Date.parse(dropped?.droppedAt ?? '') - Date.parse(dropped?.firstFailureAt ?? '')).toBeGreaterThanOrEqual(48 * HOUR);
    expect(dropped?.payload).toMatchObject({ notificationType: 'ResourceCreated', projectKey });
  });

  it('stops a development project after 1 hour of configuration errors, drops, tries new ones once, and heals', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup('development');
    const engine = makeEngine();
    const target = queue('deleted');
    const queueName = `${projectKey}-deleted`;
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    expect(await received(target.queueUrl)).toHaveLength(1);

    sqs.fauxqs.deleteQueue(queueName);
    await writeStores(documents, projectKey, 2);
    await drain(engine);
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationError');
    const status = await engine.admin.deliveryStatus(projectKey, subscription.id);
    expect(status).toMatchObject({ pendingCount: 2, lastError: { class: 'configuration' } });

    clock.advance(HOUR / 2);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 0 });
    await drain(engine);
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationError');

    clock.advance(HOUR / 2);
    // The window elapses by time alone (§3.3 "time passes"): the maintenance sweep stops it.
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 1, dropped: 2 });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationErrorDeliveryStopped');
    expect((await engine.admin.deliveryStatus(projectKey, subscription.id)).pendingCount).toBe(0);
    const dropped = await engine.admin.listDropped(projectKey, subscription.id);
    expect(dropped.results.map((d) => [d.reason, d.error?.class])).toEqual([
      ['ConfigurationErrorDeliveryStopped', 'configuration'],
      ['ConfigurationErrorDeliveryStopped', 'configuration'],
    ]);

    // While stopped, each new delivery gets one try; failing, it is dropped at once.
    await writeStores(documents, projectKey, 1);
    expect(await drain(engine)).toMatchObject({ delivered: 0, retried: 0, dropped: 1 });

    // Configuration works again: the next new delivery succeeds → Healthy; earlier drops stay dropped.
    sqs.createQueue(queueName);
    await writeStores(documents, projectKey, 1);
    expect(await drain(engine)).toMatchObject({ delivered: 1 });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('Healthy');
    expect(await received(target.queueUrl)).toHaveLength(1);
    expect((await engine.admin.listDropped(projectKey, subscription.id)).total).toBe(3);

    // Replay: the dropped deliveries go back to pending and are delivered.
    const some = (await engine.admin.listDropped(projectKey, subscription.id, { limit: 1 })).results.map((d) => d.id);
    expect(await engine.admin.replayDropped(projectKey, subscription.id, some)).toEqual({ replayed: 1 });
    expect(await drain(engine)).toMatchObject({ delivered: 1 });
    expect(await engine.admin.replayDropped(projectKey, subscription.id, 'all')).toEqual({ replayed: 2 });
    expect(await drain(engine)).toMatchObject({ delivered: 2 });
    expect(await received(target.queueUrl)).toHaveLength(3);
    expect((await engine.admin.listDropped(projectKey, subscription.id)).total).toBe(0);
  });

  it('keeps a production project in ConfigurationError for 24 hours; the last retry at the window end stops it', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const engine = makeEngine();
    const target = queue('prod');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    sqs.fauxqs.deleteQueue(`${projectKey}-prod`);
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    clock.advance(23 * HOUR);
    await drain(engine);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 0 });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationError');
    clock.advance(HOUR);
    expect(await drain(engine)).toMatchObject({ delivered: 0 });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationErrorDeliveryStopped');
    expect((await engine.admin.listDropped(projectKey, subscription.id)).results.map((d) => d.reason)).toEqual(['ConfigurationErrorDeliveryStopped']);
  });

  /**
   * The sender's last try, at the window end, decides (§3.3: fixed within the window → Healthy;
   * still failing → stopped). The maintenance sweep runs on its own timer and may come first: it
   * leaves the decision to the sender for a bounded grace (maintenance.ts `LAST_TRY_GRACE_MS`).
   */
  async function failingUntilLastRetryAtWindowEnd(queueName: string) {
    const context = await setup('development');
    const { projectKey, documents, engine: makeEngine, queue, clock } = context;
    const engine = makeEngine();
    const target = queue(queueName);
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    sqs.fauxqs.deleteQueue(`${projectKey}-${queueName}`);
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    // Retried (and failing) with backoff through the hour; the last failed try is 5 min before the end.
    const windowEnd = new Date(clock.now().getTime() + HOUR);
    while (clock.now().getTime() < windowEnd.getTime() - 5 * MINUTE) {
      clock.advance(5 * MINUTE);
      await drain(engine);
    }
    const pending = await pendingDeliveries(database.db, projectKey, subscription.id);
    expect(pending.map((p) => p.dueAt)).toEqual([windowEnd]); // capped at the window end
    return { ...context, engine, target, queueName: `${projectKey}-${queueName}`, subscriptionId: subscription.id, windowEnd };
  }

  it('makes the retry due at the window end even when the sweep comes first: fixed within the window, it heals', async () => {
    const { projectKey, engine, clock, target, queueName, subscriptionId, windowEnd } = await failingUntilLastRetryAtWindowEnd('last-try');
    // The user fixes the queue 2 minutes before the window ends.
    clock.advance(3 * MINUTE);
    sqs.createQueue(queueName);

    // At the window end the maintenance timer happens to fire before the sender's poll.
    clock.set(windowEnd);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 0 });
    await drain(engine);

    const health = await engine.admin.getHealth(projectKey, subscriptionId);
    const delivered = (await received(target.queueUrl)).length;
    const dropped = (await engine.admin.listDropped(projectKey, subscriptionId)).results.length;
    expect({ health, delivered, dropped }).toEqual({ health: 'Healthy', delivered: 1, dropped: 0 });
  });

  it('stops the subscription after a bounded grace when no sender makes the last try', async () => {
    const { projectKey, engine, clock, subscriptionId, windowEnd } = await failingUntilLastRetryAtWindowEnd('no-sender');
    clock.set(windowEnd);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 0 });
    clock.advance(LAST_TRY_GRACE_MS - 1);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 0 });
    clock.advance(1);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 1, dropped: 1 });
    expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('ConfigurationErrorDeliveryStopped');
  });

  it('leaves a send in flight at the window end to decide: the sweep does not stop under it', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup('development');
    const engine = makeEngine();
    const queueName = `${projectKey}-in-flight`;
    const target = queue('in-flight');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    sqs.fauxqs.deleteQueue(queueName);
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    clock.advance(HOUR);

    // At the window end a retry is being sent (the destination is slow to answer) when the sweep runs.
    relay.hang();
    let sweepDuringSend;
    const inFlight = engine.sender.sendOnce();
    try {
      await eventually(async () => (await pendingDeliveries(database.db, projectKey, subscription.id))[0]?.leaseOwner !== null, 5_000, 'the lease');
      sweepDuringSend = await engine.maintenance.runOnce();
      sqs.createQueue(queueName); // fixed in time: the send in flight succeeds
    } finally {
      relay.answer();
    }
    expect(await inFlight).toMatchObject({ delivered: 1 });

    const health = await engine.admin.getHealth(projectKey, subscription.id);
    const dropped = (await engine.admin.listDropped(projectKey, subscription.id)).results.length;
    expect({ sweepDuringSend, health, dropped }).toEqual({ sweepDuringSend: expect.objectContaining({ stopped: 0 }), health: 'Healthy', dropped: 0 });
  });

  it('records the attempt that stops the subscription in the drop records of its batch', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup('development');
    const engine = makeEngine();
    const target = queue('stop-batch');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    sqs.fauxqs.deleteQueue(`${projectKey}-stop-batch`);

    // First delivery: fails once at T0 (attempts = 1).
    const firstFailureAt = clock.now().toISOString();
    await writeStores(documents, projectKey, 1);
    expect(await drain(engine)).toMatchObject({ retried: 1 });

    // At the window end its retry and a brand-new second delivery are sent together and both fail;
    // this batch ends the window (§3.3 → ConfigurationErrorDeliveryStopped).
    clock.advance(HOUR);
    const windowEnd = clock.now().toISOString();
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationErrorDeliveryStopped');

    // records.ts `Drop.attempts`: attempts including the one that led to the drop.
    const dropped = (await engine.admin.listDropped(projectKey, subscription.id)).results;
    const records = [...dropped]
      .sort((a, b) => a.committedAt.localeCompare(b.committedAt))
      .map((d) => ({ reason: d.reason, attempts: d.attempts, firstFailureAt: d.firstFailureAt, error: d.error?.class }));
    expect(records).toEqual([
      // Tried at T0 and at the window end.
      { reason: 'ConfigurationErrorDeliveryStopped', attempts: 2, firstFailureAt, error: 'configuration' },
      // Tried once, at the window end, and failed then.
      { reason: 'ConfigurationErrorDeliveryStopped', attempts: 1, firstFailureAt: windowEnd, error: 'configuration' },
    ]);
  });

  it('records a payload error as PayloadError even in the batch that stops the subscription', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const engine = makeEngine();
    const target = queue('stop-with-payload');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    sqs.fauxqs.deleteQueue(`${projectKey}-stop-with-payload`);
    await writeStores(documents, projectKey, 1);
    await drain(engine);
    clock.advance(24 * HOUR);
    // Sent with the last retry: too large for any queue (a payload failure, not the configuration's).
    await documents.create<StoreDoc>({ projectKey }, 'store', { name: 'big', externalId: 'x'.repeat(300_000) });
    expect(await drain(engine)).toMatchObject({ delivered: 0, dropped: 2 });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationErrorDeliveryStopped');
    const reasons = (await engine.admin.listDropped(projectKey, subscription.id)).results.map((d) => [d.reason, d.error?.class]);
    expect(reasons.sort()).toEqual([
      ['ConfigurationErrorDeliveryStopped', 'configuration'],
      ['PayloadError', 'payload'],
    ]);
  });

  it('is Healthy again after changeDestination (markDestinationChanged), and replays to the new destination', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup('staging');
    const engine = makeEngine();
    const broken = queue('broken');
    const fixed = queue('fixed');
    const subscription = await createSqsSubscription(documents, projectKey, broken, { changes: [{ resourceTypeId: 'store' }] });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('Healthy');
    sqs.fauxqs.deleteQueue(`${projectKey}-broken`);
    await writeStores(documents, projectKey, 2);
    await drain(engine);
    clock.advance(HOUR);
    await engine.maintenance.runOnce();
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationErrorDeliveryStopped');

    await documents.update<Subscription>({ projectKey }, 'subscription', { id: subscription.id }, 1, (current) => ({
      doc: { ...current, destination: { ...current.destination, queueUrl: fixed.queueUrl } as Subscription['destination'] },
    }));
    expect(await engine.admin.markDestinationChanged(projectKey, subscription.id)).toBe('Healthy');
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('Healthy');
    expect(await engine.admin.replayDropped(projectKey, subscription.id, 'all')).toEqual({ replayed: 2 });
    expect(await drain(engine)).toMatchObject({ delivered: 2 });
    expect(await received(fixed.queueUrl)).toHaveLength(2);
  });

  it('drops payload errors at once', async () => {
    const { projectKey, documents, engine: makeEngine, queue } = await setup();
    const engine = makeEngine();
    const target = queue('payload');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    // A change notification carries the resource's identifiers and has no payload to leave out:
    // 300 kB of externalId cannot fit SQS's 256 KiB even with §6.2's payloadNotIncluded.
    await documents.create<StoreDoc>({ projectKey }, 'store', { name: 'big', externalId: 'x'.repeat(300_000) });
    await writeStores(documents, projectKey, 1);
    expect(await drain(engine)).toMatchObject({ delivered: 1, retried: 0, dropped: 1 });
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('Healthy');
    const dropped = await engine.admin.listDropped(projectKey, subscription.id);
    expect(dropped.results).toHaveLength(1);
    expect(dropped.results[0]).toMatchObject({ reason: 'PayloadError', attempts: 1, error: { class: 'payload', code: 'PayloadTooLarge' } });
  });

  it('pages dropped deliveries like §4.4.2, rejects bad paging and ids, and keeps them 14 days', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const engine = makeEngine();
    const target = queue('paging');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    await writeStores(documents, projectKey, 5);
    await engine.router.routeOnce();
    await engine.admin.forgetSubscription(projectKey, subscription.id);
    const page = await engine.admin.listDropped(projectKey, subscription.id, { limit: 2, offset: 1 });
    expect(page).toMatchObject({ limit: 2, offset: 1, count: 2, total: 5 });
    const all = await engine.admin.listDropped(projectKey, subscription.id, { limit: 500 });
    expect(page.results.map((d) => d.id)).toEqual(all.results.slice(1, 3).map((d) => d.id));
    expect((await engine.admin.listDropped(projectKey, subscription.id, { withTotal: false })).total).toBeUndefined();
    await expect(engine.admin.listDropped(projectKey, subscription.id, { limit: 501 })).rejects.toMatchObject({ statusCode: 400 });
    await expect(engine.admin.listDropped(projectKey, subscription.id, { offset: 10_001 })).rejects.toMatchObject({ statusCode: 400 });
    await expect(engine.admin.replayDropped(projectKey, subscription.id, ['nope'])).rejects.toMatchObject({ statusCode: 400 });
    // Another subscription's drops are not replayed by id.
    expect(await engine.admin.replayDropped(projectKey, 'other', [all.results[0]?.id ?? ''])).toEqual({ replayed: 0 });

    // Kept 14 days, then cleaned up.
    clock.advance(14 * 24 * HOUR - 1);
    await engine.maintenance.runOnce();
    expect((await engine.admin.listDropped(projectKey, subscription.id)).total).toBe(5);
    clock.advance(1);
    expect((await engine.maintenance.runOnce()).purged).toBeGreaterThanOrEqual(5);
    expect((await engine.admin.listDropped(projectKey, subscription.id)).total).toBe(0);
  });

  it('hands routed deliveries to the routing worker under a lease, at most a lease-full', async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const router = makeEngine({ workerId: 'router' });
    const other = makeEngine({ workerId: 'other' });
    const target = queue('handoff');
    await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    const stores = await writeStores(documents, projectKey, 3);
    const routed = await router.router.routeOnce({ owner: 'router', expiresAt: new Date(clock.now().getTime() + 10_000), limit: 2 });
    expect(routed).toMatchObject({ events: 7, deliveries: 3 }); // 3 changes, 3 messages, the subscription's own creation
    expect(routed.lease?.deliveries.map((d) => d.payload.notificationType)).toEqual(['ResourceCreated', 'ResourceCreated']);
    // The third is pending for anyone; the two handed over are not.
    expect(await other.sender.sendOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await router.sender.deliver(routed.lease!)).toMatchObject({ claimed: 2, delivered: 2 });
    expect((await received(target.queueUrl)).map((p) => p.resource.id).sort()).toEqual(stores.map((s) => s.id).sort());
  });

  it("takes over a crashed worker's lease only once it expires", async () => {
    const { projectKey, documents, engine: makeEngine, queue, clock } = await setup();
    const crashed = makeEngine({ workerId: 'crashed', leaseMs: 10_000 });
    const survivor = makeEngine({ workerId: 'survivor' });
    const target = queue('lease');
    await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    await writeStores(documents, projectKey, 3);
    await crashed.router.routeOnce();
    const lease = await crashed.sender.claim();
    expect(lease?.deliveries).toHaveLength(3);
    // The crashed worker never reports back; its lease holds until it expires.
    expect((await survivor.sender.sendOnce()).claimed).toBe(0);
    clock.advance(9_999);
    expect((await survivor.sender.sendOnce()).claimed).toBe(0);
    clock.advance(1);
    expect(await survivor.sender.sendOnce()).toMatchObject({ claimed: 3, delivered: 3 });
    expect(await received(target.queueUrl)).toHaveLength(3);
  });

  it.runIf(driver === 'postgresql')('shares routing and sending between concurrent engines without duplicates', async () => {
    const { projectKey, documents, engine: makeEngine, queue } = await setup();
    const engines = [
      makeEngine({ workerId: 'a', routeBatchSize: 20, sendBatchSize: 20 }),
      makeEngine({ workerId: 'b', routeBatchSize: 20, sendBatchSize: 20 }),
    ];
    const target = queue('shared');
    await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    await writeStores(documents, projectKey, 300, 8);
    const results = await drainTogether(engines, 300);
    expect(results.every((delivered) => delivered > 0)).toBe(true);
    expect(results.reduce((sum, delivered) => sum + delivered, 0)).toBe(300);
    const payloads = await received(target.queueUrl);
    expect(payloads).toHaveLength(300);
    expect(new Set(payloads.map((p) => p.resource.id)).size).toBe(300);
  });

  it('runs as a worker: delivers in the background, exports its metrics, and releases in-flight sends on stop', async () => {
    const { projectKey, documents, queue } = await setup();
    const registry = new Registry();
    const target = queue('worker');
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    const worker = startDeliveryWorker(
      { db: database.db, logger: silentLogger, adapters: pool, registry },
      { pollIntervalMs: 5, sendTimeoutMs: SEND_TIMEOUT_MS, leaseMs: 60_000, shutdownGraceMs: 100, subscriptionRefreshMs: 50 },
    );
    try {
      await writeStores(documents, projectKey, 20);
      worker.wake();
      const arrived = await sqs.waitForMessages(target.queueUrl, 20, 15_000);
      expect(arrived).toHaveLength(20);
      expect(worker.healthy()).toBe(true);
      // A send is counted once its outcome is recorded, which may be a moment after the queue has it.
      // Per subscription: project key, subscription key (its id without one), destination type.
      const series = `project="${projectKey}",subscription="${subscription.id}",destination_type="SQS"`;
      await eventually(
        async () => (await registry.metrics()).includes(`herald_deliveries_total{${series},outcome="delivered"} 20`),
        10_000,
        'the deliveries counted',
      );

      const metrics = await registry.getMetricsAsJSON();
      expect(metrics.map((m) => m.name).sort()).toEqual([...DELIVERY_METRIC_NAMES].sort());
      const text = await registry.metrics();
      expect(text).toContain(`herald_delivery_attempts_total{${series},outcome="delivered"} 20`);
      expect(text).toContain(`herald_subscription_health{project="${projectKey}",subscription="${subscription.id}",status="Healthy"} 1`);
      expect(text).toContain(`herald_delivery_latency_seconds_count{${series}} 20`);
      expect(text).toContain('herald_delivery_workers 1');

      // A hanging destination: the send is in flight when the worker stops.
      await waitForPending(projectKey, subscription.id, 0);
      relay.hang();
      await writeStores(documents, projectKey, 4);
      worker.wake();
      await waitForLeased(projectKey, subscription.id, 4);
    } finally {
      await worker.stop();
      relay.answer();
    }
    // Released at once (not after the 60 s lease), without counting the interrupted attempt.
    const clock = new ManualClock(new Date());
    const next = new DeliveryEngine({ db: database.db, logger: silentLogger, adapters: pool, clock }, { sendTimeoutMs: SEND_TIMEOUT_MS });
    expect(await next.sender.sendOnce()).toMatchObject({ claimed: 4, delivered: 4 });
    expect(await next.admin.getHealth(projectKey, subscription.id)).toBe('Healthy');
  });

  /** Waits until the worker holds `count` deliveries under its lease (the send is in flight). */
  async function waitForLeased(projectKey: string, subscriptionId: string, count: number): Promise<void> {
    await eventually(
      async () => {
        const leased = await database.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM deliveries WHERE project_key = $1 AND subscription_id = $2 AND lease_owner IS NOT NULL',
          [projectKey, subscriptionId],
        );
        return (leased.rows[0]?.n ?? 0) >= count;
      },
      10_000,
      `${count} leased deliveries`,
    );
  }

  /** Waits until the background worker has recorded its outcomes (acknowledged deliveries deleted). */
  async function waitForPending(projectKey: string, subscriptionId: string, count: number): Promise<void> {
    const admin = new DeliveryAdmin({ db: database.db, clock: new ManualClock(new Date()) });
    await eventually(async () => (await admin.deliveryStatus(projectKey, subscriptionId)).pendingCount === count, 10_000, 'recorded outcomes');
  }
});
