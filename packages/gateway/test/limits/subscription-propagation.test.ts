/**
 * §8 "Subscription create, update, delete propagation: up to one minute" (§4.2 rule 2):
 * a delivery worker in another process (not told by the gateway; here: its own pool and admin,
 * with the worker's default subscription refresh) picks up a subscription created, changed and
 * deleted through the HTTP API well within a minute. The configurable refresh cannot exceed it.
 */
import { parseWorkerConfig } from '@herald/delivery';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller } from '../carts/commerce.js';
import { startTestDelivery, startTestGateway, stopTestDelivery, type TestDelivery, type TestGateway } from '../support/gateway.js';
import { REGION, sqsDestination, sqsDocuments } from '../subscriptions/support.js';

const P = 'limits-propagation';
/** Well within §8's minute; the default refresh is 2 s. */
const WITHIN_MS = 20_000;

describe('§8 subscription propagation (up to one minute)', { timeout: 90_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let worker: TestDelivery;
  let api: Caller;
  let stores = 0;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    // The gateway builds its own pool and admin (as with HERALD_DELIVERY=off): the worker below is
    // never told about subscription changes, it must find them itself.
    gateway = await startTestGateway({
      projects: [P],
      config: { delivery: parseWorkerConfig({ HERALD_SQS_ENDPOINT: sqs.endpoint, HERALD_ALLOW_INSECURE_DESTINATIONS: 'true' }) },
    });
    const defaults = parseWorkerConfig({});
    worker = startTestDelivery(gateway.db, {
      environment: { endpoints: { sqs: sqs.endpoint } },
      worker: { subscriptionRefreshMs: defaults.subscriptionRefreshMs },
    });
    api = await callerWith(gateway, P, ['manage_subscriptions', 'manage_stores']);
  });
  afterAll(async () => {
    await stopTestDelivery(worker);
    await gateway?.close();
    await sqs?.stop();
  });

  it('the worker refresh defaults to at most a minute and cannot be configured beyond it', () => {
    expect(parseWorkerConfig({}).subscriptionRefreshMs).toBeLessThanOrEqual(60_000);
    expect(() => parseWorkerConfig({ HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS: '60001' })).toThrow();
  });

  /** Writes a store every 250 ms until `queue` received a StoreCreated; returns how long that took. */
  async function untilDelivered(queue: string): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < WITHIN_MS) {
      await api.ok(`/${P}/stores`, { key: `prop-${++stores}` }, 201);
      await new Promise((resolve) => setTimeout(resolve, 250));
      const documents = sqsDocuments(await sqs.receiveAll(queue));
      if (documents.some((document) => document.type === 'StoreCreated')) return Date.now() - started;
    }
    return Number.POSITIVE_INFINITY;
  }

  it('a created subscription, a changeDestination and a delete take effect within the minute', async () => {
    const first = sqs.createQueue('prop-first');
    const second = sqs.createQueue('prop-second');
    const created = await api.ok(
      `/${P}/subscriptions`,
      { destination: sqsDestination(first), messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] },
      201,
    );
    await sqs.receiveAll(first); // the test notification
    expect(await untilDelivered(first)).toBeLessThan(WITHIN_MS);

    const changed = await api.ok(`/${P}/subscriptions/${created.id}`, {
      version: created.version,
      actions: [{ action: 'changeDestination', destination: sqsDestination(second) }],
    });
    await sqs.receiveAll(second); // the test notification
    expect(await untilDelivered(second)).toBeLessThan(WITHIN_MS);

    const deleted = await api.delete(`/${P}/subscriptions/${created.id}?version=${changed.version}`);
    expect(deleted.status).toBe(200);
    // After the refresh period nothing more arrives at the deleted subscription's queue.
    await new Promise((resolve) => setTimeout(resolve, parseWorkerConfig({}).subscriptionRefreshMs + 1_000));
    await sqs.receiveAll(second);
    await api.ok(`/${P}/stores`, { key: `prop-after-delete-${++stores}` }, 201);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(sqsDocuments(await sqs.receiveAll(second)).filter((document) => document.type === 'StoreCreated')).toEqual([]);
  });
});
