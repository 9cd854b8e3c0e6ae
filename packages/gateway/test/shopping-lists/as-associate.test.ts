/**
 * Issue 29: shopping lists of business units. `/as-associate/{associateId}/in-business-unit/key={unit}/shopping-lists`
 * (reference as-associate.raml) with {Create,View,Update,Delete}{My,Others}ShoppingLists by the
 * list's customer, a list of another unit → 400 InvalidOperation; and the ShoppingListDraft /
 * setBusinessUnit / setCustomer rule "the Customer must be an Associate of the Business Unit"
 * (403 AssociateMissingPermission, as for carts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../business-units/support.js';
import { assignment, associate, ASSOCIATE_SCOPES, expectMissingPermission, inUnit, newCustomer, type Client, type Json } from '../associates/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const SETUP_MS = 180_000;
const P = 'shopping-lists-associates';
const name = (text: string) => ({ en: text });
const listsOf = (who: Client, rest = '', unit = 'acme') => inUnit(who, unit, `shopping-lists${rest}`);

/** 403 AssociateMissingPermission for a list's customer who is not an associate of `unit`. */
function expectNotAssociate(answer: { status: number; body: Json }, customer: Client, unit: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(answer.body).toMatchObject({
    statusCode: 403,
    errors: [{ code: 'AssociateMissingPermission', associate: { typeId: 'customer', id: customer.customerId }, businessUnit: { key: unit } }],
  });
}

