/**
 * Issue 28: the Channel resource `/{projectKey}/channels` (reference: resources/channels.raml,
 * types/channel): the versioned template's operations by id and key, ChannelDraft validation
 * (key, roles, GeoJSON Point, address, custom), every official update action with its
 * InvalidOperation rules, its scopes (the product scopes serve it too), deletion refused while a
 * resource references the channel, and its change notifications (the reference has no Channel
 * messages) delivered to an SQS subscription in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'channels';

const CHANNEL_TYPE = {
  key: 'channel-fields',
  name: { en: 'Channel fields' },
  resourceTypeIds: ['channel'],
  fieldDefinitions: [{ name: 'opening', label: { en: 'Opening' }, required: false, type: { name: 'String' } }],
};
const ADDRESS_TYPE = {
  key: 'address-fields',
  name: { en: 'Address fields' },
  resourceTypeIds: ['address'],
  fieldDefinitions: [{ name: 'gate', label: { en: 'Gate' }, required: false, type: { name: 'String' } }],
};
const BERLIN = { type: 'Point', coordinates: [13.37774, 52.51627] };

describe('Channel /{projectKey}/channels', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_channels', 'manage_types', 'manage_subscriptions', 'manage_stores']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_channels']);
    await admin.ok(`/${P}/types`, CHANNEL_TYPE, 201);
    await admin.ok(`/${P}/types`, ADDRESS_TYPE, 201);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a channel with the reference defaults and reads it by id, by key, by query and sorted', async () => {
    const minimal = await admin.ok(`/${P}/channels`, { key: 'warehouse-east' }, 201);
    // ChannelDraft.roles defaults to ['InventorySupply'].
    expect(minimal).toMatchObject({ version: 1, key: 'warehouse-east', roles: ['InventorySupply'] });
    const full = await admin.ok(
      `/${P}/channels`,
      {
        key: 'berlin-store',
        roles: ['ProductDistribution', 'Primary', 'ProductDistribution'],
        name: { en: 'Berlin store' },
        description: { en: 'Flagship' },
        address: { country: 'DE', city: 'Berlin', custom: { type: { key: 'address-fields' }, fields: { gate: 'B' } } },
        geoLocation: BERLIN,
        custom: { type: { typeId: 'type', key: 'channel-fields' }, fields: { opening: '9-18' } },
        // Read-only (computed from reviews): never taken from a draft.
        reviewRatingStatistics: { averageRating: 5, highestRating: 5, lowestRating: 5, count: 1, ratingsDistribution: {} },
      },
      201,
    );
    expect(full).toMatchObject({
      key: 'berlin-store',
      roles: ['ProductDistribution', 'Primary'],
      name: { en: 'Berlin store' },
      description: { en: 'Flagship' },
      address: { country: 'DE', city: 'Berlin', custom: { fields: { gate: 'B' } } },
      geoLocation: BERLIN,
      custom: { fields: { opening: '9-18' } },
    });
    expect(full.reviewRatingStatistics).toBeUndefined();
    expect(await viewer.read(`/${P}/channels/${full.id}`)).toEqual(full);
    expect(await viewer.read(`/${P}/channels/key=berlin-store`)).toEqual(full);
    const distribution = await viewer.read(`/${P}/channels?where=${encodeURIComponent('roles contains any ("ProductDistribution")')}`);
    expect(distribution.results.map((found: Json) => found.key)).toEqual(['berlin-store']);
    const sorted = await viewer.read(
      `/${P}/channels?sort=${encodeURIComponent('key desc')}&where=${encodeURIComponent('key in ("berlin-store", "warehouse-east")')}`,
    );
    expect(sorted.results.map((found: Json) => found.key)).toEqual(['warehouse-east', 'berlin-store']);
    const byName = await viewer.read(`/${P}/channels?where=${encodeURIComponent('name(en = "Berlin store")')}`);
    expect(byName.results.map((found: Json) => found.id)).toEqual([full.id]);
    const expanded = await admin.read(`/${P}/channels/${full.id}?expand=custom.type`);
    expect(expanded.custom.type.obj).toMatchObject({ key: 'channel-fields' });
  });

  it('refuses bad drafts with the official error codes, and writes with a view scope', async () => {
    await admin.ok(`/${P}/channels`, { key: 'taken' }, 201);
    const cases: Array<[unknown, string, Json?]> = [
      [{ roles: ['InventorySupply'] }, 'RequiredField', { field: 'key' }],
      [{ key: null }, 'RequiredField', { field: 'key' }],
      [{ key: 17 }, 'InvalidInput', { field: 'key' }],
      [{ key: '' }, 'InvalidOperation'],
      [{ key: 'x'.repeat(257) }, 'InvalidInput', { field: 'key' }],
      [{ key: 'taken' }, 'DuplicateField', { field: 'key' }],
      [{ key: 'no-roles', roles: [] }, 'InvalidOperation'],
      [{ key: 'bad-role', roles: ['Warehouse'] }, 'InvalidInput'],
      [{ key: 'roles-not-array', roles: 'Primary' }, 'InvalidInput', { field: 'roles' }],
      [{ key: 'bad-name', name: 'Berlin' }, 'InvalidInput', { field: 'name' }],
      [{ key: 'bad-description', description: ['x'] }, 'InvalidInput', { field: 'description' }],
      [{ key: 'bad-address', address: { city: 'Berlin' } }, 'InvalidInput'],
      [{ key: 'bad-country', address: { country: 'Germany' } }, 'InvalidInput'],
      [{ key: 'bad-geo-type', geoLocation: { type: 'Polygon', coordinates: [[0, 0]] } }, 'InvalidInput', { field: 'geoLocation' }],
      [{ key: 'bad-geo-point', geoLocation: { type: 'Point', coordinates: [13.4] } }, 'InvalidInput', { field: 'geoLocation' }],
      [{ key: 'bad-geo-latitude', geoLocation: { type: 'Point', coordinates: [13.4, 91] } }, 'InvalidInput'],
      [{ key: 'bad-geo-longitude', geoLocation: { type: 'Point', coordinates: [-180.5, 0] } }, 'InvalidInput'],
      [{ key: 'bad-geo-text', geoLocation: { type: 'Point', coordinates: ['13', '52'] } }, 'InvalidInput'],
      [{ key: 'bad-geo', geoLocation: 'Berlin' }, 'InvalidInput'],
      [{ key: 'bad-custom', custom: { type: { key: 'no-such-type' } } }, 'InvalidInput'],
      [{ key: 'wrong-custom', custom: { type: { key: 'address-fields' } } }, 'InvalidInput'],
      [[{ key: 'array' }], 'InvalidInput'],
    ];
    for (const [draft, code, fields] of cases) {
      const answer = await admin.post(`/${P}/channels`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code, ...fields }] });
    }
    expect((await viewer.post(`/${P}/channels`, { key: 'from-viewer' })).status).toBe(403);
    // resources/channels.raml: manage_products may create channels, view_products read them.
    const products = await callerWith(gateway, P, ['manage_products']);
    const made = await products.ok(`/${P}/channels`, { key: 'by-products-admin' }, 201);
    const productsViewer = await callerWith(gateway, P, ['view_products']);
    expect((await productsViewer.get(`/${P}/channels/${made.id}`)).status).toBe(200);
  });

  it('applies every official update action', async () => {
    const channel = await admin.ok(`/${P}/channels`, { key: 'editable', name: { en: 'Old' } }, 201);
    const updated = await admin.update(`/${P}/channels/${channel.id}`, 1, [
      { action: 'changeKey', key: 'edited' },
      { action: 'changeName', name: { en: 'New', de: 'Neu' } },
      { action: 'changeDescription', description: { en: 'Described' } },
      { action: 'setRoles', roles: ['OrderExport'] },
      { action: 'addRoles', roles: ['OrderImport', 'Primary'] },
      { action: 'removeRoles', roles: ['Primary'] },
      { action: 'setAddress', address: { country: 'AT', city: 'Wien' } },
      { action: 'setAddressCustomType', type: { key: 'address-fields' }, fields: { gate: 'A' } },
      { action: 'setAddressCustomField', name: 'gate', value: 'C' },
      { action: 'setGeoLocation', geoLocation: { type: 'Point', coordinates: [16.37, 48.21] } },
      { action: 'setCustomType', type: { key: 'channel-fields' } },
      { action: 'setCustomField', name: 'opening', value: '24/7' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'edited',
      name: { en: 'New', de: 'Neu' },
      description: { en: 'Described' },
      roles: ['OrderExport', 'OrderImport'],
      address: { country: 'AT', city: 'Wien', custom: { fields: { gate: 'C' } } },
      geoLocation: { type: 'Point', coordinates: [16.37, 48.21] },
      custom: { fields: { opening: '24/7' } },
    });
    expect((await viewer.get(`/${P}/channels/key=editable`)).status).toBe(404);
    const removed = await admin.update(`/${P}/channels/key=edited`, 2, [
      { action: 'setAddressCustomField', name: 'gate' },
      { action: 'setAddressCustomType' },
      { action: 'setAddress' },
      { action: 'setGeoLocation' },
      { action: 'setCustomType' },
    ]);
    expect(removed.version).toBe(3);
    for (const field of ['address', 'geoLocation', 'custom']) expect(removed[field], field).toBeUndefined();
  });

  it('answers InvalidOperation where the reference says so, and InvalidInput for bad values', async () => {
    const channel = await admin.ok(`/${P}/channels`, { key: 'strict', name: { en: 'Strict' }, roles: ['InventorySupply'] }, 201);
    const refused: Array<[Json, string]> = [
      [{ action: 'changeName', name: { en: 'Strict' } }, 'InvalidOperation'],
      [{ action: 'changeName', name: {} }, 'InvalidOperation'],
      [{ action: 'changeName' }, 'RequiredField'],
      [{ action: 'changeDescription', description: {} }, 'InvalidOperation'],
      [{ action: 'changeKey', key: '' }, 'InvalidOperation'],
      [{ action: 'changeKey', key: 'taken-by-other' }, 'DuplicateField'],
      [{ action: 'setRoles', roles: ['InventorySupply'] }, 'InvalidOperation'],
      [{ action: 'setRoles', roles: [] }, 'InvalidOperation'],
      [{ action: 'addRoles', roles: ['InventorySupply'] }, 'InvalidOperation'],
      [{ action: 'addRoles', roles: ['Shop'] }, 'InvalidInput'],
      [{ action: 'removeRoles', roles: ['Primary'] }, 'InvalidOperation'],
      [{ action: 'removeRoles', roles: ['InventorySupply'] }, 'InvalidOperation'],
      [{ action: 'setGeoLocation', geoLocation: { type: 'Point', coordinates: [200, 0] } }, 'InvalidInput'],
      [{ action: 'setAddress', address: { country: 'de' } }, 'InvalidInput'],
      // setAddressCustomType/Field: "Channel.address must be set; otherwise, an InvalidInput error".
      [{ action: 'setAddressCustomType', type: { key: 'address-fields' } }, 'InvalidInput'],
      [{ action: 'setAddressCustomField', name: 'gate', value: 'x' }, 'InvalidInput'],
      [{ action: 'setCustomField', name: 'opening', value: 'x' }, 'InvalidInput'],
    ];
    await admin.ok(`/${P}/channels`, { key: 'taken-by-other' }, 201);
    for (const [action, code] of refused) {
      const answer = await admin.post(`/${P}/channels/${channel.id}`, { version: 1, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    expect((await viewer.read(`/${P}/channels/${channel.id}`)).version).toBe(1);
  });

  it('refuses to delete a channel a store references (ReferenceExists), deletes it once unreferenced', async () => {
    const channel = await admin.ok(`/${P}/channels`, { key: 'supplying', roles: ['InventorySupply'] }, 201);
    const store = await admin.ok(`/${P}/stores`, { key: 'supplied', supplyChannels: [{ typeId: 'channel', key: 'supplying' }] }, 201);
    const refused = await admin.delete(`/${P}/channels/${channel.id}?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'store' });
    expect((await viewer.get(`/${P}/channels/${channel.id}`)).status).toBe(200);
    await admin.update(`/${P}/stores/${store.id}`, store.version, [{ action: 'setSupplyChannels' }]);
    const deleted = await admin.delete(`/${P}/channels/key=supplying?version=1`);
    expect(deleted.status).toBe(200);
    expect((await viewer.get(`/${P}/channels/${channel.id}`)).status).toBe(404);
  });

  it('delivers its change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'channel');

    const channel = await admin.ok(`/${P}/channels`, { key: 'delivered' }, 201);
    const id = channel.id as string;
    await admin.update(`/${P}/channels/${id}`, 1, [
      { action: 'changeName', name: { en: 'Delivered' } },
      { action: 'addRoles', roles: ['Primary'] },
    ]);
    await admin.update(`/${P}/channels/${id}`, 2, [{ action: 'setGeoLocation', geoLocation: BERLIN }]);
    await admin.delete(`/${P}/channels/${id}?version=3`);

    // No messages (the reference has no Channel messages): 4 change notifications.
    const documents = await deliveriesAbout(sqs, queue, id, 4);
    expect(labels(documents)).toEqual(
      [`channel:${id}:ResourceCreated:1`, `channel:${id}:ResourceUpdated:2`, `channel:${id}:ResourceUpdated:3`, `channel:${id}:ResourceDeleted:3`].sort(),
    );
    const created = documents.map(payloadOf).find((payload) => payload.notificationType === 'ResourceCreated');
    expect(created).toMatchObject({ projectKey: P, resource: { typeId: 'channel', id }, resourceUserProvidedIdentifiers: { key: 'delivered' } });
  });
});
