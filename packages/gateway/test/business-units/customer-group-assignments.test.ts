/**
 * Issue 29: a business unit's customer group assignments and unit type (reference, beta:
 * BusinessUnit.customerGroupAssignments, BusinessUnitDraft.customerGroupAssignments,
 * BusinessUnit{Add,Remove}CustomerGroupAssignmentAction, BusinessUnitSetCustomerGroupAssignmentsAction,
 * BusinessUnitSetUnitTypeAction; types/message/BusinessUnitCustomerGroupAssignment*,
 * BusinessUnitTypeSet): validated drafts and actions, the official messages, their delivery to an
 * SQS subscription, and what the My operations may not do.
 */
import { checkAgainstReference, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerWithToken, type Answer, type Caller, type Json } from '../carts/commerce.js';
import { ACCEPTED_EXTRA_FIELDS } from '../compat/reference-extras.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'bu-group-assignments';
const BASE = `/${P}/business-units`;

const violations = (type: string, value: unknown) => checkAgainstReference(type, value, { extraFields: ACCEPTED_EXTRA_FIELDS });
const assignment = (group: Json): Json => ({ customerGroup: { typeId: 'customer-group', id: group.id } });
const byKey = (key: string): Json => ({ customerGroup: { typeId: 'customer-group', key } });
const unitRef = (key: string): Json => ({ typeId: 'business-unit', key });

function expectError(answer: Answer, code: string, fields: Json = {}): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.errors[0]).toMatchObject({ code, ...fields });
}

