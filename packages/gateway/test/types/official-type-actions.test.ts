/**
 * Types as the official reference (and the official SDK's integration tests) use them: field
 * names longer than the reference's documented 36 characters, the reference's resource type ids
 * (`quote` for quote requests), and every Type update action of types/type/updates.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, submitQuoteRequest } from '../quote-requests/fixtures.js';

const P = 'types-official';

const enumType = {
  name: 'Enum',
  values: [
    { key: 'low', label: 'Low' },
    { key: 'high', label: 'High' },
  ],
};
const localizedEnumType = {
  name: 'LocalizedEnum',
  values: [
    { key: 'a', label: { en: 'A' } },
    { key: 'b', label: { en: 'B' } },
  ],
};

describe("types: the reference's constraints and update actions", () => {
  let gateway: TestGateway;
  let admin: Caller;
  let seq = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  const newType = (fieldDefinitions: Json[], resourceTypeIds = ['category']) =>
    admin.ok(`/${P}/types`, { key: `type-${++seq}`, name: { en: 'T' }, resourceTypeIds, fieldDefinitions }, 201);
  const update = (type: Json, actions: Json[]) => admin.post(`/${P}/types/${type.id}`, { version: type.version, actions });

  it("creates the official SDK's fixture Type: field names of 52 characters and six resource type ids", async () => {
    const name = `type-field-name-${randomUUID()}`;
    expect(name.length).toBe(52);
    const created = await admin.post(`/${P}/types`, {
      key: `test-key-type${randomUUID()}`,
      name: { en: 'test-name-type' },
      resourceTypeIds: ['asset', 'category', 'order', 'payment-interface-interaction', 'payment', 'cart-discount'],
      fieldDefinitions: [
        { type: { name: 'String' }, name, label: { en: 'l' }, required: false },
        {
          type: { name: 'Enum', values: [{ key: `test-key-type${randomUUID()}`, label: 'e' }] },
          name: `type-field-name-${randomUUID()}`,
          label: { en: 'l' },
          required: false,
        },
        { type: { name: 'String' }, name: 'string-field', label: { en: 'l' }, required: false, inputHint: 'SingleLine' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.fieldDefinitions[0].name).toBe(name);
    for (const bad of ['x', 'has space', 'a'.repeat(257)]) {
      const refused = await admin.post(`/${P}/types`, {
        key: `bad-${++seq}`,
        name: { en: 'T' },
        resourceTypeIds: ['category'],
        fieldDefinitions: [{ type: { name: 'String' }, name: bad, label: { en: 'l' }, required: false }],
      });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.errors[0].code).toBe('InvalidInput');
    }
  });

  it("accepts the reference's resource type ids, and a 'quote' Type for quote requests' custom fields", async () => {
    const type = await newType(
      [{ name: 'po', label: { en: 'PO' }, required: false, type: { name: 'String' } }],
      ['quote', 'recurring-order', 'payment-method'],
    );
    const buyer = await customerWithToken(gateway, P, admin, BUYER_SCOPES);
    const quoteRequest = await submitQuoteRequest(P, buyer);
    const custom = await admin.post(`/${P}/quote-requests/${quoteRequest.id}`, {
      version: quoteRequest.version,
      actions: [{ action: 'setCustomType', type: { typeId: 'type', id: type.id }, fields: { po: 'PO-1' } }],
    });
    expect(custom.status, JSON.stringify(custom.body)).toBe(200);
    expect(custom.body.custom.fields).toEqual({ po: 'PO-1' });
  });

  it('adds enum values, changes their labels and order (Enum, LocalizedEnum and a Set of Enum)', async () => {
    const type = await newType([
      { name: 'level', label: { en: 'Level' }, required: false, type: enumType },
      { name: 'tags', label: { en: 'Tags' }, required: false, type: { name: 'Set', elementType: enumType } },
      { name: 'size', label: { en: 'Size' }, required: false, type: localizedEnumType },
    ]);
    const changed = await update(type, [
      { action: 'addEnumValue', fieldName: 'level', value: { key: 'mid', label: 'Mid' } },
      { action: 'changeEnumValueLabel', fieldName: 'level', value: { key: 'low', label: 'Lowest' } },
      { action: 'changeEnumValueOrder', fieldName: 'level', keys: ['high', 'mid', 'low'] },
      { action: 'addEnumValue', fieldName: 'tags', value: { key: 'new', label: 'New' } },
      { action: 'addLocalizedEnumValue', fieldName: 'size', value: { key: 'c', label: { en: 'C' } } },
      { action: 'changeLocalizedEnumValueLabel', fieldName: 'size', value: { key: 'a', label: { en: 'AA' } } },
      { action: 'changeLocalizedEnumValueOrder', fieldName: 'size', keys: ['c', 'b', 'a'] },
    ]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const [level, tags, size] = changed.body.fieldDefinitions as Json[];
    expect(level?.type.values).toEqual([
      { key: 'high', label: 'High' },
      { key: 'mid', label: 'Mid' },
      { key: 'low', label: 'Lowest' },
    ]);
    expect(tags?.type.elementType.values.map((value: Json) => value.key)).toEqual(['low', 'high', 'new']);
    expect(size?.type.values).toEqual([
      { key: 'c', label: { en: 'C' } },
      { key: 'b', label: { en: 'B' } },
      { key: 'a', label: { en: 'AA' } },
    ]);

    const current = changed.body;
    const refusals: Array<[Json, string]> = [
      [{ action: 'addEnumValue', fieldName: 'level', value: { key: 'mid', label: 'Again' } }, 'DuplicateEnumValues'],
      [{ action: 'changeEnumValueLabel', fieldName: 'level', value: { key: 'none', label: 'x' } }, 'EnumKeyDoesNotExist'],
      [{ action: 'changeEnumValueOrder', fieldName: 'level', keys: ['high', 'low'] }, 'EnumValuesMustMatch'],
      [{ action: 'addEnumValue', fieldName: 'size', value: { key: 'd', label: 'D' } }, 'InvalidOperation'],
      [{ action: 'addLocalizedEnumValue', fieldName: 'size', value: { key: 'd', label: 'not localized' } }, 'InvalidInput'],
      [{ action: 'addEnumValue', fieldName: 'missing', value: { key: 'd', label: 'D' } }, 'InvalidInput'],
    ];
    for (const [action, code] of refusals) {
      const refused = await update(current, [action]);
      expect(refused.status, JSON.stringify(action)).toBe(400);
      expect(refused.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
  });

  it('reorders field definitions, changes an input hint and a label (also by the deprecated changeFieldDefinitionLabel)', async () => {
    const type = await newType([
      { name: 'first', label: { en: 'First' }, required: false, type: { name: 'String' } },
      { name: 'second', label: { en: 'Second' }, required: false, type: { name: 'Set', elementType: { name: 'LocalizedString' } } },
      { name: 'third', label: { en: 'Third' }, required: false, type: { name: 'Number' } },
    ]);
    const changed = await update(type, [
      { action: 'changeFieldDefinitionOrder', fieldNames: ['third', 'first', 'second'] },
      { action: 'changeInputHint', fieldName: 'first', inputHint: 'MultiLine' },
      { action: 'changeInputHint', fieldName: 'second', inputHint: 'MultiLine' },
      { action: 'changeFieldDefinitionLabel', fieldName: 'third', label: { en: '3rd' } },
      { action: 'changeLabel', fieldName: 'first', label: { en: '1st' } },
    ]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.fieldDefinitions.map((definition: Json) => [definition.name, definition.label.en, definition.inputHint])).toEqual([
      ['third', '3rd', undefined],
      ['first', '1st', 'MultiLine'],
      ['second', 'Second', 'MultiLine'],
    ]);
    for (const action of [
      { action: 'changeFieldDefinitionOrder', fieldNames: ['third', 'first'] },
      { action: 'changeFieldDefinitionOrder', fieldNames: ['third', 'first', 'first'] },
      { action: 'changeInputHint', fieldName: 'third', inputHint: 'MultiLine' },
    ]) {
      const refused = await update(changed.body, [action]);
      expect(refused.status, JSON.stringify(action)).toBe(400);
      expect(refused.body.errors[0].code).toBe('InvalidOperation');
    }
    const badHint = await update(changed.body, [{ action: 'changeInputHint', fieldName: 'first', inputHint: 'Wide' }]);
    expect(badHint.body.errors[0].code).toBe('InvalidInput');
  });
});