describe('shopping lists of business units', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let merchant: Client;
  /** Built-in Buyer in acme: the My shopping list permissions. */
  let buyer: Client;
  /** ViewMyShoppingLists only, in acme. */
  let viewer: Client;
  /** Built-in Admin in acme and other. */
  let admin: Client;
  /** An associate of no unit. */
  let outsider: Client;
  let chair: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    merchant = await apiClient(gateway, P, [...ASSOCIATE_SCOPES, 'manage_shopping_lists', 'manage_products', 'manage_product_types']);
    [buyer, viewer, admin, outsider] = await Promise.all([newCustomer(gateway, P), newCustomer(gateway, P), newCustomer(gateway, P), newCustomer(gateway, P)]);
    await merchant.ok('POST', '/associate-roles', { key: 'list-viewer', permissions: ['ViewMyShoppingLists'] }, 201);
    const members = [associate(buyer, assignment('Buyer')), associate(viewer, assignment('list-viewer')), associate(admin, assignment('Admin'))];
    await merchant.ok('POST', '/business-units', { key: 'acme', name: 'ACME', unitType: 'Company', associates: members }, 201);
    await merchant.ok(
      'POST',
      '/business-units',
      { key: 'other', name: 'Other', unitType: 'Company', associates: [associate(admin, assignment('Admin'))] },
      201,
    );
    await merchant.ok('POST', '/product-types', { key: 'furniture', name: 'Furniture', description: 'Furniture', attributes: [] }, 201);
    const product = { productType: { key: 'furniture' }, name: name('Chair'), slug: name('chair'), masterVariant: { sku: 'chair' }, publish: true };
    chair = await merchant.ok('POST', '/products', product, 201);
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  it("creates a list in the path's unit for the associate itself with CreateMyShoppingLists; refuses without it", async () => {
    const draft = { name: name('Office'), key: 'office', businessUnit: { key: 'other' }, lineItems: [{ sku: 'chair' }] };
    const list = await merchant.ok('POST', listsOf(buyer, '?expand=lineItems[*].variant'), draft, 201);
    // The reference: the draft's businessUnit is ignored, the path's unit is the list's.
    expect(list).toMatchObject({
      businessUnit: { typeId: 'business-unit', key: 'acme' },
      customer: { typeId: 'customer', id: buyer.customerId },
      createdBy: { associate: { typeId: 'customer', id: buyer.customerId } },
      lineItems: [{ productId: chair.id, name: name('Chair'), published: true, variant: { sku: 'chair' } }],
    });
    const refused = await merchant.rest('POST', listsOf(viewer), { name: name('Mine') });
    expectMissingPermission(refused, { associate: viewer, unit: 'acme', permissions: ['CreateMyShoppingLists'] });
    const outside = await merchant.rest('POST', listsOf(outsider), { name: name('Mine') });
    expect(outside.status).toBe(403);
  });

  it("creates another customer's list only with CreateOthersShoppingLists; the customer must be an associate", async () => {
    const forViewer = { name: name('For the viewer'), customer: { typeId: 'customer', id: viewer.customerId } };
    const refused = await merchant.rest('POST', listsOf(buyer), forViewer);
    expectMissingPermission(refused, { associate: buyer, unit: 'acme', permissions: ['CreateOthersShoppingLists'], onBehalfOf: viewer });
    const list = await merchant.ok('POST', listsOf(admin), forViewer, 201);
    expect(list).toMatchObject({ customer: { id: viewer.customerId }, businessUnit: { key: 'acme' } });
    const forOutsider = await merchant.rest('POST', listsOf(admin), { name: name('x'), customer: { id: outsider.customerId } });
    expectNotAssociate(forOutsider, outsider, 'acme');
  });

  it('reads with ViewMyShoppingLists its own lists only, with ViewOthersShoppingLists all lists of the unit', async () => {
    const viewers = await merchant.ok('POST', listsOf(admin), { name: name('V'), key: 'viewers', customer: { id: viewer.customerId } }, 201);
    const buyers = await merchant.ok('POST', listsOf(buyer), { name: name('B') }, 201);
    expect((await merchant.ok('GET', listsOf(viewer, `/${viewers.id as string}`))).id).toBe(viewers.id);
    expect((await merchant.ok('GET', listsOf(viewer, '/key=viewers'))).id).toBe(viewers.id);
    const others = await merchant.rest('GET', listsOf(viewer, `/${buyers.id as string}`));
    expectMissingPermission(others, { associate: viewer, unit: 'acme', permissions: ['ViewOthersShoppingLists'], onBehalfOf: buyer });

    const own = await merchant.ok('GET', listsOf(viewer, '?limit=500'));
    expect(own.results.length).toBeGreaterThan(0);
    expect(own.results.every((list: Json) => list.customer.id === viewer.customerId)).toBe(true);
    const all = await merchant.ok('GET', listsOf(admin, '?limit=500'));
    expect(all.results.map((list: Json) => list.id)).toEqual(expect.arrayContaining([viewers.id, buyers.id]));
    // A list of another unit: InvalidOperation, as the reference says.
    const elsewhere = await merchant.ok('POST', listsOf(admin, '', 'other'), { name: name('Elsewhere') }, 201);
    const wrongUnit = await merchant.rest('GET', listsOf(admin, `/${elsewhere.id as string}`));
    expect(wrongUnit.status).toBe(400);
    expect(wrongUnit.body.errors[0].code).toBe('InvalidOperation');
  });

  it('updates and deletes with Update/Delete{My,Others}ShoppingLists; never out of the unit', async () => {
    const list = await merchant.ok('POST', listsOf(buyer), { name: name('Draft') }, 201);
    const path = listsOf(buyer, `/${list.id as string}`);
    const updated = await merchant.ok('POST', path, { version: list.version, actions: [{ action: 'changeName', name: name('Final') }] });
    expect(updated).toMatchObject({ name: name('Final'), lastModifiedBy: { associate: { id: buyer.customerId } } });
    const byViewer = await merchant.rest('POST', listsOf(viewer, `/${list.id as string}`), {
      version: updated.version,
      actions: [{ action: 'changeName', name: name('Mine') }],
    });
    expectMissingPermission(byViewer, { associate: viewer, unit: 'acme', permissions: ['UpdateOthersShoppingLists'], onBehalfOf: buyer });
    const moved = await merchant.rest('POST', listsOf(admin, `/${list.id as string}`), {
      version: updated.version,
      actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'other' } }],
    });
    // The buyer is no associate of `other`: the list's customer check answers first.
    expectNotAssociate(moved, buyer, 'other');

    const deleteByViewer = await merchant.rest('DELETE', listsOf(viewer, `/${list.id as string}?version=${updated.version as number}`));
    expectMissingPermission(deleteByViewer, { associate: viewer, unit: 'acme', permissions: ['DeleteOthersShoppingLists'], onBehalfOf: buyer });
    const removed = await merchant.ok('DELETE', listsOf(buyer, `/${list.id as string}?version=${updated.version as number}`));
    expect(removed.id).toBe(list.id);
    expect((await merchant.rest('GET', `/shopping-lists/${list.id as string}`)).status).toBe(404);
  });

  it('moves a list to another unit with setBusinessUnit on /shopping-lists, not through the as-associate path', async () => {
    const list = await merchant.ok('POST', listsOf(admin), { name: name('Admin list') }, 201);
    const moved = await merchant.rest('POST', listsOf(admin, `/${list.id as string}`), {
      version: list.version,
      actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'other' } }],
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors[0].code).toBe('InvalidOperation');
    const direct = await merchant.ok('POST', `/shopping-lists/${list.id as string}`, {
      version: list.version,
      actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'other' } }],
    });
    expect(direct.businessUnit).toEqual({ typeId: 'business-unit', key: 'other' });
  });
});

