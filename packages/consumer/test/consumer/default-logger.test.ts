import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsumer, createJsonLogger, MemoryDedupStore, RedisDedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { elapse, sqs } from '../support/deliveries.js';
import { ManualClock } from '../support/manual-clock.js';

/*
 * The default logger is not silent: a poison (dead-lettered) input, a gap and a Redis outage are
 * written at warn as pino-compatible JSON lines (standard error by default), and the logger can be
 * replaced.
 */

interface Line {
  readonly level: number;
  readonly msg?: string;
  readonly component?: string;
  readonly [field: string]: unknown;
}

function capture() {
  const lines: Line[] = [];
  return { lines, logger: createJsonLogger({ write: (line) => void lines.push(JSON.parse(line) as Line) }) };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the default logger', () => {
  const restore: (() => void)[] = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  it('writes a dead-lettered poison message to standard error at warn, as JSON', async () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    restore.push(() => (process.stderr.write = original));
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: () => undefined });
    expect((await consumer.process({ source: 'sqs', body: '{"not":"a delivery"}' })).action).toBe('dead-letter');
    restore.pop()?.();
    const lines = written.map((line) => JSON.parse(line) as Line);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, component: 'herald-consumer', msg: 'input is not a delivery: dead-lettered', decision: 'dead-letter' }),
    );
  });

  it('reports a gap at warn', async () => {
    const clock = new ManualClock();
    const { lines, logger } = capture();
    const consumer = createConsumer({ dedup: new MemoryDedupStore({ clock }), clock, logger, ordering: { maxWaitMs: 1_000 }, handler: () => undefined });
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await elapse(clock, 1_500);
    await third;
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, gap: expect.objectContaining({ reason: 'timeout', lastReleased: 1, released: 3 }) }));
  });

  it('reports a Redis outage at warn, with the error serialised', async () => {
    const redis = new Redis({
      host: '127.0.0.1',
      port: await closedPort(),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    redis.on('error', () => undefined);
    restore.push(() => redis.disconnect());
    const { lines, logger } = capture();
    const consumer = createConsumer({ dedup: new RedisDedupStore({ redis }), logger, handler: () => undefined });
    expect((await consumer.process(sqs(messagePayload(1)))).items[0]).toMatchObject({ status: 'deferred', reason: 'store-unavailable' });
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'dedup store unreachable',
        err: expect.objectContaining({ message: expect.any(String), stack: expect.any(String) }),
      }),
    );
  });

  it('leaves out lines below its level', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'warn', write: (line) => void lines.push(line) });
    logger.info({}, 'not written');
    logger.error({ detail: 1 }, 'written');
    expect(lines.map((line) => JSON.parse(line) as Line)).toEqual([expect.objectContaining({ level: 50, msg: 'written', detail: 1 })]);
  });
});
