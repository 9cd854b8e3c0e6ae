/**
 * Issue 28: attributeValueError / attributesError, the pure check of a product variant's attribute
 * values against the ProductType's AttributeDefinitions (the products slice calls it), for every
 * AttributeType of the reference, sets (also of sets) and nested attributes.
 */
import { describe, expect, it } from 'vitest';
import {
  attributesError,
  attributeValueError,
  type AttributeDefinition,
  type AttributeType,
  type NestedAttributeTypes,
} from '../../src/resources/product-types/index.js';

function definition(name: string, type: AttributeType, isRequired = false): AttributeDefinition {
  return { name, type, label: { en: name }, isRequired, level: 'Variant', attributeConstraint: 'None', inputHint: 'SingleLine', isSearchable: true };
}

const colour: AttributeType = {
  name: 'enum',
  values: [
    { key: 'red', label: 'Red' },
    { key: 'green', label: 'Green' },
  ],
};
const finish: AttributeType = { name: 'lenum', values: [{ key: 'matt', label: { en: 'Matt' } }] };
const dimensions: AttributeType = { name: 'nested', typeReference: { typeId: 'product-type', id: 'dims' } };
const nestedTypes: NestedAttributeTypes = new Map([
  [
    'dims',
    [
      definition('width', { name: 'number' }, true),
      definition('unit', { name: 'text' }),
      definition('inner', { name: 'nested', typeReference: { typeId: 'product-type', id: 'inner' } }),
    ],
  ],
  ['inner', [definition('flag', { name: 'boolean' }, true)]],
]);

/** [type, valid values, invalid values] per AttributeType. */
const CASES: Array<[string, AttributeType, unknown[], unknown[]]> = [
  ['boolean', { name: 'boolean' }, [true, false], ['true', 0, {}]],
  ['text', { name: 'text' }, ['', 'Hello'], [3, { en: 'x' }, ['a']]],
  ['ltext', { name: 'ltext' }, [{}, { en: 'Hi', 'de-DE': 'Hallo' }], ['Hi', { en: 3 }, { 'not a locale': 'x' }, ['x']]],
  ['enum', colour, ['red', { key: 'green', label: 'Green' }], ['blue', { key: 'blue' }, 3, { label: 'Red' }]],
  ['lenum', finish, ['matt', { key: 'matt', label: { en: 'Matt' } }], ['gloss', true]],
  ['number', { name: 'number' }, [0, -1.5, 1e9], ['1', Number.NaN, Number.POSITIVE_INFINITY]],
  [
    'money',
    { name: 'money' },
    [
      { currencyCode: 'EUR', centAmount: 100 },
      { type: 'centPrecision', currencyCode: 'JPY', centAmount: -5, fractionDigits: 0 },
    ],
    [{ currencyCode: 'eur', centAmount: 1 }, { currencyCode: 'EUR', centAmount: 1.5 }, { currencyCode: 'EUR' }, 100],
  ],
  ['date', { name: 'date' }, ['2024-02-29'], ['2023-02-29', '2024-1-1', '2024-01-01T00:00:00Z', 20240101]],
  ['time', { name: 'time' }, ['12:30:00', '23:59:59.999'], ['24:00:00', '12:30', 'noon']],
  ['datetime', { name: 'datetime' }, ['2024-01-31T12:00:00.000Z', '2024-01-31T12:00:00+01:00'], ['2024-01-31T12:00:00', '2024-01-31', 'yesterday']],
  [
    'reference',
    { name: 'reference', referenceTypeId: 'category' },
    [
      { typeId: 'category', id: 'c1' },
      { typeId: 'category', key: 'shoes' },
    ],
    [{ typeId: 'channel', id: 'c1' }, { id: 'c1' }, { typeId: 'category' }, 'c1'],
  ],
  ['set of text', { name: 'set', elementType: { name: 'text' } }, [[], ['a', 'b']], ['a', ['a', 'a'], ['a', 1]]],
  ['set of enum', { name: 'set', elementType: colour }, [['red', { key: 'green', label: 'Green' }]], [['red', { key: 'red', label: 'Red' }], ['blue']]],
  [
    'set of set of number',
    { name: 'set', elementType: { name: 'set', elementType: { name: 'number' } } },
    [
      [
        [1, 2],
        [2, 1],
      ],
    ],
    [[1, 2], [[1], [1]], [['1']]],
  ],
  [
    'set of reference',
    { name: 'set', elementType: { name: 'reference', referenceTypeId: 'product' } },
    [
      [
        { typeId: 'product', id: 'a' },
        { typeId: 'product', id: 'b' },
      ],
    ],
    [
      [
        { typeId: 'product', id: 'a' },
        { id: 'a', typeId: 'product' },
      ],
    ],
  ],
  [
    'nested',
    dimensions,
    [
      [{ name: 'width', value: 10 }],
      [
        { name: 'width', value: 1 },
        { name: 'unit', value: 'cm' },
        { name: 'inner', value: [{ name: 'flag', value: true }] },
      ],
    ],
    [
      [],
      [{ name: 'unit', value: 'cm' }],
      [{ name: 'width', value: '10' }],
      [
        { name: 'width', value: 1 },
        { name: 'width', value: 2 },
      ],
      [
        { name: 'width', value: 1 },
        { name: 'depth', value: 2 },
      ],
      [
        { name: 'width', value: 1 },
        { name: 'inner', value: [] },
      ],
      [{ value: 1 }],
      { width: 1 },
    ],
  ],
  [
    'set of nested',
    { name: 'set', elementType: dimensions },
    [[[{ name: 'width', value: 1 }], [{ name: 'width', value: 2 }]]],
    [[[{ name: 'width', value: 1 }], [{ name: 'width', value: 1 }]], [[{ name: 'unit', value: 'm' }]]],
  ],
];

