/**
 * Issue 28: the InventoryEntry resource `/{projectKey}/inventory` (reference:
 * resources/inventory.raml, types/inventory; type id `inventory-entry`): the versioned template's
 * operations by id and key, InventoryEntryDraft validation (required fields, types, limits, the
 * supply channel's InventorySupply role, one entry per sku and supply channel), every official
 * update action, its messages in order, and messages and change notifications delivered to an SQS
 * subscription in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'inventory';

const ENTRY_TYPE = {
  key: 'entry-fields',
  name: { en: 'Entry fields' },
  resourceTypeIds: ['inventory-entry'],
  fieldDefinitions: [{ name: 'bin', label: { en: 'Bin' }, required: false, type: { name: 'String' } }],
};

describe('InventoryEntry /{projectKey}/inventory', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let supply: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_products', 'manage_channels', 'manage_types', 'manage_subscriptions', 'view_messages']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_products']);
    supply = await admin.ok(`/${P}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
    await admin.ok(`/${P}/channels`, { key: 'shop', roles: ['ProductDistribution'] }, 201);
    await admin.ok(`/${P}/channels`, { key: 'second-warehouse', roles: ['InventorySupply'] }, 201);
    await admin.ok(`/${P}/types`, ENTRY_TYPE, 201);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates an entry, derives availableQuantity, and reads it by id, key, query, sort and expand', async () => {
    const entry = await admin.ok(
      `/${P}/inventory`,
      {
        key: 'shirt-warehouse',
        sku: 'shirt-1',
        quantityOnStock: 7,
        supplyChannel: { typeId: 'channel', key: 'warehouse' },
        restockableInDays: 3,
        expectedDelivery: '2030-01-01T00:00:00.000Z',
        minCartQuantity: 1,
        maxCartQuantity: 5,
        reservationExpirationInMinutes: 60,
        stockLevels: { reorderPoint: 2, safetyStock: 1 },
        custom: { type: { key: 'entry-fields' }, fields: { bin: 'A1' } },
      },
      201,
    );
    expect(entry).toMatchObject({
      version: 1,
      sku: 'shirt-1',
      quantityOnStock: 7,
      availableQuantity: 7,
      supplyChannel: { typeId: 'channel', id: supply.id },
      restockableInDays: 3,
      stockLevels: { reorderPoint: 2, safetyStock: 1 },
      custom: { fields: { bin: 'A1' } },
    });
    await admin.ok(`/${P}/inventory`, { sku: 'shirt-2', quantityOnStock: 1 }, 201);
    expect(await viewer.read(`/${P}/inventory/${entry.id}`)).toEqual(entry);
    expect(await viewer.read(`/${P}/inventory/key=shirt-warehouse`)).toEqual(entry);
    const page = await viewer.read(`/${P}/inventory?where=${encodeURIComponent('sku in ("shirt-1", "shirt-2")')}&sort=sku%20desc`);
    expect(page.results.map((found: Json) => found.sku)).toEqual(['shirt-2', 'shirt-1']);
    const byQuantity = await viewer.read(`/${P}/inventory?where=${encodeURIComponent('quantityOnStock > 5')}`);
    expect(byQuantity.results.map((found: Json) => found.sku)).toEqual(['shirt-1']);
    const expanded = await admin.read(`/${P}/inventory/${entry.id}?expand=supplyChannel`);
    expect(expanded.supplyChannel.obj).toMatchObject({ key: 'warehouse' });
  });

  it('refuses bad drafts with 400s and the official error codes', async () => {
    const cases: Array<[Json, string]> = [
      [{ quantityOnStock: 1 }, 'RequiredField'],
      [{ sku: 'missing-quantity' }, 'RequiredField'],
      [{ sku: 42, quantityOnStock: 1 }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: '1' }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1.5 }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, key: 'x' }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, restockableInDays: 'soon' }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, expectedDelivery: 'tomorrow' }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, minCartQuantity: 0 }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, minCartQuantity: 5, maxCartQuantity: 2 }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, reservationExpirationInMinutes: 44_641 }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, stockLevels: { reorderPoint: 'low' } }, 'InvalidInput'],
      [{ sku: 'a', quantityOnStock: 1, supplyChannel: { typeId: 'channel', key: 'nowhere' } }, 'ReferencedResourceNotFound'],
      [{ sku: 'a', quantityOnStock: 1, supplyChannel: { typeId: 'channel', key: 'shop' } }, 'MissingRoleOnChannel'],
      [{ sku: 'a', quantityOnStock: 1, custom: { type: { key: 'no-such-type' } } }, 'InvalidInput'],
      [[1, 2] as unknown as Json, 'InvalidInput'],
    ];
    for (const [draft, code] of cases) {
      const answer = await admin.post(`/${P}/inventory`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    const forbidden = await viewer.post(`/${P}/inventory`, { sku: 'viewer', quantityOnStock: 1 });
    expect(forbidden.status).toBe(403);
  });

  it('allows one entry per sku and supply channel (400 DuplicateField), also through setSupplyChannel', async () => {
    await admin.ok(`/${P}/inventory`, { sku: 'unique-1', quantityOnStock: 1, supplyChannel: { key: 'warehouse' } }, 201);
    const plain = await admin.ok(`/${P}/inventory`, { sku: 'unique-1', quantityOnStock: 1 }, 201);
    const other = await admin.ok(`/${P}/inventory`, { sku: 'unique-1', quantityOnStock: 1, supplyChannel: { key: 'second-warehouse' } }, 201);
    for (const draft of [
      { sku: 'unique-1', quantityOnStock: 2 },
      { sku: 'unique-1', quantityOnStock: 2, supplyChannel: { key: 'warehouse' } },
    ]) {
      const duplicate = await admin.post(`/${P}/inventory`, draft);
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'sku' });
    }
    const moved = await admin.post(`/${P}/inventory/${other.id}`, {
      version: 1,
      actions: [{ action: 'setSupplyChannel', supplyChannel: { key: 'warehouse' } }],
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'supplyChannel' });
    const removed = await admin.post(`/${P}/inventory/${other.id}`, { version: 1, actions: [{ action: 'setSupplyChannel' }] });
    expect(removed.body.errors[0]).toMatchObject({ code: 'DuplicateField' });
    const wrongRole = await admin.post(`/${P}/inventory/${plain.id}`, {
      version: 1,
      actions: [{ action: 'setSupplyChannel', supplyChannel: { key: 'shop' } }],
    });
    expect(wrongRole.body.errors[0]).toMatchObject({ code: 'MissingRoleOnChannel', missingRole: 'InventorySupply' });
  });

  it('applies every official update action, with their messages in order', async () => {
    const entry = await admin.ok(`/${P}/inventory`, { sku: 'actions-1', quantityOnStock: 10, key: 'actions-entry' }, 201);
    const updated = await admin.update(`/${P}/inventory/key=actions-entry`, 1, [
      { action: 'setReorderPoint', quantity: 5 },
      { action: 'setSafetyStock', quantity: 2 },
      { action: 'addQuantity', quantity: 3 },
      { action: 'removeQuantity', quantity: 9 },
      { action: 'changeQuantity', quantity: 0 },
      { action: 'removeQuantity', quantity: 2 },
      { action: 'setRestockableInDays', restockableInDays: 4 },
      { action: 'setExpectedDelivery', expectedDelivery: '2031-02-03T04:05:06.000Z' },
      { action: 'setSupplyChannel', supplyChannel: { typeId: 'channel', id: supply.id } },
      { action: 'setKey', key: 'renamed-entry' },
      { action: 'setInventoryLimits', minCartQuantity: 2, maxCartQuantity: 4 },
      { action: 'setReservationExpirationInMinutes', reservationExpirationInMinutes: 30 },
      { action: 'setCustomType', type: { key: 'entry-fields' }, fields: { bin: 'B2' } },
      { action: 'setCustomField', name: 'bin', value: 'C3' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'renamed-entry',
      quantityOnStock: -2,
      availableQuantity: -2,
      restockableInDays: 4,
      expectedDelivery: '2031-02-03T04:05:06.000Z',
      supplyChannel: { typeId: 'channel', id: supply.id },
      minCartQuantity: 2,
      maxCartQuantity: 4,
      reservationExpirationInMinutes: 30,
      stockLevels: { reorderPoint: 5, safetyStock: 2 },
      custom: { fields: { bin: 'C3' } },
    });
    const cleared = await admin.update(`/${P}/inventory/${entry.id}`, 2, [
      { action: 'setRestockableInDays' },
      { action: 'setExpectedDelivery' },
      { action: 'setSupplyChannel' },
      { action: 'setKey' },
      { action: 'setInventoryLimits' },
      { action: 'setReorderPoint' },
      { action: 'setSafetyStock' },
      { action: 'setReservationExpirationInMinutes' },
      { action: 'setCustomType' },
    ]);
    for (const field of [
      'restockableInDays',
      'expectedDelivery',
      'supplyChannel',
      'key',
      'minCartQuantity',
      'maxCartQuantity',
      'stockLevels',
      'reservationExpirationInMinutes',
      'custom',
    ]) {
      expect(cleared, field).not.toHaveProperty(field);
    }
    const messages = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id = "${entry.id}")`)}&sort=sequenceNumber%20asc`);
    const quantitySet = (oldQuantityOnStock: number, newQuantityOnStock: number) => ({
      type: 'InventoryEntryQuantitySet',
      oldQuantityOnStock,
      newQuantityOnStock,
      oldAvailableQuantity: oldQuantityOnStock,
      newAvailableQuantity: newQuantityOnStock,
      sku: 'actions-1',
    });
    expect(messages.results).toMatchObject([
      { type: 'InventoryEntryCreated', sequenceNumber: 1, inventoryEntry: { sku: 'actions-1', quantityOnStock: 10 } },
      quantitySet(10, 13),
      quantitySet(13, 4),
      { type: 'InventoryEntryReorderPoint', sku: 'actions-1', quantityOnStock: 4 },
      quantitySet(4, 0),
      { type: 'InventoryEntryOutOfStock', sku: 'actions-1' },
      { type: 'InventoryEntrySafetyStock', sku: 'actions-1', quantityOnStock: 0 },
      quantitySet(0, -2),
      { type: 'InventoryEntryReservationExpirationInMinutesSet', newReservationExpirationInMinutes: 30 },
      { type: 'InventoryEntryReservationExpirationInMinutesSet', oldReservationExpirationInMinutes: 30 },
    ]);
    expect(messages.results.map((message: Json) => message.sequenceNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('refuses bad update input with 400s', async () => {
    const entry = await admin.ok(`/${P}/inventory`, { sku: 'bad-actions', quantityOnStock: 1 }, 201);
    const cases: Array<[Json, string]> = [
      [{ action: 'addQuantity' }, 'RequiredField'],
      [{ action: 'changeQuantity', quantity: 'many' }, 'InvalidInput'],
      [{ action: 'setExpectedDelivery', expectedDelivery: 'soon' }, 'InvalidInput'],
      [{ action: 'setSupplyChannel', supplyChannel: { key: 'nowhere' } }, 'ReferencedResourceNotFound'],
      [{ action: 'setReservationExpirationInMinutes', reservationExpirationInMinutes: 0 }, 'InvalidInput'],
      [{ action: 'setKey', key: 'x' }, 'InvalidInput'],
      [{ action: 'setQuantity', quantity: 1 }, 'InvalidInput'],
    ];
    for (const [action, code] of cases) {
      const answer = await admin.post(`/${P}/inventory/${entry.id}`, { version: 1, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'inventory-entry');

    const entry = await admin.ok(`/${P}/inventory`, { sku: 'delivered-1', quantityOnStock: 2, supplyChannel: { key: 'warehouse' } }, 201);
    await admin.update(`/${P}/inventory/${entry.id}`, 1, [{ action: 'changeQuantity', quantity: 5 }]);
    await admin.update(`/${P}/inventory/${entry.id}`, 2, [{ action: 'setRestockableInDays', restockableInDays: 1 }]);
    const deleted = await admin.delete(`/${P}/inventory/${entry.id}?version=3`);
    expect(deleted.status).toBe(200);

    // 3 messages and 4 change notifications (created, 2 updates, deleted).
    const documents = await deliveriesAbout(sqs, queue, entry.id as string, 7);
    const id = entry.id as string;
    expect(labels(documents)).toEqual(
      [
        `inventory-entry:${id}:Message:InventoryEntryCreated:1`,
        `inventory-entry:${id}:Message:InventoryEntryQuantitySet:2`,
        `inventory-entry:${id}:Message:InventoryEntryDeleted:3`,
        `inventory-entry:${id}:ResourceCreated:1`,
        `inventory-entry:${id}:ResourceUpdated:2`,
        `inventory-entry:${id}:ResourceUpdated:3`,
        `inventory-entry:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const byType = (type: string) => documents.map(payloadOf).find((payload) => payload.type === type);
    expect(byType('InventoryEntryCreated')).toMatchObject({ inventoryEntry: { sku: 'delivered-1', availableQuantity: 2 } });
    expect(byType('InventoryEntryQuantitySet')).toMatchObject({
      oldQuantityOnStock: 2,
      newQuantityOnStock: 5,
      supplyChannel: { typeId: 'channel', id: supply.id },
    });
    expect(byType('InventoryEntryDeleted')).toMatchObject({ sku: 'delivered-1', supplyChannel: { typeId: 'channel', id: supply.id } });
  });
});
