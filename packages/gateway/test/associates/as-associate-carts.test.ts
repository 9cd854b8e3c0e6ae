/**
 * Issue 27: carts as associate (`/as-associate/{associateId}/in-business-unit/key={unit}/carts`):
 * every operation checks the associate's effective permissions in the unit — without the
 * permission 403 AssociateMissingPermission with the reference's fields, with it success; My vs
 * Others by the cart's customer; a cart of another unit is 400 InvalidOperation; an inherited
 * assignment counts only with `Enabled` inheritance in an `ExplicitAndFromParent` unit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { assignment, associate, expectMissingPermission, inUnit, lineItem, merchantOf, newCustomer, type Client, type Json } from './support.js';

/** Starting a gateway and signing customers up takes long on a busy machine. */
const SETUP_MS = 180_000;
const P = 'as-associate-carts';

describe('carts as associate', () => {
  let gateway: TestGateway;
  let merchant: Client;
  /** Built-in Buyer in acme. */
  let buyer: Client;
  /** A stored role with ViewMyCarts only. */
  let viewer: Client;
  /** Built-in Admin in acme, inherited (Enabled). */
  let admin: Client;
  /** A stored role with every cart permission in acme, not inherited (Disabled). */
  let local: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    merchant = await merchantOf(gateway, P);
    buyer = await newCustomer(gateway, P);
    viewer = await newCustomer(gateway, P);
    admin = await newCustomer(gateway, P);
    local = await newCustomer(gateway, P);
    await merchant.ok('POST', '/associate-roles', { key: 'cart-viewer', permissions: ['ViewMyCarts'] }, 201);
    const everyCartPermission = ['View', 'Create', 'Update', 'Delete'].flatMap((verb) => [`${verb}MyCarts`, `${verb}OthersCarts`]);
    await merchant.ok('POST', '/associate-roles', { key: 'cart-keeper', permissions: everyCartPermission }, 201);
    await merchant.ok(
      'POST',
      '/business-units',
      {
        key: 'acme',
        name: 'ACME',
        unitType: 'Company',
        associates: [
          { roles: ['Buyer'], customer: { id: buyer.customerId } },
          associate(viewer, assignment('cart-viewer')),
          associate(admin, assignment('Admin', 'Enabled')),
          associate(local, assignment('cart-keeper', 'Disabled')),
        ],
      },
      201,
    );
    // A Division inherits by default (ExplicitAndFromParent); the other one is Explicit.
    await merchant.ok('POST', '/business-units', { key: 'acme-east', name: 'East', unitType: 'Division', parentUnit: { key: 'acme' } }, 201);
    await merchant.ok(
      'POST',
      '/business-units',
      { key: 'acme-west', name: 'West', unitType: 'Division', parentUnit: { key: 'acme' }, associateMode: 'Explicit' },
      201,
    );
    await merchant.ok(
      'POST',
      '/business-units',
      { key: 'other', name: 'Other', unitType: 'Company', associates: [{ roles: ['Admin'], customer: { id: buyer.customerId } }] },
      201,
    );
  }, SETUP_MS);
  afterAll(() => gateway.close());

  it('creates a cart in the unit for the associate itself with CreateMyCarts; refuses without it', async () => {
    const cart = await merchant.ok('POST', inUnit(buyer, 'acme', 'carts'), { currency: 'EUR', lineItems: [lineItem], businessUnit: { key: 'other' } }, 201);
    // The reference: the draft's businessUnit is ignored, the path's unit is the cart's.
    expect(cart).toMatchObject({ businessUnit: { typeId: 'business-unit', key: 'acme' }, customerId: buyer.customerId });
    expect(cart.createdBy).toMatchObject({ associate: { typeId: 'customer', id: buyer.customerId } });
    const refused = await merchant.rest('POST', inUnit(viewer, 'acme', 'carts'), { currency: 'EUR' });
    expectMissingPermission(refused, { associate: viewer, unit: 'acme', permissions: ['CreateMyCarts'] });
  });

  it("creates another customer's cart only with CreateOthersCarts (associateOnBehalf in the error)", async () => {
    const refused = await merchant.rest('POST', inUnit(buyer, 'acme', 'carts'), { currency: 'EUR', customerId: viewer.customerId });
    expectMissingPermission(refused, { associate: buyer, unit: 'acme', permissions: ['CreateOthersCarts'], onBehalfOf: viewer });
    const cart = await merchant.ok('POST', inUnit(admin, 'acme', 'carts'), { currency: 'EUR', customerId: viewer.customerId }, 201);
    expect(cart.customerId).toBe(viewer.customerId);
  });

  it('reads with ViewMyCarts its own carts only, with ViewOthersCarts all carts of the unit', async () => {
    const mine = await merchant.ok('POST', inUnit(admin, 'acme', 'carts'), { currency: 'EUR', customerId: viewer.customerId, key: 'viewers-cart' }, 201);
    const buyers = await merchant.ok('POST', inUnit(buyer, 'acme', 'carts'), { currency: 'EUR' }, 201);
    expect((await merchant.ok('GET', inUnit(viewer, 'acme', `carts/${mine.id as string}`))).id).toBe(mine.id);
    expect((await merchant.ok('GET', inUnit(viewer, 'acme', 'carts/key=viewers-cart'))).id).toBe(mine.id);
    const others = await merchant.rest('GET', inUnit(viewer, 'acme', `carts/${buyers.id as string}`));
    expectMissingPermission(others, { associate: viewer, unit: 'acme', permissions: ['ViewOthersCarts'], onBehalfOf: buyer });

    const own = await merchant.ok('GET', inUnit(viewer, 'acme', 'carts?limit=500'));
    expect(own.results.length).toBeGreaterThan(0);
    expect(own.results.every((cart: Json) => cart.customerId === viewer.customerId)).toBe(true);
    const all = await merchant.ok('GET', inUnit(local, 'acme', 'carts?limit=500'));
    expect(all.results.map((cart: Json) => cart.id)).toEqual(expect.arrayContaining([mine.id, buyers.id]));
    // Neither ViewMyCarts nor ViewOthersCarts: the error names both.
    await merchant.ok('POST', '/associate-roles', { key: 'nothing' }, 201);
    const nobody = await newCustomer(gateway, P);
    const acme = await merchant.ok('GET', '/business-units/key=acme');
    await merchant.ok('POST', '/business-units/key=acme', {
      version: acme.version,
      actions: [{ action: 'addAssociate', associate: associate(nobody, assignment('nothing')) }],
    });
    const blind = await merchant.rest('GET', inUnit(nobody, 'acme', 'carts'));
    expectMissingPermission(blind, { associate: nobody, unit: 'acme', permissions: ['ViewMyCarts', 'ViewOthersCarts'] });
  });

  it('updates and deletes with Update/Delete{My,Others}Carts', async () => {
    const cart = await merchant.ok('POST', inUnit(buyer, 'acme', 'carts'), { currency: 'EUR' }, 201);
    const path = inUnit(buyer, 'acme', `carts/${cart.id as string}`);
    const updated = await merchant.ok('POST', path, { version: cart.version, actions: [{ action: 'setCustomerEmail', email: 'bea@example.com' }] });
    expect(updated).toMatchObject({ customerEmail: 'bea@example.com', lastModifiedBy: { associate: { id: buyer.customerId } } });
    const byViewer = await merchant.rest('POST', inUnit(viewer, 'acme', `carts/${cart.id as string}`), {
      version: updated.version,
      actions: [{ action: 'setCustomerEmail', email: 'x@example.com' }],
    });
    expectMissingPermission(byViewer, { associate: viewer, unit: 'acme', permissions: ['UpdateOthersCarts'], onBehalfOf: buyer });
    const deleteByViewer = await merchant.rest('DELETE', `${inUnit(viewer, 'acme', `carts/${cart.id as string}`)}?version=${updated.version as number}`);
    expectMissingPermission(deleteByViewer, { associate: viewer, unit: 'acme', permissions: ['DeleteOthersCarts'], onBehalfOf: buyer });
    // Moving the cart to another unit through this path is refused.
    const moved = await merchant.rest('POST', path, { version: updated.version, actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'other' } }] });
    expect(moved.status).toBe(400);
    await merchant.ok('DELETE', `${path}?version=${updated.version as number}`);
    expect((await merchant.rest('GET', path)).status).toBe(404);
  });

  it('answers a cart of another unit with 400 InvalidOperation, an unknown unit with 404', async () => {
    const elsewhere = await merchant.ok('POST', inUnit(buyer, 'other', 'carts'), { currency: 'EUR' }, 201);
    const answer = await merchant.rest('GET', inUnit(buyer, 'acme', `carts/${elsewhere.id as string}`));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
    const unknown = await merchant.rest('GET', inUnit(buyer, 'nowhere', 'carts'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('ResourceNotFound');
  });

  it('counts an inherited assignment only with Enabled inheritance in an ExplicitAndFromParent unit', async () => {
    // admin: Admin in acme with Enabled inheritance → acts in acme-east (ExplicitAndFromParent).
    await merchant.ok('POST', inUnit(admin, 'acme-east', 'carts'), { currency: 'EUR' }, 201);
    // ... but not in acme-west (Explicit).
    expectMissingPermission(await merchant.rest('POST', inUnit(admin, 'acme-west', 'carts'), { currency: 'EUR' }), {
      associate: admin,
      unit: 'acme-west',
      permissions: ['CreateMyCarts'],
    });
    // local: every cart permission in acme, Disabled inheritance → nothing in acme-east.
    await merchant.ok('POST', inUnit(local, 'acme', 'carts'), { currency: 'EUR' }, 201);
    expectMissingPermission(await merchant.rest('POST', inUnit(local, 'acme-east', 'carts'), { currency: 'EUR' }), {
      associate: local,
      unit: 'acme-east',
      permissions: ['CreateMyCarts'],
    });

    // answers show what acme-east inherits, with its source
    const east = await merchant.ok('GET', '/business-units/key=acme-east');
    expect(east.associateMode).toBe('ExplicitAndFromParent');
    expect(east.inheritedAssociates).toEqual([
      {
        customer: { typeId: 'customer', id: admin.customerId },
        associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'Admin' }, source: { typeId: 'business-unit', key: 'acme' } }],
      },
    ]);
    expect((await merchant.ok('GET', '/business-units/key=acme-west')).inheritedAssociates).toBeUndefined();

    // Once acme-east is Explicit, the inherited assignment no longer counts.
    await merchant.ok('POST', '/business-units/key=acme-east', {
      version: east.version,
      actions: [{ action: 'changeAssociateMode', associateMode: 'Explicit' }],
    });
    expectMissingPermission(await merchant.rest('POST', inUnit(admin, 'acme-east', 'carts'), { currency: 'EUR' }), {
      associate: admin,
      unit: 'acme-east',
      permissions: ['CreateMyCarts'],
    });
  });

  it('needs the API client scopes of carts (view_orders / manage_orders)', async () => {
    const unscoped = await (await apiClient(gateway, P, ['view_orders'])).rest('POST', inUnit(buyer, 'acme', 'carts'), { currency: 'EUR' });
    expect(unscoped.status).toBe(403);
    expect(unscoped.body.errors[0].code).toBe('insufficient_scope');
  });
});
