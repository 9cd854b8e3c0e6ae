/**
 * Business units as the official reference's BusinessUnit, Company and Division types define them
 * where §2.2 is silent: the required `associateMode`, `approvalRuleMode` and Associates'
 * `associateRoleAssignments` in answers and messages, the reference's AssociateDraft form, the
 * draft's `status`, the mode actions and their messages, and the message fields the reference
 * adds (BusinessUnitStatusChanged.active, addressRoles, custom fields' oldValue and oldTypeId).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteContext } from '@herald/store';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, apiClient, customerClient, lastMessageOf, messagesOf, type Client, type Json } from './support.js';

const P = 'bu-official';

describe("business units: the reference's required fields, modes and messages", () => {
  let gateway: TestGateway;
  let admin: Client;
  let customerId: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_project']);
    customerId = (await admin.ok('POST', '/customers', { email: 'official-associate@example.com', password: 'secret-password' }, 201)).customer.id as string;
  });
  afterAll(() => gateway.close());

  const company = (key: string, extra: Json = {}) => admin.ok('POST', '/business-units', { key, name: key, unitType: 'Company', ...extra }, 201);
  const update = (unit: Json, actions: Json[]) => admin.rest('POST', `/business-units/${unit.id}`, { version: unit.version, actions });
  const assignment = (key: string) => ({ associateRole: { typeId: 'associate-role', key }, inheritance: 'Disabled' });

  it('answers associateMode, approvalRuleMode and role assignments, and BusinessUnitCreated carries them', async () => {
    const unit = await company('acme', { associates: [{ roles: ['Admin', 'Buyer'], customer: { typeId: 'customer', id: customerId } }] });
    const official = {
      associateMode: 'Explicit',
      approvalRuleMode: 'Explicit',
      storeMode: 'Explicit',
      topLevelUnit: { typeId: 'business-unit', key: 'acme' },
      associates: [
        { roles: ['Admin', 'Buyer'], associateRoleAssignments: [assignment('Admin'), assignment('Buyer')], customer: { typeId: 'customer', id: customerId } },
      ],
    };
    expect(unit).toMatchObject(official);
    expect(await admin.ok('GET', `/business-units/key=acme`)).toMatchObject(official);
    const [created] = await messagesOf(admin, unit.id);
    expect(created).toMatchObject({ type: 'BusinessUnitCreated', businessUnit: official });

    const division = await admin.ok('POST', '/business-units', { key: 'acme-east', name: 'East', unitType: 'Division', parentUnit: { key: 'acme' } }, 201);
    expect(division).toMatchObject({ associateMode: 'ExplicitAndFromParent', approvalRuleMode: 'ExplicitAndFromParent', storeMode: 'FromParent' });
  });

  it("takes the reference's AssociateDraft (associateRoleAssignments) and the draft's status and modes", async () => {
    const unit = await company('beta', {
      status: 'Inactive',
      associateMode: 'Explicit',
      associates: [
        { associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'buyer' }, inheritance: 'Enabled' }], customer: { id: customerId } },
      ],
    });
    expect(unit).toMatchObject({
      status: 'Inactive',
      associates: [{ roles: ['Buyer'], associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'Buyer' }, inheritance: 'Enabled' }] }],
    });
    for (const [draft, field] of [
      [{ associateMode: 'ExplicitAndFromParent' }, 'associateMode'],
      [{ approvalRuleMode: 'Sometimes' }, 'approvalRuleMode'],
      [{ status: 'Dormant' }, 'status'],
      [
        { associates: [{ associateRoleAssignments: [{ associateRole: { typeId: 'state', key: 'Admin' } }], customer: { id: customerId } }] },
        'associates[0].associateRoleAssignments[0].associateRole',
      ],
    ] as const) {
      const refused = await admin.rest('POST', '/business-units', { key: 'refused', name: 'R', unitType: 'Company', ...draft });
      expect(refused.status, JSON.stringify(draft)).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'InvalidInput', field });
    }
    // A key that names neither a built-in role nor a stored associate role (issue 27: roles are resources now).
    const unknownRole = await admin.rest('POST', '/business-units', {
      key: 'refused',
      name: 'R',
      unitType: 'Company',
      associates: [{ associateRoleAssignments: [{ associateRole: { key: 'owner' } }], customer: { id: customerId } }],
    });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.errors[0]).toMatchObject({ code: 'ReferencedResourceNotFound' });
  });

  it('changes associateMode and approvalRuleMode of a Division with their messages; a Company stays Explicit', async () => {
    await company('gamma');
    const division = await admin.ok('POST', '/business-units', { key: 'gamma-1', name: 'G1', unitType: 'Division', parentUnit: { key: 'gamma' } }, 201);
    const changed = await update(division, [
      { action: 'changeAssociateMode', associateMode: 'Explicit' },
      { action: 'changeApprovalRuleMode', approvalRuleMode: 'Explicit' },
    ]);
    expect(changed.body).toMatchObject({ version: 2, associateMode: 'Explicit', approvalRuleMode: 'Explicit' });
    const messages = (await messagesOf(admin, division.id)).slice(1);
    expect(messages).toMatchObject([
      { type: 'BusinessUnitAssociateModeChanged', associateMode: 'Explicit', oldAssociateMode: 'ExplicitAndFromParent' },
      { type: 'BusinessUnitApprovalRuleModeChanged', approvalRuleMode: 'Explicit', oldApprovalRuleMode: 'ExplicitAndFromParent' },
    ]);
    const gamma = await admin.ok('GET', '/business-units/key=gamma');
    const refused = await update(gamma, [{ action: 'changeAssociateMode', associateMode: 'ExplicitAndFromParent' }]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('InvalidOperation');
  });

  it("adds the reference's message fields: active, addressRoles, oldValue and oldTypeId", async () => {
    const unit = await company('delta', {
      addresses: [address('DE', { key: 'hq' }), address('AT', { key: 'vie' })],
      shippingAddresses: [0],
      defaultBillingAddress: 0,
    });
    const type = await admin.ok(
      'POST',
      '/types',
      {
        key: 'bu-fields',
        name: { en: 'BU' },
        resourceTypeIds: ['business-unit'],
        fieldDefinitions: [{ name: 'tier', label: { en: 'Tier' }, required: false, type: { name: 'String' } }],
      },
      201,
    );
    let current = unit;
    const step = async (action: Json): Promise<Json> => {
      const answer = await update(current, [action]);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      current = answer.body;
      return lastMessageOf(admin, unit.id);
    };
    expect(await step({ action: 'changeStatus', status: 'Inactive' })).toMatchObject({
      type: 'BusinessUnitStatusChanged',
      status: 'Inactive',
      active: 'Inactive',
    });
    expect(await step({ action: 'changeAddress', addressKey: 'hq', address: address('DE', { key: 'hq', city: 'Hamburg' }) })).toMatchObject({
      type: 'BusinessUnitAddressChanged',
      addressRoles: ['Shipping', 'Billing'],
    });
    expect(await step({ action: 'removeAddress', addressKey: 'vie' })).toMatchObject({ type: 'BusinessUnitAddressRemoved', addressRoles: [] });
    await step({ action: 'setCustomType', type: { key: 'bu-fields' }, fields: { tier: 'gold' } });
    expect(await step({ action: 'setCustomField', name: 'tier', value: 'platinum' })).toMatchObject({
      type: 'BusinessUnitCustomFieldChanged',
      value: 'platinum',
      oldValue: 'gold',
    });
    expect(await step({ action: 'setCustomType' })).toMatchObject({ type: 'BusinessUnitCustomTypeRemoved', oldTypeId: type.id });
  });

  it('answers a unit stored before these fields existed with their defaults, and derives its role assignments', async () => {
    const write: WriteContext = { projectKey: P };
    const stored = (await gateway.gateway.documents.create(write, 'business-unit', {
      key: 'old-unit',
      name: 'Old',
      status: 'Active',
      unitType: 'Company',
      storeMode: 'Explicit',
      stores: [],
      addresses: [],
      shippingAddressIds: [],
      billingAddressIds: [],
      associates: [{ roles: ['Admin'], customer: { typeId: 'customer', id: customerId } }],
      ancestors: [],
      topLevelUnit: { typeId: 'business-unit', key: 'old-unit' },
    } as never)) as { id: string };
    const answer = await admin.ok('GET', `/business-units/${stored.id}`);
    expect(answer).toMatchObject({
      associateMode: 'Explicit',
      approvalRuleMode: 'Explicit',
      associates: [{ associateRoleAssignments: [assignment('Admin')] }],
    });
    const removed = await update(answer, [{ action: 'removeAssociate', customer: { id: customerId } }]);
    expect(removed.status).toBe(200);
    expect(await lastMessageOf(admin, stored.id)).toMatchObject({
      type: 'BusinessUnitAssociateRemoved',
      associate: { associateRoleAssignments: [assignment('Admin')] },
    });
  });

  it("gives the creator of a My unit the project's myBusinessUnitAssociateRoleOnCreation (setMyBusinessUnitAssociateRoleOnCreation)", async () => {
    const project = await admin.ok('GET', '');
    const refused = await admin.rest('POST', '', {
      version: project.version,
      actions: [{ action: 'setMyBusinessUnitAssociateRoleOnCreation', associateRole: { key: 'owner' } }],
    });
    expect(refused.status).toBe(400);
    const changed = await admin.ok('POST', '', {
      version: project.version,
      actions: [{ action: 'setMyBusinessUnitAssociateRoleOnCreation', associateRole: { typeId: 'associate-role', key: 'buyer' } }],
    });
    expect(changed.businessUnits).toMatchObject({ myBusinessUnitAssociateRoleOnCreation: { typeId: 'associate-role', key: 'Buyer' } });
    const buyer = await customerClient(gateway, P, ['manage_my_business_units']);
    const mine = await buyer.ok('POST', '/me/business-units', { key: 'mine-buyer', name: 'Mine', unitType: 'Company' }, 201);
    expect(mine.associates).toMatchObject([{ roles: ['Buyer'], associateRoleAssignments: [assignment('Buyer')], customer: { id: buyer.customerId } }]);
  });
});
