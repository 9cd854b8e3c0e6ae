import type { DeliveryPayload } from '@herald/model';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DELIVERED } from '../../src/destinations/port.js';
import { startDeliveryWorker } from '../../src/worker/worker.js';
import { gate, projectWithSubscription, ScriptedAdapter } from '../engine/scripted-destination.js';
import { engineDatabaseUrls, ManualClock, openTestDatabase, pendingDeliveries, silentLogger, writeStores, type TestDatabase } from '../engine/support.js';

/**
 * A destination that hangs (a black-holed network, an overloaded endpoint) delays its own
 * subscription's deliveries only: its send stops holding a lease place once stuck, and the worker
 * leases that subscription nothing more until the send ends — other subscriptions' deliveries go
 * on, even with a single lease in flight.
 */
/** Within five seconds: a hanging destination blocking everything would hold them for a minute. */
const until = (assertion: () => unknown) => vi.waitFor(assertion, { timeout: 5_000, interval: 20 });

describe.each(engineDatabaseUrls())('a send stuck at its destination (%s)', (serverUrl) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
  });

  afterAll(async () => {
    await database?.close();
  });

  it('holds back only its own subscription, which gets nothing more until the send ends', async () => {
    const clock = new ManualClock();
    const hanging = await projectWithSubscription(database, clock, 'stuck-hanging');
    const healthy = await projectWithSubscription(database, clock, 'stuck-healthy');
    const adapter = new ScriptedAdapter();
    const answer = gate();
    adapter.behaviour = async (messages) => {
      const projectKey = (messages[0]?.native as DeliveryPayload).projectKey;
      if (projectKey === 'stuck-hanging') await answer.promise;
      return messages.map(() => DELIVERED);
    };
    const sentTo = (projectKey: string) => adapter.sent.filter((id) => (JSON.parse(id) as DeliveryPayload).projectKey === projectKey);

    await writeStores(hanging.documents, 'stuck-hanging', 3);
    const worker = startDeliveryWorker(
      { db: database.db, logger: silentLogger, adapters: adapter },
      {
        maxLeasesInFlight: 1,
        stuckSendMs: 200,
        sendTimeoutMs: 60_000,
        leaseMs: 120_000,
        pollIntervalMs: 5,
        senderPollIntervalMs: 20,
        subscriptionRefreshMs: 50,
      },
    );
    try {
      await until(() => expect(sentTo('stuck-hanging')).toHaveLength(3));

      // The only lease place was the hanging send's: once it is stuck, the place is free again.
      await writeStores(healthy.documents, 'stuck-healthy', 5);
      worker.wake();
      await until(() => expect(sentTo('stuck-healthy')).toHaveLength(5));
      await until(async () => expect(await pendingDeliveries(database.db, 'stuck-healthy', healthy.subscriptionId)).toEqual([]));

      // More for the hanging subscription while its send is stuck: routed, neither handed over nor
      // claimed (the healthy subscription's next delivery, written after them, shows they were routed).
      await writeStores(hanging.documents, 'stuck-hanging', 2);
      await writeStores(healthy.documents, 'stuck-healthy', 1);
      worker.wake();
      await until(() => expect(sentTo('stuck-healthy')).toHaveLength(6));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sentTo('stuck-hanging')).toHaveLength(3);
      const waiting = await pendingDeliveries(database.db, 'stuck-hanging', hanging.subscriptionId);
      expect(waiting.filter((delivery) => delivery.leaseOwner === null)).toHaveLength(2);

      // The destination answers: the stuck send is recorded and the rest goes out.
      answer.open();
      await until(() => expect(new Set(sentTo('stuck-hanging')).size).toBe(5));
      await until(async () => expect(await pendingDeliveries(database.db, 'stuck-hanging', hanging.subscriptionId)).toEqual([]));
    } finally {
      answer.open();
      await worker.stop();
    }
  });
});
