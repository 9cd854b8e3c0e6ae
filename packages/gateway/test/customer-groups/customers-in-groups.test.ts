/**
 * Issue 28: a Customer's `customerGroup` now that customer groups exist (reference: CustomerDraft
 * .customerGroup, CustomerSetCustomerGroupAction, CustomerGroupSetMessage): a group that does not
 * exist is 400 ReferencedResourceNotFound, one that does is kept as a reference by id and expands;
 * deleting a referenced group is allowed (the reference names no ReferenceExists for groups).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'customers-in-groups';

describe('Customers in customer groups', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let counter = 0;
  const signUp = (extra: Record<string, unknown>) =>
    admin.post(`/${P}/customers`, { email: `grouped-${(counter += 1)}@example.com`, password: 'secret-password', ...extra });

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_customers', 'manage_customer_groups', 'manage_project']);
  }, 120_000);
  afterAll(async () => gateway?.close());

  it('resolves CustomerDraft.customerGroup by id or key; a missing group is ReferencedResourceNotFound', async () => {
    const group = await admin.ok(`/${P}/customer-groups`, { key: 'wholesale', groupName: 'Wholesale' }, 201);
    const byKey = await signUp({ customerGroup: { typeId: 'customer-group', key: 'wholesale' } });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(201);
    expect(byKey.body.customer.customerGroup).toEqual({ typeId: 'customer-group', id: group.id });
    const byId = await signUp({ customerGroup: { id: group.id } });
    expect(byId.body.customer.customerGroup).toEqual({ typeId: 'customer-group', id: group.id });

    const missing = await signUp({ customerGroup: { typeId: 'customer-group', key: 'retail' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ code: 'ReferencedResourceNotFound', typeId: 'customer-group', key: 'retail' });
    const wrongType = await signUp({ customerGroup: { typeId: 'channel', id: group.id } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].code).toBe('InvalidInput');

    const expanded = await admin.read(`/${P}/customers/${byKey.body.customer.id}?expand=customerGroup`);
    expect(expanded.customerGroup.obj).toMatchObject({ id: group.id, name: 'Wholesale' });
  });

  it('setCustomerGroup sets and removes the group with CustomerGroupSet; a missing group changes nothing', async () => {
    const group = await admin.ok(`/${P}/customer-groups`, { key: 'partners', groupName: 'Partners' }, 201);
    const { customer } = (await signUp({})).body;
    const set = await admin.update(`/${P}/customers/${customer.id}`, customer.version, [
      { action: 'setCustomerGroup', customerGroup: { typeId: 'customer-group', key: 'partners' } },
    ]);
    expect(set.customerGroup).toEqual({ typeId: 'customer-group', id: group.id });
    const again = await admin.update(`/${P}/customers/${customer.id}`, set.version, [{ action: 'setCustomerGroup', customerGroup: { id: group.id } }]);
    expect(again.version).toBe(set.version);

    const missing = await admin.post(`/${P}/customers/${customer.id}`, {
      version: set.version,
      actions: [{ action: 'setCustomerGroup', customerGroup: { typeId: 'customer-group', id: 'no-such-group' } }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ code: 'ReferencedResourceNotFound', typeId: 'customer-group', id: 'no-such-group' });
    expect((await admin.read(`/${P}/customers/${customer.id}`)).version).toBe(set.version);

    const unset = await admin.update(`/${P}/customers/${customer.id}`, set.version, [{ action: 'setCustomerGroup' }]);
    expect(unset.customerGroup).toBeUndefined();

    const later = await admin.update(`/${P}/customers/${customer.id}`, unset.version, [{ action: 'setCustomerGroup', customerGroup: { key: 'partners' } }]);
    const where = encodeURIComponent(`resource(id = "${customer.id as string}") and type = "CustomerGroupSet"`);
    const messages = await admin.read(`/${P}/messages?where=${where}&sort=${encodeURIComponent('resourceVersion asc')}`);
    // One per change (set, unset, set again); the no-op and the refused action made none.
    expect(messages.results.map((message: Json) => [message.resourceVersion, message.customerGroup])).toEqual([
      [set.version, { typeId: 'customer-group', id: group.id }],
      [unset.version, undefined],
      [later.version, { typeId: 'customer-group', id: group.id }],
    ]);
  });

  it('deletes a group that customers reference (no ReferenceExists in the reference); their reference stays', async () => {
    const group = await admin.ok(`/${P}/customer-groups`, { key: 'leaving', groupName: 'Leaving' }, 201);
    const { customer } = (await signUp({ customerGroup: { key: 'leaving' } })).body;
    const deleted = await admin.delete(`/${P}/customer-groups/key=leaving?version=1`);
    expect(deleted.status).toBe(200);
    const after = await admin.read(`/${P}/customers/${customer.id}?expand=customerGroup`);
    expect(after.customerGroup).toEqual({ typeId: 'customer-group', id: group.id });
  });
});
