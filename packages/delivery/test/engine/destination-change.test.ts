import type { DeliveryPayload } from '@herald/model';
import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine, type DeliveryEngineOptions } from '../../src/engine/engine.js';
import {
  createProject,
  createSqsSubscription,
  engineDatabaseUrls,
  eventually,
  ManualClock,
  openTestDatabase,
  OutageRelay,
  pendingDeliveries,
  pointSubscriptionAt,
  silentLogger,
  sqsPool,
  writeStores,
  type TestDatabase,
} from './support.js';

const MINUTE = 60_000;
const SEND_TIMEOUT_MS = 5_000;

/**
 * §3.3 last row ("any → Healthy when changeDestination succeeds"), §4.2 rules 2 and 3: during the
 * switch-over a delivery may still go to the OLD destination — a send in flight when the change
 * is recorded, or a worker whose subscriptions are a cache refresh behind. Its failure there says
 * nothing about the new destination, which the test notification just proved to work: the
 * subscription stays Healthy and the delivery is given back, uncounted, for the new destination
 * (engine/outcomes/batch.ts `sentToReplacedDestination`). The new destination's own failures count afresh.
 */
describe.each(engineDatabaseUrls())('changeDestination switch-over (%s)', (serverUrl) => {
  let database: TestDatabase;
  let sqs: SqsPeer;
  let relay: OutageRelay;
  let pool: DestinationPool;
  let projectCounter = 0;

  beforeAll(async () => {
    [database, sqs] = await Promise.all([openTestDatabase(serverUrl), startSqsPeer()]);
    relay = await OutageRelay.start(sqs.endpoint);
    pool = sqsPool(relay.endpoint, SEND_TIMEOUT_MS);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await relay?.down();
    await sqs?.stop();
    await database?.close();
  });

  /**
   * A project whose one subscription's queue was deleted long ago: its delivery has failed for
   * three hours, and its backoff has grown to the 10-minute cap.
   */
  async function subscriptionFailingForHours(engineOptions: DeliveryEngineOptions[] = [{}]) {
    const clock = new ManualClock();
    const projectKey = `dest-change-p${++projectCounter}`;
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    const monotonic = { now: 0 };
    const engines = engineOptions.map(
      (options) =>
        new DeliveryEngine(
          { db: database.db, logger: silentLogger, adapters: pool, clock, random: () => 0.5, monotonicNow: () => monotonic.now },
          { sendTimeoutMs: SEND_TIMEOUT_MS, leaseMs: 30_000, subscriptionRefreshMs: 1_000, ...options },
        ),
    );
    const queue = (name: string) => ({ name: `${projectKey}-${name}`, queueUrl: sqs.createQueue(`${projectKey}-${name}`), region: sqs.region });
    /** The subscription caches count this as time passing (one refresh interval). */
    const refresh = () => (monotonic.now += 1_000);
    const broken = queue('old');
    const fixed = queue('new');
    const subscription = await createSqsSubscription(documents, projectKey, broken, { changes: [{ resourceTypeId: 'store' }] });
    const sender = engines[0] as DeliveryEngine;

    sqs.fauxqs.deleteQueue(broken.name);
    await writeStores(documents, projectKey, 1);
    await drain(sender);
    for (let i = 0; i < 12; i++) {
      clock.advance(15 * MINUTE);
      refresh();
      await drain(sender);
    }
    expect(await sender.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationError');
    expect(await pendingDeliveries(database.db, projectKey, subscription.id)).toMatchObject([{ attempts: 13 }]);
    clock.advance(15 * MINUTE);
    refresh();
    return { clock, projectKey, documents, engines, fixed, subscriptionId: subscription.id, refresh };
  }

  it('a send to the old destination in flight during the change: stays Healthy, delivered to the new one within a minute', async () => {
    const { clock, projectKey, documents, engines, fixed, subscriptionId } = await subscriptionFailingForHours();
    const engine = engines[0] as DeliveryEngine;

    // The next retry is claimed and sent to the old queue; the destination is slow to answer.
    relay.hang();
    const inFlight = engine.sender.sendOnce();
    try {
      await eventually(async () => (await pendingDeliveries(database.db, projectKey, subscriptionId))[0]?.leaseOwner !== null, 5_000, 'the lease');
      // Meanwhile the user's changeDestination succeeds (test message delivered) and is recorded.
      await pointSubscriptionAt(documents, projectKey, subscriptionId, fixed.queueUrl);
      expect(await engine.admin.markDestinationChanged(projectKey, subscriptionId)).toBe('Healthy');
    } finally {
      relay.answer();
    }
    // The old queue's late answer: a failure, given back without a health event or a counted attempt.
    expect(await inFlight).toMatchObject({ retried: 0, dropped: 0, released: 1 });
    const healthAfterLateAnswer = await engine.admin.getHealth(projectKey, subscriptionId);

    clock.advance(MINUTE);
    await drain(engine);
    const deliveredToNew = (await received(fixed.queueUrl)).length;
    const pending = await pendingDeliveries(database.db, projectKey, subscriptionId);

    expect({ healthAfterLateAnswer, deliveredToNew, pending }).toEqual({ healthAfterLateAnswer: 'Healthy', deliveredToNew: 1, pending: [] });
  });

  it('a worker a cache refresh behind sends to the old destination: stays Healthy, delivered to the new one within a minute', async () => {
    // A delivery worker process and the gateway process (whose admin records the change).
    const { clock, projectKey, documents, engines, fixed, subscriptionId, refresh } = await subscriptionFailingForHours([
      { workerId: 'worker' },
      { workerId: 'gateway' },
    ]);
    const [worker, gateway] = engines as [DeliveryEngine, DeliveryEngine];
    await worker.cache.forProject(projectKey, database.db); // the worker's routing round reads subscriptions

    // changeDestination through the gateway: test message delivered, document updated, recorded.
    await pointSubscriptionAt(documents, projectKey, subscriptionId, fixed.queueUrl);
    expect(await gateway.admin.markDestinationChanged(projectKey, subscriptionId)).toBe('Healthy');

    // Within its cache refresh interval the worker sends the now-due delivery to the old queue
    // (§4.2 rule 3 allows both destinations during the switch-over); it fails there.
    expect(await worker.sender.sendOnce()).toMatchObject({ claimed: 1, retried: 0, released: 1 });

    // A minute later (§4.2 rule 2: full effect within a minute) it has reached the new queue.
    clock.advance(MINUTE);
    refresh();
    await drain(worker);
    const health = await gateway.admin.getHealth(projectKey, subscriptionId);
    const deliveredToNew = (await received(fixed.queueUrl)).length;
    const pending = await pendingDeliveries(database.db, projectKey, subscriptionId);

    expect({ health, deliveredToNew, pending }).toEqual({ health: 'Healthy', deliveredToNew: 1, pending: [] });
  });

  it("counts the new destination's failures afresh: its backoff starts again at the first delay", async () => {
    const { clock, projectKey, documents, engines, fixed, subscriptionId } = await subscriptionFailingForHours();
    const engine = engines[0] as DeliveryEngine;
    await pointSubscriptionAt(documents, projectKey, subscriptionId, fixed.queueUrl);
    await engine.admin.markDestinationChanged(projectKey, subscriptionId);

    // The new queue breaks too, right after its test notification.
    sqs.fauxqs.deleteQueue(fixed.name);
    expect(await drain(engine)).toMatchObject({ delivered: 0, retried: 1 });
    const pending = await pendingDeliveries(database.db, projectKey, subscriptionId);

    // Its first failure: tried again after the initial 1 s (jitter fixed at 0), not the 10-min cap.
    expect(pending.map((p) => ({ attempts: p.attempts, nextTryInMs: p.dueAt.getTime() - clock.now().getTime() }))).toEqual([
      { attempts: 1, nextTryInMs: 1_000 },
    ]);
  });

  async function drain(engine: DeliveryEngine): Promise<{ delivered: number; retried: number; dropped: number }> {
    const total = { delivered: 0, retried: 0, dropped: 0 };
    for (;;) {
      const routed = await engine.router.routeOnce();
      const sent = await engine.sender.sendOnce();
      total.delivered += sent.delivered;
      total.retried += sent.retried;
      total.dropped += sent.dropped;
      if (routed.events === 0 && sent.claimed === 0) return total;
    }
  }

  async function received(queueUrl: string): Promise<DeliveryPayload[]> {
    return (await sqs.receiveAll(queueUrl)).map((message) => JSON.parse(message.body) as DeliveryPayload);
  }
});
