/**
 * Issue 25, "per subscription" and "the first event counts": delivery, attempt, retry, drop and
 * latency series name the subscription by project key, subscription key (id without one) and
 * destination type, and every label set a subscription can increment is exported at 0 before its
 * first event (a counter that first appears at 1 reads 0 in increase() and rate()). A real engine
 * on a real database sends to fauxqs; the registry is scraped as Prometheus would.
 */
import type { Subscription } from '@herald/model';
import { DocumentStore } from '@herald/store';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import type { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { DROP_REASONS } from '../../src/engine/types.js';
import { DELIVERY_METRIC } from '../../src/metrics/names.js';
import { startDeliveryWorker } from '../../src/worker/worker.js';
import {
  createProject,
  createSqsSubscription,
  driverName,
  engineDatabaseUrls,
  ManualClock,
  openTestDatabase,
  silentLogger,
  sqsPool,
  writeStores,
  type TestDatabase,
} from '../engine/support.js';
import { parseExposition, type Sample } from './exposition.js';

describe.each(engineDatabaseUrls())('per-subscription delivery series on %s', (serverUrl) => {
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

  async function setup() {
    const clock = new ManualClock(new Date());
    const projectKey = `${driver}-series-${++projectCounter}`;
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    const registry = new Registry();
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: pool, clock, registry },
      { subscriptionRefreshMs: 0, gaugeRefreshMs: 0 },
    );
    const subscribe = (key: string | undefined, queueUrl: string): Promise<Subscription> =>
      createSqsSubscription(
        documents,
        projectKey,
        { queueUrl, region: sqs.region },
        { changes: [{ resourceTypeId: 'store' }], ...(key === undefined ? {} : { key }) },
      );
    /** Writes `n` stores, routes them and sends everything due once. */
    const deliverStores = async (n: number): Promise<void> => {
      await writeStores(documents, projectKey, n);
      while ((await engine.router.routeOnce()).events > 0);
      while ((await engine.sender.sendOnce()).claimed > 0);
    };
    const scrape = async (): Promise<Sample[]> => parseExposition(await registry.metrics());
    return { clock, projectKey, documents, registry, engine, subscribe, deliverStores, scrape };
  }

  const value = (samples: Sample[], name: string, labels: Record<string, string>): number | undefined =>
    samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

  it('exports every label set of every subscription at 0 before its first event, named by key (id without one) and destination type', async () => {
    const { projectKey, subscribe, scrape } = await setup();
    const keyed = await subscribe('orders', sqs.createQueue(`${projectKey}-orders`));
    const keyless = await subscribe(undefined, sqs.createQueue(`${projectKey}-keyless`));
    const samples = await scrape();
    for (const [subscription, name] of [
      [keyed, 'orders'],
      [keyless, keyless.id],
    ] as const) {
      const labels = { project: projectKey, subscription: name, destination_type: 'SQS' };
      for (const outcome of ['delivered', 'dropped']) expect(value(samples, DELIVERY_METRIC.deliveries, { ...labels, outcome }), outcome).toBe(0);
      for (const outcome of ['delivered', 'configuration', 'temporary', 'payload']) {
        expect(value(samples, DELIVERY_METRIC.attempts, { ...labels, outcome }), outcome).toBe(0);
      }
      for (const failure_class of ['configuration', 'temporary']) {
        expect(value(samples, DELIVERY_METRIC.retries, { ...labels, failure_class }), failure_class).toBe(0);
      }
      for (const reason of DROP_REASONS) expect(value(samples, DELIVERY_METRIC.dropped, { ...labels, reason }), reason).toBe(0);
      expect(value(samples, `${DELIVERY_METRIC.latency}_count`, labels)).toBe(0);
      expect(value(samples, DELIVERY_METRIC.subscriptionInfo, { ...labels, subscription_id: subscription.id })).toBe(1);
      expect(value(samples, DELIVERY_METRIC.health, { project: projectKey, subscription: name, status: 'Healthy' })).toBe(1);
    }
    // Dashboards show keys, not UUIDs: the keyed subscription's id names no series.
    expect(samples.filter((s) => s.labels.subscription === keyed.id)).toEqual([]);
  });

  it('counts the first delivery, the first retry and the first drop on series that were already at 0', async () => {
    const { projectKey, subscribe, scrape, deliverStores, documents, engine } = await setup();
    const orders = await subscribe('orders', sqs.createQueue(`${projectKey}-orders`));
    // A queue that does not exist: a configuration failure, retried.
    await subscribe('audit', `${sqs.endpoint}/000000000000/${projectKey}-missing`);
    const before = await scrape();
    const ordersLabels = { project: projectKey, subscription: 'orders', destination_type: 'SQS' };
    const auditLabels = { project: projectKey, subscription: 'audit', destination_type: 'SQS' };
    expect(value(before, DELIVERY_METRIC.deliveries, { ...ordersLabels, outcome: 'delivered' })).toBe(0);
    expect(value(before, DELIVERY_METRIC.retries, { ...auditLabels, failure_class: 'configuration' })).toBe(0);

    await deliverStores(1);
    const after = await scrape();
    expect(value(after, DELIVERY_METRIC.deliveries, { ...ordersLabels, outcome: 'delivered' })).toBe(1);
    expect(value(after, `${DELIVERY_METRIC.latency}_count`, ordersLabels)).toBe(1);
    expect(value(after, DELIVERY_METRIC.attempts, { ...auditLabels, outcome: 'configuration' })).toBe(1);
    expect(value(after, DELIVERY_METRIC.retries, { ...auditLabels, failure_class: 'configuration' })).toBe(1);

    // Deleting a subscription drops its pending deliveries: counted under its key, not its id.
    await writeStores(documents, projectKey, 2);
    while ((await engine.router.routeOnce()).events > 0);
    const audit = (await documents.get<Subscription>(projectKey, 'subscription', { key: 'audit' })) as Subscription;
    await documents.delete({ projectKey }, 'subscription', { id: audit.id }, audit.version);
    await engine.admin.forgetSubscription(projectKey, audit.id);
    const dropped = await scrape();
    expect(value(dropped, DELIVERY_METRIC.dropped, { ...auditLabels, reason: 'SubscriptionDeleted' })).toBe(3);
    expect(value(dropped, DELIVERY_METRIC.deliveries, { ...auditLabels, outcome: 'dropped' })).toBe(3);
    expect(dropped.filter((s) => s.labels.subscription === audit.id || s.labels.subscription === orders.id)).toEqual([]);
  });

  it('counts deliveries of a subscription deleted under a sender by the name it had', async () => {
    const { projectKey, subscribe, scrape, documents, engine } = await setup();
    const orders = await subscribe('orders', sqs.createQueue(`${projectKey}-orders`));
    await scrape();
    await writeStores(documents, projectKey, 2);
    while ((await engine.router.routeOnce()).events > 0);
    // Deleted without the gateway's forgetSubscription (another process): the sender drops them.
    await documents.delete({ projectKey }, 'subscription', { id: orders.id }, orders.version);
    while ((await engine.sender.sendOnce()).claimed > 0);
    const samples = await scrape();
    expect(
      value(samples, DELIVERY_METRIC.dropped, { project: projectKey, subscription: 'orders', destination_type: 'SQS', reason: 'SubscriptionDeleted' }),
    ).toBe(2);
  });

  it('exports the running workers of the process: 1 while a worker runs, 0 once it stopped', async () => {
    const registry = new Registry();
    const worker = startDeliveryWorker({ db: database.db, logger: silentLogger, adapters: pool, registry }, { pollIntervalMs: 50 });
    const workers = async () => value(parseExposition(await registry.metrics()), DELIVERY_METRIC.workers, {});
    try {
      expect(await workers()).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(await workers()).toBe(0);
  });
});