describe('business unit customer group assignments and unit type', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let gold: Json;
  let silver: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_business_units', 'manage_customers', 'manage_customer_groups', 'manage_subscriptions', 'view_messages']);
    ({ sqs, gateway, admin } = setup);
    gold = await admin.ok(`/${P}/customer-groups`, { key: 'gold', groupName: 'Gold' }, 201);
    silver = await admin.ok(`/${P}/customer-groups`, { key: 'silver', groupName: 'Silver' }, 201);
  }, 180_000);
  afterAll(() => setup?.close());

  let counter = 0;
  const company = (extra: Json = {}): Promise<Answer> => {
    counter += 1;
    return admin.post(BASE, { key: `company-${counter}`, name: `Company ${counter}`, unitType: 'Company', ...extra });
  };
  const division = async (parentKey: string, extra: Json = {}): Promise<Json> => {
    counter += 1;
    const draft = { key: `division-${counter}`, name: `Division ${counter}`, unitType: 'Division', parentUnit: unitRef(parentKey), ...extra };
    return admin.ok(BASE, draft, 201);
  };
  const update = (unit: Json, actions: Json[]): Promise<Answer> => admin.post(`${BASE}/${unit.id}`, { version: unit.version, actions });
  const messagesOf = async (id: string): Promise<Json[]> => {
    const where = encodeURIComponent(`resource(id = "${id}")`);
    return (await admin.read(`/${P}/messages?where=${where}&sort=sequenceNumber%20asc&limit=100`)).results as Json[];
  };

  it('takes customerGroupAssignments from the draft, by id or key; absent stays absent', async () => {
    const created = await company({ customerGroupAssignments: [assignment(gold), byKey('silver')] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.customerGroupAssignments).toEqual([assignment(gold), assignment(silver)]);
    expect(violations('BusinessUnit', created.body)).toEqual([]);
    const [message] = await messagesOf(created.body.id as string);
    expect(message).toMatchObject({ type: 'BusinessUnitCreated', businessUnit: { customerGroupAssignments: [assignment(gold), assignment(silver)] } });

    const plain = (await company()).body;
    expect(plain).not.toHaveProperty('customerGroupAssignments');
  });

  it('refuses draft assignments of unknown groups, a group twice, and malformed lists', async () => {
    expectError(await company({ customerGroupAssignments: [byKey('no-such-group')] }), 'ReferencedResourceNotFound', { typeId: 'customer-group' });
    expectError(await company({ customerGroupAssignments: [byKey('gold'), assignment(gold)] }), 'InvalidInput', {
      field: 'customerGroupAssignments[1].customerGroup',
    });
    expectError(await company({ customerGroupAssignments: assignment(gold) }), 'InvalidInput', { field: 'customerGroupAssignments' });
    expectError(await company({ customerGroupAssignments: [{}] }), 'RequiredField', { field: 'customerGroupAssignments[0].customerGroup' });
  });

  it('adds, removes and sets assignments with the official messages; setting none removes the field', async () => {
    const unit = (await company()).body;
    const id = unit.id as string;
    const added = await admin.update(`${BASE}/${id}`, 1, [
      { action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) },
      { action: 'addCustomerGroupAssignment', customerGroupAssignment: byKey('silver') },
    ]);
    expect(added.customerGroupAssignments).toEqual([assignment(gold), assignment(silver)]);
    const removed = await admin.update(`${BASE}/${id}`, 2, [
      { action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', key: 'gold' } },
    ]);
    expect(removed.customerGroupAssignments).toEqual([assignment(silver)]);
    const set = await admin.update(`${BASE}/${id}`, 3, [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [byKey('gold')] }]);
    expect(set).toMatchObject({ version: 4, customerGroupAssignments: [assignment(gold)] });
    const same = await admin.update(`${BASE}/${id}`, 4, [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [assignment(gold)] }]);
    expect(same.version).toBe(4);
    const unset = await admin.update(`${BASE}/${id}`, 4, [{ action: 'setCustomerGroupAssignments' }]);
    expect(unset.version).toBe(5);
    expect(unset).not.toHaveProperty('customerGroupAssignments');
    expect(violations('BusinessUnit', unset)).toEqual([]);

    const messages = (await messagesOf(id)).slice(1);
    expect(messages.map(({ type, resourceVersion }) => [type, resourceVersion])).toEqual([
      ['BusinessUnitCustomerGroupAssignmentAdded', 2],
      ['BusinessUnitCustomerGroupAssignmentAdded', 2],
      ['BusinessUnitCustomerGroupAssignmentRemoved', 3],
      ['BusinessUnitCustomerGroupAssignmentsSet', 4],
      ['BusinessUnitCustomerGroupAssignmentsSet', 5],
    ]);
    expect(messages[0]).toMatchObject({ customerGroupAssignment: assignment(gold) });
    expect(messages[2]).toMatchObject({ customerGroupAssignment: assignment(gold) });
    expect(messages[3]).toMatchObject({ customerGroupAssignments: [assignment(gold)], oldCustomerGroupAssignments: [assignment(silver)] });
    expect(messages[4]).toMatchObject({ oldCustomerGroupAssignments: [assignment(gold)] });
    expect(messages[4]).not.toHaveProperty('customerGroupAssignments');
    for (const message of messages) expect(violations(`${message.type as string}Message`, message)).toEqual([]);
  });

  it('refuses bad assignment actions with 400s naming the field, and changes nothing', async () => {
    const unit = (await company({ customerGroupAssignments: [assignment(gold)] })).body;
    const refusals: Array<[Json, string, Json]> = [
      [{ action: 'addCustomerGroupAssignment' }, 'RequiredField', { field: 'customerGroupAssignment' }],
      [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: byKey('nope') }, 'ReferencedResourceNotFound', { typeId: 'customer-group' }],
      [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) }, 'InvalidOperation', {}],
      [{ action: 'removeCustomerGroupAssignment' }, 'RequiredField', { field: 'customerGroup' }],
      [{ action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', id: silver.id } }, 'InvalidOperation', {}],
      [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [byKey('silver'), byKey('silver')] }, 'InvalidInput', {}],
      [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: 'gold' }, 'InvalidInput', { field: 'customerGroupAssignments' }],
    ];
    for (const [action, code, fields] of refusals) expectError(await update(unit, [action]), code, fields);
    expect(await admin.read(`${BASE}/${unit.id}`)).toMatchObject({ version: 1, customerGroupAssignments: [assignment(gold)] });
  });

  it('keeps assignments away from the My operations (MyBusinessUnitDraft and its actions lack them)', async () => {
    const shopper = await customerWithToken(gateway, P, admin, ['manage_my_business_units']);
    const refused = await shopper.caller.post(`/${P}/me/business-units`, {
      key: 'my-own-company',
      name: 'Mine',
      unitType: 'Company',
      customerGroupAssignments: [assignment(gold)],
    });
    expectError(refused, 'InvalidInput', { field: 'customerGroupAssignments' });
    const mine = await shopper.caller.ok(`/${P}/me/business-units`, { key: 'my-own-company', name: 'Mine', unitType: 'Company' }, 201);
    const action = { action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) };
    expectError(await shopper.caller.post(`/${P}/me/business-units/${mine.id}`, { version: 1, actions: [action] }), 'InvalidInput');
    expect(await admin.read(`${BASE}/${mine.id}`)).not.toHaveProperty('customerGroupAssignments');
  });

  it('turns a Division into a Company once its modes are Explicit, and its Divisions follow', async () => {
    const top = (await company()).body;
    const middle = await division(top.key as string);
    const bottom = await division(middle.key as string);
    const toCompany = { action: 'setUnitType', unitType: 'Company' };
    const inheriting = await update(middle, [toCompany]);
    expectError(inheriting, 'InvalidOperation');
    expect(inheriting.body.message).toContain('storeMode, associateMode, approvalRuleMode');
    expectError(await update(middle, [{ ...toCompany, parentUnit: unitRef(top.key as string) }]), 'InvalidInput', { field: 'parentUnit' });

    const explicit = await admin.update(`${BASE}/${middle.id}`, middle.version as number, [
      { action: 'setStoreMode', storeMode: 'Explicit' },
      { action: 'changeAssociateMode', associateMode: 'Explicit' },
      { action: 'changeApprovalRuleMode', approvalRuleMode: 'Explicit' },
    ]);
    const promoted = await admin.update(`${BASE}/${middle.id}`, explicit.version as number, [toCompany]);
    expect(promoted).toMatchObject({ unitType: 'Company', ancestors: [], topLevelUnit: unitRef(middle.key as string) });
    expect(promoted).not.toHaveProperty('parentUnit');
    expect(await admin.read(`${BASE}/${bottom.id}`)).toMatchObject({
      parentUnit: unitRef(middle.key as string),
      ancestors: [unitRef(middle.key as string)],
      topLevelUnit: unitRef(middle.key as string),
    });
    const message = (await messagesOf(middle.id as string)).at(-1) as Json;
    expect(message).toMatchObject({ type: 'BusinessUnitTypeSet', unitType: 'Company', oldUnitType: 'Division', oldParentUnit: unitRef(top.key as string) });
    expect(message).not.toHaveProperty('parentUnit');
    expect(violations('BusinessUnitTypeSetMessage', message)).toEqual([]);
  });

  it('turns a Company into a Division below another unit, never below its own Divisions', async () => {
    const target = (await company()).body;
    const moving = (await company()).body;
    const child = await division(moving.key as string);
    const toDivision = (parentKey?: string): Json => ({
      action: 'setUnitType',
      unitType: 'Division',
      ...(parentKey === undefined ? {} : { parentUnit: unitRef(parentKey) }),
    });
    expectError(await update(moving, [toDivision()]), 'RequiredField', { field: 'parentUnit' });
    expectError(await update(moving, [toDivision(child.key as string)]), 'InvalidOperation');
    expectError(await update(moving, [toDivision('no-such-unit')]), 'ReferencedResourceNotFound');
    expectError(await update(moving, [{ action: 'setUnitType', unitType: 'Holding' }]), 'InvalidInput', { field: 'unitType' });
    expectError(await update(moving, [{ action: 'setUnitType' }]), 'RequiredField', { field: 'unitType' });

    const demoted = await admin.update(`${BASE}/${moving.id}`, 1, [toDivision(target.key as string)]);
    expect(demoted).toMatchObject({
      unitType: 'Division',
      parentUnit: unitRef(target.key as string),
      ancestors: [unitRef(target.key as string)],
      topLevelUnit: unitRef(target.key as string),
    });
    expect(violations('BusinessUnit', demoted)).toEqual([]);
    expect(await admin.read(`${BASE}/${child.id}`)).toMatchObject({
      ancestors: [unitRef(target.key as string), unitRef(moving.key as string)],
      topLevelUnit: unitRef(target.key as string),
    });
    const message = (await messagesOf(moving.id as string)).at(-1) as Json;
    expect(message).toMatchObject({ type: 'BusinessUnitTypeSet', unitType: 'Division', oldUnitType: 'Company', parentUnit: unitRef(target.key as string) });
    expect(message).not.toHaveProperty('oldParentUnit');
    // The same type and parent again changes nothing.
    expect((await admin.update(`${BASE}/${moving.id}`, 2, [toDivision(target.key as string)])).version).toBe(2);
  });

  it('delivers the assignment and unit type messages and change notifications to an SQS subscription', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'business-unit');
    const parent = (await company()).body;
    const unit = (await company()).body;
    const id = unit.id as string;
    await admin.update(`${BASE}/${id}`, 1, [{ action: 'addCustomerGroupAssignment', customerGroupAssignment: assignment(gold) }]);
    await admin.update(`${BASE}/${id}`, 2, [{ action: 'removeCustomerGroupAssignment', customerGroup: { typeId: 'customer-group', id: gold.id } }]);
    await admin.update(`${BASE}/${id}`, 3, [{ action: 'setCustomerGroupAssignments', customerGroupAssignments: [assignment(silver)] }]);
    await admin.update(`${BASE}/${id}`, 4, [{ action: 'setUnitType', unitType: 'Division', parentUnit: unitRef(parent.key as string) }]);

    const documents = await deliveriesAbout(sqs, queue, id, 10);
    expect(labels(documents)).toEqual(
      [
        `business-unit:${id}:ResourceCreated:1`,
        `business-unit:${id}:Message:BusinessUnitCreated:1`,
        `business-unit:${id}:ResourceUpdated:2`,
        `business-unit:${id}:Message:BusinessUnitCustomerGroupAssignmentAdded:2`,
        `business-unit:${id}:ResourceUpdated:3`,
        `business-unit:${id}:Message:BusinessUnitCustomerGroupAssignmentRemoved:3`,
        `business-unit:${id}:ResourceUpdated:4`,
        `business-unit:${id}:Message:BusinessUnitCustomerGroupAssignmentsSet:4`,
        `business-unit:${id}:ResourceUpdated:5`,
        `business-unit:${id}:Message:BusinessUnitTypeSet:5`,
      ].sort(),
    );
    const set = documents.map(payloadOf).find((payload) => payload.type === 'BusinessUnitCustomerGroupAssignmentsSet');
    expect(set).toMatchObject({ customerGroupAssignments: [assignment(silver)], oldCustomerGroupAssignments: [] });
  });
});
