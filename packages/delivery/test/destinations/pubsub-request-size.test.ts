import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryPayload, Format } from '@herald/model';
import { startPubSubPeer, type PubSubPeer } from '@herald/testkit';
import type { DestinationAdapter, EncodedMessage } from '../../src/destinations/port.js';
import { PUBSUB_LIMITS } from '../../src/destinations/pubsub/encode.js';
import { createDestinationEnvironment, DestinationPool } from '../../src/index.js';
import { messageOfFormattedBytes, messagePayload } from './support/payloads.js';

/**
 * Pub/Sub's 10 MB limit applies to the serialized Publish request (the peer, like the service,
 * counts 10,000,000 bytes of it): the topic name and the protobuf framing of every message and
 * attribute count as well as the data. A request over it is refused as a whole with
 * INVALID_ARGUMENT, a `payload` error, so Herald must size messages and plan requests by the
 * request's bytes, or it drops messages that fit on their own.
 */
const PLATFORM: Format = { type: 'Platform' };
const CLOUD_EVENTS: Format = { type: 'CloudEvents', cloudEventsVersion: '1.0' };
const CONTEXT = { subscriptionId: '5f0e5a43-0000-4000-8000-00000000beef' };
/** The longest names Pub/Sub accepts: project ids have at most 30 characters, topic ids 255. */
const LONGEST_PROJECT_ID = 'herald-longest-project-id-0030';
const LONGEST_TOPIC_ID = 'longest-topic-'.padEnd(255, 'x');

/** Bytes the topic field takes in a Publish request: tag, one-byte length (names under 128 bytes), name. */
const shortTopicFieldBytes = (projectId: string, topic: string): number => 2 + Buffer.byteLength(`projects/${projectId}/topics/${topic}`);

/** Data of `dataBytes` in a message without attributes takes 10 bytes of framing at this size (two tags, two 4-byte lengths). */
const FRAMING_OF_LARGE_MESSAGE = 10;

describe('Pub/Sub adapter: the Publish request limit', () => {
  let peer: PubSubPeer;
  let pool: DestinationPool;
  let topicCounter = 0;

  beforeAll(async () => {
    peer = await startPubSubPeer({ projectId: LONGEST_PROJECT_ID });
    pool = new DestinationPool(createDestinationEnvironment({ endpoints: { pubsub: peer.apiEndpoint }, timeouts: { sendMs: 20_000 } }));
  });

  afterAll(async () => {
    await pool?.closeAll();
    await peer?.stop();
  });

  function freshTopic(name = `request-size-${++topicCounter}`): { topic: string; adapter: DestinationAdapter } {
    peer.createTopic(name);
    return { topic: name, adapter: pool.get({ type: 'ProviderCPubSub', projectId: peer.projectId, topic: name }) };
  }

  function encode(adapter: DestinationAdapter, payload: DeliveryPayload, format: Format = PLATFORM): EncodedMessage {
    const result = adapter.encode(payload, format, CONTEXT);
    if (!result.ok) throw new Error(`encode failed: ${result.failure.message}`);
    return result.message;
  }

  it('sends messages whose data adds up to just under 10 MB in separate requests, none dropped', async () => {
    const { topic, adapter } = freshTopic();
    // 9,999,980 bytes of data: with the topic and the framing, more than one request can carry.
    const messages = [encode(adapter, messageOfFormattedBytes(1, 4_999_990, PLATFORM)), encode(adapter, messageOfFormattedBytes(2, 4_999_990, PLATFORM))];
    expect(messages.map((m) => m.payloadNotIncluded)).toEqual([false, false]);
    expect(await adapter.send(messages)).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
    expect(peer.publishBatchSizes(topic)).toEqual([1, 1]);
  });

  it('sends a message of just under 10 MB of data as payload-not-included, not into a refused request', async () => {
    const { topic, adapter } = freshTopic();
    const encoded = encode(adapter, messageOfFormattedBytes(3, 9_999_990, PLATFORM));
    expect(encoded.payloadNotIncluded).toBe(true);
    expect(await adapter.send([encoded])).toEqual([{ status: 'delivered' }]);
    expect(peer.published(topic)).toHaveLength(1);
  });

  it('delivers a message of exactly the largest size in full, on a topic with the longest name', async () => {
    const { topic, adapter } = freshTopic(LONGEST_TOPIC_ID);
    const largest = PUBSUB_LIMITS.maxMessageBytes - FRAMING_OF_LARGE_MESSAGE;
    const encoded = encode(adapter, messageOfFormattedBytes(4, largest, PLATFORM));
    expect(encoded).toMatchObject({ sizeBytes: PUBSUB_LIMITS.maxMessageBytes, payloadNotIncluded: false });
    // The request is then exactly 10,000,000 bytes: the most the peer accepts.
    expect(await adapter.send([encoded])).toEqual([{ status: 'delivered' }]);
    expect(peer.published(topic)[0]?.data.length).toBe(largest);
    expect(encode(adapter, messageOfFormattedBytes(5, largest + 1, PLATFORM)).payloadNotIncluded).toBe(true);
  });
});

describe('Pub/Sub adapter: message sizes', () => {
  let peer: PubSubPeer;
  let pool: DestinationPool;

  beforeAll(async () => {
    // Refuses every Publish, and says how large the request was: what the SDK really sent.
    peer = await startPubSubPeer({ maxRequestBytes: 0 });
    pool = new DestinationPool(createDestinationEnvironment({ endpoints: { pubsub: peer.apiEndpoint }, timeouts: { sendMs: 10_000 } }));
  });

  afterAll(async () => {
    await pool?.closeAll();
    await peer?.stop();
  });

  it.each([
    ['Platform', PLATFORM],
    ['CloudEvents (with an attribute)', CLOUD_EVENTS],
  ])('are each message’s exact share of the Publish request, in the %s format', async (_name, format) => {
    const topic = `sizes-${format.type}`;
    peer.createTopic(topic);
    const adapter = pool.get({ type: 'ProviderCPubSub', projectId: peer.projectId, topic });
    const messages = [messagePayload(1), messageOfFormattedBytes(2, 2_000, format), messageOfFormattedBytes(3, 20_000, format)].map((payload) => {
      const result = adapter.encode(payload, format, CONTEXT);
      if (!result.ok) throw new Error(result.failure.message);
      return result.message;
    });
    const outcomes = await adapter.send(messages);
    // Refused together, then one by one: each message's own request reports its size.
    const reported = outcomes.map((outcome) =>
      outcome.status === 'failed' ? /You passed (\d+) in the request/.exec(outcome.failure.message)?.[1] : undefined,
    );
    expect(reported).toEqual(messages.map((message) => String(shortTopicFieldBytes(peer.projectId, topic) + message.sizeBytes)));
  });
});
