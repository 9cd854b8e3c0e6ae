import { ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { createConsumer, MemoryDedupStore, SqsPoller, type DedupStore, type Delivery, type Logger } from '../../src/index.js';
import { cloudEventOf, eventBridgeEnvelopeOf, messagePayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { until } from '../support/until.js';

/** SNS Publish over its query protocol (fauxqs does not check signatures; no SNS SDK needed here). */
async function snsPublish(endpoint: string, topicArn: string, message: string): Promise<void> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ Action: 'Publish', Version: '2010-03-31', TopicArn: topicArn, Message: message }).toString(),
  });
  if (!response.ok) throw new Error(`SNS Publish failed: ${response.status} ${await response.text()}`);
}

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function queueState(peer: SqsPeer, queueUrl: string): { ready: number; inflight: number; deadlines: number[] } {
  const name = new URL(queueUrl).pathname.split('/').pop() as string;
  const state = peer.fauxqs.inspectQueue(name);
  if (!state) throw new Error(`no queue ${name}`);
  return {
    ready: state.messages.ready.length + state.messages.delayed.length,
    inflight: state.messages.inflight.length,
    deadlines: state.messages.inflight.map((entry) => entry.visibilityDeadline),
  };
}

/** A store whose Redis is away while `down.value` (fail closed: deliveries deferred as store-unavailable). */
function storeAwayWhile(down: { value: boolean }): DedupStore {
  const memory = new MemoryDedupStore();
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      down.value ? Promise.reject(new Error('connect ECONNREFUSED')) : call(...args);
  return {
    kind: 'redis',
    keyPrefix: memory.keyPrefix,
    leaseMs: memory.leaseMs,
    claim: guard((requests) => memory.claim(requests)),
    renew: guard((leases) => memory.renew(leases)),
    release: guard((leases) => memory.release(leases)),
    complete: guard((requests) => memory.complete(requests)),
    readPositions: guard((streams) => memory.readPositions(streams)),
  };
}

