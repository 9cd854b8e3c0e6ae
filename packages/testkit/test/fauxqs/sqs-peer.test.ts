import { GetQueueAttributesCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '../../src/peers/fauxqs.js';

let peer: SqsPeer;

beforeEach(async () => {
  peer = await startSqsPeer({ region: 'eu-west-1' });
});
afterEach(async () => {
  await peer.stop();
});

const clientConfig = () => ({ endpoint: peer.endpoint, region: peer.region, credentials: peer.credentials, maxAttempts: 1 });

/** Runs `action`, which must fail, and returns what it threw. */
async function failure(action: () => Promise<unknown>): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('SQS/SNS peer (fauxqs) with the real AWS SDK clients', () => {
  it('delivers single and batched messages intact, with attributes', async () => {
    const queueUrl = peer.createQueue('deliveries');
    const sqs = new SQSClient(clientConfig());
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify({ id: 'm-0', note: 'grüße ✓' }),
        MessageAttributes: { type: { DataType: 'String', StringValue: 'OrderCreated' } },
      }),
    );
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: Array.from({ length: 10 }, (_, i) => ({ Id: `e${i}`, MessageBody: JSON.stringify({ id: `m-${i + 1}` }) })),
      }),
    );

    const sent = await peer.waitForMessages(queueUrl, 11);
    expect(sent).toHaveLength(11);
    const drained = await peer.receiveAll(queueUrl);
    expect(drained.map((message) => (JSON.parse(message.body) as { id: string }).id).sort()).toEqual(Array.from({ length: 11 }, (_, i) => `m-${i}`).sort());
    const first = drained.find((message) => message.body.includes('m-0'));
    expect(JSON.parse(first?.body ?? '')).toEqual({ id: 'm-0', note: 'grüße ✓' });
    expect(first?.messageAttributes['type']).toMatchObject({ DataType: 'String', StringValue: 'OrderCreated' });
    expect(await peer.receiveAll(queueUrl)).toEqual([]);
    sqs.destroy();
  });

  it('creates queues limited to 256 KiB messages, as the spec requires', async () => {
    const queueUrl = peer.createQueue('limited');
    const sqs = new SQSClient(clientConfig());
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['MaximumMessageSize'] }));
    expect(Attributes?.['MaximumMessageSize']).toBe('262144');

    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'a'.repeat(262_144) }));
    const error = await failure(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'a'.repeat(262_145) })));
    // The SDK names the error after the query-compatible code fauxqs sends,
    // 'AWS.SimpleQueueService.InvalidParameterValue' (the JSON __type is 'com.amazonaws.sqs#InvalidParameterValue').
    expect(error.name).toMatch(/InvalidParameterValue$/);
    expect(error.message).toContain('262144');
    expect(await peer.receiveAll(queueUrl)).toHaveLength(1);
    sqs.destroy();
  });

  it('creates FIFO queues that keep group order', async () => {
    const queueUrl = peer.createFifoQueue('ordered');
    expect(queueUrl.endsWith('/ordered.fifo')).toBe(true);
    const sqs = new SQSClient(clientConfig());
    for (let i = 0; i < 3; i++) {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: `m-${i}`, MessageGroupId: 'orders/o-1', MessageDeduplicationId: `d-${i}` }));
    }
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['FifoQueue', 'MaximumMessageSize'] }));
    expect(Attributes).toMatchObject({ FifoQueue: 'true', MaximumMessageSize: '262144' });
    const drained = await peer.receiveAll(queueUrl);
    expect(drained.map((message) => message.body)).toEqual(['m-0', 'm-1', 'm-2']);
    expect(drained[0]?.attributes['MessageGroupId']).toBe('orders/o-1');
    sqs.destroy();
  });

  it('fans SNS out to queues, raw or in the SNS envelope', async () => {
    const topicArn = peer.createTopic('events');
    const rawQueue = peer.createQueue('raw');
    const wrappedQueue = peer.createQueue('wrapped');
    peer.subscribeQueue(topicArn, rawQueue, { raw: true });
    peer.subscribeQueue(topicArn, wrappedQueue);

    const sns = new SNSClient(clientConfig());
    await sns.send(new PublishCommand({ TopicArn: topicArn, Message: JSON.stringify({ id: 'n-1' }) }));

    await peer.waitForMessages(rawQueue, 1);
    await peer.waitForMessages(wrappedQueue, 1);
    const [raw] = await peer.receiveAll(rawQueue);
    expect(JSON.parse(raw?.body ?? '')).toEqual({ id: 'n-1' });
    const [wrapped] = await peer.receiveAll(wrappedQueue);
    expect(JSON.parse(wrapped?.body ?? '')).toMatchObject({ Type: 'Notification', TopicArn: topicArn, Message: JSON.stringify({ id: 'n-1' }) });
    sns.destroy();
  });

  it('answers QueueDoesNotExist for an unknown queue', async () => {
    const sqs = new SQSClient(clientConfig());
    const missing = peer.createQueue('present').replace('present', 'absent');
    const error = await failure(() => sqs.send(new SendMessageCommand({ QueueUrl: missing, MessageBody: 'x' })));
    expect(error.name).toBe('QueueDoesNotExist');
    sqs.destroy();
  });

  it('waitForMessages rejects when too few messages arrive in time', async () => {
    const queueUrl = peer.createQueue('quiet');
    await expect(peer.waitForMessages(queueUrl, 1, 50)).rejects.toThrow();
  });
});
