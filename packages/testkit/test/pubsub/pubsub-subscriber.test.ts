import { once } from 'node:events';
import { PubSub, v1, type Message, type Subscription, type SubscriptionOptions } from '@google-cloud/pubsub';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPubSubPeer, type PubSubPeer } from '../../src/peers/pubsub/index.js';
import { failure, generatedClientOptions, NO_RETRY } from './sdk.js';

let peer: PubSubPeer;
let pubsub: PubSub;
const opened: Subscription[] = [];

beforeEach(async () => {
  peer = await startPubSubPeer();
  peer.createTopic('orders');
  peer.createSubscription('orders-sub', 'orders');
  pubsub = new PubSub({ projectId: peer.projectId, apiEndpoint: peer.apiEndpoint });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((subscription) => subscription.close()));
  await pubsub.close();
  await peer.stop();
});

/** A StreamingPull subscriber on one stream, so stream-level faults are deterministic. */
function subscribe(options: SubscriptionOptions = {}): Subscription {
  const subscription = pubsub.subscription('orders-sub', { streamingOptions: { maxStreams: 1 }, ...options });
  opened.push(subscription);
  return subscription;
}

function publish(...bodies: object[]): Promise<string[]> {
  const orders = pubsub.topic('orders', { gaxOpts: NO_RETRY });
  return Promise.all(bodies.map((json) => orders.publishMessage({ json, attributes: { kind: 'order' } })));
}

/** Collects delivered messages and resolves `until(n)` once n arrived: tests wait on deliveries, not on time. */
function collector(subscription: Subscription, onMessage: (message: Message, seen: Message[]) => void) {
  const seen: Message[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  subscription.on('message', (message: Message) => {
    seen.push(message);
    onMessage(message, seen);
    for (const waiter of waiters.filter((w) => seen.length >= w.count)) waiter.resolve();
  });
  return {
    seen,
    until: (count: number) => (seen.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
  };
}

describe('Pub/Sub peer with the real PubSub client: StreamingPull', () => {
  it('delivers published messages intact and records the acks', async () => {
    const received = collector(subscribe(), (message) => message.ack());
    const ids = await publish({ n: 1 }, { n: 2 }, { n: 3 });

    const acked = await peer.waitForAcked('orders-sub', 3);
    expect(acked.map((message) => message.messageId).sort()).toEqual([...ids].sort());
    expect(received.seen.map((message) => JSON.parse(message.data.toString('utf8')) as unknown)).toEqual(
      expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]),
    );
    expect(received.seen[0]?.attributes).toEqual({ kind: 'order' });
    expect(received.seen[0]?.publishTime.getTime()).toBe(peer.published('orders')[0]?.publishTime.getTime());
    expect(peer.subscription('orders-sub')).toMatchObject({ pending: 0, outstanding: 0, deliveries: 3 });
  });

  it('redelivers a nacked message', async () => {
    const deliveries = new Map<string, number>();
    collector(subscribe(), (message) => {
      const count = (deliveries.get(message.id) ?? 0) + 1;
      deliveries.set(message.id, count);
      if (count === 1) message.nack();
      else message.ack();
    });
    const [id] = await publish({ n: 'nack-me' });

    await peer.waitForAcked('orders-sub', 1);
    expect(deliveries.get(id ?? '')).toBe(2);
    expect(peer.subscription('orders-sub')).toMatchObject({ deliveries: 2, outstanding: 0, pending: 0 });
  });

  it('honours the flow control the client asks for on the stream', async () => {
    const held: Message[] = [];
    const received = collector(subscribe({ flowControl: { maxMessages: 2, allowExcessMessages: false } }), (message) => held.push(message));
    await publish({ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 });

    await received.until(2);
    // The peer leased only what the stream had room for; the rest waits on the server.
    expect(peer.subscription('orders-sub')).toMatchObject({ outstanding: 2, pending: 3 });

    held.shift()?.ack();
    await received.until(3);
    for (const message of held.splice(0)) message.ack();
    await received.until(5);
    for (const message of held.splice(0)) message.ack();
    await peer.waitForAcked('orders-sub', 5);
  });

  it('delivers messages of one ordering key in publish order', async () => {
    peer.createSubscription('ordered-sub', 'orders', { enableMessageOrdering: true });
    const subscription = pubsub.subscription('ordered-sub', { streamingOptions: { maxStreams: 2 } });
    opened.push(subscription);
    const received = collector(subscription, (message) => message.ack());
    const ordered = pubsub.topic('orders', { gaxOpts: NO_RETRY, messageOrdering: true });
    for (let i = 0; i < 10; i++) void ordered.publishMessage({ json: { i }, orderingKey: 'orders/o-1' });

    await received.until(10);
    expect(received.seen.map((message) => (JSON.parse(message.data.toString('utf8')) as { i: number }).i)).toEqual([...Array(10).keys()]);
  });

  describe('faults on the stream', () => {
    it.each([
      ['unknown-entity', 5],
      ['bad-credentials', 7],
    ] as const)('%s ends the subscription with code %i', async (kind, code) => {
      peer.faultsOn('StreamingPull').inject({ kind });
      const subscription = subscribe();
      subscription.on('message', (message: Message) => message.ack());
      const [error] = (await once(subscription, 'error')) as [{ code?: number }];
      expect(error.code).toBe(code);
    });

    it.each(['server-error', 'throttled', 'drop-connection'] as const)('%s is retried by the subscriber, which then receives', async (kind) => {
      // Published first: a dropped connection would also fail a Publish in flight on it.
      await publish({ n: 'waiting' });
      peer.faultsOn('StreamingPull').inject({ kind }, 1);
      collector(subscribe(), (message) => message.ack());
      await peer.waitForAcked('orders-sub', 1);
      expect(peer.requests('StreamingPull')).toBeGreaterThanOrEqual(2);
    });

    it('a subscription that does not exist ends with NOT_FOUND', async () => {
      const subscription = pubsub.subscription('missing-sub', { streamingOptions: { maxStreams: 1 } });
      opened.push(subscription);
      subscription.on('message', (message: Message) => message.ack());
      const [error] = (await once(subscription, 'error')) as [{ code?: number }];
      expect(error.code).toBe(5);
    });
  });
});

