/**
 * Issue 28: every official update action of ProductTypes (reference: types/product-type/updates),
 * what each changes, and the errors the reference names for each (AttributeNameDoesNotExist,
 * AttributeDefinitionAlreadyExists, AttributeDefinitionTypeConflict, DuplicateEnumValues,
 * EnumKeyDoesNotExist, EnumKeyAlreadyExists, EnumValuesMustMatch, InvalidOperation).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { attribute } from './drafts.js';

const P = 'product-type-actions';

describe('ProductType update actions', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let productType: Json;
  let counter = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_products']);
    await admin.ok(
      `/${P}/product-types`,
      { key: 'elsewhere', name: 'Elsewhere', description: 'Other', attributes: [attribute('code', { name: 'number' })] },
      201,
    );
  }, 120_000);
  afterAll(() => gateway?.close());

  /** A fresh ProductType per test: the attribute names stay free of type conflicts between tests. */
  beforeEach(async () => {
    counter += 1;
    productType = await admin.ok(
      `/${P}/product-types`,
      {
        key: `type-${counter}`,
        name: `Type ${counter}`,
        description: 'Under test',
        attributes: [
          attribute('title', { name: 'text' }, { attributeConstraint: 'Unique' }),
          attribute(
            'colour',
            {
              name: 'enum',
              values: [
                { key: 'red', label: 'Red' },
                { key: 'green', label: 'Green' },
              ],
            },
            { attributeConstraint: 'SameForAll' },
          ),
          attribute('finish', {
            name: 'set',
            elementType: {
              name: 'lenum',
              values: [
                { key: 'matt', label: { en: 'Matt' } },
                { key: 'gloss', label: { en: 'Gloss' } },
              ],
            },
          }),
          attribute('combo', { name: 'number' }, { attributeConstraint: 'CombinationUnique' }),
        ],
      },
      201,
    );
  });

  const url = () => `/${P}/product-types/${productType.id as string}`;
  const apply = (actions: Json[]) => admin.update(url(), productType.version as number, actions);
  const refused = async (actions: Json[], code: string): Promise<Json> => {
    const answer = await admin.post(url(), { version: productType.version, actions });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code }] });
    return answer.body.errors[0] as Json;
  };
  const named = (doc: Json, name: string): Json => doc.attributes.find((definition: Json) => definition.name === name);

  it('changeName, changeDescription and setKey change the ProductType', async () => {
    const updated = await apply([
      { action: 'changeName', name: 'Renamed' },
      { action: 'changeDescription', description: 'Described' },
      { action: 'setKey', key: 'new-key' },
    ]);
    expect(updated).toMatchObject({ version: 2, name: 'Renamed', description: 'Described', key: 'new-key' });
    const unset = await admin.update(url(), 2, [{ action: 'setKey' }]);
    expect(unset.key).toBeUndefined();
    productType = unset;
    await refused([{ action: 'changeName' }], 'RequiredField');
    await refused([{ action: 'changeDescription', description: 7 }], 'InvalidInput');
    await refused([{ action: 'setKey', key: 'elsewhere' }], 'DuplicateField');
  });

  it('addAttributeDefinition appends, removeAttributeDefinition removes; names are unique and typed alike across ProductTypes', async () => {
    const added = await apply([{ action: 'addAttributeDefinition', attribute: attribute('code', { name: 'number' }, { level: 'Product' }) }]);
    expect(added.attributes.map((definition: Json) => definition.name)).toEqual(['title', 'colour', 'finish', 'combo', 'code']);
    expect(named(added, 'code')).toMatchObject({ level: 'Product', attributeConstraint: 'None', isSearchable: true });
    productType = await admin.update(url(), 2, [{ action: 'removeAttributeDefinition', name: 'title' }]);
    expect(productType.attributes.map((definition: Json) => definition.name)).toEqual(['colour', 'finish', 'combo', 'code']);

    expect(
      await refused([{ action: 'addAttributeDefinition', attribute: attribute('colour', { name: 'text' }) }], 'AttributeDefinitionAlreadyExists'),
    ).toMatchObject({
      conflictingProductTypeId: productType.id,
      conflictingAttributeName: 'colour',
    });
    // `code` is a number in `elsewhere`; ProductType attributes of one name share their type.
    await admin.update(url(), 3, [{ action: 'removeAttributeDefinition', name: 'code' }]).then((doc) => (productType = doc));
    expect(
      await refused([{ action: 'addAttributeDefinition', attribute: attribute('code', { name: 'text' }) }], 'AttributeDefinitionTypeConflict'),
    ).toMatchObject({
      conflictingProductTypeName: 'Elsewhere',
      conflictingAttributeName: 'code',
    });
    await refused([{ action: 'addAttributeDefinition', attribute: { name: 'x-y' } }], 'RequiredField');
    await refused([{ action: 'removeAttributeDefinition', name: 'missing' }], 'AttributeNameDoesNotExist');
  });

  it('changeAttributeName renames; the new name must be free here and of the same type elsewhere', async () => {
    const renamed = await apply([{ action: 'changeAttributeName', attributeName: 'title', newAttributeName: 'heading' }]);
    expect(named(renamed, 'heading')).toMatchObject({ type: { name: 'text' }, attributeConstraint: 'Unique' });
    expect(named(renamed, 'title')).toBeUndefined();
    productType = renamed;
    expect(await refused([{ action: 'changeAttributeName', attributeName: 'nope', newAttributeName: 'other' }], 'AttributeNameDoesNotExist')).toMatchObject({
      invalidAttributeName: 'nope',
    });
    await refused([{ action: 'changeAttributeName', attributeName: 'heading', newAttributeName: 'colour' }], 'AttributeDefinitionAlreadyExists');
    await refused([{ action: 'changeAttributeName', attributeName: 'heading', newAttributeName: 'code' }], 'AttributeDefinitionTypeConflict');
    await refused([{ action: 'changeAttributeName', attributeName: 'heading', newAttributeName: 'a b' }], 'InvalidInput');
  });

  it('changeLabel, setInputTip, changeInputHint and changeIsSearchable change one definition', async () => {
    const updated = await apply([
      { action: 'changeLabel', attributeName: 'title', label: { en: 'Title', de: 'Titel' } },
      { action: 'setInputTip', attributeName: 'title', inputTip: { en: 'Short' } },
      { action: 'changeInputHint', attributeName: 'title', newValue: 'MultiLine' },
      { action: 'changeIsSearchable', attributeName: 'title', isSearchable: false },
    ]);
    expect(named(updated, 'title')).toMatchObject({
      label: { en: 'Title', de: 'Titel' },
      inputTip: { en: 'Short' },
      inputHint: 'MultiLine',
      isSearchable: false,
    });
    productType = await admin.update(url(), 2, [{ action: 'setInputTip', attributeName: 'title' }]);
    expect(named(productType, 'title').inputTip).toBeUndefined();
    await refused([{ action: 'changeLabel', attributeName: 'title', label: {} }], 'InvalidInput');
    await refused([{ action: 'changeLabel', attributeName: 'nope', label: { en: 'x' } }], 'AttributeNameDoesNotExist');
    await refused([{ action: 'changeInputHint', attributeName: 'title', newValue: 'Wide' }], 'InvalidInput');
    await refused([{ action: 'changeIsSearchable', attributeName: 'title', isSearchable: 'yes' }], 'InvalidInput');
  });

  it('changeIsSearchable refuses true for a nested attribute', async () => {
    const inner = await admin.ok(`/${P}/product-types`, { name: 'Inner', description: 'Nested' }, 201);
    productType = await apply([
      {
        action: 'addAttributeDefinition',
        attribute: attribute(`inner-${counter}`, { name: 'nested', typeReference: { typeId: 'product-type', id: inner.id } }),
      },
    ]);
    await refused([{ action: 'changeIsSearchable', attributeName: `inner-${counter}`, isSearchable: true }], 'InvalidOperation');
  });

  it('changeAttributeConstraint: SameForAll and Unique to None only', async () => {
    const updated = await apply([
      { action: 'changeAttributeConstraint', attributeName: 'colour', newValue: 'None' },
      { action: 'changeAttributeConstraint', attributeName: 'title', newValue: 'None' },
    ]);
    expect([named(updated, 'colour').attributeConstraint, named(updated, 'title').attributeConstraint]).toEqual(['None', 'None']);
    productType = updated;
    await refused([{ action: 'changeAttributeConstraint', attributeName: 'combo', newValue: 'None' }], 'InvalidOperation');
    await refused([{ action: 'changeAttributeConstraint', attributeName: 'title', newValue: 'Unique' }], 'InvalidInput');
  });

  it('changeAttributeOrderByName and the deprecated changeAttributeOrder reorder every attribute', async () => {
    const reordered = await apply([{ action: 'changeAttributeOrderByName', attributeNames: ['combo', 'finish', 'colour', 'title'] }]);
    expect(reordered.attributes.map((definition: Json) => definition.name)).toEqual(['combo', 'finish', 'colour', 'title']);
    productType = reordered;
    const back = await apply([{ action: 'changeAttributeOrder', attributes: [...reordered.attributes].reverse() }]);
    expect(back.attributes.map((definition: Json) => definition.name)).toEqual(['title', 'colour', 'finish', 'combo']);
    productType = back;
    await refused([{ action: 'changeAttributeOrderByName', attributeNames: ['title', 'colour', 'finish'] }], 'InvalidOperation');
    await refused([{ action: 'changeAttributeOrderByName', attributeNames: ['title', 'title', 'finish', 'combo'] }], 'InvalidOperation');
  });

  it('adds enum values to an enum and to a set of lenum; a key twice is DuplicateEnumValues', async () => {
    const updated = await apply([
      { action: 'addPlainEnumValue', attributeName: 'colour', value: { key: 'blue', label: 'Blue' } },
      { action: 'addLocalizedEnumValue', attributeName: 'finish', value: { key: 'satin', label: { en: 'Satin' } } },
    ]);
    expect(named(updated, 'colour').type.values).toEqual([
      { key: 'red', label: 'Red' },
      { key: 'green', label: 'Green' },
      { key: 'blue', label: 'Blue' },
    ]);
    expect(named(updated, 'finish').type.elementType.values.map((value: Json) => value.key)).toEqual(['matt', 'gloss', 'satin']);
    productType = updated;
    expect(
      await refused([{ action: 'addPlainEnumValue', attributeName: 'colour', value: { key: 'red', label: 'Again' } }], 'DuplicateEnumValues'),
    ).toMatchObject({ duplicates: ['red'] });
    await refused([{ action: 'addPlainEnumValue', attributeName: 'finish', value: { key: 'x', label: 'X' } }], 'InvalidOperation');
    await refused([{ action: 'addLocalizedEnumValue', attributeName: 'title', value: { key: 'x', label: { en: 'X' } } }], 'InvalidOperation');
    await refused([{ action: 'addLocalizedEnumValue', attributeName: 'finish', value: { key: 'x', label: 'X' } }], 'InvalidInput');
  });

  it('changes enum labels and keys; unknown and taken keys are the reference errors', async () => {
    const updated = await apply([
      { action: 'changePlainEnumValueLabel', attributeName: 'colour', newValue: { key: 'red', label: 'Crimson' } },
      { action: 'changeLocalizedEnumValueLabel', attributeName: 'finish', newValue: { key: 'gloss', label: { en: 'Shiny' } } },
      { action: 'changeEnumKey', attributeName: 'colour', key: 'green', newKey: 'lime' },
      { action: 'changeEnumKey', attributeName: 'finish', key: 'matt', newKey: 'flat' },
    ]);
    expect(named(updated, 'colour').type.values).toEqual([
      { key: 'red', label: 'Crimson' },
      { key: 'lime', label: 'Green' },
    ]);
    expect(named(updated, 'finish').type.elementType.values).toEqual([
      { key: 'flat', label: { en: 'Matt' } },
      { key: 'gloss', label: { en: 'Shiny' } },
    ]);
    productType = updated;
    expect(
      await refused([{ action: 'changePlainEnumValueLabel', attributeName: 'colour', newValue: { key: 'green', label: 'G' } }], 'EnumKeyDoesNotExist'),
    ).toMatchObject({
      conflictingEnumKey: 'green',
      conflictingAttributeName: 'colour',
    });
    await refused([{ action: 'changeLocalizedEnumValueLabel', attributeName: 'finish', newValue: { key: 'matt', label: { en: 'M' } } }], 'EnumKeyDoesNotExist');
    await refused([{ action: 'changeEnumKey', attributeName: 'colour', key: 'green', newKey: 'olive' }], 'EnumKeyDoesNotExist');
    expect(await refused([{ action: 'changeEnumKey', attributeName: 'colour', key: 'red', newKey: 'lime' }], 'EnumKeyAlreadyExists')).toMatchObject({
      conflictingEnumKey: 'lime',
    });
    await refused([{ action: 'changeEnumKey', attributeName: 'title', key: 'a', newKey: 'b' }], 'InvalidOperation');
  });

  it('reorders enum values; the values must be the same set (EnumValuesMustMatch)', async () => {
    const updated = await apply([
      {
        action: 'changePlainEnumValueOrder',
        attributeName: 'colour',
        values: [
          { key: 'green', label: 'Green' },
          { key: 'red', label: 'Red' },
        ],
      },
      {
        action: 'changeLocalizedEnumValueOrder',
        attributeName: 'finish',
        values: [
          { key: 'gloss', label: { en: 'Gloss' } },
          { key: 'matt', label: { en: 'Matt' } },
        ],
      },
    ]);
    expect(named(updated, 'colour').type.values.map((value: Json) => value.key)).toEqual(['green', 'red']);
    expect(named(updated, 'finish').type.elementType.values.map((value: Json) => value.key)).toEqual(['gloss', 'matt']);
    productType = updated;
    await refused([{ action: 'changePlainEnumValueOrder', attributeName: 'colour', values: [{ key: 'red', label: 'Red' }] }], 'EnumValuesMustMatch');
    await refused(
      [
        {
          action: 'changePlainEnumValueOrder',
          attributeName: 'colour',
          values: [
            { key: 'red', label: 'Other' },
            { key: 'green', label: 'Green' },
          ],
        },
      ],
      'EnumValuesMustMatch',
    );
    await refused([{ action: 'changeLocalizedEnumValueOrder', attributeName: 'colour', values: [] }], 'InvalidOperation');
  });

  it('removeEnumValues removes keys of an enum or a set of lenum; unknown keys are EnumKeyDoesNotExist', async () => {
    const updated = await apply([
      { action: 'removeEnumValues', attributeName: 'colour', keys: ['red'] },
      { action: 'removeEnumValues', attributeName: 'finish', keys: ['matt', 'gloss'] },
    ]);
    expect(named(updated, 'colour').type.values).toEqual([{ key: 'green', label: 'Green' }]);
    expect(named(updated, 'finish').type.elementType.values).toEqual([]);
    productType = updated;
    await refused([{ action: 'removeEnumValues', attributeName: 'colour', keys: ['red'] }], 'EnumKeyDoesNotExist');
    await refused([{ action: 'removeEnumValues', attributeName: 'title', keys: ['x'] }], 'InvalidOperation');
    await refused([{ action: 'removeEnumValues', attributeName: 'colour', keys: 'green' }], 'InvalidInput');
  });

  it('an action that changes nothing makes no new version; an unknown action is InvalidInput', async () => {
    const same = await apply([
      { action: 'changeName', name: productType.name },
      { action: 'changeAttributeName', attributeName: 'title', newAttributeName: 'title' },
    ]);
    expect(same.version).toBe(1);
    await refused([{ action: 'setDescription', description: 'x' }], 'InvalidInput');
  });
});
