import { MESSAGE_TYPES } from '@herald/model';
import { checkAgainstReference, type CheckOptions, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { anonymousWithToken, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { ACCEPTED_EXTRA_FIELDS } from './reference-extras.js';
import { byId, PROJECT as P, READ_ROWS, RESOURCE_ROWS, type Made, type ResourceRow } from './reference-resources.js';
import { deliveryViolations, labelOf, messageViolations, type Delivered } from './reference-deliveries.js';

const REGION = 'us-east-1';
const WAIT_MS = 20_000;
/** Subscribed for both formats: every message and change Herald records for these resources. */
/**
 * Every resource type that records messages and that the official MessageSubscription may name
 * (`cart` records CartPurchaseOrderNumberSet, but the reference has no cart message subscriptions).
 */
const MESSAGE_TYPE_IDS = Object.entries(MESSAGE_TYPES).flatMap(([typeId, types]) =>
  types.length > 0 && checkAgainstReference('MessageSubscriptionResourceTypeId', typeId).length === 0 ? [typeId] : [],
);
const CHANGE_TYPE_IDS = [...new Set(RESOURCE_ROWS.flatMap((row) => (row.changeTypeId === undefined ? [] : [row.changeTypeId])))];

/** The checker's findings as lines (a failing assertion prints them all), Herald's spec extras accepted. */
function violations(type: string, value: unknown, label: string, options: CheckOptions = {}): string[] {
  return checkAgainstReference(type, value, { extraFields: ACCEPTED_EXTRA_FIELDS, label, ...options }).map((violation) => violation.message);
}

/**
 * Issue 23: Herald's answers, messages and deliveries (Platform and CloudEvents) against the types
 * of the official API reference at the pinned commit (@herald/testkit's vendored facts): every
 * resource Herald serves is created, read, queried, updated and deleted through HTTP, every
 * message is read back, and every delivery that reaches the SQS queues is checked.
 */
describe('Herald against the official API reference types', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let api: Caller;
  const made: Made = {};
  /** `typeId:id:notification:version` of every write whose change notification must arrive. */
  const expectedChanges: string[] = [];
  const queues = { Platform: '', CloudEvents: '' };
  const subscriptions: Record<string, Json> = {};

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_project']);
    ({ sqs, gateway, admin: api } = setup);
  });
  afterAll(() => setup?.close());

  /** The API client, or for a `/me` row its anonymous session (one per row, kept for its delete). */
  const sessions = new Map<string, Caller>();
  const callerFor = async (row: ResourceRow): Promise<Caller> => {
    if (row.session === undefined) return api;
    const known = sessions.get(row.name) ?? (await anonymousWithToken(gateway, P, row.session)).caller;
    sessions.set(row.name, known);
    return known;
  };

  const url = (row: ResourceRow, resource?: Json) => `/${P}/${row.path}${resource === undefined ? '' : `/${resource.id as string}`}`;

  function expectChange(row: ResourceRow, resource: Json, notification: string): void {
    if (row.changeTypeId !== undefined) expectedChanges.push(`${row.changeTypeId}:${resource.id as string}:${notification}:${resource.version as number}`);
  }

  it('subscriptions (SQS, Platform and CloudEvents formats): create, get, query and update answers', async () => {
    const found: string[] = [];
    for (const format of ['Platform', 'CloudEvents'] as const) {
      queues[format] = sqs.createQueue(`reference-${format.toLowerCase()}`);
      const draft = {
        key: `reference-${format.toLowerCase()}`,
        destination: { type: 'SQS', queueUrl: queues[format], region: REGION, accessKey: 'AKIAREFERENCE0000001', accessSecret: 'reference-secret-0123456789' },
        messages: MESSAGE_TYPE_IDS.map((resourceTypeId) => ({ resourceTypeId })),
        changes: CHANGE_TYPE_IDS.map((resourceTypeId) => ({ resourceTypeId })),
        ...(format === 'CloudEvents' ? { format: { type: 'CloudEvents', cloudEventsVersion: '1.0' } } : {}),
      };
      const created = await api.ok(`/${P}/subscriptions`, draft, 201);
      found.push(...violations('Subscription', created, `Subscription(${format}) create`));
      found.push(...violations('Subscription', await api.read(`/${P}/subscriptions/${created.id as string}`), `Subscription(${format}) get`));
      const page = await api.read(`/${P}/subscriptions?${byId(created)}`);
      found.push(...violations('SubscriptionPagedQueryResponse', page, `SubscriptionPagedQueryResponse(${format})`));
      // The key is the one field an update may change without touching what is delivered.
      const updated = await api.update(`/${P}/subscriptions/${created.id as string}`, created.version as number, [
        { action: 'setKey', key: `${draft.key}-renamed` },
      ]);
      found.push(...violations('Subscription', updated, `Subscription(${format}) update`));
      subscriptions[format] = updated;
    }
    expect(found).toEqual([]);
  });

  for (const row of RESOURCE_ROWS) {
    it(`${row.name}: create, get, query and update answers`, async () => {
      const found: string[] = [];
      const caller = await callerFor(row);
      const answer = await caller.ok(url(row), row.draft(made), 201);
      found.push(...violations(row.createdType ?? row.type, answer, `${row.createdType ?? row.type}(${row.name}) create`));
      let resource = row.resourceOf?.(answer) ?? answer;
      expectChange(row, resource, 'ResourceCreated');
      found.push(...violations(row.type, await caller.read(url(row, resource)), `${row.type}(${row.name}) get`));
      const page = await caller.read(`${url(row)}?${(row.query ?? byId)(resource)}`);
      expect((page.results as Json[]).map((result) => result.id)).toContain(resource.id);
      found.push(...violations(row.page, page, `${row.page}(${row.name})`));
      if (row.actions !== undefined) {
        resource = await caller.update(url(row, resource), resource.version as number, row.actions(resource, made));
        expectChange(row, resource, 'ResourceUpdated');
        found.push(...violations(row.type, resource, `${row.type}(${row.name}) update`));
      }
      made[row.name] = resource;
      expect(found).toEqual([]);
    });
  }

  for (const row of READ_ROWS) {
    it(`${row.name}: the answer`, async () => {
      expect(violations(row.type, await api.read(`/${P}/${row.url(made)}`), `${row.type}(${row.name})`)).toEqual([]);
    });
  }

  it('customer sign-in (POST /in-store/key=…/login): a CustomerSignInResult', async () => {
    // The customer was moved into the store (setStores): it signs in there (§5.8 store customers).
    const signIn = await api.ok(`/${P}/in-store/key=reference-store/login`, { email: 'erika@reference.example', password: 'reference-password' });
    expect(violations('CustomerSignInResult', signIn, 'CustomerSignInResult(login)')).toEqual([]);
  });

  it('project: get and update answers', async () => {
    const project = await api.read(`/${P}`);
    const updated = await api.update(`/${P}`, project.version as number, [
      { action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 30 } },
    ]);
    expect([...violations('Project', project, 'Project get'), ...violations('Project', updated, 'Project update')]).toEqual([]);
  });

  it('delete answers, in reverse order of creation', async () => {
    const found: string[] = [];
    for (const row of [...RESOURCE_ROWS].reverse().filter((candidate) => candidate.deletable)) {
      const caller = await callerFor(row);
      const before = made[row.name] as Json;
      // At its current version: a later row may have changed it (the order row orders the cart).
      const resource = before.version === undefined ? before : await caller.read(url(row, before));
      const version = resource.version === undefined ? '' : `?version=${resource.version as number}`;
      const answer = await caller.delete(`${url(row, resource)}${version}`);
      expect(answer.status, `${row.name}: ${JSON.stringify(answer.body)}`).toBe(200);
      expectChange(row, answer.body, 'ResourceDeleted');
      found.push(...violations(row.type, answer.body, `${row.type}(${row.name}) delete`));
    }
    expect(found).toEqual([]);
  });

  let messages: Json[] = [];

  it('messages: the query page, and every message by id against its Message subtype', async () => {
    const page = await api.read(`/${P}/messages?limit=500&sort=createdAt%20asc`);
    messages = page.results as Json[];
    expect(messages.length).toBeGreaterThan(10);
    const found = violations('MessagePagedQueryResponse', page, 'MessagePagedQueryResponse');
    for (const message of messages) found.push(...messageViolations(await api.read(`/${P}/messages/${message.id as string}`)));
    expect(found).toEqual([]);
  });

  for (const format of ['Platform', 'CloudEvents'] as const) {
    it(`deliveries to SQS in the ${format} format: the test notification, every change notification and message`, async () => {
      const expected = [
        `subscription:${subscriptions[format]?.id as string}:ResourceCreated:1`,
        ...expectedChanges,
        ...messages
          .filter((message) => MESSAGE_TYPE_IDS.includes((message.resource as Json).typeId as string))
          .map(
            (message) =>
              `${(message.resource as Json).typeId as string}:${(message.resource as Json).id as string}:Message:${message.type as string}:${message.sequenceNumber as number}`,
          ),
      ];
      const arrived = await arrivals(queues[format], expected);
      const found = arrived.flatMap((delivered) => deliveryViolations(delivered, format));
      expect(found).toEqual([]);
    });
  }

  /**
   * Waits until the queue was sent as many messages as expected, then drains it until every
   * expected label is among them (deliveries are asynchronous and may repeat, §6.2).
   */
  async function arrivals(queueUrl: string, expected: readonly string[]): Promise<Delivered[]> {
    // A shortfall is not an error yet: the labels below say which deliveries are missing.
    await sqs.waitForMessages(queueUrl, expected.length, WAIT_MS).catch(() => undefined);
    const arrived: Delivered[] = [];
    await vi.waitFor(
      async () => {
        for (const message of await sqs.receiveAll(queueUrl)) arrived.push({ document: JSON.parse(message.body) as Json });
        const labels = new Set(arrived.map((delivered) => labelOf(delivered.document)));
        expect(expected.filter((label) => !labels.has(label))).toEqual([]);
      },
      { timeout: 2_000, interval: 20 },
    );
    return arrived;
  }
});