describe('Pub/Sub peer with the generated SubscriberClient: unary Pull', () => {
  const subscriptionName = () => `projects/${peer.projectId}/subscriptions/orders-sub`;

  it('pulls, nacks, pulls the redelivery and acks it', async () => {
    const client = new v1.SubscriberClient(await generatedClientOptions(pubsub));
    await publish({ n: 1 }, { n: 2 });

    const [first] = await client.pull({ subscription: subscriptionName(), maxMessages: 10 }, NO_RETRY);
    const received = first.receivedMessages ?? [];
    expect(received.map((r) => JSON.parse(Buffer.from(r.message?.data ?? '').toString('utf8')) as unknown)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(peer.subscription('orders-sub')).toMatchObject({ outstanding: 2, pending: 0 });

    await client.modifyAckDeadline({ subscription: subscriptionName(), ackIds: [received[1]?.ackId ?? ''], ackDeadlineSeconds: 0 }, NO_RETRY);
    await client.acknowledge({ subscription: subscriptionName(), ackIds: [received[0]?.ackId ?? ''] }, NO_RETRY);

    const [second] = await client.pull({ subscription: subscriptionName(), maxMessages: 10 }, NO_RETRY);
    expect(second.receivedMessages?.map((r) => r.message?.messageId)).toEqual([received[1]?.message?.messageId]);
    await client.acknowledge({ subscription: subscriptionName(), ackIds: [second.receivedMessages?.[0]?.ackId ?? ''] }, NO_RETRY);

    expect(peer.subscription('orders-sub')).toMatchObject({ outstanding: 0, pending: 0, deliveries: 3 });
    expect(peer.subscription('orders-sub').acked).toHaveLength(2);
    await client.close();
  });

  it('a Pull started before the publish returns the message', async () => {
    const client = new v1.SubscriberClient(await generatedClientOptions(pubsub));
    // Whether the Pull is already waiting when the message arrives or takes it on arrival, it
    // must answer with the message, not with an empty long-poll answer.
    const pulling = client.pull({ subscription: subscriptionName(), maxMessages: 5 }, { ...NO_RETRY, timeout: 10_000 });
    const [id] = await publish({ n: 'late' });

    const [response] = await pulling;
    expect(response.receivedMessages?.map((r) => r.message?.messageId)).toEqual([id]);
    await client.close();
  });

  it('answers NOT_FOUND for a subscription that does not exist', async () => {
    const client = new v1.SubscriberClient(await generatedClientOptions(pubsub));
    const error = await failure(() => client.pull({ subscription: `projects/${peer.projectId}/subscriptions/missing`, maxMessages: 1 }, NO_RETRY));
    expect(error.code).toBe(5);
    await client.close();
  });
});
