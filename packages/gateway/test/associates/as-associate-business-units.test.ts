/**
 * Issue 27: business units as associate (`/as-associate/{associateId}/business-units`) and the
 * spec's /me business unit operations check the associate's permissions: UpdateBusinessUnitDetails,
 * UpdateAssociates, AddChildUnits — from the built-in roles or from stored associate roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { asAssociateUnits, assignment, associate, expectMissingPermission, merchantOf, newCustomer, type Client, type Json } from './support.js';

/** Starting a gateway and signing customers up takes long on a busy machine. */
const SETUP_MS = 180_000;
const P = 'as-associate-units';

describe('business units as associate and through /me', () => {
  let gateway: TestGateway;
  let merchant: Client;
  let buyer: Client;
  let editor: Client;
  let admin: Client;

  const unit = (): Promise<Json> => merchant.ok('GET', '/business-units/key=acme');

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    merchant = await merchantOf(gateway, P);
    buyer = await newCustomer(gateway, P);
    editor = await newCustomer(gateway, P);
    admin = await newCustomer(gateway, P);
    await merchant.ok('POST', '/associate-roles', { key: 'editor', permissions: ['UpdateBusinessUnitDetails'] }, 201);
    await merchant.ok(
      'POST',
      '/business-units',
      {
        key: 'acme',
        name: 'ACME',
        unitType: 'Company',
        associates: [associate(buyer, assignment('Buyer')), associate(editor, assignment('editor')), associate(admin, assignment('Admin'))],
      },
      201,
    );
  }, SETUP_MS);
  afterAll(() => gateway.close());

  it('reads the units the associate belongs to', async () => {
    const page = await merchant.ok('GET', asAssociateUnits(buyer));
    expect(page.results.map((found: Json) => found.key)).toEqual(['acme']);
    expect((await merchant.ok('GET', asAssociateUnits(buyer, '/key=acme'))).associates).toHaveLength(3);
    const stranger = await newCustomer(gateway, P);
    expect((await merchant.rest('GET', asAssociateUnits(stranger, '/key=acme'))).status).toBe(404);
    // A unit the associate does not belong to answers 404 before anything is said about the actions.
    const hidden = await merchant.rest('POST', asAssociateUnits(stranger, '/key=acme'), {
      version: 1,
      actions: [{ action: 'changeStatus', status: 'Inactive' }],
    });
    expect(hidden.status).toBe(404);
  });

  it('changes details with UpdateBusinessUnitDetails (a stored role counts), refuses a Buyer', async () => {
    const current = await unit();
    expectMissingPermission(
      await merchant.rest('POST', asAssociateUnits(buyer, '/key=acme'), { version: current.version, actions: [{ action: 'changeName', name: 'Nope' }] }),
      {
        associate: buyer,
        unit: 'acme',
        permissions: ['UpdateBusinessUnitDetails'],
      },
    );
    const renamed = await merchant.ok('POST', asAssociateUnits(editor, '/key=acme'), {
      version: current.version,
      actions: [{ action: 'changeName', name: 'ACME Corp' }],
    });
    expect(renamed.name).toBe('ACME Corp');
    // The spec's /me operations follow the same permissions (they required the Admin role before).
    const mine = await editor.ok('POST', '/me/business-units/key=acme', {
      version: renamed.version,
      actions: [{ action: 'setContactEmail', contactEmail: 'desk@acme.example' }],
    });
    expect(mine.contactEmail).toBe('desk@acme.example');
  });

  it('manages associates only with UpdateAssociates', async () => {
    const current = await unit();
    const change = { version: current.version, actions: [{ action: 'changeAssociate', associate: associate(buyer, assignment('editor')) }] };
    expectMissingPermission(await merchant.rest('POST', asAssociateUnits(editor, '/key=acme'), change), {
      associate: editor,
      unit: 'acme',
      permissions: ['UpdateAssociates'],
    });
    const changed = await merchant.ok('POST', asAssociateUnits(admin, '/key=acme'), change);
    expect(changed.associates.find((found: Json) => found.customer.id === buyer.customerId)).toMatchObject({
      roles: [],
      associateRoleAssignments: [assignment('editor')],
    });
  });

  it('lets an associate assign only buyer-assignable roles; the general endpoint assigns any', async () => {
    await merchant.ok('POST', '/associate-roles', { key: 'approver', buyerAssignable: false, permissions: ['UpdateApprovalRules'] }, 201);
    const current = await unit();
    const change = { version: current.version, actions: [{ action: 'changeAssociate', associate: associate(editor, assignment('approver')) }] };
    const refused = await merchant.rest('POST', asAssociateUnits(admin, '/key=acme'), change);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
    expect((await admin.rest('POST', '/me/business-units/key=acme', change)).status).toBe(400);
    const assigned = await merchant.ok('POST', '/business-units/key=acme', change);
    expect(assigned.associates.find((found: Json) => found.customer.id === editor.customerId).associateRoleAssignments).toEqual([assignment('approver')]);
    // Back to the role the other tests expect.
    await merchant.ok('POST', '/business-units/key=acme', {
      version: assigned.version,
      actions: [{ action: 'changeAssociate', associate: associate(editor, assignment('editor')) }],
    });
  });

  it('creates a Division only with AddChildUnits in the parent', async () => {
    const division = { key: 'acme-north', name: 'North', unitType: 'Division', parentUnit: { key: 'acme' } };
    expectMissingPermission(await merchant.rest('POST', asAssociateUnits(editor), division), {
      associate: editor,
      unit: 'acme',
      permissions: ['AddChildUnits'],
    });
    expectMissingPermission(await editor.rest('POST', '/me/business-units', division), { associate: editor, unit: 'acme', permissions: ['AddChildUnits'] });
    const created = await merchant.ok('POST', asAssociateUnits(admin), division, 201);
    expect(created).toMatchObject({ key: 'acme-north', parentUnit: { key: 'acme' }, associateMode: 'ExplicitAndFromParent' });
  });
});
