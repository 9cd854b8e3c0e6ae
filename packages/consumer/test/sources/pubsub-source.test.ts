import { PubSub } from '@google-cloud/pubsub';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPubSubPeer, type PubSubPeer } from '@herald/testkit';
import { createConsumer, MemoryDedupStore, PubSubSource, type ConsumerOptions, type Delivery } from '../../src/index.js';
import { cloudEventOf, messagePayload } from '../support/fixtures.js';
import { until } from '../support/until.js';

let peer: PubSubPeer;
let pubsub: PubSub;
let source: PubSubSource | undefined;

beforeEach(async () => {
  peer = await startPubSubPeer();
  peer.createTopic('herald');
  peer.createSubscription('herald-sub', 'herald');
  pubsub = new PubSub({ projectId: peer.projectId, apiEndpoint: peer.apiEndpoint });
});

afterEach(async () => {
  await source?.stop();
  source = undefined;
  await pubsub.close();
  await peer.stop();
});

async function startSource(options: Partial<ConsumerOptions>, handled: Delivery[], flowControl?: { maxMessages: number }, maxHoldMs?: number): Promise<void> {
  const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: (delivery) => void handled.push(delivery), ...options });
  source = new PubSubSource({ pubsub, consumer }, { subscriptionName: 'herald-sub', flowControl, ...(maxHoldMs === undefined ? {} : { maxHoldMs }) });
  await source.start();
}

/** Publishes as Herald's ProviderCPubSub destination does (structured content mode for CloudEvents). */
async function publish(body: object, attributes: Record<string, string> = {}): Promise<string> {
  return pubsub.topic('herald').publishMessage({ data: Buffer.from(JSON.stringify(body)), attributes });
}

const sequenceOf = (delivery: Delivery | undefined) => (delivery?.notificationType === 'Message' ? delivery.payload.sequenceNumber : undefined);

