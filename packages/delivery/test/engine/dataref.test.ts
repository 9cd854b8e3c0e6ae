import type { Format } from '@herald/model';
import { DocumentStore, type WriteContext } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import type { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import {
  createProject,
  createSqsSubscription,
  driverName,
  engineDatabaseUrls,
  HOUR,
  ManualClock,
  openTestDatabase,
  silentLogger,
  sqsPool,
  type TestDatabase,
} from './support.js';

const CLOUD_EVENTS: Format = { type: 'CloudEvents', cloudEventsVersion: '1.0' };

interface Received {
  type: string;
  dataref?: string;
  data: { id: string; name: string };
}

/**
 * §6.2 CloudEvents `dataref` is given "if messages are enabled": the store records per outbox row
 * whether the Messages API kept the message, and the engine carries that to the formatter on every
 * path a delivery takes (claimed, handed off by the router, rescheduled, dropped, replayed).
 */
describe.each(engineDatabaseUrls())('CloudEvents dataref through the delivery engine on %s', (serverUrl) => {
  const driver = driverName(serverUrl);
  let database: TestDatabase;
  let sqs: SqsPeer;
  let pool: DestinationPool;
  let projectCounter = 0;

  beforeAll(async () => {
    [database, sqs] = await Promise.all([openTestDatabase(serverUrl), startSqsPeer()]);
    pool = sqsPool(sqs.endpoint);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await sqs?.stop();
    await database?.close();
  });

  async function setup(environment?: 'development') {
    const clock = new ManualClock();
    const projectKey = `${driver}-dataref-${++projectCounter}`;
    await createProject(database.db, clock, projectKey, environment);
    const documents = new DocumentStore(database.db, clock);
    const engine = (workerId?: string) =>
      new DeliveryEngine(
        { db: database.db, logger: silentLogger, adapters: pool, clock, random: () => 0.5, monotonicNow: () => 0 },
        { sendTimeoutMs: 2_000, leaseMs: 10_000, subscriptionRefreshMs: 1_000, ...(workerId === undefined ? {} : { workerId }) },
      );
    const queueName = `${projectKey}-events`;
    const target = { queueUrl: sqs.createQueue(queueName), region: sqs.region };
    const subscription = await createSqsSubscription(documents, projectKey, target, {
      messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }],
      format: CLOUD_EVENTS,
    });
    /** Writes a store, its StoreCreated message kept for the Messages API or not. */
    const writeStore = async (name: string, storeMessages: boolean | undefined) => {
      const ctx: WriteContext = storeMessages === undefined ? { projectKey } : { projectKey, storeMessages };
      return documents.create<{ id: string; version: number; createdAt: string; lastModifiedAt: string; name: string }>(ctx, 'store', { name }, (doc) => [
        { type: 'StoreCreated', name: doc.name },
      ]);
    };
    /** The received CloudEvents, by the name of their store. */
    const received = async () => {
      const events = (await sqs.receiveAll(target.queueUrl)).map((m) => JSON.parse(m.body) as Received);
      return new Map(events.map((event) => [event.data.name, event]));
    };
    return { clock, projectKey, engine, writeStore, received, subscription, queueName };
  }

  async function drain(engine: DeliveryEngine): Promise<{ delivered: number; dropped: number }> {
    const total = { delivered: 0, dropped: 0 };
    for (;;) {
      const routed = await engine.router.routeOnce();
      const sent = await engine.sender.sendOnce();
      total.delivered += sent.delivered;
      total.dropped += sent.dropped;
      if (routed.events === 0 && sent.claimed === 0) return total;
    }
  }

  /** The event points at its message in the Messages API. */
  function expectDataref(event: Received | undefined, projectKey: string): void {
    expect(event?.dataref).toBe(`/${projectKey}/messages/${event?.data.id ?? ''}`);
  }

  function expectNoDataref(event: Received | undefined): void {
    expect(event).toMatchObject({ type: 'com.commercetools.store.message.StoreCreated' });
    expect(event).not.toHaveProperty('dataref');
  }

  it('sets dataref for messages the Messages API keeps and leaves it out for the others (claimed deliveries)', async () => {
    const { projectKey, engine, writeStore, received } = await setup();
    await writeStore('default', undefined);
    await writeStore('enabled', true);
    await writeStore('disabled', false);
    expect(await drain(engine())).toMatchObject({ delivered: 3 });
    const events = await received();
    expectDataref(events.get('default'), projectKey);
    expectDataref(events.get('enabled'), projectKey);
    expectNoDataref(events.get('disabled'));
  });

  it('carries the fact through the router hand-off', async () => {
    const { clock, projectKey, engine, writeStore, received } = await setup();
    await writeStore('enabled', true);
    await writeStore('disabled', false);
    const worker = engine('router');
    const routed = await worker.router.routeOnce({ owner: 'router', expiresAt: new Date(clock.now().getTime() + 10_000), limit: 10 });
    expect(routed.lease?.deliveries.map((d) => d.messageStored)).toEqual([true, false]);
    expect(await worker.sender.deliver(routed.lease!)).toMatchObject({ delivered: 2 });
    const events = await received();
    expectDataref(events.get('enabled'), projectKey);
    expectNoDataref(events.get('disabled'));
  });

  it('keeps it while a delivery is retried, dropped and replayed', async () => {
    const { clock, projectKey, engine: makeEngine, writeStore, received, subscription, queueName } = await setup('development');
    const engine = makeEngine();
    // The subscription's own creation is a change it does not subscribe to: nothing to send yet.
    expect(await drain(engine)).toMatchObject({ delivered: 0 });
    sqs.fauxqs.deleteQueue(queueName);
    await writeStore('retried-enabled', true);
    await writeStore('retried-disabled', false);
    await drain(engine); // ConfigurationError: rescheduled
    clock.advance(HOUR);
    // The window elapses: everything pending is dropped (one statement) ...
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 1, dropped: 2 });
    // ... and while stopped, a new delivery gets one try and is dropped on its own.
    await writeStore('stopped-disabled', false);
    expect(await drain(engine)).toMatchObject({ delivered: 0, dropped: 1 });

    sqs.createQueue(queueName);
    expect(await engine.admin.replayDropped(projectKey, subscription.id, 'all')).toEqual({ replayed: 3 });
    expect(await drain(engine)).toMatchObject({ delivered: 3 });
    const events = await received();
    expect([...events.keys()].sort()).toEqual(['retried-disabled', 'retried-enabled', 'stopped-disabled']);
    expectDataref(events.get('retried-enabled'), projectKey);
    expectNoDataref(events.get('retried-disabled'));
    expectNoDataref(events.get('stopped-disabled'));
  });
});
