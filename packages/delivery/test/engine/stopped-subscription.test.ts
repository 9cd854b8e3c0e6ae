import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { DELIVERED, failed } from '../../src/destinations/port.js';
import { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { projectWithSubscription, ScriptedAdapter } from './scripted-destination.js';
import {
  createProject,
  createSqsSubscription,
  engineDatabaseUrls,
  HOUR,
  ManualClock,
  openTestDatabase,
  OutageRelay,
  silentLogger,
  writeStores,
  type TestDatabase,
  sqsPool,
} from './support.js';

/**
 * A subscription in ConfigurationErrorDeliveryStopped drops a new message only when the
 * configuration still fails (§3.3 drops what was undelivered when the window elapsed).
 */
describe.each(engineDatabaseUrls())('a stopped subscription (%s)', (serverUrl) => {
  let database: TestDatabase;
  let sqs: SqsPeer;
  let relay: OutageRelay;
  let pool: DestinationPool;

  beforeAll(async () => {
    [database, sqs] = await Promise.all([openTestDatabase(serverUrl), startSqsPeer()]);
    relay = await OutageRelay.start(sqs.endpoint);
    pool = sqsPool(relay.endpoint);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await relay?.down();
    await sqs?.stop();
    await database?.close();
  });

  /**
   * A new message that meets a destination outage is covered by §6.2 guarantee 1 (retried up to 48
   * hours). Here the configuration was fixed and the destination has a short outage: the messages
   * written during it are delivered after it.
   */
  it('retries a new message that fails temporarily instead of dropping it', async () => {
    const clock = new ManualClock();
    const projectKey = 'stopped-temp';
    await createProject(database.db, clock, projectKey, 'development');
    const documents = new DocumentStore(database.db, clock);
    const queueName = `${projectKey}-q`;
    const target = { queueUrl: sqs.createQueue(queueName), region: sqs.region };
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: pool, clock, random: () => 0.5 },
      { sendTimeoutMs: 2_000, leaseMs: 10_000 },
    );
    const drain = async () => {
      const total = { delivered: 0, retried: 0, dropped: 0 };
      for (;;) {
        const routed = await engine.router.routeOnce();
        const sent = await engine.sender.sendOnce();
        total.delivered += sent.delivered;
        total.retried += sent.retried;
        total.dropped += sent.dropped;
        if (routed.events === 0 && sent.claimed === 0) return total;
      }
    };

    // A configuration error for the 1-hour window of a development project: stopped.
    sqs.fauxqs.deleteQueue(queueName);
    await writeStores(documents, projectKey, 1);
    await drain();
    clock.advance(HOUR);
    await engine.maintenance.runOnce();
    expect(await engine.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationErrorDeliveryStopped');

    // The queue is fixed, but the destination has a short outage when the next message comes.
    sqs.createQueue(queueName);
    await relay.down();
    let duringOutage;
    try {
      await writeStores(documents, projectKey, 1);
      duringOutage = await drain();
    } finally {
      await relay.up();
    }
    clock.advance(5_000);
    const afterOutage = await drain();

    expect({ duringOutage, afterOutage }).toEqual({
      duringOutage: { delivered: 0, retried: 1, dropped: 0 },
      afterOutage: { delivered: 1, retried: 0, dropped: 0 },
    });
  });

  /**
   * Mixed outcomes in one batch (SQS/SNS/EventBridge batch APIs answer per entry): one delivery is
   * acknowledged, another refused for its configuration. The success moves the subscription
   * Stopped → Healthy (§3.3), the failure then Healthy → ConfigurationError with a fresh window, in
   * which the refused delivery is retried (§6.2 guarantee 1) — not dropped as "stopped", which the
   * subscription no longer is.
   */
  it('retries, not drops, a configuration failure in the batch whose success leaves the stopped state', async () => {
    const clock = new ManualClock();
    const projectKey = 'stopped-mixed';
    const { documents, subscriptionId } = await projectWithSubscription(database, clock, projectKey, 'development');
    const destination = new ScriptedAdapter();
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: destination, clock, random: () => 0.5, monotonicNow: () => 0 },
      { sendTimeoutMs: 2_000, leaseMs: 10_000 },
    );
    const configuration = { class: 'configuration' as const, code: 'KMS.AccessDeniedException', message: 'denied' };
    const drain = async () => {
      const total = { delivered: 0, retried: 0, dropped: 0 };
      for (;;) {
        const routed = await engine.router.routeOnce();
        const sent = await engine.sender.sendOnce();
        total.delivered += sent.delivered;
        total.retried += sent.retried;
        total.dropped += sent.dropped;
        if (routed.events === 0 && sent.claimed === 0) return total;
      }
    };

    destination.behaviour = async (messages) => messages.map(() => failed(configuration));
    await writeStores(documents, projectKey, 1);
    await drain();
    clock.advance(HOUR);
    expect(await engine.maintenance.runOnce()).toMatchObject({ stopped: 1, dropped: 1 });
    expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('ConfigurationErrorDeliveryStopped');

    // Two new deliveries in one batch: the first is acknowledged, the second refused (configuration).
    destination.behaviour = async (messages) => messages.map((_, i) => (i === 0 ? DELIVERED : failed(configuration)));
    await writeStores(documents, projectKey, 2);
    const outcome = await drain();
    const health = await engine.admin.getHealth(projectKey, subscriptionId);
    const droppedNow = (await engine.admin.listDropped(projectKey, subscriptionId)).results.length - 1;
    const pending = (await engine.admin.deliveryStatus(projectKey, subscriptionId)).pendingCount;

    expect({ outcome, health, droppedNow, pending }).toEqual({
      outcome: { delivered: 1, retried: 1, dropped: 0 },
      health: 'ConfigurationError',
      droppedNow: 0,
      pending: 1,
    });
  });
});
