import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '../../../testkit/src/peers/fauxqs.js';
import { createConsumer, MemoryDedupStore, SqsPoller, type DedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { until } from '../support/until.js';

function queueState(peer: SqsPeer, queueUrl: string): { ready: number; inflight: number } {
  const name = new URL(queueUrl).pathname.split('/').pop() as string;
  const state = peer.fauxqs.inspectQueue(name);
  if (!state) throw new Error(`no queue ${name}`);
  return { ready: state.messages.ready.length + state.messages.delayed.length, inflight: state.messages.inflight.length };
}

/** A store whose Redis is unreachable (fail closed: every delivery is deferred as store-unavailable). */
function unreachableStore(): DedupStore {
  const memory = new MemoryDedupStore();
  const refuse = (): Promise<never> => Promise.reject(new Error('connect ECONNREFUSED'));
  return { kind: 'redis', keyPrefix: memory.keyPrefix, leaseMs: memory.leaseMs, claim: refuse, renew: refuse, release: refuse, complete: refuse, readPositions: refuse };
}

describe('SqsPoller.stop() with a message kept in hand (store-unavailable)', () => {
  let peer: SqsPeer;
  let client: SQSClient;

  beforeAll(async () => {
    peer = await startSqsPeer();
    client = new SQSClient({ endpoint: peer.endpoint, region: peer.region, credentials: peer.credentials, maxAttempts: 1 });
  });

  afterAll(async () => {
    client?.destroy();
    await peer?.stop();
  });

  it('returns the held message to the queue at once', async () => {
    const queueUrl = peer.createQueue('stop-in-hand');
    const consumer = createConsumer({ dedup: unreachableStore(), retry: { storeUnavailableMs: 30_000 }, handler: () => undefined });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    poller.start();
    await until(() => poller.inFlight === 1 && queueState(peer, queueUrl).inflight === 1, 'the message is held in hand', 5_000_000);
    await poller.stop();
    // Visible again at once for another instance, not after storeUnavailableMs (30 s here).
    expect(queueState(peer, queueUrl)).toEqual({ ready: 1, inflight: 0 });
  }, 30_000);
});
