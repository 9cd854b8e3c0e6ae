import { parseWorkerConfig } from '@herald/delivery';
import {
  startEventGridPeer,
  startPubSubPeer,
  startServiceBusPeer,
  startSqsPeer,
  type EventGridPeer,
  type PubSubPeer,
  type ServiceBusPeer,
  type SqsPeer,
} from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  AWS_ACCESS_SECRET,
  CLOUD_EVENTS,
  expectError,
  expectMasked,
  expectTestNotification,
  healthOf,
  REGION,
  sqsDestination,
  sqsDocuments,
  WAIT_MS,
} from './support.js';

const P = 'subs-crud';
const LIMIT_PROJECT = 'subs-limit';
const SECRET_KEY = 'some-long-key-123456';

/**
 * Issue 5, the subscriptions API over HTTP (§2.4, §4.2, §7, §8) with real tokens, against a
 * gateway without an in-process worker (it builds its own pool and admin from `config.delivery`,
 * as with `HERALD_DELIVERY=off`) and with destination secrets sealed at rest (HERALD_SECRET_KEY).
 * Test notifications really go out: SQS to fauxqs, Service Bus and Pub/Sub to the testkit peers.
 */
describe('Subscriptions API: CRUD and validation', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let serviceBus: ServiceBusPeer;
  let pubsub: PubSubPeer;
  let eventGrid: EventGridPeer;
  let gateway: TestGateway;
  let api: Caller;
  let queueCounter = 0;

  /** A fresh standard queue (256 KiB limit, as §2.4 requires). */
  function freshQueue(): string {
    return sqs.createQueue(`crud-queue-${++queueCounter}`);
  }

  beforeAll(async () => {
    [sqs, serviceBus, pubsub, eventGrid] = await Promise.all([
      startSqsPeer({ region: REGION }),
      startServiceBusPeer(),
      startPubSubPeer(),
      startEventGridPeer(),
    ]);
    gateway = await startTestGateway({
      projects: [P, LIMIT_PROJECT],
      config: {
        delivery: parseWorkerConfig({
          HERALD_SQS_ENDPOINT: sqs.endpoint,
          HERALD_PUBSUB_ENDPOINT: pubsub.apiEndpoint,
          HERALD_ALLOW_INSECURE_DESTINATIONS: 'true',
          HERALD_SECRET_KEY: SECRET_KEY,
          HERALD_DELIVERY_SEND_TIMEOUT_MS: '5000',
        }),
      },
    });
    api = await callerWith(gateway, P, ['manage_subscriptions']);
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([sqs?.stop(), serviceBus?.stop(), pubsub?.stop(), eventGrid?.stop()]);
  });

  async function create(draft: Json, projectKey = P): Promise<Json> {
    return api.ok(`/${projectKey}/subscriptions`, draft, 201);
  }

  async function queryByKey(key: string): Promise<Json> {
    return api.read(`/${P}/subscriptions?where=${encodeURIComponent(`key="${key}"`)}&withTotal=true`);
  }

  it('creates, reads, queries, updates and deletes, with secrets partially hidden in every response', async () => {
    const queue = freshQueue();
    const draft = {
      key: 'orders-sqs',
      destination: sqsDestination(queue),
      messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }],
      changes: [{ resourceTypeId: 'store' }],
    };

    const created = await create(draft);
    expect(created).toMatchObject({
      key: 'orders-sqs',
      version: 1,
      status: 'Healthy',
      format: { type: 'Platform' },
      messages: draft.messages,
      changes: draft.changes,
      destination: { type: 'SQS', queueUrl: queue, region: REGION, accessKey: draft.destination.accessKey },
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.destination.accessSecret).toBe(`${AWS_ACCESS_SECRET.slice(0, 4)}****`);
    expectMasked(created, AWS_ACCESS_SECRET);

    // §4.2 rule 1: the test notification reached the queue, naming the subscription it created.
    const [arrived] = sqsDocuments(await sqs.waitForMessages(queue, 1, WAIT_MS));
    expectTestNotification(arrived as Json, P, created);

    const byId = await api.read(`/${P}/subscriptions/${created.id}`);
    const byKey = await api.read(`/${P}/subscriptions/key=orders-sqs`);
    expect(byId).toEqual(created);
    expect(byKey).toEqual(created);
    const page = await queryByKey('orders-sqs');
    expect(page).toMatchObject({ total: 1, count: 1 });
    expect(page.results[0]).toEqual(created);
    for (const body of [byId, byKey, page]) expectMasked(body, AWS_ACCESS_SECRET);

    const url = `/${P}/subscriptions/${created.id}`;
    const keyed = await api.update(url, 1, [{ action: 'setKey', key: 'orders-sqs-2' }]);
    expect(keyed).toMatchObject({ version: 2, key: 'orders-sqs-2', status: 'Healthy' });
    expectMasked(keyed, AWS_ACCESS_SECRET);
    const unkeyed = await api.update(`/${P}/subscriptions/key=orders-sqs-2`, 2, [{ action: 'setKey' }]);
    expect(unkeyed.version).toBe(3);
    expect(unkeyed).not.toHaveProperty('key');

    const messages = [{ resourceTypeId: 'customer' }, { resourceTypeId: 'store', types: ['StoreNameSet', 'StoreDeleted'] }];
    const withMessages = await api.update(url, 3, [{ action: 'setMessages', messages }]);
    expect(withMessages).toMatchObject({ version: 4, messages });
    // setChanges to empty is allowed while messages are set (§4.2 update actions).
    const withoutChanges = await api.update(url, 4, [{ action: 'setChanges', changes: [] }]);
    expect(withoutChanges).toMatchObject({ version: 5, changes: [], messages });
    const withChanges = await api.update(url, 5, [{ action: 'setChanges', changes: [{ resourceTypeId: 'customer' }] }]);
    expect(withChanges).toMatchObject({ version: 6, changes: [{ resourceTypeId: 'customer' }] });
    for (const body of [unkeyed, withMessages, withoutChanges, withChanges]) expectMasked(body, AWS_ACCESS_SECRET);

    // changeDestination (§4.2 rule 3): the test notification goes to the new queue.
    const newQueue = freshQueue();
    const otherSecret = 'other-secret-value-5kQ2';
    const moved = await api.update(url, 6, [{ action: 'changeDestination', destination: sqsDestination(newQueue, otherSecret) }]);
    expect(moved).toMatchObject({ version: 7, status: 'Healthy', destination: { type: 'SQS', queueUrl: newQueue } });
    expectMasked(moved, otherSecret);
    const [movedNotification] = sqsDocuments(await sqs.waitForMessages(newQueue, 1, WAIT_MS));
    expectTestNotification(movedNotification as Json, P, { id: created.id });

    const deleted = await api.delete(`${url}?version=7`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.id, version: 7, destination: { queueUrl: newQueue } });
    expectMasked(deleted.body, otherSecret);
    expectError(await api.get(url), 404, 'ResourceNotFound');
    expect((await healthOf(gateway, P, created.id)).status).toBe(404);
  });

  it('stores the destination secret sealed (HERALD_SECRET_KEY), never in plain text', async () => {
    const secret = 'sealed-secret-value-A1b2C3d4';
    const created = await create({ key: 'sealed', destination: sqsDestination(freshQueue(), secret), changes: [{ resourceTypeId: 'store' }] });
    const stored = await gateway.db.query<{ doc: Json }>("SELECT doc FROM resources WHERE project_key = $1 AND type_id = 'subscription' AND id = $2", [
      P,
      created.id,
    ]);
    const text = JSON.stringify(stored.rows[0]?.doc);
    expect(text).toContain('"accessKey"');
    expect(text).not.toContain(secret);
    expect(stored.rows[0]?.doc.destination.accessSecret).toMatch(/^enc:v1:/);
    // Read back through the API: opened, then masked, never the sealed or the plain value.
    const read = await api.read(`/${P}/subscriptions/${created.id}`);
    expect(read.destination.accessSecret).toBe(`${secret.slice(0, 4)}****`);
    await api.delete(`/${P}/subscriptions/${created.id}?version=1`);
  });

  it('refuses query predicates and sorts on hidden secrets, which would reveal them by bisection', async () => {
    const created = await create({ key: 'probed', destination: sqsDestination(freshQueue()), changes: [{ resourceTypeId: 'store' }] });
    const query = (params: string) => api.get(`/${P}/subscriptions?withTotal=true&${params}`);
    const where = (predicate: string) => query(`where=${encodeURIComponent(predicate)}`);
    for (const predicate of [
      `destination(accessSecret = "${AWS_ACCESS_SECRET}")`,
      'destination(accessSecret > "s")',
      'key = "probed" and destination(type = "SQS" and accessSecret >= "sub-")',
      'not(destination(accessKey = "k"))',
      'destination(connectionString is defined)',
    ]) {
      expect(expectError(await where(predicate), 400, 'InvalidInput').message).toContain('partially hidden');
    }
    expectError(await query(`where=${encodeURIComponent('destination(accessSecret = :s)')}&var.s=x`), 400, 'InvalidInput');
    expectError(await query(`sort=${encodeURIComponent('destination.accessSecret asc')}`), 400, 'InvalidInput');
    // `status` is in every response but is the live health, not stored: refused rather than matching nothing.
    expect(expectError(await where('status = "Healthy"'), 400, 'InvalidInput').message).toContain('live health');
    expectError(await query('sort=status%20asc'), 400, 'InvalidInput');
    // What is shown in full stays queryable.
    const visible = await where(`key = "probed" and destination(type = "SQS" and queueUrl = "${created.destination.queueUrl}")`);
    expect(visible.body).toMatchObject({ total: 1, results: [{ id: created.id }] });
    expect((await query('sort=destination.queueUrl%20desc')).status).toBe(200);
    await api.delete(`/${P}/subscriptions/${created.id}?version=1`);
  });

  it('accepts the SDK aliases AzureServiceBus and GoogleCloudPubSub as the spec names', async () => {
    serviceBus.createEntity('crud-sb-queue');
    const connectionString = serviceBus.connectionString('crud-sb-queue');
    const bus = await create({
      key: 'alias-service-bus',
      destination: { type: 'AzureServiceBus', connectionString },
      format: CLOUD_EVENTS,
      changes: [{ resourceTypeId: 'customer' }],
    });
    expect(bus.destination.type).toBe('ProviderBServiceBus');
    expect(bus.destination.connectionString).toContain(`SharedAccessKey=${serviceBus.key.slice(0, 4)}****`);
    expectMasked(bus, serviceBus.key);
    const [busArrival] = await serviceBus.waitFor('crud-sb-queue', 1, WAIT_MS);
    expectTestNotification(JSON.parse(busArrival?.rawBody?.toString('utf8') ?? '{}') as Json, P, bus);

    // A key the namespace refuses: 400, and the error names the cause without echoing the key.
    const wrongKey = Buffer.alloc(32, 7).toString('base64');
    const refused = await api.post(`/${P}/subscriptions`, {
      destination: { type: 'AzureServiceBus', connectionString: connectionString.replace(/SharedAccessKey=[^;]*/, `SharedAccessKey=${wrongKey}`) },
      changes: [{ resourceTypeId: 'customer' }],
    });
    const refusal = expectError(refused, 400, 'InvalidInput');
    expect(refusal.message).toMatch(/test notification could not be delivered.*\(configuration error\): UnauthorizedAccess/);
    expect(JSON.stringify(refused.body)).not.toContain(wrongKey);

    pubsub.createTopic('crud-topic');
    const topicSub = await create({
      key: 'alias-pubsub',
      destination: { type: 'GoogleCloudPubSub', projectId: pubsub.projectId, topic: 'crud-topic' },
      messages: [{ resourceTypeId: 'customer', types: ['CustomerCreated'] }],
    });
    expect(topicSub.destination).toEqual({ type: 'ProviderCPubSub', projectId: pubsub.projectId, topic: 'crud-topic' });
    const [published] = await pubsub.waitFor('crud-topic', 1, WAIT_MS);
    expectTestNotification(published?.json as Json, P, topicSub);

    await api.delete(`/${P}/subscriptions/${bus.id}?version=1`);
    await api.delete(`/${P}/subscriptions/${topicSub.id}?version=1`);
  });

  describe('rejects invalid drafts with 400 and creates nothing', () => {
    const changes = [{ resourceTypeId: 'store' }];
    let queue: string;
    beforeAll(() => {
      queue = freshQueue();
    });

    async function rejected(draft: Json, code = 'InvalidInput'): Promise<Json> {
      const before = await api.read(`/${P}/subscriptions?withTotal=true`);
      const error = expectError(await api.post(`/${P}/subscriptions`, draft), 400, code);
      const after = await api.read(`/${P}/subscriptions?withTotal=true`);
      expect(after.total).toBe(before.total);
      return error;
    }

    it('an unknown destination type', async () => {
      const error = await rejected({ destination: { type: 'Kafka', topic: 't' }, changes });
      expect(error.message).toContain('destination.type');
    });

    it('missing required fields: no destination, no queueUrl, no accessSecret', async () => {
      await rejected({ changes });
      const { queueUrl: _url, ...withoutUrl } = sqsDestination(queue);
      expect((await rejected({ destination: withoutUrl, changes })).message).toContain('destination.queueUrl');
      const { accessSecret: _secret, ...withoutSecret } = sqsDestination(queue);
      expect((await rejected({ destination: withoutSecret, changes })).message).toContain('destination.accessSecret');
    });

    it('a secret of the form Herald gives sealed secrets ("enc:v1:…"): it would be taken as sealed and never open', async () => {
      const sealedLooking = 'enc:v1:AAAA:BBBB:CCCC';
      const error = await rejected({ destination: sqsDestination(queue, sealedLooking), changes });
      expect(error.message).toContain('destination.accessSecret');
      expect(JSON.stringify(error)).not.toContain('AAAA');
      await rejected({ destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: sealedLooking }, format: CLOUD_EVENTS, changes });
    });

    it('EventGrid with the Platform format (explicit or by default): CloudEvents only (§2.4)', async () => {
      // A working topic: the draft is refused for its format, before any test notification is sent.
      const destination = { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey };
      const requests = eventGrid.requests;
      expect((await rejected({ destination, format: { type: 'Platform' }, changes })).message).toMatch(/EventGrid.*only.*CloudEvents/);
      expect((await rejected({ destination, changes })).message).toMatch(/EventGrid.*only.*CloudEvents/);
      expect(eventGrid.requests).toBe(requests);
      // With CloudEvents it is accepted, and its access key is partially hidden.
      const created = await create({ destination, format: CLOUD_EVENTS, changes });
      expect(created.destination).toEqual({ type: 'EventGrid', uri: eventGrid.url, accessKey: `${eventGrid.accessKey.slice(0, 4)}****` });
      expectTestNotification((await eventGrid.waitFor(1, WAIT_MS))[0]?.data as Json, P, created);
      await api.delete(`/${P}/subscriptions/${created.id}?version=1`);
    });

    it('cloudEventsVersion other than 1.0', async () => {
      const error = await rejected({ destination: sqsDestination(queue), format: { type: 'CloudEvents', cloudEventsVersion: '0.1' }, changes });
      expect(error.message).toContain('cloudEventsVersion');
      await rejected({ destination: sqsDestination(queue), format: { type: 'CloudEvents' }, changes });
    });

    it('neither messages nor changes (absent or empty)', async () => {
      await rejected({ destination: sqsDestination(queue) });
      await rejected({ destination: sqsDestination(queue), messages: [], changes: [] });
    });

    it('a resourceTypeId not listed in §2.4', async () => {
      await rejected({ destination: sqsDestination(queue), changes: [{ resourceTypeId: 'unicorn' }] });
      await rejected({ destination: sqsDestination(queue), messages: [{ resourceTypeId: 'stores' }] });
    });

    it('message types that are not valid for the resource', async () => {
      const error = await rejected({ destination: sqsDestination(queue), messages: [{ resourceTypeId: 'store', types: ['CustomerCreated'] }] });
      expect(error.message).toContain('CustomerCreated');
    });

    it('a test notification that cannot be delivered (queue missing): 400 saying why, nothing created', async () => {
      const missing = sqs.createQueue('crud-missing-queue');
      sqs.fauxqs.deleteQueue('crud-missing-queue', { region: REGION });
      const error = await rejected({ key: 'never-created', destination: sqsDestination(missing), changes });
      expect(error.message).toMatch(/test notification could not be delivered/);
      expect(error.message).toMatch(/QueueDoesNotExist|NonExistentQueue/);
      expect(error.message).not.toContain(AWS_ACCESS_SECRET);
      expect(await queryByKey('never-created')).toMatchObject({ total: 0, results: [] });
    });

    it('a duplicate key: DuplicateField', async () => {
      const first = await create({ key: 'taken', destination: sqsDestination(queue), changes });
      const error = await rejected({ key: 'taken', destination: sqsDestination(queue), changes }, 'DuplicateField');
      expect(error).toMatchObject({ field: 'key', duplicateValue: 'taken' });
      await api.delete(`/${P}/subscriptions/${first.id}?version=1`);
    });
  });

  describe('rejects invalid updates with 400 and changes nothing', () => {
    let subscription: Json;
    let queue: string;

    beforeAll(async () => {
      queue = freshQueue();
      subscription = await create({ key: 'update-target', destination: sqsDestination(queue), messages: [{ resourceTypeId: 'store' }] });
      await create({ key: 'update-neighbour', destination: sqsDestination(queue), messages: [{ resourceTypeId: 'store' }] });
    });

    async function unchanged(actions: Json[], code = 'InvalidInput'): Promise<Json> {
      const url = `/${P}/subscriptions/${subscription.id}`;
      const error = expectError(await api.post(url, { version: subscription.version, actions }), 400, code);
      const after = await api.read(url);
      expect(after).toEqual(subscription);
      return error;
    }

    it('setMessages with an empty list while changes are empty', async () => {
      expect((await unchanged([{ action: 'setMessages', messages: [] }])).message).toContain("Either 'messages', 'changes' or 'events' must be set");
      await unchanged([{ action: 'setMessages' }]);
    });

    it('changeDestination to EventGrid while the format is Platform', async () => {
      const error = await unchanged([{ action: 'changeDestination', destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey } }]);
      expect(error.message).toMatch(/EventGrid.*only.*CloudEvents/);
    });

    it('setKey to a key another subscription has: DuplicateField', async () => {
      expect(await unchanged([{ action: 'setKey', key: 'update-neighbour' }], 'DuplicateField')).toMatchObject({ field: 'key' });
    });

    it('a stale version: 409 ConcurrentModification', async () => {
      const url = `/${P}/subscriptions/${subscription.id}`;
      const answer = await api.post(url, { version: subscription.version + 1, actions: [{ action: 'setKey', key: 'stale' }] });
      expect(expectError(answer, 409, 'ConcurrentModification').currentVersion).toBe(subscription.version);
      expect(await api.read(url)).toEqual(subscription);
    });

    it('setChanges or setMessages with invalid entries', async () => {
      await unchanged([{ action: 'setChanges', changes: [{ resourceTypeId: 'unicorn' }] }]);
      await unchanged([{ action: 'setMessages', messages: [{ resourceTypeId: 'store', types: ['BusinessUnitCreated'] }] }]);
    });

    it('changeDestination to a destination whose test notification fails keeps the old destination and version', async () => {
      const missing = sqs.createQueue('crud-gone-queue');
      sqs.fauxqs.deleteQueue('crud-gone-queue', { region: REGION });
      const error = await unchanged([{ action: 'changeDestination', destination: sqsDestination(missing) }]);
      expect(error.message).toMatch(/test notification could not be delivered.*(QueueDoesNotExist|NonExistentQueue)/);
      await unchanged([{ action: 'changeDestination', destination: { type: 'SQS', queueUrl: missing } }]);
      expect((await api.read(`/${P}/subscriptions/${subscription.id}`)).destination.queueUrl).toBe(queue);
    });
  });

  it('the 51st subscription of a project: MaxResourceLimitExceeded (§8), also when creates race', async () => {
    const limited = await callerWith(gateway, LIMIT_PROJECT, ['manage_subscriptions']);
    const path = `/${LIMIT_PROJECT}/subscriptions`;
    const draft = { destination: sqsDestination(freshQueue()), changes: [{ resourceTypeId: 'store' }] };
    for (let i = 0; i < 46; i++) await limited.ok(path, draft, 201);
    // Concurrent creates all see room while their test notifications are out; the count that
    // decides runs under the project's lock in the inserting transaction (it once admitted all 8).
    const answers = await Promise.all(Array.from({ length: 8 }, () => limited.post(path, draft)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(4);
    for (const refused of answers.filter((answer) => answer.status !== 201)) expectError(refused, 400, 'MaxResourceLimitExceeded');
    const answer = await limited.post(path, draft);
    expectError(answer, 400, 'MaxResourceLimitExceeded');
    expect((await limited.read(`/${LIMIT_PROJECT}/subscriptions?withTotal=true`)).total).toBe(50);
    // The limit is per project: another project still has room.
    const other = await create(draft);
    await api.delete(`/${P}/subscriptions/${other.id}?version=1`);
  });

  it('requires manage_subscriptions, except for the public health endpoint (§4.2)', async () => {
    const created = await create({ destination: sqsDestination(freshQueue()), changes: [{ resourceTypeId: 'store' }] });
    const stores = await callerWith(gateway, P, ['manage_stores']);
    expect((await stores.get(`/${P}/subscriptions/${created.id}`)).status).toBe(403);
    expect((await stores.post(`/${P}/subscriptions`, { destination: sqsDestination(freshQueue()), changes: [] })).status).toBe(403);
    const anonymous = await gateway.app.inject({ method: 'GET', url: `/${P}/subscriptions/${created.id}` });
    expect(anonymous.statusCode).toBe(401);

    // Health: no token needed, no body, the status code encodes the health.
    const health = await healthOf(gateway, P, created.id);
    expect(health).toEqual({ status: 200, body: '' });
    // A subscription that does not exist, or exists in another project: 404.
    expect((await healthOf(gateway, P, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await healthOf(gateway, LIMIT_PROJECT, created.id)).status).toBe(404);
    await api.delete(`/${P}/subscriptions/${created.id}?version=1`);
  });
});
