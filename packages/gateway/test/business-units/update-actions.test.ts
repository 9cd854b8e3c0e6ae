import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, apiClient, lastMessageOf, messagesOf, UNIT_FIELDS, type Client, type Json } from './support.js';

const P = 'bu-actions';

const UPDATE = /* GraphQL */ `
  mutation ($key: String!, $version: Long!, $actions: [BusinessUnitUpdateAction!]!) {
    updateBusinessUnit(key: $key, version: $version, actions: $actions) { ${UNIT_FIELDS} }
  }`;

const typeDraft = (key: string, resourceTypeId: string): Json => ({
  key,
  name: { en: key },
  resourceTypeIds: [resourceTypeId],
  fieldDefinitions: [
    { name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } },
    { name: 'rank', label: { en: 'Rank' }, required: false, type: { name: 'Number' } },
  ],
});

/**
 * Every update action of §4.3 through `updateBusinessUnit`: its effect on the unit and the §6.1
 * message it records (read back through the Messages API, with the version it produced).
 */
describe('Business unit update actions (GraphQL)', () => {
  let gateway: TestGateway;
  let admin: Client;
  let alice: string;
  let bob: string;
  let unitTypeId: string;
  let addressTypeId: string;
  let unit: Json;
  let counter = 0;

  async function createCustomer(): Promise<string> {
    const created = await admin.ok('POST', '/customers', { email: `associate-${++counter}@example.com`, password: 'secret-password' }, 201);
    return created.customer.id as string;
  }

  /** Applies actions to the current unit; returns the unit after them. */
  async function update(...actions: Json[]): Promise<Json> {
    const data = await admin.gql(UPDATE, { key: unit.key, version: unit.version, actions });
    unit = data.updateBusinessUnit as Json;
    return unit;
  }

  /** The last message of the unit: of `type`, for the version the last update produced. */
  async function lastMessage(type: string): Promise<Json> {
    const message = await lastMessageOf(admin, unit.id as string);
    expect(message).toMatchObject({ type, resource: { typeId: 'business-unit', id: unit.id }, resourceVersion: unit.version });
    return message;
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'manage_customers', 'manage_stores', 'manage_types', 'view_messages']);
    for (const key of ['berlin', 'paris', 'rome']) await admin.ok('POST', '/stores', { key }, 201);
    alice = await createCustomer();
    bob = await createCustomer();
    unitTypeId = (await admin.ok('POST', '/types', typeDraft('unit-extras', 'business-unit'), 201)).id as string;
    addressTypeId = (await admin.ok('POST', '/types', typeDraft('address-extras', 'address'), 201)).id as string;
  });
  afterAll(() => gateway.close());

  beforeEach(async () => {
    const data = await admin.gql(`mutation ($draft: BusinessUnitDraft!) { createBusinessUnit(draft: $draft) { ${UNIT_FIELDS} } }`, {
      draft: {
        key: `unit-${++counter}`,
        name: 'ACME',
        unitType: 'Company',
        contactEmail: 'office@acme.example',
        addresses: [address('DE', { key: 'hq' }), address('FR', { key: 'depot', city: 'Paris' })],
        shippingAddresses: [0],
        billingAddresses: [0],
        defaultShippingAddress: 0,
        stores: [{ key: 'berlin' }],
        associates: [{ roles: ['Admin'], customer: { id: alice } }],
      },
    });
    unit = data.createBusinessUnit as Json;
  });

  const addressKeyed = (key: string): Json => (unit.addresses as Json[]).find((candidate) => candidate.key === key) as Json;

  it('createBusinessUnit records BusinessUnitCreated with the whole unit', async () => {
    expect(unit).toMatchObject({ version: 1, status: 'Active', storeMode: 'Explicit', unitType: 'Company' });
    const messages = await messagesOf(admin, unit.id as string);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      type: 'BusinessUnitCreated',
      sequenceNumber: 1,
      resourceVersion: 1,
      businessUnit: { id: unit.id, key: unit.key, name: 'ACME', associates: [{ roles: ['Admin'], customer: { typeId: 'customer', id: alice } }] },
    });
  });

  it('changeName', async () => {
    await update({ changeName: { name: 'ACME Corp' } });
    expect(unit).toMatchObject({ name: 'ACME Corp', version: 2 });
    expect(await lastMessage('BusinessUnitNameChanged')).toMatchObject({ name: 'ACME Corp', sequenceNumber: 2 });
  });

  it('setContactEmail sets and unsets', async () => {
    await update({ setContactEmail: { contactEmail: 'sales@acme.example' } });
    expect(unit.contactEmail).toBe('sales@acme.example');
    expect(await lastMessage('BusinessUnitContactEmailSet')).toMatchObject({ contactEmail: 'sales@acme.example' });
    await update({ setContactEmail: {} });
    expect(unit.contactEmail).toBeNull();
    expect((await lastMessage('BusinessUnitContactEmailSet')).contactEmail).toBeUndefined();
  });

  it('changeStatus', async () => {
    await update({ changeStatus: { status: 'Inactive' } });
    expect(unit.status).toBe('Inactive');
    expect(await lastMessage('BusinessUnitStatusChanged')).toMatchObject({ status: 'Inactive' });
  });

  it('addAddress gives the address an id', async () => {
    await update({ addAddress: { address: address('IT', { key: 'rome-office', city: 'Rome' }) } });
    const added = addressKeyed('rome-office');
    expect(added).toMatchObject({ id: expect.stringMatching(/^[A-Za-z0-9]{8}$/), country: 'IT', city: 'Rome' });
    expect(await lastMessage('BusinessUnitAddressAdded')).toMatchObject({ address: { id: added.id, key: 'rome-office', country: 'IT' } });
  });

  it('changeAddress replaces the address and keeps its id', async () => {
    const before = addressKeyed('depot');
    await update({ changeAddress: { addressKey: 'depot', address: address('FR', { key: 'depot', city: 'Lyon' }) } });
    expect(addressKeyed('depot')).toMatchObject({ id: before.id, city: 'Lyon' });
    expect(await lastMessage('BusinessUnitAddressChanged')).toMatchObject({ address: { id: before.id, city: 'Lyon' } });
  });

  it('removeAddress also takes it out of the address lists and defaults', async () => {
    const hq = addressKeyed('hq');
    await update({ removeAddress: { addressId: hq.id } });
    expect(unit.addresses).toHaveLength(1);
    expect(unit).toMatchObject({ shippingAddressIds: [], billingAddressIds: [], defaultShippingAddressId: null, defaultShippingAddress: null });
    expect(await lastMessage('BusinessUnitAddressRemoved')).toMatchObject({ address: { id: hq.id, key: 'hq' } });
  });

  it('addShippingAddressId', async () => {
    const depot = addressKeyed('depot');
    await update({ addShippingAddressId: { addressKey: 'depot' } });
    expect(unit.shippingAddressIds).toContain(depot.id);
    expect(unit.shippingAddresses).toContainEqual({ id: depot.id });
    expect(await lastMessage('BusinessUnitShippingAddressAdded')).toMatchObject({ address: { id: depot.id } });
  });

  it('removeShippingAddressId also unsets the default shipping address', async () => {
    const hq = addressKeyed('hq');
    await update({ removeShippingAddressId: { addressId: hq.id } });
    expect(unit).toMatchObject({ shippingAddressIds: [], defaultShippingAddressId: null });
    expect(await lastMessage('BusinessUnitShippingAddressRemoved')).toMatchObject({ address: { id: hq.id } });
  });

  it('addBillingAddressId', async () => {
    const depot = addressKeyed('depot');
    await update({ addBillingAddressId: { addressId: depot.id } });
    expect(unit.billingAddressIds).toEqual([addressKeyed('hq').id, depot.id]);
    expect(unit.billingAddresses).toHaveLength(2);
    expect(await lastMessage('BusinessUnitBillingAddressAdded')).toMatchObject({ address: { id: depot.id } });
  });

  it('removeBillingAddressId', async () => {
    const hq = addressKeyed('hq');
    await update({ removeBillingAddressId: { addressKey: 'hq' } });
    expect(unit.billingAddressIds).toEqual([]);
    expect(await lastMessage('BusinessUnitBillingAddressRemoved')).toMatchObject({ address: { id: hq.id } });
  });

  it('setDefaultShippingAddress makes the address a shipping address too', async () => {
    const depot = addressKeyed('depot');
    await update({ setDefaultShippingAddress: { addressKey: 'depot' } });
    expect(unit).toMatchObject({ defaultShippingAddressId: depot.id, defaultShippingAddress: { id: depot.id } });
    expect(unit.shippingAddressIds).toContain(depot.id);
    expect(await lastMessage('BusinessUnitDefaultShippingAddressSet')).toMatchObject({ address: { id: depot.id } });
  });

  it('setDefaultBillingAddress sets and unsets', async () => {
    const depot = addressKeyed('depot');
    await update({ setDefaultBillingAddress: { addressId: depot.id } });
    expect(unit).toMatchObject({ defaultBillingAddressId: depot.id, defaultBillingAddress: { id: depot.id } });
    expect(unit.billingAddressIds).toContain(depot.id);
    expect(await lastMessage('BusinessUnitDefaultBillingAddressSet')).toMatchObject({ address: { id: depot.id } });
    await update({ setDefaultBillingAddress: {} });
    expect(unit.defaultBillingAddressId).toBeNull();
    expect((await lastMessage('BusinessUnitDefaultBillingAddressSet')).address).toBeUndefined();
  });

  it('addAssociate', async () => {
    await update({ addAssociate: { associate: { roles: ['Buyer'], customer: { id: bob } } } });
    expect(unit.associates).toEqual([
      { roles: ['Admin'], customerRef: { typeId: 'customer', id: alice } },
      { roles: ['Buyer'], customerRef: { typeId: 'customer', id: bob } },
    ]);
    expect(await lastMessage('BusinessUnitAssociateAdded')).toMatchObject({ associate: { roles: ['Buyer'], customer: { typeId: 'customer', id: bob } } });
  });

  it('changeAssociate', async () => {
    await update({ changeAssociate: { associate: { roles: ['Admin', 'Buyer'], customer: { id: alice } } } });
    expect(unit.associates).toEqual([{ roles: ['Admin', 'Buyer'], customerRef: { typeId: 'customer', id: alice } }]);
    expect(await lastMessage('BusinessUnitAssociateChanged')).toMatchObject({ associate: { roles: ['Admin', 'Buyer'], customer: { id: alice } } });
  });

  it('removeAssociate', async () => {
    await update({ removeAssociate: { customer: { id: alice } } });
    expect(unit.associates).toEqual([]);
    expect(await lastMessage('BusinessUnitAssociateRemoved')).toMatchObject({ associate: { roles: ['Admin'], customer: { id: alice } } });
  });

  it('setAssociates', async () => {
    await update({ setAssociates: { associates: [{ roles: ['Buyer'], customer: { id: bob } }] } });
    expect(unit.associates).toEqual([{ roles: ['Buyer'], customerRef: { typeId: 'customer', id: bob } }]);
    expect(await lastMessage('BusinessUnitAssociatesSet')).toMatchObject({ associates: [{ roles: ['Buyer'], customer: { id: bob } }] });
    await update({ setAssociates: {} });
    expect(unit.associates).toEqual([]);
  });

  it('addStore', async () => {
    await update({ addStore: { store: { key: 'paris' } } });
    expect(unit.storesRef).toEqual([
      { typeId: 'store', key: 'berlin' },
      { typeId: 'store', key: 'paris' },
    ]);
    expect(unit.stores).toEqual([{ key: 'berlin' }, { key: 'paris' }]);
    expect(await lastMessage('BusinessUnitStoreAdded')).toMatchObject({ store: { typeId: 'store', key: 'paris' } });
  });

  it('removeStore', async () => {
    await update({ removeStore: { store: { typeId: 'store', key: 'berlin' } } });
    expect(unit.storesRef).toEqual([]);
    expect(await lastMessage('BusinessUnitStoreRemoved')).toMatchObject({ store: { typeId: 'store', key: 'berlin' } });
  });

  it('setStores', async () => {
    await update({ setStores: { stores: [{ key: 'rome' }, { key: 'paris' }] } });
    expect(unit.stores).toEqual([{ key: 'rome' }, { key: 'paris' }]);
    expect(await lastMessage('BusinessUnitStoresSet')).toMatchObject({
      stores: [
        { typeId: 'store', key: 'rome' },
        { typeId: 'store', key: 'paris' },
      ],
    });
  });

  it('setStoreMode, on a Division', async () => {
    const division = await admin.gql(
      'mutation ($draft: BusinessUnitDraft!) { createBusinessUnit(draft: $draft) { id key version storeMode storesRef { key } } }',
      { draft: { key: `division-${++counter}`, name: 'Sales', unitType: 'Division', parentUnit: { key: unit.key }, stores: [{ key: 'paris' }] } },
    );
    unit = division.createBusinessUnit as Json;
    expect(unit).toMatchObject({ storeMode: 'Explicit', storesRef: [{ key: 'paris' }] });
    await update({ setStoreMode: { storeMode: 'FromParent' } });
    expect(unit).toMatchObject({ storeMode: 'FromParent', storesRef: [] });
    expect(await lastMessage('BusinessUnitStoreModeChanged')).toMatchObject({
      storeMode: 'FromParent',
      oldStoreMode: 'Explicit',
      stores: [],
      oldStores: [{ typeId: 'store', key: 'paris' }],
    });
    await update({ setStoreMode: { storeMode: 'Explicit', stores: [{ key: 'rome' }] } });
    expect(unit).toMatchObject({ storeMode: 'Explicit', storesRef: [{ key: 'rome' }] });
  });

  it('changeParentUnit', async () => {
    const other = (await admin.gql(`mutation { createBusinessUnit(draft: {key: "other-${++counter}", name: "Other", unitType: Company}) { key } }`))
      .createBusinessUnit as Json;
    const division = await admin.gql(`mutation ($draft: BusinessUnitDraft!) { createBusinessUnit(draft: $draft) { ${UNIT_FIELDS} } }`, {
      draft: { key: `division-${++counter}`, name: 'Sales', unitType: 'Division', parentUnit: { key: unit.key } },
    });
    unit = division.createBusinessUnit as Json;
    const oldParent = unit.parentUnitRef as Json;
    await update({ changeParentUnit: { parentUnit: { key: other.key } } });
    expect(unit).toMatchObject({ parentUnitRef: { typeId: 'business-unit', key: other.key }, topLevelUnit: { key: other.key } });
    expect(await lastMessage('BusinessUnitParentChanged')).toMatchObject({
      oldParentUnit: oldParent,
      newParentUnit: { typeId: 'business-unit', key: other.key },
    });
  });

  it('setCustomType and setCustomField', async () => {
    await update({ setCustomType: { typeKey: 'unit-extras', fields: [{ name: 'note', value: '"VIP"' }] } });
    expect(unit.custom).toEqual({ typeRef: { typeId: 'type', id: unitTypeId }, customFieldsRaw: [{ name: 'note', value: 'VIP' }] });
    expect(await lastMessage('BusinessUnitCustomTypeSet')).toMatchObject({
      customFields: { type: { typeId: 'type', id: unitTypeId }, fields: { note: 'VIP' } },
    });

    await update({ setCustomField: { name: 'rank', value: '3' } });
    expect(unit.custom.customFieldsRaw).toEqual([
      { name: 'note', value: 'VIP' },
      { name: 'rank', value: 3 },
    ]);
    expect(await lastMessage('BusinessUnitCustomFieldAdded')).toMatchObject({ name: 'rank', value: 3 });

    await update({ setCustomField: { name: 'rank', value: '4' } });
    expect(await lastMessage('BusinessUnitCustomFieldChanged')).toMatchObject({ name: 'rank', value: 4 });

    await update({ setCustomField: { name: 'note' } });
    expect(unit.custom.customFieldsRaw).toEqual([{ name: 'rank', value: 4 }]);
    expect(await lastMessage('BusinessUnitCustomFieldRemoved')).toMatchObject({ name: 'note' });

    await update({ setCustomType: {} });
    expect(unit.custom).toBeNull();
    await lastMessage('BusinessUnitCustomTypeRemoved');
  });

  it('setAddressCustomType and setAddressCustomField', async () => {
    const hq = addressKeyed('hq');
    await update({ setAddressCustomType: { addressKey: 'hq', type: { key: 'address-extras' }, fields: [{ name: 'note', value: '"gate 4"' }] } });
    expect(addressKeyed('hq').custom).toEqual({ typeRef: { id: addressTypeId }, customFieldsRaw: [{ name: 'note', value: 'gate 4' }] });
    expect(await lastMessage('BusinessUnitAddressCustomTypeSet')).toMatchObject({
      addressId: hq.id,
      customFields: { type: { typeId: 'type', id: addressTypeId }, fields: { note: 'gate 4' } },
    });

    await update({ setAddressCustomField: { addressId: hq.id, name: 'rank', value: '1' } });
    expect(addressKeyed('hq').custom.customFieldsRaw).toContainEqual({ name: 'rank', value: 1 });
    expect(await lastMessage('BusinessUnitAddressCustomFieldAdded')).toMatchObject({ addressId: hq.id, name: 'rank', value: 1 });

    await update({ setAddressCustomField: { addressId: hq.id, name: 'rank', value: '2' } });
    expect(await lastMessage('BusinessUnitAddressCustomFieldChanged')).toMatchObject({ addressId: hq.id, name: 'rank', value: 2 });

    await update({ setAddressCustomField: { addressKey: 'hq', name: 'rank' } });
    expect(await lastMessage('BusinessUnitAddressCustomFieldRemoved')).toMatchObject({ addressId: hq.id, name: 'rank' });

    await update({ setAddressCustomType: { addressId: hq.id } });
    expect(addressKeyed('hq').custom).toBeNull();
    expect(await lastMessage('BusinessUnitAddressCustomTypeRemoved')).toMatchObject({ addressId: hq.id });
  });

  it('deleteBusinessUnit records BusinessUnitDeleted; personalDataErasure also erases the messages', async () => {
    const deleted = await admin.gql(`mutation { deleteBusinessUnit(key: "${unit.key}", version: 1) { id version } }`);
    expect(deleted.deleteBusinessUnit).toEqual({ id: unit.id, version: 1 });
    expect((await messagesOf(admin, unit.id as string)).map((message) => message.type)).toEqual(['BusinessUnitCreated', 'BusinessUnitDeleted']);
    expect((await admin.gql(`{ businessUnit(key: "${unit.key}") { id } }`)).businessUnit).toBeNull();

    const erased = (await admin.gql(`mutation { createBusinessUnit(draft: {key: "erased-${++counter}", name: "E", unitType: Company}) { id key } }`))
      .createBusinessUnit as Json;
    await admin.gql(`mutation { deleteBusinessUnit(id: "${erased.id}", version: 1, personalDataErasure: true) { id } }`);
    expect(await messagesOf(admin, erased.id as string)).toEqual([]);
  });

  describe('rules', () => {
    async function refused(actions: Json[], code = 'InvalidInput'): Promise<Json> {
      const error = await admin.gqlError(UPDATE, { key: unit.key, version: unit.version, actions });
      expect(error.extensions.code, JSON.stringify(error)).toBe(code);
      return error;
    }

    it('applies all actions or none, and records no message for a refused request', async () => {
      await refused([{ changeName: { name: 'Changed' } }, { addStore: { store: { key: 'nowhere' } } }], 'ReferencedResourceNotFound');
      const current = (await admin.gql(`{ businessUnit(key: "${unit.key}") { name version } }`)).businessUnit as Json;
      expect(current).toEqual({ name: 'ACME', version: 1 });
      expect(await messagesOf(admin, unit.id as string)).toHaveLength(1);
    });

    it('applies several actions in one version, with one message each, numbered in order', async () => {
      await update({ changeName: { name: 'One' } }, { changeStatus: { status: 'Inactive' } }, { addStore: { store: { key: 'rome' } } });
      expect(unit).toMatchObject({ version: 2, name: 'One', status: 'Inactive' });
      const messages = await messagesOf(admin, unit.id as string);
      expect(messages.map((message) => [message.type, message.sequenceNumber, message.resourceVersion])).toEqual([
        ['BusinessUnitCreated', 1, 1],
        ['BusinessUnitNameChanged', 2, 2],
        ['BusinessUnitStatusChanged', 3, 2],
        ['BusinessUnitStoreAdded', 4, 2],
      ]);
    });

    it('validates address ids and keys', async () => {
      await refused([{ removeAddress: { addressId: 'nope' } }]);
      await refused([{ addShippingAddressId: { addressKey: 'nope' } }]);
      await refused([{ changeAddress: { address: address() } }]);
      const hq = addressKeyed('hq');
      await refused([{ removeAddress: { addressId: hq.id, addressKey: 'hq' } }]);
      await refused([{ addAddress: { address: address('DE', { key: 'hq' }) } }]);
      await refused([{ changeAddress: { addressKey: 'depot', address: address('DE', { key: 'hq' }) } }]);
      await refused([{ addAddress: { address: { country: 'Germany' } } }]);
    });

    it('validates associates: existing customers with at least one role, each once', async () => {
      await refused([{ addAssociate: { associate: { roles: [], customer: { id: bob } } } }]);
      await refused([{ addAssociate: { associate: { roles: ['Buyer'], customer: { id: 'no-such-customer' } } } }], 'ReferencedResourceNotFound');
      await refused([{ addAssociate: { associate: { roles: ['Buyer'], customer: { id: alice } } } }], 'InvalidOperation');
      await refused([{ changeAssociate: { associate: { roles: ['Buyer'], customer: { id: bob } } } }], 'InvalidOperation');
      await refused([{ removeAssociate: { customer: { id: bob } } }], 'InvalidOperation');
      await refused([
        {
          setAssociates: {
            associates: [
              { roles: ['Buyer'], customer: { id: bob } },
              { roles: ['Admin'], customer: { id: bob } },
            ],
          },
        },
      ]);
    });

    it('validates stores: they must exist, and a FromParent unit has none of its own', async () => {
      await refused([{ setStores: { stores: [{ key: 'atlantis' }] } }], 'ReferencedResourceNotFound');
      await refused([{ setStoreMode: { storeMode: 'FromParent' } }], 'InvalidOperation');
      await refused([{ setStoreMode: { storeMode: 'Sometimes' } }]);
    });

    it('validates custom fields against their Type', async () => {
      await refused([{ setCustomType: { typeKey: 'unit-extras', fields: [{ name: 'colour', value: '"red"' }] } }]);
      await refused([{ setCustomType: { typeKey: 'unit-extras', fields: [{ name: 'rank', value: '"high"' }] } }]);
      await refused([{ setCustomType: { typeKey: 'address-extras' } }]);
      await refused([{ setCustomField: { name: 'note', value: '"x"' } }]);
      await refused([{ setCustomType: { typeKey: 'unit-extras', fields: [{ name: 'note', value: 'not json' }] } }]);
    });

    it('refuses custom field names that would reach Object.prototype, instead of accepting and losing the value', async () => {
      // `fields['__proto__'] = value` on a plain object sets its prototype: the value was gone
      // while the update answered 200 and recorded …CustomFieldAdded.
      await update({ setCustomType: { typeKey: 'unit-extras' } });
      const hq = addressKeyed('hq');
      await update({ setAddressCustomType: { addressId: hq.id, typeKey: 'address-extras' } });
      for (const name of ['__proto__', 'constructor', 'prototype']) {
        await refused([{ setCustomField: { name, value: '{"polluted": true}' } }]);
        await refused([{ setAddressCustomField: { addressId: hq.id, name, value: '"x"' } }]);
        await refused([{ setCustomType: { typeKey: 'unit-extras', fields: [{ name, value: '"x"' }] } }]);
        const rest = await admin.rest('POST', `/business-units/${unit.id as string}`, {
          version: unit.version,
          actions: [{ action: 'setCustomField', name, value: 'hello' }],
        });
        expect(rest.status).toBe(400);
        expect(rest.body.errors[0]).toMatchObject({ code: 'InvalidInput', invalidValue: name });
      }
      expect((await admin.ok('GET', `/business-units/${unit.id as string}`)).version).toBe(unit.version);
      expect((await messagesOf(admin, unit.id as string)).map((message) => message.type)).not.toContain('BusinessUnitCustomFieldAdded');
    });

    it('refuses more than 500 actions in one request, with the same error as REST', async () => {
      const names = Array.from({ length: 501 }, (_, index) => `name-${index}`);
      const rest = await admin.rest('POST', `/business-units/${unit.id as string}`, {
        version: unit.version,
        actions: names.map((name) => ({ action: 'changeName', name })),
      });
      expect(rest.status).toBe(400);
      // As a variable the list is bounded by neither the document token limit nor the query cost.
      const error = await refused(names.map((name) => ({ changeName: { name } })));
      expect(error.message).toBe(rest.body.errors[0].message);
      expect((await admin.ok('GET', `/business-units/${unit.id as string}`)).version).toBe(unit.version);
      expect(
        (await admin.gql(UPDATE, { key: unit.key, version: unit.version, actions: names.slice(1).map((name) => ({ changeName: { name } })) }))
          .updateBusinessUnit,
      ).toMatchObject({ name: 'name-500' });
    });

    it('answers version 0 with 409 ConcurrentModification and a negative version with 400, as REST does (§7)', async () => {
      const id = unit.id as string;
      const restUpdate = await admin.rest('POST', `/business-units/${id}`, { version: 0, actions: [{ action: 'changeName', name: 'x' }] });
      expect(restUpdate.status).toBe(409);
      expect(restUpdate.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: unit.version });
      const gqlUpdate = await admin.gqlError(`mutation { updateBusinessUnit(id: "${id}", version: 0, actions: [{ changeName: { name: "x" } }]) { version } }`);
      expect(gqlUpdate.extensions).toMatchObject({ code: 'ConcurrentModification', currentVersion: unit.version });

      const restDelete = await admin.rest('DELETE', `/business-units/${id}?version=0`);
      expect(restDelete.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: unit.version });
      const gqlDelete = await admin.gqlError(`mutation { deleteBusinessUnit(id: "${id}", version: 0) { version } }`);
      expect(gqlDelete.extensions).toMatchObject({ code: 'ConcurrentModification', currentVersion: unit.version });

      expect((await admin.rest('POST', `/business-units/${id}`, { version: -1, actions: [] })).body.errors[0].code).toBe('InvalidInput');
      expect((await admin.rest('DELETE', `/business-units/${id}?version=-1`)).body.errors[0].code).toBe('InvalidInput');
      expect((await admin.rest('DELETE', `/business-units/${id}?version=`)).body.errors[0].code).toBe('InvalidInput');
      expect((await admin.gqlError(`mutation { updateBusinessUnit(id: "${id}", version: -1, actions: []) { version } }`)).extensions.code).toBe('InvalidInput');
      expect((await admin.gqlError(`mutation { deleteBusinessUnit(id: "${id}", version: -1) { version } }`)).extensions.code).toBe('InvalidInput');
    });

    it('refuses a Company as the child of anything', async () => {
      await refused([{ changeParentUnit: { parentUnit: { key: unit.key } } }], 'InvalidOperation');
    });
  });
});
