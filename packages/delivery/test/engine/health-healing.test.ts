import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import {
  createProject,
  createSqsSubscription,
  engineDatabaseUrls,
  HOUR,
  ManualClock,
  openTestDatabase,
  silentLogger,
  writeStores,
  type TestDatabase,
  sqsPool,
} from './support.js';

/**
 * A success heals the subscription whichever worker sends it: a worker whose cached status is a
 * refresh behind (another worker recorded a ConfigurationError moments ago; retries are due after
 * 1 s, the cache lives 2 s) takes the one-statement fast path, which also reads the health row and
 * heals it (engine/outcomes/delivered.ts `healAfterSuccess`). Otherwise the subscription would stay in
 * ConfigurationError although its destination works, and 24 h later maintenance would stop it.
 */
describe.each(engineDatabaseUrls())('health after a success by a worker with a stale cache (%s)', (serverUrl) => {
  let database: TestDatabase;
  let sqs: SqsPeer;
  let pool: DestinationPool;

  beforeAll(async () => {
    [database, sqs] = await Promise.all([openTestDatabase(serverUrl), startSqsPeer()]);
    pool = sqsPool(sqs.endpoint);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await sqs?.stop();
    await database?.close();
  });

  it('a delivery that succeeds after a configuration error makes the subscription Healthy, whichever worker sends it', async () => {
    const clock = new ManualClock();
    const projectKey = 'stale-health';
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    const queueName = `${projectKey}-q`;
    const target = { queueUrl: sqs.createQueue(queueName), region: sqs.region };
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });

    // Two workers; each has its own subscription cache (their monotonic clocks stand still, i.e.
    // everything below happens within one cache refresh interval).
    const engine = (workerId: string) =>
      new DeliveryEngine(
        { db: database.db, logger: silentLogger, adapters: pool, clock, random: () => 0.5, monotonicNow: () => 0 },
        { workerId, sendTimeoutMs: 2_000, leaseMs: 10_000 },
      );
    const a = engine('a');
    const b = engine('b');
    // Worker a has read the project's subscriptions (all Healthy), as it does on every routing round.
    await a.cache.forProject(projectKey, database.db);

    // The queue is deleted: worker b's attempt fails with a configuration error.
    sqs.fauxqs.deleteQueue(queueName);
    await writeStores(documents, projectKey, 1);
    await b.router.routeOnce();
    await b.router.routeOnce();
    expect(await b.sender.sendOnce()).toMatchObject({ claimed: 1, retried: 1 });
    expect(await b.admin.getHealth(projectKey, subscription.id)).toBe('ConfigurationError');

    // The configuration is fixed; the retry (due 1 s later) is claimed by worker a and succeeds.
    sqs.createQueue(queueName);
    clock.advance(1_500);
    expect(await a.sender.sendOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await sqs.receiveAll(target.queueUrl)).toHaveLength(1);

    // §3.3 "Configuration fixed → Healthy".
    const afterSuccess = await a.admin.getHealth(projectKey, subscription.id);

    // And a day later nothing stops a subscription whose destination works.
    clock.advance(24 * HOUR);
    await a.maintenance.runOnce();
    const dayLater = await a.admin.getHealth(projectKey, subscription.id);

    expect({ afterSuccess, dayLater }).toEqual({ afterSuccess: 'Healthy', dayLater: 'Healthy' });
  });
});
