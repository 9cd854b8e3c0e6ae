import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import { labels, routingOutage, sqsDestination, sqsDocuments, type RoutingOutage } from './support.js';

const P = 'routing-starts';

/**
 * The router matches an event when it routes it, which after a worker outage can be hours after
 * the event was written. A subscription receives what it subscribed to when the event was written:
 * not the events written before it was created, nor those of a filter entry added later. Here no
 * worker runs while everything is written (as during an outage); one starts at the end.
 */
describe('Subscriptions receive only events written after they subscribed to them', { timeout: 60_000 }, () => {
  let outage: RoutingOutage;
  let sqs: SqsPeer;
  let api: Caller;
  const queues = { widened: '', late: '', narrowed: '' };
  const subscriptions: Record<string, Json> = {};
  const stores: Record<string, Json> = {};

  beforeAll(async () => {
    outage = await routingOutage(P);
    ({ sqs, caller: api } = outage);
    queues.widened = sqs.createQueue('widened');
    queues.late = sqs.createQueue('late');
    queues.narrowed = sqs.createQueue('narrowed');

    // Before any subscription.
    stores.a = await api.ok(`/${P}/stores`, { key: 'store-a', name: { en: 'A' } }, 201);

    // Subscribed to StoreCreated only; everything about store B's creation is written after that.
    subscriptions.widened = await api.ok(
      `/${P}/subscriptions`,
      { destination: sqsDestination(queues.widened), messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] },
      201,
    );
    // All store messages, narrowed later to StoreCreated.
    subscriptions.narrowed = await api.ok(
      `/${P}/subscriptions`,
      { destination: sqsDestination(queues.narrowed), messages: [{ resourceTypeId: 'store' }] },
      201,
    );
    stores.b = await api.ok(`/${P}/stores`, { key: 'store-b', name: { en: 'B' } }, 201);
    stores.b = await api.update(`/${P}/stores/${stores.b.id}`, 1, [{ action: 'setName', name: { en: 'B1' } }]);

    // Widened to every store message, and store changes added: from now on.
    await api.update(`/${P}/subscriptions/${subscriptions.widened.id}`, 1, [
      { action: 'setMessages', messages: [{ resourceTypeId: 'store' }] },
      { action: 'setChanges', changes: [{ resourceTypeId: 'store' }] },
    ]);
    // Narrowed: B's StoreNameSet:2 (written while subscribed to all) is no longer wanted.
    await api.update(`/${P}/subscriptions/${subscriptions.narrowed.id}`, 1, [
      { action: 'setMessages', messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] },
    ]);
    stores.b = await api.update(`/${P}/stores/${stores.b.id}`, 2, [{ action: 'setName', name: { en: 'B2' } }]);

    // Created after all of that.
    subscriptions.late = await api.ok(`/${P}/subscriptions`, { destination: sqsDestination(queues.late), changes: [{ resourceTypeId: 'store' }] }, 201);
    stores.c = await api.ok(`/${P}/stores`, { key: 'store-c', name: { en: 'C' } }, 201);

    // The worker comes back: it routes the whole backlog at once.
    outage.startRouting();
    await outage.routed(Object.values(subscriptions).map((subscription) => subscription.id as string));
  });

  afterAll(() => outage?.stop());

  const test = (name: string) => `subscription:${subscriptions[name]?.id}:ResourceCreated:1`;

  async function received(queue: string, count: number): Promise<string[]> {
    await sqs.waitForMessages(queue, count);
    return labels(sqsDocuments(await sqs.receiveAll(queue)));
  }

  it('a widened filter adds events written after the update; what it had subscribed to before keeps coming', async () => {
    const b = stores.b?.id as string;
    const c = stores.c?.id as string;
    expect(await received(queues.widened, 6)).toEqual(
      [
        test('widened'),
        `store:${b}:Message:StoreCreated:1`,
        `store:${b}:Message:StoreNameSet:3`,
        `store:${b}:ResourceUpdated:3`,
        `store:${c}:Message:StoreCreated:1`,
        `store:${c}:ResourceCreated:1`,
      ].sort(),
    );
  });

  it('a narrowed filter keeps what it still covers, from where it started', async () => {
    const b = stores.b?.id as string;
    const c = stores.c?.id as string;
    expect(await received(queues.narrowed, 3)).toEqual([test('narrowed'), `store:${b}:Message:StoreCreated:1`, `store:${c}:Message:StoreCreated:1`].sort());
  });

  it('a subscription created late receives nothing written before it', async () => {
    expect(await received(queues.late, 2)).toEqual([test('late'), `store:${stores.c?.id}:ResourceCreated:1`].sort());
  });
});