describe('the associate check of a shopping list business unit', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let merchant: Client;
  let member: Client;
  let stranger: Client;
  const P2 = `${P}-check`;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P2] });
    merchant = await apiClient(gateway, P2, [...ASSOCIATE_SCOPES, 'manage_shopping_lists', 'manage_stores']);
    [member, stranger] = await Promise.all([newCustomer(gateway, P2), newCustomer(gateway, P2)]);
    await merchant.ok('POST', '/business-units', { key: 'acme', name: 'ACME', unitType: 'Company', associates: [associate(member, assignment('Buyer'))] }, 201);
    await merchant.ok('POST', '/business-units', { key: 'solo', name: 'Solo', unitType: 'Company' }, 201);
    for (const key of ['berlin', 'paris']) await merchant.ok('POST', '/stores', { key, name: { en: key } }, 201);
    await merchant.ok('POST', '/business-units', { key: 'berlin-co', name: 'Berlin Co', unitType: 'Company', stores: [{ key: 'berlin' }] }, 201);
    // A Division without stores of its own takes its parent's (storeMode FromParent).
    await merchant.ok('POST', '/business-units', { key: 'berlin-east', name: 'East', unitType: 'Division', parentUnit: { key: 'berlin-co' } }, 201);
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  it('refuses a draft whose customer is not an associate of its business unit (ShoppingListDraft.businessUnit)', async () => {
    const ok = await merchant.ok('POST', '/shopping-lists', { name: name('a'), customer: { id: member.customerId }, businessUnit: { key: 'acme' } }, 201);
    expect(ok).toMatchObject({ customer: { id: member.customerId }, businessUnit: { key: 'acme' } });
    expectNotAssociate(
      await merchant.rest('POST', '/shopping-lists', { name: name('b'), customer: { id: stranger.customerId }, businessUnit: { key: 'acme' } }),
      stranger,
      'acme',
    );
    // A list without a customer may name any unit; an unknown unit is 400 ReferencedResourceNotFound.
    await merchant.ok('POST', '/shopping-lists', { name: name('c'), businessUnit: { key: 'solo' } }, 201);
    const unknown = await merchant.rest('POST', '/shopping-lists', { name: name('d'), customer: { id: member.customerId }, businessUnit: { key: 'nowhere' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].code).toBe('ReferencedResourceNotFound');
  });

  it('refuses setCustomer and setBusinessUnit that would make a non-associate the customer of a unit list', async () => {
    const list = await merchant.ok('POST', '/shopping-lists', { name: name('e'), businessUnit: { key: 'acme' } }, 201);
    const path = `/shopping-lists/${list.id as string}`;
    const stranger1 = await merchant.rest('POST', path, { version: list.version, actions: [{ action: 'setCustomer', customer: { id: stranger.customerId } }] });
    expectNotAssociate(stranger1, stranger, 'acme');
    const owned = await merchant.ok('POST', path, { version: list.version, actions: [{ action: 'setCustomer', customer: { id: member.customerId } }] });
    const toSolo = await merchant.rest('POST', path, { version: owned.version, actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'solo' } }] });
    expectNotAssociate(toSolo, member, 'solo');
    // Nothing was written by the refused updates.
    expect((await merchant.ok('GET', path)).version).toBe(owned.version);
  });

  it("keeps a unit's list in one of the unit's stores (BusinessUnit.stores, setBusinessUnit), inherited by FromParent units", async () => {
    const refused = await merchant.rest('POST', '/shopping-lists', { name: name('f'), store: { key: 'paris' }, businessUnit: { key: 'berlin-co' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'businessUnit' });
    const inherited = await merchant.rest('POST', '/shopping-lists', { name: name('g'), store: { key: 'paris' }, businessUnit: { key: 'berlin-east' } });
    expect(inherited.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'businessUnit' });
    const list = await merchant.ok('POST', '/shopping-lists', { name: name('h'), store: { key: 'berlin' }, businessUnit: { key: 'berlin-east' } }, 201);
    const path = `/shopping-lists/${list.id as string}`;
    const toParis = await merchant.rest('POST', path, { version: list.version, actions: [{ action: 'setStore', store: { key: 'paris' } }] });
    expect(toParis.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'store' });
    // A unit without stores takes lists of any store; back in berlin-co the Paris list is refused.
    const inSolo = await merchant.ok('POST', path, {
      version: list.version,
      actions: [
        { action: 'setBusinessUnit', businessUnit: { key: 'solo' } },
        { action: 'setStore', store: { key: 'paris' } },
      ],
    });
    expect(inSolo).toMatchObject({ businessUnit: { key: 'solo' }, store: { key: 'paris' } });
    const back = await merchant.rest('POST', path, { version: inSolo.version, actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'berlin-co' } }] });
    expect(back.status).toBe(400);
    expect(back.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'businessUnit' });
  });
});
