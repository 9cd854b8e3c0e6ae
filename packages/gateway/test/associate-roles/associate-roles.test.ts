/**
 * Issue 27: the AssociateRole resource `/{projectKey}/associate-roles` (reference:
 * resources/associate-roles.raml, types/associate-role): the versioned template's operations by id
 * and key, its draft and update actions, its scopes, its messages through the outbox and their
 * delivery (with the change notifications) to an SQS subscription.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { customerClient } from '../business-units/support.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

/** Starting a gateway and signing customers up takes long on a busy machine. */
const SETUP_MS = 180_000;
const P = 'associate-roles';

describe('AssociateRole /{projectKey}/associate-roles', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_associate_roles', 'manage_subscriptions', 'manage_business_units']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_associate_roles']);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a role with the reference defaults and reads it by id, by key and by query', async () => {
    const role = await admin.ok(
      `/${P}/associate-roles`,
      { key: 'approver', name: 'Approver', permissions: ['ViewMyCarts', 'ViewOthersCarts', 'ViewMyCarts'] },
      201,
    );
    // AssociateRoleDraft: buyerAssignable defaults to true; a permission listed twice is kept once.
    expect(role).toMatchObject({ version: 1, key: 'approver', name: 'Approver', buyerAssignable: true, permissions: ['ViewMyCarts', 'ViewOthersCarts'] });
    expect(await viewer.read(`/${P}/associate-roles/${role.id}`)).toEqual(role);
    expect(await viewer.read(`/${P}/associate-roles/key=approver`)).toEqual(role);
    const page = await viewer.read(`/${P}/associate-roles?where=${encodeURIComponent('buyerAssignable = true')}`);
    expect(page.results.map((found: Json) => found.key)).toContain('approver');
  });

  it('refuses bad drafts with 400s in the error shape, and writes with a view scope', async () => {
    const cases: Array<[Json, string]> = [
      [{ key: 'x', permissions: [] }, 'InvalidInput'],
      [{ key: 'bad-permission', permissions: ['FlyToTheMoon'] }, 'InvalidInput'],
      [{ key: 'bad-flag', buyerAssignable: 'yes' }, 'InvalidInput'],
      // The built-in roles (spec §2.2 Admin, Buyer) keep their keys, in any letter case.
      [{ key: 'admin' }, 'InvalidInput'],
      [{ key: 'Buyer' }, 'InvalidInput'],
    ];
    for (const [draft, code] of cases) {
      const answer = await admin.post(`/${P}/associate-roles`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    await admin.ok(`/${P}/associate-roles`, { key: 'dup' }, 201);
    const duplicate = await admin.post(`/${P}/associate-roles`, { key: 'dup' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0].code).toBe('DuplicateField');
    const forbidden = await viewer.post(`/${P}/associate-roles`, { key: 'viewer-role' });
    expect(forbidden.status).toBe(403);
  });

  it('applies its update actions; no-ops make no version; a stale version is 409; a missing permission is 400', async () => {
    const role = await admin.ok(`/${P}/associate-roles`, { key: 'editor' }, 201);
    const updated = await admin.update(`/${P}/associate-roles/key=editor`, role.version, [
      { action: 'setName', name: 'Editor' },
      { action: 'changeBuyerAssignable', buyerAssignable: false },
      { action: 'addPermission', permission: 'UpdateMyCarts' },
      { action: 'addPermission', permission: 'CreateMyCarts' },
      { action: 'removePermission', permission: 'UpdateMyCarts' },
    ]);
    expect(updated).toMatchObject({ version: 2, name: 'Editor', buyerAssignable: false, permissions: ['CreateMyCarts'] });
    const same = await admin.update(`/${P}/associate-roles/${role.id}`, 2, [{ action: 'setPermissions', permissions: ['CreateMyCarts'] }]);
    expect(same.version).toBe(2);
    const stale = await admin.post(`/${P}/associate-roles/${role.id}`, { version: 1, actions: [{ action: 'setName' }] });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 2 });
    const missing = await admin.post(`/${P}/associate-roles/${role.id}`, {
      version: 2,
      actions: [{ action: 'removePermission', permission: 'DeleteMyCarts' }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].code).toBe('InvalidOperation');
    const unknown = await admin.post(`/${P}/associate-roles/${role.id}`, { version: 2, actions: [{ action: 'setPermissions', permissions: ['Nope'] }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].code).toBe('InvalidInput');
  });

  it('refuses to delete a role still assigned in a business unit (400 ReferenceExists), deletes it once unassigned', async () => {
    const role = await admin.ok(`/${P}/associate-roles`, { key: 'assigned', permissions: ['ViewMyCarts'] }, 201);
    const { customerId } = await customerClient(gateway, P, ['manage_my_business_units']);
    const unit = await admin.ok(
      `/${P}/business-units`,
      {
        key: 'assigning-unit',
        name: 'Assigning',
        unitType: 'Company',
        associates: [{ associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'assigned' } }], customer: { id: customerId } }],
      },
      201,
    );
    const refused = await admin.delete(`/${P}/associate-roles/${role.id}?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'business-unit' });
    await admin.update(`/${P}/business-units/${unit.id}`, unit.version, [{ action: 'setAssociates', associates: [] }]);
    const deleted = await admin.delete(`/${P}/associate-roles/key=assigned?version=1`);
    expect(deleted.status).toBe(200);
    expect((await viewer.get(`/${P}/associate-roles/${role.id}`)).status).toBe(404);
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'associate-role');

    const role = await admin.ok(`/${P}/associate-roles`, { key: 'delivered', name: 'D', permissions: ['ViewMyQuotes'] }, 201);
    await admin.update(`/${P}/associate-roles/${role.id}`, 1, [
      { action: 'setName', name: 'Delivered' },
      { action: 'changeBuyerAssignable', buyerAssignable: false },
      { action: 'addPermission', permission: 'AcceptMyQuotes' },
      { action: 'removePermission', permission: 'ViewMyQuotes' },
      { action: 'setPermissions', permissions: ['ViewMyOrders'] },
    ]);
    await admin.delete(`/${P}/associate-roles/${role.id}?version=2`);

    // 7 messages and 3 change notifications (created, updated, deleted).
    const documents = await deliveriesAbout(sqs, queue, role.id as string, 10);
    const id = role.id as string;
    expect(labels(documents)).toEqual(
      [
        `associate-role:${id}:Message:AssociateRoleCreated:1`,
        `associate-role:${id}:Message:AssociateRoleNameSet:2`,
        `associate-role:${id}:Message:AssociateRoleBuyerAssignableChanged:3`,
        `associate-role:${id}:Message:AssociateRolePermissionAdded:4`,
        `associate-role:${id}:Message:AssociateRolePermissionRemoved:5`,
        `associate-role:${id}:Message:AssociateRolePermissionsSet:6`,
        `associate-role:${id}:Message:AssociateRoleDeleted:7`,
        `associate-role:${id}:ResourceCreated:1`,
        `associate-role:${id}:ResourceUpdated:2`,
        `associate-role:${id}:ResourceDeleted:2`,
      ].sort(),
    );
    const byType = (type: string) => documents.map(payloadOf).find((payload) => payload.type === type);
    expect(byType('AssociateRoleCreated')).toMatchObject({ associateRole: { key: 'delivered', permissions: ['ViewMyQuotes'] } });
    expect(byType('AssociateRoleNameSet')).toMatchObject({ name: 'Delivered' });
    expect(byType('AssociateRoleBuyerAssignableChanged')).toMatchObject({ buyerAssignable: false });
    expect(byType('AssociateRolePermissionAdded')).toMatchObject({ permission: 'AcceptMyQuotes' });
    expect(byType('AssociateRolePermissionRemoved')).toMatchObject({ permission: 'ViewMyQuotes' });
    expect(byType('AssociateRolePermissionsSet')).toMatchObject({ permissions: ['ViewMyOrders'] });
  });
});
