import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, lineItem, type Caller, type Json } from '../carts/commerce.js';

const P = 'types-project';

const typeDraft = (key: string, extra: Json = {}): Json => ({
  key,
  name: { en: `Type ${key}` },
  resourceTypeIds: ['quote-request'],
  fieldDefinitions: [
    {
      name: 'priority',
      label: { en: 'Priority' },
      required: true,
      type: {
        name: 'Enum',
        values: [
          { key: 'low', label: 'Low' },
          { key: 'high', label: 'High' },
        ],
      },
    },
    { name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' }, inputHint: 'MultiLine' },
  ],
  ...extra,
});

describe('Types /{projectKey}/types', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_types', 'manage_orders', 'manage_customers']);
    viewer = await callerWith(gateway, P, ['view_types']);
  });
  afterAll(() => gateway.close());

  it('creates a Type and reads it by id, by key and by query', async () => {
    const created = await admin.ok(`/${P}/types`, typeDraft('quote-extras'), 201);
    expect(created).toMatchObject({
      version: 1,
      key: 'quote-extras',
      name: { en: 'Type quote-extras' },
      resourceTypeIds: ['quote-request'],
      fieldDefinitions: [
        { name: 'priority', required: true, type: { name: 'Enum' } },
        { name: 'note', required: false, type: { name: 'String' }, inputHint: 'MultiLine' },
      ],
    });
    expect(await viewer.read(`/${P}/types/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/types/key=quote-extras`)).toEqual(created);
    const page = await viewer.read(`/${P}/types?where=${encodeURIComponent('key = "quote-extras"')}`);
    expect(page).toMatchObject({ count: 1, total: 1, results: [{ id: created.id }] });
  });

  it('validates drafts', async () => {
    const cases: Array<[string, Json]> = [
      ['no resourceTypeIds', typeDraft('t-a', { resourceTypeIds: [] })],
      ['carts use order', typeDraft('t-b', { resourceTypeIds: ['cart'] })],
      ['unknown field type', typeDraft('t-c', { fieldDefinitions: [{ name: 'x1', label: { en: 'X' }, required: false, type: { name: 'Colour' } }] })],
      ['bad field name', typeDraft('t-d', { fieldDefinitions: [{ name: 'a b', label: { en: 'X' }, required: false, type: { name: 'String' } }] })],
      ['missing label', typeDraft('t-e', { fieldDefinitions: [{ name: 'xx', required: false, type: { name: 'String' } }] })],
      ['bad key', typeDraft('t')],
      [
        'set of sets',
        typeDraft('t-f', {
          fieldDefinitions: [{ name: 'xx', label: { en: 'X' }, type: { name: 'Set', elementType: { name: 'Set', elementType: { name: 'String' } } } }],
        }),
      ],
    ];
    for (const [what, draft] of cases) {
      const answer = await admin.post(`/${P}/types`, draft);
      expect(answer.status, what).toBe(400);
      expect(answer.body.errors[0].code, what).toBe('InvalidInput');
    }
    const cart = await admin.post(`/${P}/types`, typeDraft('t-g', { resourceTypeIds: ['cart'] }));
    expect(cart.body.message).toContain("Carts use the resource type id 'order'");
    const duplicate = await admin.post(
      `/${P}/types`,
      typeDraft('t-h', { fieldDefinitions: [typeDraft('x').fieldDefinitions[1], typeDraft('x').fieldDefinitions[1]] }),
    );
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0].code).toBe('DuplicateField');
  });

  it('refuses field names that would reach Object.prototype as custom-field keys (__proto__, constructor, prototype)', async () => {
    // Custom fields are kept in plain objects: a value under `__proto__` would silently be lost.
    const created = await admin.ok(`/${P}/types`, typeDraft('reserved-names'), 201);
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const definition = { name, label: { en: name }, required: false, type: { name: 'String' } };
      const draft = await admin.post(`/${P}/types`, typeDraft(`reserved-${name.replaceAll('_', 'x')}`, { fieldDefinitions: [definition] }));
      expect(draft.status, JSON.stringify(draft.body)).toBe(400);
      expect(draft.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'fieldDefinitions[0].name', invalidValue: name });
      const added = await admin.post(`/${P}/types/${created.id}`, {
        version: created.version,
        actions: [{ action: 'addFieldDefinition', fieldDefinition: definition }],
      });
      expect(added.status, JSON.stringify(added.body)).toBe(400);
    }
  });

  it('applies update actions all or none', async () => {
    const type = await admin.ok(`/${P}/types`, typeDraft('updatable'), 201);
    const updated = await admin.update(`/${P}/types/key=updatable`, type.version, [
      { action: 'changeName', name: { en: 'Renamed' } },
      { action: 'setDescription', description: { en: 'What it is for' } },
      { action: 'addFieldDefinition', fieldDefinition: { name: 'amount', label: { en: 'Amount' }, required: false, type: { name: 'Money' } } },
      { action: 'changeLabel', fieldName: 'note', label: { en: 'Remark' } },
      { action: 'removeFieldDefinition', fieldName: 'priority' },
      { action: 'changeKey', key: 'updated-type' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'updated-type',
      name: { en: 'Renamed' },
      description: { en: 'What it is for' },
      fieldDefinitions: [
        { name: 'note', label: { en: 'Remark' } },
        { name: 'amount', type: { name: 'Money' } },
      ],
    });

    const failed = await admin.post(`/${P}/types/${type.id}`, {
      version: 2,
      actions: [
        { action: 'changeName', name: { en: 'Never' } },
        { action: 'removeFieldDefinition', fieldName: 'nope' },
      ],
    });
    expect(failed.status).toBe(400);
    expect((await viewer.read(`/${P}/types/${type.id}`)).version).toBe(2);

    const stale = await admin.post(`/${P}/types/${type.id}`, { version: 1, actions: [{ action: 'changeName', name: { en: 'x' } }] });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 2 });
  });

  it('deletes with the version', async () => {
    const type = await admin.ok(`/${P}/types`, typeDraft('deletable'), 201);
    expect((await admin.delete(`/${P}/types/${type.id}?version=2`)).status).toBe(409);
    const deleted = await admin.delete(`/${P}/types/key=deletable?version=1`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(type.id);
    expect((await viewer.get(`/${P}/types/${type.id}`)).status).toBe(404);
  });

  it('requires view_types to read and manage_types to write', async () => {
    expect((await viewer.post(`/${P}/types`, typeDraft('by-viewer'))).status).toBe(403);
    const other = await callerWith(gateway, P, ['view_orders']);
    expect((await other.get(`/${P}/types`)).status).toBe(403);
    expect((await other.post(`/${P}/types`, typeDraft('by-other'))).status).toBe(403);
  });

  it('is what custom fields of carts and quote requests are validated against', async () => {
    const orderType = await admin.ok(
      `/${P}/types`,
      typeDraft('cart-extras', {
        resourceTypeIds: ['order'],
        fieldDefinitions: [
          { name: 'giftWrap', label: { en: 'Gift wrap' }, required: true, type: { name: 'Boolean' } },
          { name: 'tags', label: { en: 'Tags' }, required: false, type: { name: 'Set', elementType: { name: 'String' } } },
        ],
      }),
      201,
    );
    const customer = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    const cart = (custom: Json) => ({ currency: 'EUR', customerId: customer.id, lineItems: [lineItem('A', 100)], custom });

    const missingRequired = await admin.post(`/${P}/carts`, cart({ type: { key: 'cart-extras' }, fields: {} }));
    expect(missingRequired.status).toBe(400);
    expect(missingRequired.body.message).toContain("'giftWrap' is required");
    const wrongType = await admin.post(`/${P}/carts`, cart({ type: { key: 'cart-extras' }, fields: { giftWrap: 'yes' } }));
    expect(wrongType.status).toBe(400);
    const undefinedField = await admin.post(`/${P}/carts`, cart({ type: { key: 'cart-extras' }, fields: { giftWrap: true, colour: 'red' } }));
    expect(undefinedField.status).toBe(400);
    const wrongResource = await admin.post(`/${P}/carts`, cart({ type: { key: 'quote-extras' }, fields: {} }));
    expect(wrongResource.status).toBe(400);
    expect(wrongResource.body.message).toContain("cannot be used for resources of type 'order'");

    const created = await admin.ok(`/${P}/carts`, cart({ type: { key: 'cart-extras' }, fields: { giftWrap: true, tags: ['x'] } }), 201);
    expect(created.custom).toEqual({ type: { typeId: 'type', id: orderType.id }, fields: { giftWrap: true, tags: ['x'] } });
    const changed = await admin.update(`/${P}/carts/${created.id}`, created.version, [
      { action: 'setCustomField', name: 'giftWrap', value: false },
      { action: 'setCustomField', name: 'tags' },
    ]);
    expect(changed.custom.fields).toEqual({ giftWrap: false });
    const invalid = await admin.post(`/${P}/carts/${created.id}`, {
      version: changed.version,
      actions: [{ action: 'setCustomField', name: 'giftWrap', value: 3 }],
    });
    expect(invalid.status).toBe(400);
    const removed = await admin.update(`/${P}/carts/${created.id}`, changed.version, [{ action: 'setCustomType' }]);
    expect(removed.custom).toBeUndefined();
  });
});
