/**
 * A Type used only by the custom fields of a business unit's address (`addresses[*].custom`, Type
 * resource type id `address`) counts as in use, like one used by a resource's own custom fields or
 * its line items' (CUSTOM_HOLDERS in types/definition.ts): it cannot be deleted (400
 * ReferenceExists) nor given a required field (the addresses have no value for it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, address, type Caller } from '../carts/commerce.js';

const P = 'type-used-by-address';

describe('deleting a Type that a business-unit address still uses', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  it('refuses with 400 ReferenceExists, as for a Type used by a customer', async () => {
    const type = await admin.ok(
      `/${P}/types`,
      {
        key: 'address-extras',
        name: { en: 'Address extras' },
        resourceTypeIds: ['address'],
        fieldDefinitions: [{ name: 'floor', type: { name: 'String' }, required: false, label: { en: 'Floor' } }],
      },
      201,
    );
    const unit = await admin.ok(
      `/${P}/business-units`,
      {
        key: 'typed-co',
        name: 'Typed Co',
        unitType: 'Company',
        addresses: [address('DE', { key: 'hq', custom: { type: { key: 'address-extras' }, fields: { floor: '3' } } })],
      },
      201,
    );
    expect(unit.addresses[0].custom).toMatchObject({ type: { typeId: 'type', id: type.id }, fields: { floor: '3' } });

    const deleted = await admin.delete(`/${P}/types/key=address-extras?version=${type.version}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(400);
    expect(deleted.body.errors[0]).toMatchObject({ code: 'ReferenceExists' });
    // The business unit's address must not be left pointing at a Type that no longer exists.
    expect((await admin.get(`/${P}/types/${type.id}`)).status).toBe(200);
  });

  it('refuses a required field definition while a business-unit address uses the Type (it has no value for it)', async () => {
    const type = await admin.ok(
      `/${P}/types`,
      {
        key: 'address-extras-2',
        name: { en: 'Address extras' },
        resourceTypeIds: ['address'],
        fieldDefinitions: [{ name: 'floor', type: { name: 'String' }, required: false, label: { en: 'Floor' } }],
      },
      201,
    );
    await admin.ok(
      `/${P}/business-units`,
      {
        key: 'typed-co-2',
        name: 'Typed Co 2',
        unitType: 'Company',
        addresses: [address('DE', { key: 'hq', custom: { type: { key: 'address-extras-2' }, fields: { floor: '3' } } })],
      },
      201,
    );
    const added = await admin.post(`/${P}/types/${type.id}`, {
      version: type.version,
      actions: [{ action: 'addFieldDefinition', fieldDefinition: { name: 'door', type: { name: 'String' }, required: true, label: { en: 'Door' } } }],
    });
    expect(added.status, JSON.stringify(added.body).slice(0, 300)).toBe(400);
  });
});
