import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqsDestination } from '@herald/model';
import { createDestinationEnvironment, DestinationPool } from '../../src/index.js';
import { sqsEndpoint } from '../../src/destinations/sqs/adapter.js';

/** §2.4: standard queues with the default 256 KiB maximum message size only. */
describe('SQS verify', () => {
  let fauxqs: FauxqsServer;
  let pool: DestinationPool;
  const credentials = { accessKey: 'AKIATEST', accessSecret: 'secret', region: 'us-east-1' };
  const context = { projectKey: 'p', subscriptionId: 's' };

  beforeAll(async () => {
    fauxqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
    pool = new DestinationPool(createDestinationEnvironment({ endpoints: { sqs: `http://127.0.0.1:${fauxqs.port}` } }));
  });

  afterAll(async () => {
    await pool.closeAll();
    await fauxqs.stop();
  });

  const destination = (queueUrl: string): SqsDestination => ({ type: 'SQS', queueUrl, ...credentials });

  it('accepts a standard queue with MaximumMessageSize 262144', async () => {
    const { queueUrl } = fauxqs.createQueue('standard', { attributes: { MaximumMessageSize: '262144' } });
    expect(await pool.get(destination(queueUrl)).verify(context)).toEqual({ ok: true });
  });

  it('rejects a FIFO queue as configuration', async () => {
    const { queueUrl } = fauxqs.createQueue('orders.fifo', { attributes: { FifoQueue: 'true' } });
    expect(await pool.get(destination(queueUrl)).verify(context)).toMatchObject({
      ok: false,
      failure: { class: 'configuration', code: 'FifoQueueNotSupported' },
    });
  });

  it('rejects another maximum message size as configuration', async () => {
    const { queueUrl } = fauxqs.createQueue('one-mib');
    expect(await pool.get(destination(queueUrl)).verify(context)).toMatchObject({
      ok: false,
      failure: { class: 'configuration', code: 'UnsupportedMaximumMessageSize' },
    });
  });

  it('reports a missing queue as configuration', async () => {
    const { queueUrl } = fauxqs.createQueue('gone');
    fauxqs.deleteQueue('gone');
    expect(await pool.get(destination(queueUrl)).verify(context)).toMatchObject({ ok: false, failure: { class: 'configuration' } });
  });

  it('derives the endpoint from a non-AWS queue URL, or uses the override', () => {
    const plain = createDestinationEnvironment();
    expect(sqsEndpoint('http://localhost:4566/000000000000/q', plain)).toBe('http://localhost:4566');
    expect(sqsEndpoint('https://sqs.eu-west-1.amazonaws.com/123456789012/q', plain)).toBeUndefined();
    expect(sqsEndpoint('https://sqs.eu-west-1.amazonaws.com/123456789012/q', createDestinationEnvironment({ endpoints: { sqs: 'http://127.0.0.1:9' } }))).toBe(
      'http://127.0.0.1:9',
    );
  });
});
