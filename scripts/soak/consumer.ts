/**
 * The soak run's downstream service, in its own process: `@herald/consumer` with a real Redis
 * (`RedisDedupStore`), per-resource ordering, and an `SqsPoller` on the peer's queue. The handler
 * appends `<dedup key> <Date.now()> <payload time ms> <instance> <gap|late|->` to HANDLED with a
 * synchronous write (it is in the page cache before the handler returns, so a kill -9 cannot lose a
 * record of an execution). Several instances append to the same file (O_APPEND: one line per
 * write, never interleaved), so its order is the order in which handlers ran, across instances.
 * Every message received from SQS is appended to RECEIVED as `<SQS MessageId> <dedup key>`, to
 * tell copies Herald sent twice (two MessageIds) from SQS redeliveries (one MessageId, received
 * again). The consumer's own counters are printed to stdout as JSON every 2 s.
 *
 *   node --conditions=@herald/source --import tsx scripts/soak/consumer.ts '<json config>'
 */
import { openSync, writeSync } from 'node:fs';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createConsumer, RedisDedupStore, SqsPoller } from '@herald/consumer';
import { deduplicationKey, type DeliveryPayload } from '@herald/model';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';

interface ConsumerConfig {
  redisUrl: string;
  sqsEndpoint: string;
  queueUrl: string;
  handled: string;
  received: string;
  maxWaitMs: number;
  ordering: boolean;
  maxInFlight: number;
  concurrency: number;
  /** Written with each handler record: which instance ran it. */
  instance: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ConsumerConfig;
const handled = openSync(config.handled, 'a');
const received = openSync(config.received, 'a');

const registry = new Registry();
const redis = new Redis(config.redisUrl);
redis.on('error', () => {
  // reconnects by itself; the consumer fails closed meanwhile
});
const consumer = createConsumer({
  dedup: new RedisDedupStore({ redis }),
  ...(config.ordering ? { ordering: { maxWaitMs: config.maxWaitMs } } : {}),
  concurrency: config.concurrency,
  metrics: { registry },
  handler: (delivery, context) => {
    const payload = delivery.payload as { modifiedAt?: string; createdAt?: string };
    const at = Date.parse(payload.modifiedAt ?? payload.createdAt ?? '');
    const released = context.gap !== undefined ? 'gap' : context.late !== undefined ? 'late' : '-';
    writeSync(handled, `${context.dedupKey} ${Date.now()} ${Number.isNaN(at) ? -1 : at} ${config.instance} ${released}\n`);
  },
});

const client = new SQSClient({
  region: 'us-east-1',
  endpoint: config.sqsEndpoint,
  credentials: { accessKeyId: 'soak', secretAccessKey: 'soak' },
});
// Records every received message (MessageId, dedup key) as the SDK returns it.
client.middlewareStack.add(
  (next) => async (args) => {
    const result = await next(args);
    const output = result.output as { Messages?: { MessageId?: string; Body?: string }[] } | undefined;
    if (Array.isArray(output?.Messages)) {
      let lines = '';
      for (const message of output.Messages) {
        let key = '?';
        try {
          key = deduplicationKey(JSON.parse(message.Body ?? '') as DeliveryPayload);
        } catch {
          // not a Platform payload
        }
        lines += `${message.MessageId ?? '?'} ${key}\n`;
      }
      if (lines !== '') writeSync(received, lines);
    }
    return result;
  },
  { step: 'initialize', name: 'soakReceiveRecorder' },
);

const poller = new SqsPoller({ client, consumer }, { queueUrl: config.queueUrl, waitTimeSeconds: 1, maxInFlight: config.maxInFlight });
poller.start();

async function counters(): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const metric of await registry.getMetricsAsJSON()) {
    if (String(metric.type) !== 'counter') continue;
    for (const value of metric.values) {
      const label = metric.name === 'herald_consumer_deferred_total' ? `${metric.name}{${String(value.labels.reason)}}` : metric.name;
      sums[label] = (sums[label] ?? 0) + value.value;
    }
  }
  return sums;
}

const timer = setInterval(() => {
  void counters().then((sums) => process.stdout.write(`${JSON.stringify({ type: 'counters', ...sums })}\n`));
}, 2_000);
process.stdout.write(`${JSON.stringify({ type: 'ready' })}\n`);

process.on('SIGTERM', () => {
  clearInterval(timer);
  void (async () => {
    await poller.stop();
    process.stdout.write(`${JSON.stringify({ type: 'counters', ...(await counters()) })}\n`);
    await consumer.close();
    redis.disconnect();
    process.exit(0);
  })();
});
