import { PubSub, v1, type CallOptions, type Topic } from '@google-cloud/pubsub';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPubSubPeer, type PubSubPeer } from '../../src/peers/pubsub/index.js';
import { failure, generatedClientOptions, NO_RETRY } from './sdk.js';

let peer: PubSubPeer;
let pubsub: PubSub;

beforeEach(async () => {
  peer = await startPubSubPeer();
  peer.createTopic('orders');
  pubsub = new PubSub({ projectId: peer.projectId, apiEndpoint: peer.apiEndpoint });
});
afterEach(async () => {
  await pubsub.close();
  await peer.stop();
});

const topic = (name = 'orders', gaxOpts: CallOptions = NO_RETRY): Topic =>
  pubsub.topic(name, { gaxOpts, batching: { maxMessages: 1000, maxMilliseconds: 20 } });

describe('Pub/Sub peer with the real PubSub client: publishing', () => {
  it('receives a single message intact, with attributes and ordering key', async () => {
    const ordered = pubsub.topic('orders', { gaxOpts: NO_RETRY, messageOrdering: true });
    const messageId = await ordered.publishMessage({
      json: { orderId: 'o-1', note: 'grüße ✓' },
      attributes: { type: 'OrderCreated', resource: 'orders/o-1' },
      orderingKey: 'orders/o-1',
    });

    const [message] = await peer.waitFor('orders', 1);
    expect(message).toMatchObject({
      messageId,
      json: { orderId: 'o-1', note: 'grüße ✓' },
      attributes: { type: 'OrderCreated', resource: 'orders/o-1' },
      orderingKey: 'orders/o-1',
    });
    expect(message?.data.toString('utf8')).toBe(JSON.stringify({ orderId: 'o-1', note: 'grüße ✓' }));
  });

  it('receives a batch in one Publish request, in order', async () => {
    const orders = topic();
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => orders.publishMessage({ json: { i } })));

    const messages = await peer.waitFor('orders', 50);
    expect(messages.map((message) => message.json)).toEqual(Array.from({ length: 50 }, (_, i) => ({ i })));
    expect(messages.map((message) => message.messageId)).toEqual(ids);
    expect(peer.publishBatchSizes('orders')).toEqual([50]);
  });

  it('answers GetTopic and Create/DeleteTopic', async () => {
    const [exists] = await pubsub.topic('orders').exists();
    expect(exists).toBe(true);
    await pubsub.createTopic('invoices');
    const error = await failure(() => pubsub.createTopic('invoices'));
    expect(error.code).toBe(6); // ALREADY_EXISTS
    await pubsub.topic('invoices').delete();
    const [gone] = await pubsub.topic('invoices').exists();
    expect(gone).toBe(false);
  });

  it('refuses a Publish to a topic that does not exist with NOT_FOUND', async () => {
    const error = await failure(() => topic('missing').publishMessage({ json: { a: 1 } }));
    expect(error.code).toBe(5);
    expect(error.details).toContain('missing');
  });

  it('refuses more than 1000 messages in one request with INVALID_ARGUMENT', async () => {
    // The high-level client caps its batches at 1000, so go through the generated client.
    const client = new v1.PublisherClient(await generatedClientOptions(pubsub));
    const messages = Array.from({ length: 1001 }, (_, i) => ({ data: Buffer.from(String(i)) }));
    const error = await failure(() => client.publish({ topic: `projects/${peer.projectId}/topics/orders`, messages }, NO_RETRY));
    expect(error.code).toBe(3);
    expect(peer.published('orders')).toHaveLength(0);

    const [accepted] = await client.publish({ topic: `projects/${peer.projectId}/topics/orders`, messages: messages.slice(0, 1000) }, NO_RETRY);
    expect(accepted.messageIds).toHaveLength(1000);
    await client.close();
  });

  it('refuses a request over 10 MB with INVALID_ARGUMENT and accepts one just under it', async () => {
    // The high-level client splits batches by size itself, so send whole requests directly.
    const client = new v1.PublisherClient(await generatedClientOptions(pubsub));
    const topicName = `projects/${peer.projectId}/topics/orders`;
    const [accepted] = await client.publish({ topic: topicName, messages: [{ data: Buffer.alloc(9_900_000, 'a') }] }, NO_RETRY);
    expect(accepted.messageIds).toHaveLength(1);

    const twoHalves = [{ data: Buffer.alloc(5_000_000, 'b') }, { data: Buffer.alloc(5_000_000, 'c') }];
    const error = await failure(() => client.publish({ topic: topicName, messages: twoHalves }, NO_RETRY));
    expect(error.code).toBe(3);
    expect(error.details).toContain('request_size');
    expect(peer.published('orders')).toHaveLength(1);
    await client.close();
  });

  describe('faults', () => {
    it.each([
      ['unknown-entity', 5],
      ['bad-credentials', 7],
      ['throttled', 8],
      ['server-error', 14],
      ['payload-too-large', 3],
    ] as const)('%s surfaces as gRPC code %i', async (kind, code) => {
      peer.faults.inject({ kind }, 1);
      const error = await failure(() => topic().publishMessage({ json: { f: 1 } }));
      expect(error.code).toBe(code);
      expect(peer.published('orders')).toHaveLength(0);
      // The fault applied once.
      await topic().publishMessage({ json: { f: 2 } });
      expect(peer.published('orders')).toHaveLength(1);
    });

    it('a transient fault is retried by the SDK when its retry codes include it', async () => {
      peer.faultsOn('Publish').inject({ kind: 'server-error' }, 2);
      const retrying: CallOptions = {
        retry: {
          retryCodes: [14],
          backoffSettings: {
            initialRetryDelayMillis: 1,
            retryDelayMultiplier: 1,
            maxRetryDelayMillis: 1,
            initialRpcTimeoutMillis: 5_000,
            rpcTimeoutMultiplier: 1,
            maxRpcTimeoutMillis: 5_000,
            totalTimeoutMillis: 10_000,
          },
        },
      };
      await topic('orders', retrying).publishMessage({ json: { r: 1 } });
      expect(peer.requests('Publish')).toBe(3);
      expect(peer.published('orders')).toHaveLength(1);
    });

    it('hang ends in DEADLINE_EXCEEDED at the client timeout', async () => {
      peer.faults.inject({ kind: 'hang' }, 1);
      const error = await failure(() => topic('orders', { ...NO_RETRY, timeout: 300 }).publishMessage({ json: { h: 1 } }));
      expect(error.code).toBe(4);
      expect(peer.published('orders')).toHaveLength(0);
    });

    it('drop-connection surfaces as UNAVAILABLE', async () => {
      peer.faults.inject({ kind: 'drop-connection' }, 1);
      const error = await failure(() => topic().publishMessage({ json: { d: 1 } }));
      expect(error.code).toBe(14);
      expect(peer.published('orders')).toHaveLength(0);
    });
  });
});
