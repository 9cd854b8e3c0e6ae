import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, apiClient, messagesOf, type Client, type Json } from './support.js';

const P = 'bu-rest';

/** `/{projectKey}/business-units`: the eight operations, on the same service and drafts as GraphQL. */
describe('REST /{projectKey}/business-units', () => {
  let gateway: TestGateway;
  let admin: Client;
  let viewer: Client;
  let customerId: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'manage_customers', 'manage_stores', 'view_messages']);
    viewer = await apiClient(gateway, P, ['view_business_units']);
    await admin.ok('POST', '/stores', { key: 'berlin' }, 201);
    customerId = (await admin.ok('POST', '/customers', { email: 'rest-associate@example.com', password: 'secret-password' }, 201)).customer.id as string;
  });
  afterAll(() => gateway.close());

  it('creates a unit from the same draft as GraphQL (indices into addresses)', async () => {
    const created = await admin.ok(
      'POST',
      '/business-units',
      {
        key: 'rest-co',
        name: 'REST Co',
        unitType: 'Company',
        contactEmail: 'info@rest.example',
        addresses: [address('DE', { key: 'main' }), address('AT', { key: 'vienna' })],
        billingAddresses: [1],
        defaultBillingAddress: 1,
        defaultShippingAddress: 0,
        stores: [{ typeId: 'store', key: 'berlin' }],
        associates: [{ roles: ['Admin', 'Buyer'], customer: { typeId: 'customer', id: customerId } }],
      },
      201,
    );
    const [main, vienna] = created.addresses as Json[];
    expect(created).toMatchObject({
      version: 1,
      key: 'rest-co',
      status: 'Active',
      unitType: 'Company',
      storeMode: 'Explicit',
      stores: [{ typeId: 'store', key: 'berlin' }],
      associates: [{ roles: ['Admin', 'Buyer'], customer: { typeId: 'customer', id: customerId } }],
      ancestors: [],
      topLevelUnit: { typeId: 'business-unit', key: 'rest-co' },
      shippingAddressIds: [main?.id],
      billingAddressIds: [vienna?.id],
      defaultShippingAddressId: main?.id,
      defaultBillingAddressId: vienna?.id,
    });
    expect(created.parentUnit).toBeUndefined();
  });

  it('reads by id and by key, and queries with where, var.*, sort, paging and expand', async () => {
    const byKey = await viewer.ok('GET', '/business-units/key=rest-co');
    expect(await viewer.ok('GET', `/business-units/${byKey.id as string}`)).toEqual(byKey);
    await admin.ok('POST', '/business-units', { key: 'rest-co-a', name: 'A', unitType: 'Division', parentUnit: { key: 'rest-co' } }, 201);

    const where = encodeURIComponent('topLevelUnit(key = :top) and name != "nobody"');
    const page = await viewer.ok('GET', `/business-units?where=${where}&var.top=rest-co&sort=name+desc&limit=1&offset=1`);
    expect(page).toMatchObject({ offset: 1, limit: 1, count: 1, total: 2, results: [{ key: 'rest-co-a' }] });

    // Expanding customers needs view_customers as well (test/security/expansion-scopes.test.ts).
    const customerViewer = await apiClient(gateway, P, ['view_business_units', 'view_customers']);
    const expanded = await customerViewer.ok('GET', `/business-units/key=rest-co?expand=${encodeURIComponent('associates[*].customer')}`);
    expect(expanded.associates[0].customer).toMatchObject({ typeId: 'customer', id: customerId, obj: { email: 'rest-associate@example.com' } });
  });

  it('updates by id and by key with actions named as the GraphQL members', async () => {
    const current = await viewer.ok('GET', '/business-units/key=rest-co');
    const byId = await admin.ok('POST', `/business-units/${current.id as string}`, {
      version: current.version,
      actions: [{ action: 'changeName', name: 'REST Company' }],
    });
    expect(byId).toMatchObject({ version: current.version + 1, name: 'REST Company' });
    const byKey = await admin.ok(
      'POST',
      '/business-units/key=rest-co',
      {
        version: byId.version,
        actions: [{ action: 'setCustomField', name: 'ignored-without-type', value: 1 }],
      },
      400,
    );
    expect(byKey.errors[0].code).toBe('InvalidInput');
    const ok = await admin.ok('POST', '/business-units/key=rest-co', {
      version: byId.version,
      actions: [
        { action: 'addAddress', address: address('PL', { key: 'warsaw' }) },
        { action: 'setDefaultShippingAddress', addressKey: 'warsaw' },
      ],
    });
    const warsaw = (ok.addresses as Json[]).find((entry) => entry.key === 'warsaw') as Json;
    expect(ok).toMatchObject({ version: byId.version + 1, defaultShippingAddressId: warsaw.id });
    const types = (await messagesOf(admin, current.id as string)).map((message) => message.type);
    expect(types.slice(-3)).toEqual(['BusinessUnitNameChanged', 'BusinessUnitAddressAdded', 'BusinessUnitDefaultShippingAddressSet']);
  });

  it('answers 409 with currentVersion, 404 for a missing unit, 400 for an unknown action', async () => {
    const stale = await admin.rest('POST', '/business-units/key=rest-co', { version: 1, actions: [{ action: 'changeName', name: 'X' }] });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: expect.any(Number) });
    expect((await admin.rest('GET', '/business-units/key=nope')).status).toBe(404);
    const current = await viewer.ok('GET', '/business-units/key=rest-co');
    const unknown = await admin.rest('POST', '/business-units/key=rest-co', { version: current.version, actions: [{ action: 'paint', colour: 'red' }] });
    expect(unknown.status).toBe(400);
  });

  it('deletes by key and by id with the version; a unit with Divisions cannot go', async () => {
    const parent = await viewer.ok('GET', '/business-units/key=rest-co');
    const refused = await admin.rest('DELETE', `/business-units/key=rest-co?version=${parent.version as number}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('ReferenceExists');
    expect((await admin.rest('DELETE', '/business-units/key=rest-co-a?version=7')).status).toBe(409);
    const division = await admin.ok('DELETE', '/business-units/key=rest-co-a?version=1');
    expect(division.key).toBe('rest-co-a');
    await admin.ok('DELETE', `/business-units/${parent.id as string}?version=${parent.version as number}&dataErasure=true`);
    expect((await viewer.rest('GET', '/business-units/key=rest-co')).status).toBe(404);
    expect(await messagesOf(admin, parent.id as string)).toEqual([]);
  });

  it('checks scopes: view reads, manage writes', async () => {
    const answer = await viewer.rest('POST', '/business-units', { key: 'viewer-made', name: 'V', unitType: 'Company' });
    expect(answer.status).toBe(403);
    const stores = await apiClient(gateway, P, ['view_stores']);
    expect((await stores.rest('GET', '/business-units')).status).toBe(403);
  });

  it('validates drafts', async () => {
    const cases: Array<[string, Json, string]> = [
      ['no key', { name: 'N', unitType: 'Company' }, 'RequiredField'],
      ['no name', { key: 'nn', unitType: 'Company' }, 'RequiredField'],
      ['no unitType', { key: 'nn', name: 'N' }, 'RequiredField'],
      ['an unknown unitType', { key: 'nn', name: 'N', unitType: 'Holding' }, 'InvalidInput'],
      ['an index out of range', { key: 'nn', name: 'N', unitType: 'Company', addresses: [address()], shippingAddresses: [1] }, 'InvalidInput'],
      ['a default index out of range', { key: 'nn', name: 'N', unitType: 'Company', defaultBillingAddress: 0 }, 'InvalidInput'],
      [
        'two addresses with one key',
        { key: 'nn', name: 'N', unitType: 'Company', addresses: [address('DE', { key: 'k' }), address('FR', { key: 'k' })] },
        'InvalidInput',
      ],
      ['a store that does not exist', { key: 'nn', name: 'N', unitType: 'Company', stores: [{ key: 'atlantis' }] }, 'ReferencedResourceNotFound'],
      ['an associate without roles', { key: 'nn', name: 'N', unitType: 'Company', associates: [{ roles: [], customer: { id: customerId } }] }, 'InvalidInput'],
      ['a bad e-mail', { key: 'nn', name: 'N', unitType: 'Company', contactEmail: 'not-an-email' }, 'InvalidInput'],
    ];
    for (const [what, draft, code] of cases) {
      const answer = await admin.rest('POST', '/business-units', draft);
      expect(answer.status, what).toBe(400);
      expect(answer.body.errors[0].code, what).toBe(code);
    }
  });
});
