import {
  startEventBridgePeer,
  startEventGridPeer,
  startPubSubPeer,
  startServiceBusPeer,
  startSqsPeer,
  type EventBridgePeer,
  type EventGridPeer,
  type PubSubPeer,
  type ServiceBusPeer,
  type SqsPeer,
} from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startEventBridgePartnerShim, type EventBridgePartnerShim } from '../compat/eventbridge-partner-shim.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  AWS_ACCESS_SECRET,
  CLOUD_EVENTS,
  EVENTBRIDGE_CREDENTIALS,
  eventually,
  expectMasked,
  expectTestNotification,
  labels,
  payloadOf,
  REGION,
  snsDestination,
  sqsDestination,
  sqsDocuments,
  WAIT_MS,
} from './support.js';

const P = 'subs-e2e';
const SECRET_KEY = 'some-long-key-123456';
const STORE_KEY = 'e2e-store';
const CUSTOMER_KEY = 'e2e-customer';
const TYPE_PREFIX = 'com.commercetools';

/**
 * Issue 5 "done when": subscriptions created through the API receive, through the in-process
 * delivery worker and the real SDKs, the test notification and then every message and change
 * notification of stores and customers changed through the API — on SQS in both formats, and on
 * SNS, EventBridge, Service Bus, Event Grid and Pub/Sub — with secrets sealed at rest.
 */
