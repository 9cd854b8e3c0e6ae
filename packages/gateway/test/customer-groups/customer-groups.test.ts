/**
 * Issue 28: the CustomerGroup resource `/{projectKey}/customer-groups` (reference:
 * resources/customer-groups.raml, types/customer-group): the versioned template's operations by id
 * and key, CustomerGroupDraft validation (groupName unique: DuplicateField), its update actions,
 * its scopes (the customer scopes serve it too), its custom field messages and the change
 * notifications delivered to an SQS subscription in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'customer-groups';

const GROUP_TYPE = {
  key: 'group-fields',
  name: { en: 'Group fields' },
  resourceTypeIds: ['customer-group'],
  fieldDefinitions: [
    { name: 'tier', label: { en: 'Tier' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' },
    { name: 'discount', label: { en: 'Discount' }, required: false, type: { name: 'Number' } },
  ],
};

describe('CustomerGroup /{projectKey}/customer-groups', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_customer_groups', 'manage_types', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_customer_groups']);
    await admin.ok(`/${P}/types`, GROUP_TYPE, 201);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a group from groupName and reads it by id, by key, by query on name and sorted by name', async () => {
    const group = await admin.ok(
      `/${P}/customer-groups`,
      { key: 'vip', groupName: 'VIP', custom: { type: { typeId: 'type', key: 'group-fields' }, fields: { tier: 'gold' } } },
      201,
    );
    expect(group).toMatchObject({ version: 1, key: 'vip', name: 'VIP', custom: { type: { typeId: 'type' }, fields: { tier: 'gold' } } });
    // The draft's field is groupName; the resource's is name (CustomerGroup.raml).
    expect(group.groupName).toBeUndefined();
    expect(await viewer.read(`/${P}/customer-groups/${group.id}`)).toEqual(group);
    expect(await viewer.read(`/${P}/customer-groups/key=vip`)).toEqual(group);
    await admin.ok(`/${P}/customer-groups`, { groupName: 'Amateurs' }, 201);
    const page = await viewer.read(`/${P}/customer-groups?where=${encodeURIComponent('name = "VIP"')}`);
    expect(page.results.map((found: Json) => found.id)).toEqual([group.id]);
    const sorted = await viewer.read(`/${P}/customer-groups?sort=${encodeURIComponent('name asc')}&where=${encodeURIComponent('name in ("VIP", "Amateurs")')}`);
    expect(sorted.results.map((found: Json) => found.name)).toEqual(['Amateurs', 'VIP']);
    const expanded = await admin.read(`/${P}/customer-groups/${group.id}?expand=custom.type`);
    expect(expanded.custom.type.obj).toMatchObject({ key: 'group-fields' });
  });

  it('refuses bad drafts with the official error codes, and writes with a view scope', async () => {
    await admin.ok(`/${P}/customer-groups`, { key: 'taken-key', groupName: 'Taken name' }, 201);
    const cases: Array<[unknown, string, Json?]> = [
      [{ key: 'no-name' }, 'RequiredField', { field: 'groupName' }],
      [{ groupName: null }, 'RequiredField', { field: 'groupName' }],
      [{ groupName: 42 }, 'InvalidInput', { field: 'groupName' }],
      [{ groupName: ['a'] }, 'InvalidInput'],
      [{ groupName: 'Bad key', key: 'x' }, 'InvalidInput', { field: 'key' }],
      [{ groupName: 'Bad key 2', key: 'no spaces' }, 'InvalidInput', { field: 'key' }],
      [{ groupName: 'Bad key 3', key: 7 }, 'InvalidInput', { field: 'key' }],
      [{ groupName: 'Bad custom', custom: { type: { key: 'no-such-type' } } }, 'InvalidInput'],
      [{ groupName: 'Bad field', custom: { type: { key: 'group-fields' }, fields: { discount: 'ten' } } }, 'InvalidInput'],
      [{ groupName: 'Taken name' }, 'DuplicateField', { field: 'name', duplicateValue: 'Taken name' }],
      [{ groupName: 'Other name', key: 'taken-key' }, 'DuplicateField', { field: 'key' }],
      [[{ groupName: 'array' }], 'InvalidInput'],
    ];
    for (const [draft, code, fields] of cases) {
      const answer = await admin.post(`/${P}/customer-groups`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code, ...fields }] });
    }
    expect((await viewer.post(`/${P}/customer-groups`, { groupName: 'From a viewer' })).status).toBe(403);
    // resources/customer-groups.raml: manage_customers may create groups, view_customers read them.
    const customersAdmin = await callerWith(gateway, P, ['manage_customers']);
    const made = await customersAdmin.ok(`/${P}/customer-groups`, { groupName: 'By customer admin' }, 201);
    const customersViewer = await callerWith(gateway, P, ['view_customers']);
    expect((await customersViewer.get(`/${P}/customer-groups/${made.id}`)).status).toBe(200);
  });

  it('applies changeName (unique), setKey, setCustomType and setCustomField; no-ops make no version', async () => {
    const group = await admin.ok(`/${P}/customer-groups`, { groupName: 'Editable' }, 201);
    await admin.ok(`/${P}/customer-groups`, { groupName: 'Occupied' }, 201);
    const updated = await admin.update(`/${P}/customer-groups/${group.id}`, 1, [
      { action: 'changeName', name: 'Edited' },
      { action: 'setKey', key: 'edited' },
      { action: 'setCustomType', type: { typeId: 'type', key: 'group-fields' }, fields: { tier: 'silver' } },
      { action: 'setCustomField', name: 'discount', value: 5 },
    ]);
    expect(updated).toMatchObject({ version: 2, name: 'Edited', key: 'edited', custom: { fields: { tier: 'silver', discount: 5 } } });
    const same = await admin.update(`/${P}/customer-groups/key=edited`, 2, [
      { action: 'changeName', name: 'Edited' },
      { action: 'setKey', key: 'edited' },
    ]);
    expect(same.version).toBe(2);
    const duplicate = await admin.post(`/${P}/customer-groups/${group.id}`, { version: 2, actions: [{ action: 'changeName', name: 'Occupied' }] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'name', duplicateValue: 'Occupied' });
    const missing = await admin.post(`/${P}/customer-groups/${group.id}`, { version: 2, actions: [{ action: 'changeName' }] });
    expect(missing.body.errors[0]).toMatchObject({ code: 'RequiredField', field: 'name' });
    const badKey = await admin.post(`/${P}/customer-groups/${group.id}`, { version: 2, actions: [{ action: 'setKey', key: '!' }] });
    expect(badKey.body.errors[0].code).toBe('InvalidInput');
    const removed = await admin.update(`/${P}/customer-groups/${group.id}`, 2, [{ action: 'setKey' }, { action: 'setCustomType' }]);
    expect(removed.version).toBe(3);
    expect(removed.key).toBeUndefined();
    expect(removed.custom).toBeUndefined();
    const stale = await admin.post(`/${P}/customer-groups/${group.id}`, { version: 2, actions: [{ action: 'changeName', name: 'Late' }] });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 3 });
  });

  it('delivers its custom field messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'customer-group');

    const group = await admin.ok(`/${P}/customer-groups`, { key: 'delivered', groupName: 'Delivered' }, 201);
    const id = group.id as string;
    // changeName and setKey have no messages; setCustomType has.
    await admin.update(`/${P}/customer-groups/${id}`, 1, [
      { action: 'changeName', name: 'Delivered, renamed' },
      { action: 'setKey', key: 'delivered-renamed' },
      { action: 'setCustomType', type: { typeId: 'type', key: 'group-fields' }, fields: { tier: 'bronze' } },
    ]);
    await admin.update(`/${P}/customer-groups/${id}`, 2, [
      { action: 'setCustomField', name: 'discount', value: 3 },
      { action: 'setCustomField', name: 'tier', value: 'gold' },
      { action: 'setCustomField', name: 'discount' },
      { action: 'setCustomType' },
    ]);
    await admin.delete(`/${P}/customer-groups/${id}?version=3`);

    // 5 messages and 4 change notifications (created, updated twice, deleted).
    const documents = await deliveriesAbout(sqs, queue, id, 9);
    expect(labels(documents)).toEqual(
      [
        `customer-group:${id}:Message:CustomerGroupCustomTypeSet:1`,
        `customer-group:${id}:Message:CustomerGroupCustomFieldAdded:2`,
        `customer-group:${id}:Message:CustomerGroupCustomFieldChanged:3`,
        `customer-group:${id}:Message:CustomerGroupCustomFieldRemoved:4`,
        `customer-group:${id}:Message:CustomerGroupCustomTypeRemoved:5`,
        `customer-group:${id}:ResourceCreated:1`,
        `customer-group:${id}:ResourceUpdated:2`,
        `customer-group:${id}:ResourceUpdated:3`,
        `customer-group:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const byType = (type: string) => documents.map(payloadOf).find((payload) => payload.type === type);
    expect(byType('CustomerGroupCustomTypeSet')).toMatchObject({ customFields: { fields: { tier: 'bronze' } } });
    expect(byType('CustomerGroupCustomFieldAdded')).toMatchObject({ name: 'discount', value: 3 });
    expect(byType('CustomerGroupCustomFieldChanged')).toMatchObject({ name: 'tier', value: 'gold', oldValue: 'bronze' });
    expect(byType('CustomerGroupCustomFieldRemoved')).toMatchObject({ name: 'discount' });
    expect(byType('CustomerGroupCustomTypeRemoved')).toMatchObject({ oldTypeId: expect.any(String) });
    const created = documents.map(payloadOf).find((payload) => payload.notificationType === 'ResourceCreated');
    expect(created).toMatchObject({ resourceUserProvidedIdentifiers: { key: 'delivered' } });
  });
});
