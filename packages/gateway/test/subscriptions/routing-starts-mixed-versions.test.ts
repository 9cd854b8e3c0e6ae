import type { BaseResource } from '@herald/model';
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { eventually, labels, routingOutage, sqsDestination, sqsDocuments, type RoutingOutage } from './support.js';

const P = 'routing-starts-mixed';

/**
 * During a rolling upgrade (gateways and workers share one PostgreSQL, each process migrates at
 * start) or after a rollback and a new upgrade, a build from before migration 008 updates
 * subscriptions on a migrated database: it writes the subscription document through the plain
 * DocumentStore and knows nothing of `subscription_routes` (as `gateway.documents` does here). The
 * router routes what the document subscribes to; rows that no longer match it only say from when,
 * and a key no row covers routes from the start (an extra event rather than a lost one).
 */
describe('A subscription widened by a 5a70bf2 gateway on a migrated database', { timeout: 60_000 }, () => {
  let outage: RoutingOutage;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let api: Caller;
  let queue: string;
  let subscription: Json;
  let store: Json;

  beforeAll(async () => {
    outage = await routingOutage(P);
    ({ sqs, gateway, caller: api } = outage);
    queue = sqs.createQueue('widened-by-old-code');
    // Created by an upgraded gateway: its routes are recorded.
    subscription = await api.ok(
      `/${P}/subscriptions`,
      { destination: sqsDestination(queue), messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] },
      201,
    );
    // Widened by a 5a70bf2 gateway: the document only.
    await gateway.gateway.documents.update<BaseResource & Json>({ projectKey: P }, 'subscription', { id: subscription.id as string }, 1, (current) => ({
      doc: { ...current, messages: [{ resourceTypeId: 'store' }], changes: [{ resourceTypeId: 'store' }] },
    }));
    expect(await api.read(`/${P}/subscriptions/${subscription.id}`)).toMatchObject({
      messages: [{ resourceTypeId: 'store' }],
      changes: [{ resourceTypeId: 'store' }],
    });
    store = await api.ok(`/${P}/stores`, { key: 'store-x', name: { en: 'X' } }, 201);
    store = await api.ok(`/${P}/stores/${store.id}`, { version: 1, actions: [{ action: 'setName', name: { en: 'X2' } }] });
    outage.startRouting();
    await eventually(async () => expect((await gateway.db.query('SELECT seq FROM outbox')).rows).toEqual([]));
    await outage.routed([subscription.id as string]);
  });

  afterAll(() => outage?.stop());

  it('receives every event its document subscribes to, written after the widening', async () => {
    await sqs.waitForMessages(queue, 2).catch(() => undefined);
    const received = labels(sqsDocuments(await sqs.receiveAll(queue))).filter((entry) => !entry.startsWith('subscription:'));
    expect(received).toEqual(
      [
        `store:${store.id}:Message:StoreCreated:1`,
        `store:${store.id}:Message:StoreNameSet:2`,
        `store:${store.id}:ResourceCreated:1`,
        `store:${store.id}:ResourceUpdated:2`,
      ].sort(),
    );
  });
});
