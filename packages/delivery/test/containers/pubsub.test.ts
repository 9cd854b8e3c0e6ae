/**
 * The Pub/Sub adapter against Google's Pub/Sub emulator (the gcloud image docker-compose.yml
 * runs): the adapter publishes with the real `@google-cloud/pubsub` SDK, the test pulls through
 * the emulator's REST API. Skipped, with the reason printed, where no Docker engine runs.
 */
import type { Destination, Format } from '@herald/model';
import { systemClock } from '@herald/model';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDestinationEnvironment, DestinationPool, sendTestNotification } from '../../src/index.js';
import { composeImage } from './support/compose-images.js';
import { containerRuntime, CONTAINER_STARTUP_MS, suiteTitle } from './support/container-runtime.js';
import { collect, CONTEXT, encodeAll, expectSameDocuments, FORMATS, somePayloads } from './support/deliveries.js';

const runtime = await containerRuntime();
const PORT = 8085;
const PROJECT = 'herald-containers';

interface Pulled {
  receivedMessages?: { ackId: string; message: { data?: string; attributes?: Record<string, string> } }[];
}

describe.skipIf(!runtime.available)(suiteTitle('Pub/Sub adapter against the Pub/Sub emulator', runtime), () => {
  let emulator: StartedTestContainer;
  let rest: string;
  let pool: DestinationPool;
  let counter = 0;

  beforeAll(async () => {
    emulator = await new GenericContainer(composeImage('pubsub'))
      .withCommand(['gcloud', 'beta', 'emulators', 'pubsub', 'start', `--host-port=0.0.0.0:${PORT}`, `--project=${PROJECT}`])
      .withExposedPorts(PORT)
      .withWaitStrategy(Wait.forLogMessage(/Server started/))
      .withStartupTimeout(CONTAINER_STARTUP_MS)
      .start();
    const hostPort = `${emulator.getHost()}:${emulator.getMappedPort(PORT)}`;
    rest = `http://${hostPort}/v1/projects/${PROJECT}`;
    // An emulator endpoint puts the SDK in insecure gRPC mode (METADATA_SERVER_DETECTION=none is set
    // for every test by vitest.shared.ts, so the SDK never looks for a metadata server).
    pool = new DestinationPool(createDestinationEnvironment({ endpoints: { pubsub: hostPort }, timeouts: { sendMs: 10_000 } }));
  }, CONTAINER_STARTUP_MS);

  afterAll(async () => {
    await pool?.closeAll();
    await emulator?.stop();
  }, CONTAINER_STARTUP_MS);

  async function call<T>(method: string, path: string, body: unknown = {}): Promise<T> {
    const response = await fetch(`${rest}/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A topic with a pull subscription. */
  async function topic(): Promise<{ topic: string; subscription: string }> {
    const name = `herald-${++counter}`;
    await call('PUT', `topics/${name}`);
    await call('PUT', `subscriptions/${name}-pull`, { topic: `projects/${PROJECT}/topics/${name}` });
    return { topic: name, subscription: `${name}-pull` };
  }

  /** Pulls (and acknowledges) `count` messages; `data` is the delivered JSON document. */
  async function pullDocuments(subscription: string, count: number): Promise<unknown[]> {
    const messages = await collect(count, async () => {
      // Without returnImmediately the emulator holds the pull until messages are there.
      const pulled = await call<Pulled>('POST', `subscriptions/${subscription}:pull`, { maxMessages: 100 });
      const received = pulled.receivedMessages ?? [];
      if (received.length > 0) await call('POST', `subscriptions/${subscription}:acknowledge`, { ackIds: received.map((m) => m.ackId) });
      return received.map((m) => m.message);
    });
    return messages.map((message) => JSON.parse(Buffer.from(message.data ?? '', 'base64').toString('utf8')) as unknown);
  }

  const destination = (name: string): Destination => ({ type: 'ProviderCPubSub', projectId: PROJECT, topic: name });

  it.each(FORMATS)('publishes messages and changes in the %s format', async (_name, format: Format) => {
    const { topic: name, subscription } = await topic();
    const adapter = pool.get(destination(name));
    const payloads = somePayloads(12);
    expect(await adapter.send(encodeAll(adapter, payloads, format))).toEqual(payloads.map(() => ({ status: 'delivered' })));
    expectSameDocuments(await pullDocuments(subscription, payloads.length), payloads, format);
  });

  it('passes the test notification of a subscription create', async () => {
    const { topic: name, subscription } = await topic();
    const outcome = await sendTestNotification(
      pool,
      destination(name),
      { type: 'CloudEvents', cloudEventsVersion: '1.0' },
      {
        projectKey: 'containers',
        subscriptionId: CONTEXT.subscriptionId,
        clock: systemClock,
      },
    );
    expect(outcome).toEqual({ status: 'delivered' });
    const [document] = await pullDocuments(subscription, 1);
    expect(document).toMatchObject({ specversion: '1.0', data: { notificationType: 'ResourceCreated', resource: { typeId: 'subscription' } } });
  });

  it('reports a topic that does not exist as a configuration error (NOT_FOUND)', async () => {
    const adapter = pool.get(destination('herald-no-such-topic'));
    const [outcome] = await adapter.send(encodeAll(adapter, somePayloads(1), { type: 'Platform' }));
    expect(outcome).toMatchObject({ status: 'failed', failure: { class: 'configuration' } });
  });
});
