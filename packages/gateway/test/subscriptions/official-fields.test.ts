import { awsChainOnlyEnvironment, startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  AWS_ACCESS_KEY,
  AWS_ACCESS_SECRET,
  CLOUD_EVENTS,
  expectError,
  expectMasked,
  expectTestNotification,
  payloadOf,
  REGION,
  sqsDestination,
  sqsDocuments,
  WAIT_MS,
} from './support.js';

const P = 'subs-official';
const SECRET_KEY = 'some-long-key-123456';
/** Herald's own AWS identity, as the process environment gives it to the SDK's default chain. */
const HERALD_AWS_KEY_ID = 'AKIAHERALDOWNIDENTITY';

/**
 * The process environment the AWS SDK's default credential chain reads, and nothing else: the
 * shared config files point at nothing and the instance metadata service is off (not loopback).
 */
function heraldAwsEnvironment(keyId: string | undefined): void {
  const credentials = keyId === undefined ? undefined : { accessKeyId: keyId, secretAccessKey: 'herald-own-secret' };
  for (const [name, value] of Object.entries(awsChainOnlyEnvironment(credentials))) vi.stubEnv(name, value);
}

/**
 * Issue 23: what the official Subscription, SubscriptionDraft and destination types have where the
 * spec is silent: SQS/SNS `authenticationMode` (Credentials or IAM), `events` and `setEvents`, and
 * every field the official Subscription type requires, in every answer. Real deliveries through the
 * in-process worker to fauxqs (SQS, and SNS to a queue), with secrets sealed at rest.
 */