describe('PubSubSource against the Pub/Sub peer (gRPC StreamingPull)', () => {
  it('acks structured CloudEvents and Platform messages after handling them in order', async () => {
    const handled: Delivery[] = [];
    // 'wait': m1 is published after m3 and m2; under the default 'hold' those would run after a
    // brief hold and m1 reach the handler marked late (nothing lost, but not the order tested here).
    await startSource({ ordering: { maxWaitMs: 30_000, unknownStart: 'wait' } }, handled);
    await publish(cloudEventOf(messagePayload(3)), { 'content-type': 'application/cloudevents+json' });
    const second = cloudEventOf(messagePayload(2));
    await publish(messagePayload(2), {
      'ce-specversion': '1.0',
      'ce-id': 'e-2',
      'ce-type': second.type,
      'ce-source': second.source,
      'content-type': 'application/json',
    });
    await publish(messagePayload(1));
    const acked = await peer.waitForAcked('herald-sub', 3);
    expect(acked).toHaveLength(3);
    expect(handled.map(sequenceOf)).toEqual([1, 2, 3]);
    expect(handled.map((delivery) => delivery.origin.cloudEventsMode)).toEqual([undefined, 'binary', 'structured']);
    expect(handled[0]?.origin).toMatchObject({ source: 'pubsub', transportMessageId: expect.any(String) });
    expect(handled[0]?.origin.sentAt).toBe(peer.published('herald')[2]?.publishTime.getTime());
    expect(peer.subscription('herald-sub')).toMatchObject({ pending: 0, outstanding: 0 });
  });

  it('nacks a message whose handler failed; the redelivery is processed and acked', async () => {
    const handled: Delivery[] = [];
    let failures = 1;
    await startSource(
      {
        retry: { failureBaseMs: 0 },
        handler: (delivery) => {
          if (failures-- > 0) throw new Error('downstream unavailable');
          handled.push(delivery);
        },
      },
      handled,
    );
    await publish(messagePayload(1));
    await peer.waitForAcked('herald-sub', 1);
    expect(handled).toHaveLength(1);
    expect(peer.subscription('herald-sub')).toMatchObject({ deliveries: 2, pending: 0, outstanding: 0 });
  });

  it('without a dead-letter policy (no server count) counts the attempts itself, so a failing handler backs off', async () => {
    const handled: Delivery[] = [];
    const attempts: (number | undefined)[] = [];
    const startedAt: number[] = [];
    await startSource(
      {
        retry: { failureBaseMs: 100, failureMaxMs: 10_000 },
        handler: (delivery, context) => {
          attempts.push(context.deliveryAttempt);
          startedAt.push(Date.now());
          if (attempts.length < 4) throw new Error('downstream unavailable');
          handled.push(delivery);
        },
      },
      handled,
    );
    await publish(messagePayload(1));
    await peer.waitForAcked('herald-sub', 1);
    expect(attempts).toEqual([1, 2, 3, 4]);
    // Held 100, 200, 400 ms before each nack: the delay doubles with the attempt.
    const gaps = startedAt.slice(1).map((at, index) => at - (startedAt[index] as number));
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[1]).toBeGreaterThanOrEqual(200);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
  });

  it('acks a duplicate without handling it again', async () => {
    const handled: Delivery[] = [];
    await startSource({}, handled);
    await publish(messagePayload(1));
    await publish(cloudEventOf(messagePayload(1)), { 'content-type': 'application/cloudevents+json' });
    await peer.waitForAcked('herald-sub', 2);
    expect(handled).toHaveLength(1);
  });

  it('never acks a poison message (the subscription’s dead-letter policy takes it), and nacks it after maxHoldMs, not at once', async () => {
    const handled: Delivery[] = [];
    await startSource({}, handled, undefined, 400);
    await publish({ hello: 'world' });
    const publishedAt = Date.now();
    await until(() => peer.subscription('herald-sub').deliveries >= 2, 'it is nacked and redelivered', 5_000_000);
    // Without a dead-letter policy, nacked at once it would loop as fast as the stream goes.
    expect(Date.now() - publishedAt).toBeGreaterThanOrEqual(400);
    await (source as PubSubSource).stop();
    source = undefined;
    expect(peer.subscription('herald-sub').acked).toEqual([]);
    expect(handled).toEqual([]);
  });

  it('keeps at most flowControl.maxMessages in hand', async () => {
    const handled: Delivery[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let maxRunning = 0;
    await startSource(
      {
        concurrency: 10,
        handler: async (delivery) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await released;
          running--;
          handled.push(delivery);
        },
      },
      handled,
      { maxMessages: 2 },
    );
    for (let index = 0; index < 5; index++) await publish(messagePayload(1, { id: `r${index}` }));
    await until(() => running === 2, 'two handlers run', 5_000_000);
    expect(source?.inFlight).toBe(2);
    release();
    await peer.waitForAcked('herald-sub', 5);
    expect(maxRunning).toBe(2);
    expect(handled).toHaveLength(5);
  });

  it('stop() keeps the message being handled leased and acks it when its handler ends', async () => {
    const handled: Delivery[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let running = false;
    await startSource(
      {
        handler: async (delivery) => {
          running = true;
          await released;
          handled.push(delivery);
        },
      },
      handled,
    );
    await publish(messagePayload(1));
    await until(() => running, 'the handler runs', 5_000_000);
    // The SDK's default close behaviour nacks every message in hand at once (and removing the last
    // 'message' listener closes it that way): the handler's ack would be lost.
    const stopping = (source as PubSubSource).stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const whileRunning = peer.subscription('herald-sub');
    release();
    await stopping;
    source = undefined;
    expect(whileRunning).toMatchObject({ outstanding: 1, deliveries: 1 });
    expect(peer.subscription('herald-sub')).toMatchObject({ deliveries: 1, pending: 0, outstanding: 0 });
    expect(peer.subscription('herald-sub').acked).toHaveLength(1);
    expect(handled).toHaveLength(1);
  });

  it('can be started again after stop()', async () => {
    const handled: Delivery[] = [];
    await startSource({}, handled);
    await (source as PubSubSource).stop();
    await (source as PubSubSource).start();
    await publish(messagePayload(1));
    await peer.waitForAcked('herald-sub', 1);
    expect(handled).toHaveLength(1);
  });
});
