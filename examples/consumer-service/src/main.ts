/**
 * A downstream service that embeds @herald/consumer: it long-polls the SQS queue a Herald
 * subscription delivers to, deduplicates and orders the deliveries per resource in Redis, hands
 * them to its handler, and serves its metrics on GET /metrics (health on GET /healthz).
 * Environment: QUEUE_URL, SQS_ENDPOINT (LocalStack), AWS_REGION, REDIS_URL, PORT.
 */
import { createServer } from 'node:http';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createConsumer, RedisDedupStore, SqsPoller } from '@herald/consumer';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';

const env = process.env; // eslint-disable-line no-restricted-syntax -- the service's entry point
if (!env.QUEUE_URL) throw new Error('QUEUE_URL is required');
const registry = new Registry();
const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379');

const consumer = createConsumer({
  dedup: new RedisDedupStore({ redis }),
  ordering: { maxWaitMs: 10_000 },
  metrics: { registry },
  // Your business logic: resolve to acknowledge; throw to have the delivery retried later.
  handler(delivery, context) {
    const { resource } = delivery.payload;
    const detail = delivery.notificationType === 'Message' ? delivery.payload.type : `version ${delivery.payload.version}`;
    console.log(`${delivery.notificationType} ${resource.typeId}/${resource.id} ${detail ?? ''} (${context.dedupKey})`);
  },
});

const sqs = new SQSClient({ region: env.AWS_REGION ?? 'us-east-1', ...(env.SQS_ENDPOINT ? { endpoint: env.SQS_ENDPOINT } : {}) });
// Receive errors (a queue not created yet, an outage) are retried with backoff, here capped at 5 s.
const poller = new SqsPoller({ client: sqs, consumer }, { queueUrl: env.QUEUE_URL, backoff: { maxMs: 5_000 } });
poller.start();

const server = createServer((request, response) => {
  if (request.url !== '/metrics') return void response.writeHead(request.url === '/healthz' ? 200 : 404).end();
  void registry.metrics().then((text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text));
}).listen(Number(env.PORT ?? 9465));

process.once('SIGTERM', () => {
  // Stop receiving, let running handlers finish (their messages are deleted), then disconnect.
  void poller
    .stop()
    .then(() => consumer.close())
    .finally(() => (server.close(), redis.disconnect()));
});