describe('SqsPoller against fauxqs', () => {
  let peer: SqsPeer;
  let client: SQSClient;
  let queueNumber = 0;

  beforeAll(async () => {
    peer = await startSqsPeer();
    client = new SQSClient({ endpoint: peer.endpoint, region: peer.region, credentials: peer.credentials, maxAttempts: 1 });
  });

  afterAll(async () => {
    client?.destroy();
    await peer?.stop();
  });

  const newQueue = (attributes: Record<string, string> = {}) => peer.createQueue(`consumer-${queueNumber++}`, attributes);
  const queueWithRedrive = (maxReceiveCount: number) => {
    const dlqName = `consumer-dlq-${queueNumber++}`;
    const dlqUrl = peer.createQueue(dlqName);
    const deadLetterTargetArn = `arn:aws:sqs:${peer.region}:000000000000:${dlqName}`;
    return { dlqUrl, queueUrl: newQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn, maxReceiveCount }) }) };
  };

  it('receives raw, CloudEvents, SNS-enveloped and EventBridge-enveloped deliveries, in order, then deletes them', async () => {
    const queueUrl = newQueue();
    const topicArn = peer.createTopic('herald-deliveries');
    peer.subscribeQueue(topicArn, queueUrl);
    const handled: Delivery[] = [];
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), ordering: { maxWaitMs: 30_000 }, handler: (delivery) => void handled.push(delivery) });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1 });
    // Out of order on purpose, and one duplicate.
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(cloudEventOf(messagePayload(3))) }));
    await snsPublish(peer.endpoint, topicArn, JSON.stringify(messagePayload(2)));
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: eventBridgeEnvelopeOf(messagePayload(4)) }));
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    poller.start();
    await until(() => handled.length === 4 && poller.inFlight === 0, 'all four are handled and settled', 2_000_000);
    await poller.stop();
    expect(handled.map((delivery) => (delivery.notificationType === 'Message' ? delivery.payload.sequenceNumber : 0))).toEqual([1, 2, 3, 4]);
    expect(handled.map((delivery) => delivery.origin.envelope)).toEqual(['none', 'sns', 'none', 'eventbridge']);
    expect(handled[0]?.origin.sentAt).toBeTypeOf('number');
    await until(() => queueState(peer, queueUrl).ready + queueState(peer, queueUrl).inflight === 0, 'the queue is empty', 2_000_000);
  });

  it('keeps receiving while early deliveries wait in the reorder buffer, so a backlog out of order cannot stall it', async () => {
    // A backlog arriving in reverse (as after a destination outage): with 3 slots, the first
    // receives are all early deliveries waiting for predecessors that are still in the queue.
    const queueUrl = newQueue();
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore(),
      // 'wait': the backlog's start (m1) is received last; the default 'hold' would release m12 … m10
      // after a brief hold and hand the rest over marked late (nothing lost, but not in order).
      ordering: { maxWaitMs: 600_000, unknownStart: 'wait' },
      handler: (delivery) => void handled.push(delivery.notificationType === 'Message' ? delivery.payload.sequenceNumber : 0),
    });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1, maxInFlight: 3, batchSize: 3 });
    for (let sequence = 12; sequence >= 1; sequence--) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(sequence)) }));
    }
    poller.start();
    // Without the fix the poller waits for the 10-minute ordering window before receiving more.
    await until(() => handled.length === 12 && poller.inFlight === 0, 'the whole backlog is handled', 2_000_000);
    await poller.stop();
    expect(handled).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('returns a failed delivery to the queue after the retry delay and processes it on the next receive', async () => {
    const queueUrl = newQueue();
    let failures = 1;
    const attempts: (number | undefined)[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore(),
      retry: { failureBaseMs: 0 },
      handler: (_delivery, context) => {
        attempts.push(context.deliveryAttempt);
        if (failures-- > 0) throw new Error('downstream unavailable');
      },
    });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    poller.start();
    await until(() => attempts.length === 2 && poller.inFlight === 0, 'the second attempt succeeds', 5_000_000);
    await poller.stop();
    expect(attempts).toEqual([1, 2]);
    expect(queueState(peer, queueUrl)).toMatchObject({ ready: 0, inflight: 0 });
  });

  it('rides out a Redis outage with the message in hand: no receive counted toward the redrive policy per deferral', async () => {
    // Each deferral sent back to the queue was a receive more: an outage of storeUnavailableMs ×
    // maxReceiveCount moved valid deliveries, never handled, to the dead-letter queue.
    const { dlqUrl, queueUrl } = queueWithRedrive(2);
    const down = { value: true };
    const attempts: (number | undefined)[] = [];
    const consumer = createConsumer({
      dedup: storeAwayWhile(down),
      retry: { storeUnavailableMs: 200 },
      handler: (_delivery, context) => void attempts.push(context.deliveryAttempt),
    });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    poller.start();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(queueState(peer, queueUrl)).toMatchObject({ ready: 0, inflight: 1 });
    down.value = false;
    await until(() => attempts.length === 1 && poller.inFlight === 0, 'handled once Redis is back', 5_000_000);
    await poller.stop();
    expect(attempts).toEqual([1]);
    expect(queueState(peer, queueUrl)).toMatchObject({ ready: 0, inflight: 0 });
    expect(queueState(peer, dlqUrl)).toMatchObject({ ready: 0, inflight: 0 });
  });

  it('stop() during a Redis outage returns the held message to the queue', async () => {
    const { dlqUrl, queueUrl } = queueWithRedrive(2);
    const consumer = createConsumer({ dedup: storeAwayWhile({ value: true }), retry: { storeUnavailableMs: 200 }, handler: () => undefined });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    poller.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await poller.stop();
    const state = queueState(peer, queueUrl);
    expect(state.ready + state.inflight).toBe(1);
    expect(queueState(peer, dlqUrl)).toMatchObject({ ready: 0, inflight: 0 });
  });

  it('keeps a buffered message invisible past its visibility timeout until its predecessor arrives', async () => {
    const queueUrl = newQueue();
    const clock = new ManualClock(Date.now());
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore({ clock }),
      clock,
      // 'wait': m2 must still be waiting for m1 when the visibility timeout would have passed.
      ordering: { maxWaitMs: 60_000, unknownStart: 'wait' },
      handler: (delivery) => {
        if (delivery.notificationType === 'Message') handled.push(delivery.payload.sequenceNumber);
      },
    });
    const poller = new SqsPoller({ client, consumer, clock }, { queueUrl, waitTimeSeconds: 1, visibilityTimeoutSeconds: 10 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(2)) }));
    poller.start();
    await until(() => consumer.bufferedCount === 1, 'm2 waits for m1', 2_000_000);
    const [firstDeadline] = queueState(peer, queueUrl).deadlines;
    // Half the visibility timeout later (on the poller's clock), it is extended.
    clock.advance(5_000);
    await until(() => (queueState(peer, queueUrl).deadlines[0] ?? 0) > (firstDeadline ?? 0), 'the visibility is extended', 2_000_000);
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(messagePayload(1)) }));
    await until(() => handled.length === 2 && poller.inFlight === 0, 'both are handled', 2_000_000);
    await poller.stop();
    expect(handled).toEqual([1, 2]);
    expect(queueState(peer, queueUrl)).toMatchObject({ ready: 0, inflight: 0 });
  });

  it('holds at most maxInFlight messages whatever the batch size, and stop() waits for them', async () => {
    const queueUrl = newQueue();
    const handlerGate = gate();
    let running = 0;
    let done = 0;
    const consumer = createConsumer({
      dedup: new MemoryDedupStore(),
      concurrency: 10,
      handler: async () => {
        running++;
        await handlerGate.promise;
        done++;
      },
    });
    const poller = new SqsPoller({ client, consumer }, { queueUrl, waitTimeSeconds: 1, batchSize: 10, maxInFlight: 3 });
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: Array.from({ length: 8 }, (_, index) => ({ Id: String(index), MessageBody: JSON.stringify(messagePayload(1, { id: `r${index}` })) })),
      }),
    );
    poller.start();
    await until(() => running === 3, 'three handlers run', 2_000_000);
    expect(poller.inFlight).toBe(3);
    expect(queueState(peer, queueUrl)).toMatchObject({ inflight: 3, ready: 5 });
    const stopped = poller.stop();
    handlerGate.open();
    await stopped;
    expect(done).toBe(3);
    expect(queueState(peer, queueUrl)).toMatchObject({ inflight: 0, ready: 5 });
  });

  it('leaves a poison message for the redrive policy instead of deleting it', async () => {
    const queueUrl = newQueue();
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_fields, message) => void warnings.push(message ?? ''),
    };
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: () => undefined });
    const poller = new SqsPoller({ client, consumer, logger }, { queueUrl, waitTimeSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'not a delivery' }));
    poller.start();
    await until(() => warnings.includes('poison message left for the redrive policy'), 'it was settled as poison', 2_000_000);
    await poller.stop();
    // One more round trip to the queue, after anything the poller may have sent.
    await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 0 }));
    expect(queueState(peer, queueUrl)).toMatchObject({ inflight: 1, ready: 0 });
  });

  it('backs off on receive failures, on its clock', async () => {
    const clock = new ManualClock(Date.now());
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_fields, message) => void warnings.push(message ?? ''),
    };
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: () => undefined });
    const missing = `${peer.endpoint}/000000000000/does-not-exist`;
    const poller = new SqsPoller({ client, consumer, clock, logger }, { queueUrl: missing, waitTimeSeconds: 0, backoff: { initialMs: 1_000, maxMs: 1_000 } });
    poller.start();
    await until(() => warnings.length === 1, 'the first failure', 2_000_000);
    await until(() => clock.nextTimerAt() !== Number.POSITIVE_INFINITY, 'the backoff is scheduled');
    expect(warnings).toEqual(['SQS receive failed']);
    clock.advance(1_200);
    await until(() => warnings.length === 2, 'the retry after the backoff', 2_000_000);
    await poller.stop();
  });
});
