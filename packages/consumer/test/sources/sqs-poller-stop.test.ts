import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { createConsumer, MemoryDedupStore, SqsPoller, type DedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { fleet, HANDED_OVER_IN_ORDER } from '../support/handover.js';
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
  return {
    kind: 'redis',
    keyPrefix: memory.keyPrefix,
    leaseMs: memory.leaseMs,
    claim: refuse,
    renew: refuse,
    release: refuse,
    complete: refuse,
    readPositions: refuse,
  };
}

describe('SqsPoller.stop()', () => {
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

  it('hands the waiting message back to the queue instead of releasing it past a gap (which would make its predecessor late at the next instance)', async () => {
    const queueUrl = peer.createQueue('stop-buffered');

    // Instance A receives m2 before m1 (Herald's deliveries are not ordered on the wire).
    // One store shared by both instances (a rolling deploy: A stops, B takes over).
    const { handled, consumerOf } = fleet();
    const consumerA = consumerOf('A');
    const pollerA = new SqsPoller({ client, consumer: consumerA }, { queueUrl, waitTimeSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(2)) }));
    pollerA.start();
    await until(() => consumerA.bufferedCount === 1, 'm2 waits in A for m1', 5_000_000);

    // A is stopped (SIGTERM, as in the README: poller.stop() then consumer.close()). It will never
    // receive m1 now, yet m2 keeps waiting for it and is then released past the gap.
    await pollerA.stop();
    await consumerA.close();

    // m1 reaches the queue; instance B takes over.
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    const consumerB = consumerOf('B');
    const pollerB = new SqsPoller({ client, consumer: consumerB }, { queueUrl, waitTimeSeconds: 1 });
    pollerB.start();
    await until(
      () => {
        const state = queueState(peer, queueUrl);
        return state.ready + state.inflight === 0 && pollerB.inFlight === 0;
      },
      'the queue is drained',
      20_000_000,
    );
    await pollerB.stop();
    await consumerB.close();

    // Both deliveries handled, in order, without a gap: m2 should have gone back to the queue on stop().
    expect(handled).toEqual(HANDED_OVER_IN_ORDER);
  }, 60_000);

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