describe('Subscriptions: the official API fields', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let api: Caller;
  let counter = 0;

  beforeAll(async () => {
    heraldAwsEnvironment(HERALD_AWS_KEY_ID);
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [P],
      delivery: { secretKey: SECRET_KEY, environment: { endpoints: { sqs: sqs.endpoint, sns: sqs.endpoint }, timeouts: { sendMs: 5_000 } } },
    });
    api = await callerWith(gateway, P, ['manage_subscriptions', 'manage_stores']);
  });

  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
    vi.unstubAllEnvs();
  });

  const freshQueue = () => sqs.createQueue(`official-${++counter}`);

  /** A topic whose messages land, unwrapped, in the returned queue. */
  function freshTopic(): { topicArn: string; sink: string } {
    const topicArn = sqs.createTopic(`official-topic-${++counter}`);
    const sink = sqs.createQueue(`official-topic-sink-${counter}`);
    sqs.subscribeQueue(topicArn, sink, { raw: true });
    return { topicArn, sink };
  }

  const create = (draft: Json) => api.ok(`/${P}/subscriptions`, draft, 201);
  const storeChanges = { changes: [{ resourceTypeId: 'store' }] };

  async function total(): Promise<number> {
    return (await api.read(`/${P}/subscriptions?withTotal=true&limit=1`)).total as number;
  }

  async function rejected(draft: Json): Promise<Json> {
    const before = await total();
    const error = expectError(await api.post(`/${P}/subscriptions`, draft), 400, 'InvalidInput');
    expect(await total()).toBe(before);
    return error;
  }

  describe('authenticationMode of SQS and SNS destinations (reference type AwsAuthenticationMode)', () => {
    it("IAM: created without keys, answered as IAM, and everything sent with Herald's own AWS credentials", async () => {
      const queue = freshQueue();
      const { topicArn, sink } = freshTopic();
      const queueSub = await create({
        key: 'iam-sqs',
        destination: { type: 'SQS', queueUrl: queue, region: REGION, authenticationMode: 'IAM' },
        ...storeChanges,
      });
      const topicSub = await create({
        key: 'iam-sns',
        destination: { type: 'SNS', topicArn, authenticationMode: 'IAM' },
        format: CLOUD_EVENTS,
        ...storeChanges,
      });
      expect(queueSub.destination).toEqual({ type: 'SQS', queueUrl: queue, region: REGION, authenticationMode: 'IAM' });
      expect(topicSub.destination).toEqual({ type: 'SNS', topicArn, authenticationMode: 'IAM' });
      expect(await api.read(`/${P}/subscriptions/${queueSub.id}`)).toEqual(queueSub);
      // Nothing of the destination's own to seal: the document holds no key either.
      const stored = await gateway.db.query<{ doc: Json }>("SELECT doc FROM resources WHERE project_key = $1 AND type_id = 'subscription' AND id = $2", [
        P,
        queueSub.id,
      ]);
      expect(stored.rows[0]?.doc.destination).toEqual({ type: 'SQS', queueUrl: queue, region: REGION, authenticationMode: 'IAM' });

      expectTestNotification(sqsDocuments(await sqs.waitForMessages(queue, 1, WAIT_MS))[0] as Json, P, queueSub);
      expectTestNotification(sqsDocuments(await sqs.waitForMessages(sink, 1, WAIT_MS))[0] as Json, P, topicSub);

      // The delivery worker sends with the same identity: a store's ResourceCreated reaches both.
      const store = await api.ok(`/${P}/stores`, { key: 'iam-store', languages: ['en'] }, 201);
      const [, platform] = sqsDocuments(await sqs.waitForMessages(queue, 2, WAIT_MS));
      expect(platform).toMatchObject({ notificationType: 'ResourceCreated', resource: { typeId: 'store', id: store.id } });
      const [, cloudEvent] = sqsDocuments(await sqs.waitForMessages(sink, 2, WAIT_MS));
      // CloudEvents `source` is the resource type's collection path, the id is the subject.
      expect(cloudEvent).toMatchObject({ source: `/${P}/stores`, subject: store.id, data: { resource: { id: store.id } } });
    });

    it('Credentials: the default when keys are given, answered, the secret masked; changeDestination moves between the modes', async () => {
      const created = await create({ destination: sqsDestination(freshQueue()), ...storeChanges });
      expect(created.destination).toMatchObject({ accessKey: AWS_ACCESS_KEY, authenticationMode: 'Credentials' });
      expectMasked(created, AWS_ACCESS_SECRET);
      const url = `/${P}/subscriptions/${created.id}`;

      const toIam = freshQueue();
      const iam = await api.update(url, 1, [
        { action: 'changeDestination', destination: { type: 'SQS', queueUrl: toIam, region: REGION, authenticationMode: 'IAM' } },
      ]);
      expect(iam.destination).toEqual({ type: 'SQS', queueUrl: toIam, region: REGION, authenticationMode: 'IAM' });
      expectTestNotification(sqsDocuments(await sqs.waitForMessages(toIam, 1, WAIT_MS))[0] as Json, P, { id: created.id });

      const back = await api.update(url, 2, [
        { action: 'changeDestination', destination: { ...sqsDestination(freshQueue()), authenticationMode: 'Credentials' } },
      ]);
      expect(back.destination).toMatchObject({ accessKey: AWS_ACCESS_KEY, authenticationMode: 'Credentials' });
      expectMasked(back, AWS_ACCESS_SECRET);
    });

    it('keys beside IAM, an unknown mode, or Credentials without keys: 400 InvalidInput, nothing created, no key echoed', async () => {
      const queueUrl = freshQueue();
      const withKeys = await rejected({ destination: { ...sqsDestination(queueUrl), authenticationMode: 'IAM' }, ...storeChanges });
      expect(withKeys.message).toContain('must not be set with authenticationMode IAM');
      expect(JSON.stringify(withKeys)).not.toContain(AWS_ACCESS_SECRET);
      const { topicArn } = freshTopic();
      expect((await rejected({ destination: { type: 'SNS', topicArn, authenticationMode: 'Role' }, ...storeChanges })).message).toContain('authenticationMode');
      expect((await rejected({ destination: { type: 'SNS', topicArn, authenticationMode: 'Credentials' }, ...storeChanges })).message).toContain(
        'destination.accessKey',
      );
    });

    it('IAM while Herald has no AWS credentials: the test notification fails as a configuration error, nothing created', async () => {
      heraldAwsEnvironment(undefined);
      try {
        const error = await rejected({ destination: { type: 'SQS', queueUrl: freshQueue(), region: REGION, authenticationMode: 'IAM' }, ...storeChanges });
        expect(error.message).toMatch(/test notification could not be delivered to the destination \(configuration error\): CredentialsProviderError/);
      } finally {
        heraldAwsEnvironment(HERALD_AWS_KEY_ID);
      }
    });
  });

  describe('events and setEvents (reference EventSubscription, beta)', () => {
    it('accepts events alone, answers them, and answers events: [] on every subscription without', async () => {
      const events = [{ resourceTypeId: 'import-api', types: ['ImportContainerCreated', 'ImportValidationFailed'] }, { resourceTypeId: 'checkout' }];
      const withEvents = await create({ key: 'events-only', destination: sqsDestination(freshQueue()), events });
      expect(withEvents).toMatchObject({ messages: [], changes: [], events });
      const without = await create({ key: 'no-events', destination: sqsDestination(freshQueue()), ...storeChanges });
      expect(without.events).toEqual([]);
      expect((await api.read(`/${P}/subscriptions/key=no-events`)).events).toEqual([]);
      const page = await api.read(`/${P}/subscriptions?where=${encodeURIComponent('key in ("events-only", "no-events")')}&sort=key%20asc`);
      expect(page.results.map((subscription: Json) => subscription.events)).toEqual([events, []]);
    });

    it('refuses unknown event resource types and event types of another resource type', async () => {
      const destination = sqsDestination(freshQueue());
      expect((await rejected({ destination, events: [{ resourceTypeId: 'product' }] })).message).toContain('checkout, import-api');
      expect((await rejected({ destination, events: [{ resourceTypeId: 'checkout', types: ['ImportContainerCreated'] }] })).message).toContain(
        'ImportContainerCreated',
      );
      await rejected({ destination, events: [{ resourceTypeId: 'import-api', types: 'ImportContainerCreated' }] });
      await rejected({ destination, events: 'import-api' });
      expect((await rejected({ destination, events: [] })).message).toContain("Either 'messages', 'changes' or 'events' must be set");
    });

    it('setEvents sets and unsets them; nothing may be left subscribed', async () => {
      const created = await create({ destination: sqsDestination(freshQueue()), ...storeChanges });
      const url = `/${P}/subscriptions/${created.id}`;
      const events = [{ resourceTypeId: 'import-api', types: ['ImportContainerCreated'] }];
      const set = await api.update(url, 1, [{ action: 'setEvents', events }]);
      expect(set).toMatchObject({ version: 2, events, changes: storeChanges.changes });
      // With events set, changes may go (the reference's SetChanges rule, with events counted).
      const onlyEvents = await api.update(url, 2, [{ action: 'setChanges' }]);
      expect(onlyEvents).toMatchObject({ version: 3, changes: [], events });
      const refused = expectError(await api.post(url, { version: 3, actions: [{ action: 'setEvents', events: [] }] }), 400, 'InvalidInput');
      expect(refused.message).toContain("Either 'messages', 'changes' or 'events'");
      expectError(
        await api.post(url, { version: 3, actions: [{ action: 'setEvents', events: [{ resourceTypeId: 'checkout', types: ['Nope'] }] }] }),
        400,
        'InvalidInput',
      );
      const unset = await api.update(url, 3, [{ action: 'setMessages', messages: [{ resourceTypeId: 'store' }] }, { action: 'setEvents' }]);
      expect(unset).toMatchObject({ version: 4, events: [], messages: [{ resourceTypeId: 'store' }] });
    });
  });

  it('answers every field the official Subscription type requires, also for documents written before events and authenticationMode', async () => {
    const created = await create({ key: 'required-fields', destination: sqsDestination(freshQueue()), ...storeChanges });
    for (const field of ['id', 'version', 'createdAt', 'lastModifiedAt', 'destination', 'messages', 'changes', 'events', 'format', 'status']) {
      expect(created, field).toHaveProperty(field);
    }
    expect(created).toMatchObject({ format: { type: 'Platform' }, status: 'Healthy', createdBy: expect.any(Object), lastModifiedBy: expect.any(Object) });
    // A document as the previous build stored it: neither events nor an authentication mode.
    await gateway.db.query(
      `UPDATE resources SET doc = (doc - 'events') #- '{destination,authenticationMode}' WHERE project_key = $1 AND type_id = 'subscription' AND id = $2`,
      [P, created.id],
    );
    expect(await api.read(`/${P}/subscriptions/${created.id}`)).toEqual(created);
    // …and it still delivers with its keys.
    const store = await api.ok(`/${P}/stores`, { key: 'legacy-store', languages: ['en'] }, 201);
    const arrived = sqsDocuments(await sqs.waitForMessages(created.destination.queueUrl as string, 2, WAIT_MS));
    expect(arrived.map((document) => payloadOf(document).resource)).toContainEqual({ typeId: 'store', id: store.id });
  });
});
