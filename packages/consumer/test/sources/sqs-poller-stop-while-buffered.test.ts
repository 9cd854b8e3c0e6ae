import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '../../../testkit/src/peers/fauxqs.js';
import { createConsumer, MemoryDedupStore, SqsPoller, type GapNotice } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { until } from '../support/until.js';

function queueState(peer: SqsPeer, queueUrl: string): { ready: number; inflight: number } {
  const name = new URL(queueUrl).pathname.split('/').pop() as string;
  const state = peer.fauxqs.inspectQueue(name);
  if (!state) throw new Error(`no queue ${name}`);
  return { ready: state.messages.ready.length + state.messages.delayed.length, inflight: state.messages.inflight.length };
}

describe('SqsPoller.stop() while a delivery waits in the reorder buffer', () => {
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

  it('hands the waiting message back to the queue instead of releasing it past a gap (which later drops its predecessor as stale)', async () => {
    const queueUrl = peer.createQueue('stop-buffered');
    // One store shared by both instances (a rolling deploy: A stops, B takes over).
    const store = new MemoryDedupStore();
    const handled: { instance: string; sequence: number; gap: GapNotice | undefined }[] = [];
    const consumerOf = (instance: string) =>
      createConsumer({
        dedup: store,
        ordering: { maxWaitMs: 1_000 },
        handler: (delivery, context) => {
          if (delivery.notificationType === 'Message') handled.push({ instance, sequence: delivery.payload.sequenceNumber, gap: context.gap });
        },
      });

    // Instance A receives m2 before m1 (Herald's deliveries are not ordered on the wire).
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
    await until(() => {
      const state = queueState(peer, queueUrl);
      return state.ready + state.inflight === 0 && pollerB.inFlight === 0;
    }, 'the queue is drained', 20_000_000);
    await pollerB.stop();
    await consumerB.close();

    // Both deliveries handled, in order, without a gap: m2 should have gone back to the queue on stop().
    expect(handled).toEqual([
      { instance: 'B', sequence: 1, gap: undefined },
      { instance: 'B', sequence: 2, gap: undefined },
    ]);
  }, 60_000);
});
