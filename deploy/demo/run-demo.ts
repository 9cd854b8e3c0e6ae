/**
 * The demo of docker-compose.yml (`docker compose --profile demo up demo`), end to end through
 * Herald's public API:
 *
 *   1. an API client for the demo project (from the bootstrap client of HERALD_BOOTSTRAP_CLIENT);
 *   2. an SQS queue in LocalStack, a topic and a pull subscription in the Pub/Sub emulator (the
 *      Service Bus queue is declared in deploy/servicebus/Config.json);
 *   3. Herald subscriptions to each (each create sends a test notification, §4.2);
 *   4. stores created and renamed: every write records messages and changes in the outbox;
 *   5. waits until the example consumer service (examples/consumer-service, reading the SQS queue)
 *      has processed every delivery, then shows each subscription's delivery status and health
 *      and pulls what arrived on Pub/Sub.
 *
 * The project itself is created before this runs (`herald projects create`, see the compose file).
 * Exits 0 when every delivery was consumed, 1 otherwise. Runs again without cleaning up: queues,
 * topics and subscriptions are reused, stores get fresh keys.
 */
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';

const env = process.env; // eslint-disable-line no-restricted-syntax -- the demo's entry point

const config = {
  gateway: env.DEMO_GATEWAY_URL ?? 'http://gateway:8080',
  bootstrapClient: env.DEMO_BOOTSTRAP_CLIENT ?? '',
  project: env.DEMO_PROJECT ?? 'demo',
  stores: Number(env.DEMO_STORES ?? 5),
  region: env.DEMO_AWS_REGION ?? 'us-east-1',
  sqsEndpoint: env.DEMO_SQS_ENDPOINT ?? 'http://localstack:4566',
  queueName: env.DEMO_SQS_QUEUE ?? 'herald-demo',
  consumerMetrics: env.DEMO_CONSUMER_METRICS_URL ?? 'http://consumer-service:9465/metrics',
  /** `http://host:port` of the Pub/Sub emulator's REST API; empty skips Pub/Sub. */
  pubsubUrl: env.DEMO_PUBSUB_URL ?? '',
  pubsubProject: env.DEMO_PUBSUB_PROJECT ?? 'herald-demo',
  pubsubTopic: env.DEMO_PUBSUB_TOPIC ?? 'herald-demo',
  /** A Service Bus (emulator) connection string with EntityPath; empty skips Service Bus. */
  serviceBus: env.DEMO_SERVICEBUS_CONNECTION_STRING ?? '',
  /** The emulator's health endpoint (port 5300), waited for before the subscription is created. */
  serviceBusHealthUrl: env.DEMO_SERVICEBUS_HEALTH_URL ?? '',
  timeoutMs: Number(env.DEMO_TIMEOUT_MS ?? 180_000),
};

const log = (message: string): void => console.log(`[demo] ${message}`);

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` once a second until it answers true (a demo against containers still starting). */
async function waitFor(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + config.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (attempt % 10 === 0) log(`waiting for ${what} …`);
    await pause(1_000);
  }
}

async function call<T>(
  method: string,
  url: string,
  init: { token?: string; body?: unknown; form?: Record<string, string>; basic?: string } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.basic) headers.authorization = `Basic ${Buffer.from(init.basic).toString('base64')}`;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

async function api<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await call<T>(method, `${config.gateway}/${config.project}${path}`, { token, body });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function accessToken(credentials: string, scopes: readonly string[]): Promise<string> {
  const response = await call<{ access_token?: string }>('POST', `${config.gateway}/oauth/token`, {
    basic: credentials,
    form: { grant_type: 'client_credentials', scope: scopes.map((scope) => `${scope}:${config.project}`).join(' ') },
  });
  if (response.status !== 200 || response.body.access_token === undefined) {
    throw new Error(`POST /oauth/token: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.access_token;
}

interface Subscription {
  id: string;
  key?: string;
  version: number;
}

/** Creates the subscription unless one with this key exists (reruns reuse it). */
async function ensureSubscription(token: string, draft: { key: string } & Record<string, unknown>): Promise<Subscription> {
  const existing = await call<Subscription>('GET', `${config.gateway}/${config.project}/subscriptions/key=${draft.key}`, { token });
  if (existing.status === 200) {
    log(`subscription ${draft.key} exists (${existing.body.id})`);
    return existing.body;
  }
  const created = await api<Subscription>('POST', '/subscriptions', token, draft);
  log(`subscription ${draft.key} created (${created.id}); its test notification was delivered`);
  return created;
}

