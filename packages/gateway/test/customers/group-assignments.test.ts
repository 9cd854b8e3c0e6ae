/**
 * Issue 29: a customer's group assignments (reference: types/customer/CustomerGroupAssignment*.raml,
 * CustomerDraft.customerGroupAssignments, Customer{Add,Remove}CustomerGroupAssignmentAction,
 * CustomerSetCustomerGroupAssignmentsAction; types/message/CustomerGroupAssignment*): validated
 * drafts and actions (groups must exist, each once), the official messages in order, in the
 * Messages API and delivered to an SQS subscription, and the in-store form of the actions.
 */
import { checkAgainstReference, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer, Caller, Json } from '../carts/commerce.js';
import { ACCEPTED_EXTRA_FIELDS } from '../compat/reference-extras.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'customer-group-assignments';
const STORE = 'assign-store';

const violations = (type: string, value: unknown) => checkAgainstReference(type, value, { extraFields: ACCEPTED_EXTRA_FIELDS });
const assignment = (group: Json): Json => ({ customerGroup: { typeId: 'customer-group', id: group.id } });
const byKey = (key: string): Json => ({ customerGroup: { typeId: 'customer-group', key } });

function expectError(answer: Answer, code: string, fields: Json = {}): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.errors[0]).toMatchObject({ code, ...fields });
}

