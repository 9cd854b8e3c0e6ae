import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../../src/engine/engine.js';
import type { Lease } from '../../src/engine/leases.js';
import { createProject, createSqsSubscription, engineDatabaseUrls, ManualClock, openTestDatabase, silentLogger, sqsPool, writeStores, type TestDatabase } from './support.js';

/**
 * One subscription's backlog (a bulk import, a destination back after an outage) must not hold
 * back every other subscription's deliveries: claims share each batch between the subscriptions
 * with due deliveries. Claimed, not sent: the destinations are never contacted here.
 */
describe.each(engineDatabaseUrls())('claims are shared between subscriptions (%s)', (serverUrl) => {
  let database: TestDatabase;
  let clock: ManualClock;
  let documents: DocumentStore;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
    clock = new ManualClock();
    documents = new DocumentStore(database.db, clock);
  });

  afterAll(async () => {
    await database?.close();
  });

  // Each test starts with nothing due: what an earlier one left is claimed (leased for a minute).
  beforeEach(async () => {
    const everything = engineWithBatch(10_000);
    while ((await everything.sender.claim()) !== undefined);
  });

  /** A project with one subscription to store changes; answers the subscription's id. */
  async function projectWithSubscription(projectKey: string): Promise<string> {
    await createProject(database.db, clock, projectKey);
    const target = { queueUrl: `http://127.0.0.1:9/000000000000/${projectKey}`, region: 'us-east-1' };
    return (await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] })).id;
  }

  function engineWithBatch(sendBatchSize: number): DeliveryEngine {
    return new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: sqsPool('http://127.0.0.1:9'), clock },
      { sendBatchSize, routeBatchSize: 1_000, sendTimeoutMs: 2_000, leaseMs: 60_000 },
    );
  }

  async function routeAll(engine: DeliveryEngine): Promise<void> {
    while ((await engine.router.routeOnce()).events > 0);
  }

  function countBySubscription(lease: Lease | undefined): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const delivery of lease?.deliveries ?? []) counts[delivery.subscriptionId] = (counts[delivery.subscriptionId] ?? 0) + 1;
    return counts;
  }

  it('a subscription whose deliveries became due after another one’s backlog gets its share of the next claim', async () => {
    const backlogged = await projectWithSubscription('fair-backlog');
    const quiet = await projectWithSubscription('fair-quiet');
    const engine = engineWithBatch(20);
    await writeStores(documents, 'fair-backlog', 200);
    await routeAll(engine);
    clock.advance(1_000);
    await writeStores(documents, 'fair-quiet', 3);
    await routeAll(engine);

    // Oldest due first across subscriptions would have claimed 20 of the backlog and nothing else.
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [backlogged]: 17, [quiet]: 3 });
    // What the quiet one does not use goes to the others: the rest of the backlog, 20 at a time.
    let claimed = 0;
    for (let lease = await engine.sender.claim(); lease !== undefined; lease = await engine.sender.claim()) {
      expect(countBySubscription(lease)).toEqual({ [backlogged]: lease.deliveries.length });
      claimed += lease.deliveries.length;
    }
    expect(claimed).toBe(200 - 17);
  });

  it('shares a batch equally between the subscriptions with due deliveries', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      ids.push(await projectWithSubscription(`fair-even-${index}`));
      await writeStores(documents, `fair-even-${index}`, 10);
    }
    const engine = engineWithBatch(8);
    await routeAll(engine);
    expect(countBySubscription(await engine.sender.claim())).toEqual(Object.fromEntries(ids.map((id) => [id, 2])));
  });

  it('takes the subscriptions that waited longest first when more than a batch have due deliveries', async () => {
    const engine = engineWithBatch(2);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      ids.push(await projectWithSubscription(`fair-wait-${index}`));
      await writeStores(documents, `fair-wait-${index}`, 2);
      await routeAll(engine);
      clock.advance(1_000);
    }
    const [first, second, third] = ids as [string, string, string];
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [first]: 1, [second]: 1 });
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [first]: 1, [second]: 1 });
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [third]: 2 });
  });
});