describe('attributeValueError', () => {
  for (const [what, type, valid, invalid] of CASES) {
    it(`accepts the values of ${what} and refuses others`, () => {
      const checked = definition('attr', type);
      for (const value of valid) expect(attributeValueError(checked, value, nestedTypes), JSON.stringify(value)).toBeUndefined();
      for (const value of invalid)
        expect(attributeValueError(checked, value, nestedTypes), JSON.stringify(value)).toMatchObject({ path: expect.stringMatching(/^attr/) });
    });
  }

  it('refuses a missing value of every type', () => {
    for (const [, type] of CASES)
      expect(attributeValueError(definition('attr', type), null, nestedTypes)).toEqual({ path: 'attr', message: 'must have a value' });
  });

  it('names where in a set or a nested value the problem is', () => {
    expect(attributeValueError(definition('tags', { name: 'set', elementType: colour }), ['red', 'blue'])).toMatchObject({ path: 'tags[1]' });
    expect(attributeValueError(definition('size', dimensions), [{ name: 'width', value: 'x' }], nestedTypes)).toMatchObject({ path: 'size[0].value' });
    expect(
      attributeValueError(
        definition('size', dimensions),
        [
          { name: 'width', value: 1 },
          { name: 'inner', value: [{ name: 'flag', value: 1 }] },
        ],
        nestedTypes,
      ),
    ).toMatchObject({
      path: 'size[1].value[0].value',
    });
  });

  it('refuses a nested value whose ProductType was not loaded', () => {
    expect(attributeValueError(definition('size', dimensions), [{ name: 'width', value: 1 }])).toMatchObject({
      path: 'size',
      message: expect.stringContaining("'dims'"),
    });
  });
});

describe("attributesError (a variant's attributes)", () => {
  const definitions = [definition('colour', colour, true), definition('note', { name: 'text' })];

  it('accepts defined attributes with valid values and every required one', () => {
    expect(
      attributesError(
        definitions,
        [
          { name: 'colour', value: 'red' },
          { name: 'note', value: 'x' },
        ],
        'attributes',
      ),
    ).toBeUndefined();
    expect(attributesError(definitions, [{ name: 'colour', value: 'red' }], 'attributes')).toBeUndefined();
  });

  it('refuses a missing required attribute, an unknown or repeated name, a bad value and a non-array', () => {
    expect(attributesError(definitions, [{ name: 'note', value: 'x' }], 'attributes')).toMatchObject({
      path: 'attributes',
      message: expect.stringContaining("'colour'"),
    });
    expect(
      attributesError(
        definitions,
        [
          { name: 'colour', value: 'red' },
          { name: 'size', value: 1 },
        ],
        'attributes',
      ),
    ).toMatchObject({ path: 'attributes[1].name' });
    expect(
      attributesError(
        definitions,
        [
          { name: 'colour', value: 'red' },
          { name: 'colour', value: 'green' },
        ],
        'attributes',
      ),
    ).toMatchObject({ path: 'attributes[1].name' });
    expect(attributesError(definitions, [{ name: 'colour', value: 'blue' }], 'attributes')).toMatchObject({ path: 'attributes[0].value' });
    expect(attributesError(definitions, { colour: 'red' }, 'attributes')).toMatchObject({ path: 'attributes' });
  });
});