describe('customer group assignments', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let admin: Caller;
  let gold: Json;
  let silver: Json;
  let bronze: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_customers', 'manage_customer_groups', 'manage_stores', 'manage_subscriptions', 'view_messages']);
    ({ sqs, admin } = setup);
    gold = await admin.ok(`/${P}/customer-groups`, { key: 'gold', groupName: 'Gold' }, 201);
    silver = await admin.ok(`/${P}/customer-groups`, { key: 'silver', groupName: 'Silver' }, 201);
    bronze = await admin.ok(`/${P}/customer-groups`, { key: 'bronze', groupName: 'Bronze' }, 201);
    await admin.ok(`/${P}/stores`, { key: STORE }, 201);
  }, 180_000);
  afterAll(() => setup?.close());

  let counter = 0;
  const create = (draft: Json = {}): Promise<Answer> => {
    counter += 1;
    return admin.post(`/${P}/customers`, { email: `assigned-${counter}@example.com`, password: 'pw', ...draft });
  };
  const update = (customer: Json, actions: Json[], base = `/${P}/customers`): Promise<Answer> =>
    admin.post(`${base}/${customer.id}`, { version: customer.version, actions });
  const messagesOf = async (id: string): Promise<Json[]> => {
    const where = encodeURIComponent(`resource(id = "${id}")`);
    return (await admin.read(`/${P}/messages?where=${where}&sort=sequenceNumber%20asc&limit=100`)).results as Json[];
  };

  it('takes customerGroupAssignments from the draft, by id or key, in CustomerCreated too', async () => {
    const created = await create({ customerGroupAssignments: [assignment(gold), byKey('silver')] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const customer = created.body.customer as Json;
    const expected = [assignment(gold), assignment(silver)];
    expect(customer.customerGroupAssignments).toEqual(expected);
    expect(violations('Customer', customer)).toEqual([]);
    expect((await admin.read(`/${P}/customers/${customer.id}`)).customerGroupAssignments).toEqual(expected);
    const [message] = await messagesOf(customer.id as string);
    expect(message).toMatchObject({ type: 'CustomerCreated', customer: { customerGroupAssignments: expected } });
  });

  it('refuses draft assignments of unknown groups, a group twice, and malformed lists', async () => {
    expectError(await create({ customerGroupAssignments: [byKey('no-such-group')] }), 'ReferencedResourceNotFound', {
      typeId: 'customer-group',
      key: 'no-such-group',
    });
    expectError(await create({ customerGroupAssignments: [assignment(gold), byKey('gold')] }), 'InvalidInput', {
      field: 'customerGroupAssignments[1].customerGroup',
    });
    expectError(await create({ customerGroupAssignments: assignment(gold) }), 'InvalidInput', { field: 'customerGroupAssignments' });
    expectError(await create({ customerGroupAssignments: [{}] }), 'RequiredField', { field: 'customerGroupAssignments[0].customerGroup' });
    expectError(await create({ customerGroupAssignments: [{ customerGroup: { typeId: 'channel', id: gold.id } }] }), 'InvalidInput');
  });

  it('adds, removes and sets assignments with the official messages, in order', async () => {
    const customer = (await create()).body.customer as Json;
    const added = await admin.update(`/${P}/customers/${customer.id}`, 1, [
      { action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) },
      { action: 'addCustomerGroupAssignment', customerGroupAssignment: byKey('silver') },
    ]);
    expect(added.customerGroupAssignments).toEqual([assignment(gold), assignment(silver)]);
    const removed = await admin.update(`/${P}/customers/${customer.id}`, added.version, [
      { action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', key: 'gold' } },
    ]);
    expect(removed.customerGroupAssignments).toEqual([assignment(silver)]);
    const set = await admin.update(`/${P}/customers/${customer.id}`, removed.version, [
      { action: 'setCustomerGroupAssignments', customerGroupAssignments: [assignment(bronze), assignment(gold)] },
    ]);
    expect(set).toMatchObject({ version: 4, customerGroupAssignments: [assignment(bronze), assignment(gold)] });
    // The same list again changes nothing: no version, no message.
    const same = await admin.update(`/${P}/customers/${customer.id}`, 4, [
      { action: 'setCustomerGroupAssignments', customerGroupAssignments: [byKey('bronze'), byKey('gold')] },
    ]);
    expect(same.version).toBe(4);
    const cleared = await admin.update(`/${P}/customers/${customer.id}`, 4, [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [] }]);
    expect(cleared.customerGroupAssignments).toEqual([]);

    const messages = (await messagesOf(customer.id as string)).slice(1);
    expect(messages.map(({ type, resourceVersion }) => [type, resourceVersion])).toEqual([
      ['CustomerGroupAssignmentAdded', 2],
      ['CustomerGroupAssignmentAdded', 2],
      ['CustomerGroupAssignmentRemoved', 3],
      ['CustomerGroupAssignmentsSet', 4],
      ['CustomerGroupAssignmentsSet', 5],
    ]);
    expect(messages.map(({ type, ...payload }) => ({ type, ...pick(payload) }))).toEqual([
      { type: 'CustomerGroupAssignmentAdded', customerGroupAssignment: assignment(gold) },
      { type: 'CustomerGroupAssignmentAdded', customerGroupAssignment: assignment(silver) },
      { type: 'CustomerGroupAssignmentRemoved', customerGroupAssignment: assignment(gold) },
      {
        type: 'CustomerGroupAssignmentsSet',
        customerGroupAssignments: [assignment(bronze), assignment(gold)],
        oldCustomerGroupAssignments: [assignment(silver)],
      },
      { type: 'CustomerGroupAssignmentsSet', customerGroupAssignments: [], oldCustomerGroupAssignments: [assignment(bronze), assignment(gold)] },
    ]);
    for (const message of messages) expect(violations(`${message.type as string}Message`, message)).toEqual([]);
  });

  it('refuses bad assignment actions with 400s naming the field, and changes nothing', async () => {
    const customer = (await create({ customerGroupAssignments: [assignment(gold)] })).body.customer as Json;
    const refusals: Array<[Json, string, Json]> = [
      [{ action: 'addCustomerGroupAssignment' }, 'RequiredField', { field: 'customerGroupAssignment' }],
      [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: {} }, 'RequiredField', { field: 'customerGroupAssignment.customerGroup' }],
      [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: byKey('nope') }, 'ReferencedResourceNotFound', { typeId: 'customer-group' }],
      [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) }, 'InvalidOperation', {}],
      [{ action: 'removeCustomerGroupAssignment' }, 'RequiredField', { field: 'customerGroup' }],
      [{ action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', id: silver.id } }, 'InvalidOperation', {}],
      [{ action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', key: 'nope' } }, 'ReferencedResourceNotFound', {}],
      [{ action: 'removeCustomerGroupAssignment', customerGroup: 'gold' }, 'InvalidInput', { field: 'customerGroup' }],
      [{ action: 'setCustomerGroupAssignments' }, 'RequiredField', { field: 'customerGroupAssignments' }],
      [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [byKey('silver'), byKey('silver')] }, 'InvalidInput', {}],
      [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [byKey('nope')] }, 'ReferencedResourceNotFound', {}],
    ];
    for (const [action, code, fields] of refusals) expectError(await update(customer, [action]), code, fields);
    expect(await admin.read(`/${P}/customers/${customer.id}`)).toMatchObject({ version: 1, customerGroupAssignments: [assignment(gold)] });
  });

  it('removes the assignment of a group deleted since, by its id', async () => {
    const doomed = await admin.ok(`/${P}/customer-groups`, { groupName: 'Doomed' }, 201);
    const customer = (await create({ customerGroupAssignments: [assignment(doomed)] })).body.customer as Json;
    expect((await admin.delete(`/${P}/customer-groups/${doomed.id}?version=1`)).status).toBe(200);
    const removed = await admin.update(`/${P}/customers/${customer.id}`, 1, [
      { action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', id: doomed.id } },
    ]);
    expect(removed.customerGroupAssignments).toEqual([]);
  });

  it("applies the actions in a store to the store's customers only", async () => {
    const base = `/${P}/in-store/key=${STORE}/customers`;
    const inStore = (await admin.ok(base, { email: 'in-store-assigned@example.com', password: 'pw' }, 201)).customer as Json;
    const updated = await admin.update(`${base}/${inStore.id}`, 1, [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: byKey('gold') }]);
    expect(updated.customerGroupAssignments).toEqual([assignment(gold)]);
    const global = (await create()).body.customer as Json;
    const refused = await update(global, [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: byKey('gold') }], base);
    expect(refused.status).toBe(404);
  });

  it('delivers the assignment messages and change notifications to an SQS subscription', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'customer');
    const customer = (await create()).body.customer as Json;
    const id = customer.id as string;
    await admin.update(`/${P}/customers/${id}`, 1, [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) }]);
    await admin.update(`/${P}/customers/${id}`, 2, [{ action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', id: gold.id } }]);
    await admin.update(`/${P}/customers/${id}`, 3, [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [assignment(silver)] }]);

    const documents = await deliveriesAbout(sqs, queue, id, 8);
    expect(labels(documents)).toEqual(
      [
        `customer:${id}:ResourceCreated:1`,
        `customer:${id}:Message:CustomerCreated:1`,
        `customer:${id}:ResourceUpdated:2`,
        `customer:${id}:Message:CustomerGroupAssignmentAdded:2`,
        `customer:${id}:ResourceUpdated:3`,
        `customer:${id}:Message:CustomerGroupAssignmentRemoved:3`,
        `customer:${id}:ResourceUpdated:4`,
        `customer:${id}:Message:CustomerGroupAssignmentsSet:4`,
      ].sort(),
    );
    const set = documents.map(payloadOf).find((payload) => payload.type === 'CustomerGroupAssignmentsSet');
    expect(set).toMatchObject({ customerGroupAssignments: [assignment(silver)], oldCustomerGroupAssignments: [] });
  });
});

/** The payload fields of a message (without the common Message fields). */
function pick(message: Json): Json {
  const { customerGroupAssignment, customerGroupAssignments, oldCustomerGroupAssignments } = message;
  return Object.fromEntries(
    Object.entries({ customerGroupAssignment, customerGroupAssignments, oldCustomerGroupAssignments }).filter(([, value]) => value !== undefined),
  );
}