describe('Subscriptions deliver messages and change notifications end to end', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let eventBridge: EventBridgePeer;
  let eventBridgeShim: EventBridgePartnerShim;
  let serviceBus: ServiceBusPeer;
  let eventGrid: EventGridPeer;
  let pubsub: PubSubPeer;
  let gateway: TestGateway;
  let api: Caller;

  const subscriptions: Record<string, Json> = {};
  const queues = { platform: '', cloudEvents: '', snsSink: '' };
  let store: { created: Json; updated: Json; deleted: Json };
  let customer: { created: Json; updated: Json; deleted: Json };

  beforeAll(async () => {
    [sqs, eventBridge, serviceBus, eventGrid, pubsub] = await Promise.all([
      startSqsPeer({ region: REGION }),
      startEventBridgePeer({ accessKeyId: EVENTBRIDGE_CREDENTIALS.accessKeyId, partnerEventSources: [] }),
      startServiceBusPeer(),
      startEventGridPeer(),
      startPubSubPeer(),
    ]);
    eventBridgeShim = await startEventBridgePartnerShim(eventBridge);
    gateway = await startTestGateway({
      projects: [P],
      delivery: {
        secretKey: SECRET_KEY,
        environment: {
          endpoints: { sqs: sqs.endpoint, sns: sqs.endpoint, eventBridge: eventBridgeShim.endpoint, pubsub: pubsub.apiEndpoint },
          // The shim answers CreatePartnerEventSource for the peer, which models PutPartnerEvents only.
          eventBridge: { credentials: EVENTBRIDGE_CREDENTIALS, createPartnerEventSources: true },
          timeouts: { sendMs: 10_000 },
        },
      },
    });
    api = await callerWith(gateway, P, ['manage_subscriptions', 'manage_stores', 'manage_customers']);

    // Both SQS formats see everything about stores and customers.
    const everything = {
      messages: [{ resourceTypeId: 'store' }, { resourceTypeId: 'customer' }],
      changes: [{ resourceTypeId: 'store' }, { resourceTypeId: 'customer' }],
    };
    // The other destinations: store changes, and of the store's messages only StoreCreated.
    const storeOnly = { changes: [{ resourceTypeId: 'store' }], messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] };

    queues.platform = sqs.createQueue('e2e-platform');
    queues.cloudEvents = sqs.createQueue('e2e-cloudevents');
    const topicArn = sqs.createTopic('e2e-topic');
    queues.snsSink = sqs.createQueue('e2e-topic-sink');
    sqs.subscribeQueue(topicArn, queues.snsSink); // not raw: the queue gets the SNS envelope
    serviceBus.createEntity('e2e-queue');
    pubsub.createTopic('e2e-pubsub');

    const drafts: Record<string, Json> = {
      sqsPlatform: { key: 'e2e-sqs-platform', destination: sqsDestination(queues.platform), ...everything },
      sqsCloudEvents: { key: 'e2e-sqs-cloudevents', destination: sqsDestination(queues.cloudEvents), format: CLOUD_EVENTS, ...everything },
      sns: { key: 'e2e-sns', destination: snsDestination(topicArn), ...storeOnly },
      eventBridge: {
        key: 'e2e-eventbridge',
        destination: { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' },
        format: CLOUD_EVENTS,
        ...storeOnly,
      },
      serviceBus: {
        key: 'e2e-service-bus',
        destination: { type: 'ProviderBServiceBus', connectionString: serviceBus.connectionString('e2e-queue') },
        ...storeOnly,
      },
      eventGrid: {
        key: 'e2e-event-grid',
        destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey },
        format: CLOUD_EVENTS,
        ...storeOnly,
      },
      pubsub: {
        key: 'e2e-pubsub',
        destination: { type: 'ProviderCPubSub', projectId: pubsub.projectId, topic: 'e2e-pubsub' },
        format: CLOUD_EVENTS,
        ...storeOnly,
      },
    };
    for (const [name, draft] of Object.entries(drafts)) {
      subscriptions[name] = await api.ok(`/${P}/subscriptions`, draft, 201);
    }

    // The resources' lives, through the API.
    const createdStore = await api.ok(`/${P}/stores`, { key: STORE_KEY, name: { en: 'Berlin' }, languages: ['en'] }, 201);
    const updatedStore = await api.update(`/${P}/stores/${createdStore.id}`, 1, [{ action: 'setName', name: { en: 'Berlin Mitte' } }]);
    const deletedStore = await api.delete(`/${P}/stores/key=${STORE_KEY}?version=${updatedStore.version}`);
    expect(deletedStore.status).toBe(200);
    store = { created: createdStore, updated: updatedStore, deleted: deletedStore.body };

    const signUp = await api.ok(`/${P}/customers`, { key: CUSTOMER_KEY, email: 'e2e@example.com', password: 'secret-password' }, 201);
    const createdCustomer = signUp.customer as Json;
    const updatedCustomer = await api.update(`/${P}/customers/${createdCustomer.id}`, 1, [{ action: 'setFirstName', firstName: 'Erika' }]);
    const deletedCustomer = await api.delete(`/${P}/customers/${createdCustomer.id}?version=${updatedCustomer.version}&dataErasure=true`);
    expect(deletedCustomer.status).toBe(200);
    customer = { created: createdCustomer, updated: updatedCustomer, deleted: deletedCustomer.body };
  });

  afterAll(async () => {
    await gateway?.close();
    await eventBridgeShim?.stop();
    await Promise.all([sqs?.stop(), eventBridge?.stop(), serviceBus?.stop(), eventGrid?.stop(), pubsub?.stop()]);
  });

  const testLabel = (name: string) => `subscription:${subscriptions[name]?.id}:ResourceCreated:1`;

  /** What each SQS subscription must receive: its test message, then all of both lives. */
  function everythingLabels(name: string): string[] {
    const s = store.created.id as string;
    const c = customer.created.id as string;
    return [
      testLabel(name),
      `store:${s}:ResourceCreated:1`,
      `store:${s}:Message:StoreCreated:1`,
      `store:${s}:ResourceUpdated:2`,
      `store:${s}:Message:StoreNameSet:2`,
      `store:${s}:ResourceDeleted:2`,
      `store:${s}:Message:StoreDeleted:3`,
      `customer:${c}:ResourceCreated:1`,
      `customer:${c}:Message:CustomerCreated:1`,
      `customer:${c}:ResourceUpdated:2`,
      `customer:${c}:Message:CustomerFirstNameSet:2`,
      `customer:${c}:ResourceDeleted:2`,
      `customer:${c}:Message:CustomerDeleted:3`,
    ].sort();
  }

  /** The other destinations: store changes and StoreCreated only (the `types` filter, §2.4). */
  function storeOnlyLabels(name: string): string[] {
    const s = store.created.id as string;
    return [
      testLabel(name),
      `store:${s}:ResourceCreated:1`,
      `store:${s}:Message:StoreCreated:1`,
      `store:${s}:ResourceUpdated:2`,
      `store:${s}:ResourceDeleted:2`,
    ].sort();
  }

  /** Nothing left to deliver for the subscription: everything routed to it was acknowledged. */
  async function drained(name: string): Promise<void> {
    const id = subscriptions[name]?.id as string;
    await eventually(async () => {
      expect(await api.read(`/${P}/subscriptions/${id}/delivery-status`)).toMatchObject({ pendingCount: 0 });
    });
  }

  let platform: Json[];
  let cloudEvents: Json[];

  it('SQS, Platform format: the test message, then every change and message, with the spec fields', async () => {
    await sqs.waitForMessages(queues.platform, 13, WAIT_MS);
    await drained('sqsPlatform');
    platform = sqsDocuments(await sqs.receiveAll(queues.platform));
    expect(labels(platform)).toEqual(everythingLabels('sqsPlatform'));
    expectTestNotification(platform.find((d) => d.resource.typeId === 'subscription') as Json, P, subscriptions.sqsPlatform as Json);

    const find = (typeId: string, what: string) =>
      platform.find((d) => d.resource.typeId === typeId && (d.notificationType === what || d.type === what)) as Json;
    const storeRef = { typeId: 'store', id: store.created.id };
    const storeIds = { key: STORE_KEY };

    expect(find('store', 'ResourceCreated')).toEqual({
      notificationType: 'ResourceCreated',
      projectKey: P,
      resource: storeRef,
      resourceUserProvidedIdentifiers: storeIds,
      version: 1,
      modifiedAt: store.created.lastModifiedAt,
    });
    expect(find('store', 'ResourceUpdated')).toEqual({
      notificationType: 'ResourceUpdated',
      projectKey: P,
      resource: storeRef,
      resourceUserProvidedIdentifiers: storeIds,
      version: 2,
      oldVersion: 1,
      modifiedAt: store.updated.lastModifiedAt,
    });
    const storeDeleted = find('store', 'ResourceDeleted');
    expect(storeDeleted).toEqual({
      notificationType: 'ResourceDeleted',
      projectKey: P,
      resource: storeRef,
      resourceUserProvidedIdentifiers: storeIds,
      version: 2,
      modifiedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(storeDeleted).not.toHaveProperty('dataErasure');
    expect(Date.parse(storeDeleted.modifiedAt)).toBeGreaterThanOrEqual(Date.parse(store.updated.lastModifiedAt));

    expect(find('store', 'StoreCreated')).toMatchObject({
      notificationType: 'Message',
      projectKey: P,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      version: 1,
      sequenceNumber: 1,
      resource: storeRef,
      resourceVersion: 1,
      resourceUserProvidedIdentifiers: storeIds,
      type: 'StoreCreated',
      name: { en: 'Berlin' },
      languages: ['en'],
      createdAt: store.created.lastModifiedAt,
      lastModifiedAt: store.created.lastModifiedAt,
    });
    expect(find('store', 'StoreNameSet')).toMatchObject({ sequenceNumber: 2, resourceVersion: 2, name: { en: 'Berlin Mitte' } });
    expect(find('store', 'StoreDeleted')).toMatchObject({ sequenceNumber: 3, resourceVersion: 2 });

    // §6.2: the deletion with dataErasure=true says so.
    expect(find('customer', 'ResourceDeleted')).toMatchObject({
      notificationType: 'ResourceDeleted',
      resource: { typeId: 'customer', id: customer.created.id },
      resourceUserProvidedIdentifiers: { key: CUSTOMER_KEY },
      version: 2,
      dataErasure: true,
    });
    expect(find('customer', 'ResourceUpdated')).toMatchObject({ version: 2, oldVersion: 1, modifiedAt: customer.updated.lastModifiedAt });
    expect(find('customer', 'CustomerFirstNameSet')).toMatchObject({ sequenceNumber: 2, firstName: 'Erika' });
    expect(find('customer', 'CustomerCreated')).toMatchObject({ sequenceNumber: 1, customer: { id: customer.created.id, email: 'e2e@example.com' } });
    expect(JSON.stringify(platform)).not.toContain('secret-password');
  });

  it('SQS, CloudEvents format: the same payloads as data, in the §6.2 envelope', async () => {
    await sqs.waitForMessages(queues.cloudEvents, 13, WAIT_MS);
    await drained('sqsCloudEvents');
    cloudEvents = sqsDocuments(await sqs.receiveAll(queues.cloudEvents));
    expect(labels(cloudEvents)).toEqual(everythingLabels('sqsCloudEvents'));
    expectTestNotification(cloudEvents.find((d) => d.data.resource.typeId === 'subscription') as Json, P, subscriptions.sqsCloudEvents as Json);

    const platformByLabel = new Map(platform.map((d) => [labels([d])[0], d]));
    for (const event of cloudEvents) {
      const data = payloadOf(event);
      const { typeId, id } = data.resource as { typeId: string; id: string };
      const path = typeId === 'subscription' ? 'subscriptions' : `${typeId}s`;
      const isMessage = data.notificationType === 'Message';
      expect(event).toMatchObject({
        specversion: '1.0',
        type: isMessage ? `${TYPE_PREFIX}.${typeId}.message.${data.type}` : `${TYPE_PREFIX}.${typeId}.change.${data.notificationType}`,
        // The resource type's collection (reference CloudEventsPayload); the resource is the subject.
        source: `/${P}/${path}`,
        subject: id,
        time: isMessage ? data.lastModifiedAt : data.modifiedAt,
      });
      expect(typeof event.id).toBe('string');
      if (isMessage) {
        expect(event).toMatchObject({ sequence: String(data.sequenceNumber), sequencetype: 'Integer' });
        // §6.2 dataref only for a message the Messages API keeps: a deletion with dataErasure keeps none.
        if (data.type === 'CustomerDeleted') expect(event).not.toHaveProperty('dataref');
        else expect(event.dataref).toBe(`/${P}/messages/${data.id}`);
      } else {
        expect(event).not.toHaveProperty('sequence');
      }
      // The data is exactly the Platform payload of the same event (the test messages differ by id).
      if (typeId !== 'subscription') expect(data).toEqual(platformByLabel.get(labels([event])[0]));
    }
    const updated = cloudEvents.find((d) => d.type === `${TYPE_PREFIX}.store.change.ResourceUpdated`) as Json;
    expect(updated).toMatchObject({
      source: `/${P}/stores`,
      subject: store.created.id,
      time: store.updated.lastModifiedAt,
      data: { version: 2, oldVersion: 1 },
    });
    expect(cloudEvents.find((d) => d.type === `${TYPE_PREFIX}.customer.change.ResourceDeleted`)?.data).toMatchObject({ dataErasure: true });
  });

  it('SNS (topic → queue, in the SNS envelope), Platform format', async () => {
    const arrived = await sqs.waitForMessages(queues.snsSink, 5, WAIT_MS);
    expect(JSON.parse(arrived[0]?.body ?? '{}')).toMatchObject({ Type: 'Notification', TopicArn: expect.stringContaining('e2e-topic') });
    await drained('sns');
    const documents = sqsDocuments(await sqs.receiveAll(queues.snsSink));
    expect(labels(documents)).toEqual(storeOnlyLabels('sns'));
    expect(documents.find((d) => d.notificationType === 'ResourceUpdated')).toMatchObject({ version: 2, oldVersion: 1 });
  });

  it('EventBridge (partner event source of the subscription), CloudEvents format', async () => {
    await eventBridge.waitFor(5, WAIT_MS);
    await drained('eventBridge');
    const events = eventBridge.received;
    // The source created for the subscription, named after its id, and answered as the
    // destination's `source` (the official EventBridgeDestination requires it).
    expect(eventBridgeShim.createdSources).toEqual([`aws.partner/herald/${P}/${subscriptions.eventBridge?.id}`]);
    expect(subscriptions.eventBridge?.destination).toEqual({
      type: 'EventBridge',
      region: 'eu-central-1',
      accountId: '123456789012',
      source: eventBridgeShim.createdSources[0],
    });
    expect((await api.read(`/${P}/subscriptions/key=e2e-eventbridge`)).destination.source).toBe(eventBridgeShim.createdSources[0]);
    expect(events.every((event) => event.Source === eventBridgeShim.createdSources[0])).toBe(true);
    expect(labels(events.map((event) => event.Detail as Json))).toEqual(storeOnlyLabels('eventBridge'));
    const updated = events.find((event) => event.DetailType === 'ResourceUpdated');
    expect(updated?.Detail).toMatchObject({ specversion: '1.0', type: `${TYPE_PREFIX}.store.change.ResourceUpdated`, data: { version: 2, oldVersion: 1 } });
    expect(events.map((event) => event.DetailType).sort()).toEqual(
      ['ResourceCreated', 'ResourceCreated', 'ResourceDeleted', 'ResourceUpdated', 'StoreCreated'].sort(),
    );
  });

  it('Service Bus (AMQP), Platform format', async () => {
    await serviceBus.waitFor('e2e-queue', 5, WAIT_MS);
    await drained('serviceBus');
    const received = serviceBus.received('e2e-queue');
    const documents = received.map((message) => JSON.parse(message.rawBody?.toString('utf8') ?? 'null') as Json);
    expect(labels(documents)).toEqual(storeOnlyLabels('serviceBus'));
    expect(received.every((message) => message.contentType === 'application/json')).toBe(true);
    const created = documents.find((d) => d.type === 'StoreCreated') as Json;
    expect(received.find((message) => JSON.parse(message.rawBody?.toString('utf8') ?? 'null').type === 'StoreCreated')?.messageId).toBe(created.id);
  });

  it('Event Grid (CloudEvents only)', async () => {
    await eventGrid.waitFor(5, WAIT_MS);
    await drained('eventGrid');
    const events = eventGrid.received as unknown as Json[];
    expect(labels(events)).toEqual(storeOnlyLabels('eventGrid'));
    expect(events.find((event) => event.type === `${TYPE_PREFIX}.store.message.StoreCreated`)).toMatchObject({
      specversion: '1.0',
      source: `/${P}/stores`,
      subject: store.created.id,
      sequence: '1',
      data: { type: 'StoreCreated', sequenceNumber: 1 },
    });
  });

  it('Pub/Sub (gRPC), CloudEvents format in structured mode', async () => {
    await pubsub.waitFor('e2e-pubsub', 5, WAIT_MS);
    await drained('pubsub');
    const published = pubsub.published('e2e-pubsub');
    expect(labels(published.map((message) => message.json as Json))).toEqual(storeOnlyLabels('pubsub'));
    expect(published.every((message) => message.attributes['content-type'] === 'application/cloudevents+json')).toBe(true);
    expect(published.map((message) => message.json as Json).find((d) => d.type === `${TYPE_PREFIX}.store.change.ResourceDeleted`)).toMatchObject({
      subject: store.created.id,
      data: { notificationType: 'ResourceDeleted', version: 2 },
    });
  });

  it('keeps every destination secret sealed at rest and hidden in responses, while delivering', async () => {
    const stored = await gateway.db.query<{ doc: Json }>("SELECT doc FROM resources WHERE project_key = $1 AND type_id = 'subscription'", [P]);
    expect(stored.rows).toHaveLength(Object.keys(subscriptions).length);
    const text = JSON.stringify(stored.rows.map((row) => row.doc));
    for (const secret of [AWS_ACCESS_SECRET, serviceBus.key, eventGrid.accessKey]) expect(text).not.toContain(secret);
    expect(text.match(/enc:v1:/g)?.length).toBe(5); // SQS ×2, SNS, Service Bus, Event Grid
    const page = await api.read(`/${P}/subscriptions?limit=500`);
    expectMasked(page, AWS_ACCESS_SECRET);
    expectMasked(page, serviceBus.key);
    expectMasked(page, eventGrid.accessKey);
    expect(page.results.map((s: Json) => s.status)).toEqual(page.results.map(() => 'Healthy'));
  });
});