/** The sum of `herald_consumer_processed_total` over all its series, from the consumer's /metrics. */
async function consumerProcessed(): Promise<number> {
  const response = await fetch(config.consumerMetrics);
  if (!response.ok) throw new Error(`consumer metrics: ${response.status}`);
  let total = 0;
  for (const line of (await response.text()).split('\n')) {
    if (line.startsWith('herald_consumer_processed_total')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function pubsub(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return call(method, `${config.pubsubUrl}/v1/projects/${config.pubsubProject}/${path}`, { body: body ?? {} });
}

async function main(): Promise<void> {
  if (!config.bootstrapClient.includes(':')) throw new Error('DEMO_BOOTSTRAP_CLIENT must be "id:secret" (the gateway\'s HERALD_BOOTSTRAP_CLIENT)');
  await waitFor('the gateway', async () => (await fetch(`${config.gateway}/readyz`)).ok);

  // 1. An API client of the demo's own, created with the bootstrap client's token (§5.2).
  const scopes = ['manage_subscriptions', 'manage_stores'];
  const admin = await accessToken(config.bootstrapClient, ['manage_project']);
  const client = await api<{ id: string; secret: string }>('POST', '/api-clients', admin, {
    name: 'herald-demo',
    scope: scopes.map((scope) => `${scope}:${config.project}`).join(' '),
  });
  const token = await accessToken(`${client.id}:${client.secret}`, scopes);
  log(`API client ${client.id} created with ${scopes.join(', ')}`);

  // 2. Destinations. §2.4: an SQS destination must keep the 256 KiB maximum message size.
  const sqs = new SQSClient({ region: config.region, endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  let queueUrl = '';
  await waitFor('LocalStack SQS', async () => {
    const created = await sqs.send(new CreateQueueCommand({ QueueName: config.queueName, Attributes: { MaximumMessageSize: '262144' } }));
    queueUrl = created.QueueUrl ?? '';
    return queueUrl !== '';
  });
  // Herald sends to HERALD_SQS_ENDPOINT whatever host the URL names; the queue is its path.
  log(`SQS queue ${queueUrl}`);
  const subscriptions: Subscription[] = [];
  const store = { messages: [{ resourceTypeId: 'store' }], changes: [{ resourceTypeId: 'store' }] };
  subscriptions.push(
    await ensureSubscription(token, {
      key: 'demo-sqs',
      destination: { type: 'SQS', queueUrl, region: config.region, accessKey: 'demo-access-key', accessSecret: 'demo-access-secret' },
      format: { type: 'Platform' },
      ...store,
    }),
  );

  if (config.pubsubUrl !== '') {
    await waitFor('the Pub/Sub emulator', async () => (await fetch(config.pubsubUrl)).ok);
    const topic = await pubsub('PUT', `topics/${config.pubsubTopic}`);
    if (topic.status !== 200 && topic.status !== 409) throw new Error(`Pub/Sub topic: ${topic.status}`);
    await pubsub('PUT', `subscriptions/${config.pubsubTopic}-pull`, { topic: `projects/${config.pubsubProject}/topics/${config.pubsubTopic}` });
    subscriptions.push(
      await ensureSubscription(token, {
        key: 'demo-pubsub',
        destination: { type: 'ProviderCPubSub', projectId: config.pubsubProject, topic: config.pubsubTopic },
        format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
        ...store,
      }),
    );
  }

  if (config.serviceBus !== '') {
    if (config.serviceBusHealthUrl !== '') await waitFor('the Service Bus emulator', async () => (await fetch(config.serviceBusHealthUrl)).ok);
    subscriptions.push(
      await ensureSubscription(token, {
        key: 'demo-servicebus',
        destination: { type: 'ProviderBServiceBus', connectionString: config.serviceBus },
        format: { type: 'Platform' },
        ...store,
      }),
    );
  }

  // 3. Writes: each create records StoreCreated + ResourceCreated, each rename StoreNameSet + ResourceUpdated.
  await waitFor('the consumer service', async () => (await consumerProcessed()) >= 0);
  const before = await consumerProcessed();
  const run = randomUUID().slice(0, 8);
  for (let i = 1; i <= config.stores; i++) {
    let current = await api<{ id: string; version: number }>('POST', '/stores', token, { key: `demo-${run}-${i}`, name: { en: `Store ${i}` } });
    for (const name of [`Store ${i} (renamed)`, `Store ${i} (renamed twice)`]) {
      current = await api('POST', `/stores/${current.id}`, token, { version: current.version, actions: [{ action: 'setName', name: { en: name } }] });
    }
  }
  const expected = config.stores * 6;
  log(`${config.stores} stores written: ${expected} deliveries per subscription (messages and changes)`);

  // 4. The consumer service receives them from SQS, deduplicates and orders them, runs its handler.
  let processed = 0;
  await waitFor(`the consumer service to process ${expected} deliveries`, async () => {
    const now = (await consumerProcessed()) - before;
    if (now !== processed) log(`consumer service processed ${(processed = now)} of ${expected}`);
    return now >= expected;
  });

  for (const subscription of subscriptions) {
    const status = await api<{ pendingCount: number; oldestPendingAgeSeconds: number }>('GET', `/subscriptions/${subscription.id}/delivery-status`, token);
    const health = await fetch(`${config.gateway}/${config.project}/subscriptions/${subscription.id}/health`);
    log(`${subscription.key}: health ${health.status}, ${status.pendingCount} pending`);
  }
  if (config.pubsubUrl !== '') {
    const pulled = await pubsub('POST', `subscriptions/${config.pubsubTopic}-pull:pull`, { maxMessages: 1000 });
    const received = (pulled.body.receivedMessages as { ackId: string }[] | undefined) ?? [];
    if (received.length > 0) await pubsub('POST', `subscriptions/${config.pubsubTopic}-pull:acknowledge`, { ackIds: received.map((m) => m.ackId) });
    log(`Pub/Sub: pulled ${received.length} CloudEvents from ${config.pubsubTopic}-pull`);
  }
  log('done: open Grafana at http://localhost:3000 (dashboards "Herald — …"), the consumer log: docker compose logs consumer-service');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[demo] failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
