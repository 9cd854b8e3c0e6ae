import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsumer, RedisDedupStore, type Delivery } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { redisSkipReason, startTestRedis } from '../support/redis.js';

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function unreachableRedis(port: number): Redis {
  // No offline queue and no reconnection: a command fails at once, as in an outage.
  const redis = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  redis.on('error', () => undefined);
  return redis;
}

const sqs = (sequenceNumber: number) => ({ source: 'sqs' as const, body: JSON.stringify(messagePayload(sequenceNumber)) });

describe('Redis unreachable', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });

  it.each([
    ['with ordering', { maxWaitMs: 1_000 }],
    ['without ordering', undefined],
  ])('fails closed by default (%s): nothing runs, nothing is acknowledged', async (_, ordering) => {
    const redis = unreachableRedis(await closedPort());
    clients.push(redis);
    const handled: Delivery[] = [];
    const consumer = createConsumer({
      dedup: new RedisDedupStore({ redis }),
      ordering,
      retry: { storeUnavailableMs: 7_000 },
      handler: (delivery) => void handled.push(delivery),
    });
    const log: string[] = [];
    const outcome = await consumer.process(sqs(1), {
      ack: () => void log.push('ack'),
      nack: (retryAfterMs) => void log.push(`nack:${retryAfterMs}`),
      deadLetter: () => void log.push('dead-letter'),
    });
    expect(outcome).toMatchObject({ action: 'nack', items: [{ status: 'deferred', reason: 'store-unavailable' }] });
    expect(log).toEqual(['nack:7000']);
    expect(handled).toEqual([]);
  });

  it('runs the handler anyway with failOpen', async () => {
    const redis = unreachableRedis(await closedPort());
    clients.push(redis);
    const handled: Delivery[] = [];
    const consumer = createConsumer({
      dedup: new RedisDedupStore({ redis }),
      ordering: { maxWaitMs: 1_000 },
      failOpen: true,
      handler: (delivery) => void handled.push(delivery),
    });
    expect(await consumer.process(sqs(1))).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
    expect(handled).toHaveLength(1);
  });
});

const skipRedis = redisSkipReason();
if (skipRedis) console.warn(`[consumer] skipping the Redis outage test: ${skipRedis}`);

describe.skipIf(skipRedis !== undefined)('Redis going away under a running consumer (redis-server)', () => {
  it('processes while it is up, defers while it is down', async () => {
    const server = await startTestRedis();
    if (process.env.REDIS_URL) {
      // Stopping a shared server is not ours to do.
      await server.stop();
      return;
    }
    const redis = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    await new Promise<void>((resolve) => (redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve())));
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: new RedisDedupStore({ redis }, { keyPrefix: 'outage' }),
      ordering: { maxWaitMs: 1_000 },
      handler: (delivery) => {
        if (delivery.notificationType === 'Message') handled.push(delivery.payload.sequenceNumber);
      },
    });
    try {
      expect((await consumer.process(sqs(1))).action).toBe('ack');
      await server.stop();
      await new Promise<void>((resolve) => (redis.status === 'end' ? resolve() : redis.once('end', () => resolve())));
      expect(await consumer.process(sqs(2))).toMatchObject({ action: 'nack', items: [{ status: 'deferred', reason: 'store-unavailable' }] });
      expect(handled).toEqual([1]);
    } finally {
      redis.disconnect();
      await server.stop();
    }
  });
});
