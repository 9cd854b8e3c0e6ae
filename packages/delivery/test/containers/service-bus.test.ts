/**
 * The Service Bus adapter against Microsoft's Service Bus emulator and the SQL Server it keeps its
 * state in (the images and the entity configuration docker-compose.yml uses), with the real
 * `@azure/service-bus` SDK receiving what the adapter sent. Skipped, with the reason printed,
 * where no Docker engine runs.
 */
import { ServiceBusClient } from '@azure/service-bus';
import type { Destination, Format } from '@herald/model';
import { systemClock } from '@herald/model';
import { GenericContainer, Network, Wait, type StartedNetwork, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDestinationEnvironment, DestinationPool, sendTestNotification } from '../../src/index.js';
import { composeImage, repositoryFile } from './support/compose-images.js';
import { containerRuntime, CONTAINER_STARTUP_MS, suiteTitle } from './support/container-runtime.js';
import { collect, CONTEXT, encodeAll, expectSameDocuments, FORMATS, somePayloads } from './support/deliveries.js';

const runtime = await containerRuntime();
const AMQP_PORT = 5672;
const HEALTH_PORT = 5300;
const SQL_PASSWORD = 'Herald-containers-1';
/** deploy/servicebus/Config.json, the file the compose stack mounts: its queues exist in the emulator. */
const CONFIG = repositoryFile('deploy', 'servicebus', 'Config.json');
const QUEUE = (JSON.parse(CONFIG) as { UserConfig: { Namespaces: { Queues: { Name: string }[] }[] } }).UserConfig.Namespaces[0]?.Queues[0]?.Name as string;

describe.skipIf(!runtime.available)(suiteTitle('Service Bus adapter against the Service Bus emulator', runtime), () => {
  let network: StartedNetwork;
  let sql: StartedTestContainer;
  let emulator: StartedTestContainer;
  let namespace: string;
  let client: ServiceBusClient;
  let pool: DestinationPool;

  beforeAll(async () => {
    network = await new Network().start();
    sql = await new GenericContainer(composeImage('mssql'))
      .withNetwork(network)
      .withNetworkAliases('mssql')
      .withEnvironment({ ACCEPT_EULA: 'Y', MSSQL_SA_PASSWORD: SQL_PASSWORD })
      .withWaitStrategy(Wait.forLogMessage(/Recovery is complete/))
      .withStartupTimeout(CONTAINER_STARTUP_MS)
      .start();
    emulator = await new GenericContainer(composeImage('servicebus'))
      .withNetwork(network)
      .withEnvironment({ ACCEPT_EULA: 'Y', SQL_SERVER: 'mssql', MSSQL_SA_PASSWORD: SQL_PASSWORD, SQL_WAIT_INTERVAL: '0' })
      .withCopyContentToContainer([{ content: CONFIG, target: '/ServiceBus_Emulator/ConfigFiles/Config.json', mode: 0o644 }])
      .withExposedPorts(AMQP_PORT, HEALTH_PORT)
      .withWaitStrategy(Wait.forHttp('/health', HEALTH_PORT).forStatusCode(200))
      .withStartupTimeout(CONTAINER_STARTUP_MS)
      .start();
    // The emulator's fixed development key; UseDevelopmentEmulator=true makes the SDK use plain AMQP.
    namespace = `Endpoint=sb://${emulator.getHost()}:${emulator.getMappedPort(AMQP_PORT)};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true`;
    client = new ServiceBusClient(namespace);
    pool = new DestinationPool(createDestinationEnvironment({ timeouts: { sendMs: 20_000 } }));
  }, CONTAINER_STARTUP_MS);

  afterAll(async () => {
    await pool?.closeAll();
    await client?.close();
    await emulator?.stop();
    await sql?.stop();
    await network?.stop();
  }, CONTAINER_STARTUP_MS);

  const destination = (entity: string): Destination => ({ type: 'ProviderBServiceBus', connectionString: `${namespace};EntityPath=${entity}` });

  /** Receives (and removes) `count` messages from the queue; the body is the delivered JSON document. */
  async function receiveDocuments(count: number): Promise<unknown[]> {
    const receiver = client.createReceiver(QUEUE, { receiveMode: 'receiveAndDelete' });
    try {
      const bodies = await collect(count, async () =>
        (await receiver.receiveMessages(count, { maxWaitTimeInMs: 5_000 })).map((message) => message.body as unknown),
      );
      // The SDK hands a JSON data section back parsed; bytes it could not parse stay a Buffer.
      return bodies.map((body) => (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : typeof body === 'string' ? JSON.parse(body) : body) as unknown);
    } finally {
      await receiver.close();
    }
  }

  it.each(FORMATS)('delivers messages and changes in the %s format', async (_name, format: Format) => {
    const adapter = pool.get(destination(QUEUE));
    const payloads = somePayloads(12);
    expect(await adapter.send(encodeAll(adapter, payloads, format))).toEqual(payloads.map(() => ({ status: 'delivered' })));
    expectSameDocuments(await receiveDocuments(payloads.length), payloads, format);
  });

  it('passes the test notification of a subscription create', async () => {
    const outcome = await sendTestNotification(
      pool,
      destination(QUEUE),
      { type: 'Platform' },
      {
        projectKey: 'containers',
        subscriptionId: CONTEXT.subscriptionId,
        clock: systemClock,
      },
    );
    expect(outcome).toEqual({ status: 'delivered' });
    const [document] = await receiveDocuments(1);
    expect(document).toMatchObject({ notificationType: 'ResourceCreated', resource: { typeId: 'subscription', id: CONTEXT.subscriptionId } });
  });

  it('reports a queue that does not exist as a configuration error', async () => {
    const adapter = pool.get(destination('herald-no-such-queue'));
    const [outcome] = await adapter.send(encodeAll(adapter, somePayloads(1), { type: 'Platform' }));
    expect(outcome).toMatchObject({ status: 'failed', failure: { class: 'configuration' } });
  });
});
