/**
 * Issue 28: the Zone resource `/{projectKey}/zones` (reference: resources/zones.raml, types/zone):
 * the versioned template's operations by id and key, ZoneDraft validation, every official update
 * action, a Location in one Zone only, predicates and sort, and change notifications delivered to
 * an SQS subscription (the reference has no Zone messages).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'zones';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;

describe('Zone /{projectKey}/zones', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_zones', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_zones']);
  }, 180_000);
  afterAll(() => setup?.close());

  it('creates a Zone and reads it by id, by key, by query and sorted; the orders scopes reach it too', async () => {
    const zone = await admin.ok(
      `/${P}/zones`,
      {
        key: 'dach',
        name: 'DACH',
        description: 'German-speaking',
        // An empty state is no state (as the reference says of TaxRateDraft.state).
        locations: [{ country: 'DE' }, { country: 'AT', state: '' }, { country: 'CH', state: 'Zürich' }],
      },
      201,
    );
    expect(zone).toMatchObject({
      version: 1,
      key: 'dach',
      name: 'DACH',
      description: 'German-speaking',
      locations: [{ country: 'DE' }, { country: 'AT' }, { country: 'CH', state: 'Zürich' }],
    });
    expect(zone.locations[1]).toEqual({ country: 'AT' });
    expect(await viewer.read(`/${P}/zones/${zone.id}`)).toEqual(zone);
    expect(await viewer.read(`/${P}/zones/key=dach`)).toEqual(zone);
    await admin.ok(`/${P}/zones`, { key: 'benelux', name: 'Benelux', locations: [{ country: 'NL' }, { country: 'BE' }] }, 201);

    const byLocation = await viewer.read(`/${P}/zones?${where('locations(country = "CH" and state = "Zürich")')}`);
    expect(byLocation.results.map((found: Json) => found.key)).toEqual(['dach']);
    const sorted = await viewer.read(`/${P}/zones?sort=name%20desc&${where('name in ("DACH", "Benelux")')}`);
    expect(sorted.results.map((found: Json) => found.name)).toEqual(['DACH', 'Benelux']);

    // resources/zones.raml: view_zones or view_orders; manage_zones or manage_orders.
    const orders = await callerWith(gateway, P, ['manage_orders']);
    expect(await orders.read(`/${P}/zones/key=dach`)).toEqual(zone);
    await orders.ok(`/${P}/zones`, { name: 'By the orders scope' }, 201);
    expect((await viewer.post(`/${P}/zones`, { name: 'Viewer zone' })).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/zones`, { key: 'taken', name: 'Taken', locations: [{ country: 'PL' }] }, 201);
    const cases: Array<[string, unknown, string]> = [
      ['no name', { key: 'no-name' }, 'RequiredField'],
      ['name not a string', { name: 42 }, 'InvalidInput'],
      ['draft not an object', [], 'InvalidInput'],
      ['key too short', { name: 'Z', key: 'x' }, 'InvalidInput'],
      ['key with a space', { name: 'Z', key: 'a b' }, 'InvalidInput'],
      ['description not a string', { name: 'Z', description: { en: 'x' } }, 'InvalidInput'],
      ['locations not an array', { name: 'Z', locations: { country: 'DE' } }, 'InvalidInput'],
      ['location without a country', { name: 'Z', locations: [{ state: 'Bayern' }] }, 'InvalidInput'],
      ['lower-case country', { name: 'Z', locations: [{ country: 'de' }] }, 'InvalidInput'],
      ['state not a string', { name: 'Z', locations: [{ country: 'IT', state: 7 }] }, 'InvalidInput'],
      ['a location twice', { name: 'Z', locations: [{ country: 'IT' }, { country: 'IT', state: '' }] }, 'DuplicateField'],
      ['a location of another Zone', { name: 'Z', locations: [{ country: 'IT' }, { country: 'PL' }] }, 'DuplicateField'],
      ['a key of another Zone', { name: 'Z', key: 'taken' }, 'DuplicateField'],
    ];
    for (const [label, draft, code] of cases) {
      const answer = await admin.post(`/${P}/zones`, draft);
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
    }
    const elsewhere = await admin.post(`/${P}/zones`, { name: 'Z', locations: [{ country: 'PL' }] });
    expect(elsewhere.body.errors[0]).toMatchObject({ field: 'locations', duplicateValue: { country: 'PL' } });
    expect(elsewhere.body.message).toContain("'Taken'");
    // Nothing of the refused drafts was written.
    expect((await viewer.read(`/${P}/zones?${where('name = "Z"')}`)).results).toEqual([]);
  });

  it('applies every official update action; a Location stays in one Zone', async () => {
    const zone = await admin.ok(`/${P}/zones`, { name: 'Nordics', locations: [{ country: 'SE' }] }, 201);
    await admin.ok(`/${P}/zones`, { key: 'iberia', name: 'Iberia', locations: [{ country: 'ES' }, { country: 'PT', state: 'Madeira' }] }, 201);
    const updated = await admin.update(`/${P}/zones/${zone.id}`, 1, [
      { action: 'addLocation', location: { country: 'NO' } },
      { action: 'addLocation', location: { country: 'FI', state: 'Åland' } },
      // Another state of a country another Zone holds a state of is free.
      { action: 'addLocation', location: { country: 'PT', state: 'Azores' } },
      { action: 'removeLocation', location: { country: 'SE', state: '' } },
      { action: 'changeName', name: 'North' },
      { action: 'setDescription', description: 'Cold places' },
      { action: 'setKey', key: 'north' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'north',
      name: 'North',
      description: 'Cold places',
      locations: [{ country: 'NO' }, { country: 'FI', state: 'Åland' }, { country: 'PT', state: 'Azores' }],
    });
    const cleared = await admin.update(`/${P}/zones/key=north`, 2, [{ action: 'setDescription' }, { action: 'setKey', key: null }]);
    expect(cleared.version).toBe(3);
    expect(cleared).not.toHaveProperty('description');
    expect(cleared).not.toHaveProperty('key');

    const refusals: Array<[string, Json, string]> = [
      ['a Location of another Zone', { action: 'addLocation', location: { country: 'PT', state: 'Madeira' } }, 'DuplicateField'],
      ['a Location it has', { action: 'addLocation', location: { country: 'NO' } }, 'DuplicateField'],
      ['no location', { action: 'addLocation' }, 'RequiredField'],
      ['a bad country', { action: 'addLocation', location: { country: 'Norway' } }, 'InvalidInput'],
      ['removing a Location it does not have', { action: 'removeLocation', location: { country: 'SE' } }, 'InvalidOperation'],
      ['an empty name', { action: 'changeName' }, 'RequiredField'],
      ['a bad key', { action: 'setKey', key: '!' }, 'InvalidInput'],
      ['the key of another Zone', { action: 'setKey', key: 'iberia' }, 'DuplicateField'],
      ['an unknown action', { action: 'setLocations', locations: [] }, 'InvalidInput'],
    ];
    for (const [label, action, code] of refusals) {
      const answer = await admin.post(`/${P}/zones/${zone.id}`, { version: 3, actions: [action] });
      expect(answer.status, label).toBe(400);
      expect(answer.body.errors[0].code, label).toBe(code);
    }
    const stale = await admin.post(`/${P}/zones/${zone.id}`, { version: 1, actions: [{ action: 'changeName', name: 'Old' }] });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 3 });

    // Once removed from its Zone, a Location may join another.
    await admin.update(`/${P}/zones/key=iberia`, 1, [{ action: 'removeLocation', location: { country: 'PT', state: 'Madeira' } }]);
    expect((await admin.update(`/${P}/zones/${zone.id}`, 3, [{ action: 'addLocation', location: { country: 'PT', state: 'Madeira' } }])).version).toBe(4);
  });

  it('deletes by id and by key with the version', async () => {
    const zone = await admin.ok(`/${P}/zones`, { key: 'doomed', name: 'Doomed', locations: [{ country: 'GR' }] }, 201);
    const stale = await admin.delete(`/${P}/zones/${zone.id}?version=2`);
    expect(stale.status).toBe(409);
    expect((await admin.delete(`/${P}/zones/key=doomed?version=1`)).status).toBe(200);
    expect((await viewer.get(`/${P}/zones/${zone.id}`)).status).toBe(404);
    // Its Location is free again.
    await admin.ok(`/${P}/zones`, { name: 'Hellas', locations: [{ country: 'GR' }] }, 201);
  });

  it('delivers its change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'zone');

    const zone = await admin.ok(`/${P}/zones`, { key: 'delivered', name: 'Delivered', locations: [{ country: 'IE' }] }, 201);
    await admin.update(`/${P}/zones/${zone.id}`, 1, [
      { action: 'addLocation', location: { country: 'GB', state: 'Northern Ireland' } },
      { action: 'removeLocation', location: { country: 'IE' } },
      { action: 'changeName', name: 'Delivered too' },
      { action: 'setDescription', description: 'd' },
      { action: 'setKey', key: 'delivered-too' },
    ]);
    await admin.delete(`/${P}/zones/${zone.id}?version=2`);

    const documents = await deliveriesAbout(sqs, queue, zone.id as string, 3);
    const id = zone.id as string;
    // No Zone messages exist in the reference: change notifications only.
    expect(labels(documents)).toEqual([`zone:${id}:ResourceCreated:1`, `zone:${id}:ResourceDeleted:2`, `zone:${id}:ResourceUpdated:2`]);
    const updated = documents.map(payloadOf).find((payload) => payload.notificationType === 'ResourceUpdated');
    expect(updated).toMatchObject({ projectKey: P, resourceUserProvidedIdentifiers: { key: 'delivered-too' } });
  });
});
