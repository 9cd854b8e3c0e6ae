import type { Json } from '../carts/commerce.js';

/** An AttributeDefinitionDraft with the required fields; `extra` overrides them. */
export function attribute(name: string, type: Json, extra: Json = {}): Json {
  return { name, label: { en: name }, type, isRequired: false, ...extra };
}

/** One AttributeDefinitionDraft of every AttributeType of the reference; `nestedTypeId` is nested. */
export function everyAttributeType(nestedTypeId: string): Json[] {
  const nested = { name: 'nested', typeReference: { typeId: 'product-type', id: nestedTypeId } };
  return [
    attribute('is-new', { name: 'boolean' }),
    attribute('title', { name: 'text' }, { attributeConstraint: 'Unique' }),
    attribute('claim', { name: 'ltext' }, { inputHint: 'MultiLine', inputTip: { en: 'A sentence' }, level: 'Product' }),
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
      name: 'lenum',
      values: [
        { key: 'matt', label: { en: 'Matt' } },
        { key: 'gloss', label: { en: 'Gloss', de: 'Glanz' } },
      ],
    }),
    attribute('weight', { name: 'number' }, { attributeConstraint: 'CombinationUnique' }),
    attribute('price-hint', { name: 'money' }),
    attribute('available-from', { name: 'date' }),
    attribute('opens-at', { name: 'time' }),
    attribute('launch', { name: 'datetime' }),
    attribute('maker', { name: 'reference', referenceTypeId: 'channel' }),
    attribute('tags', { name: 'set', elementType: { name: 'enum', values: [{ key: 'eco', label: 'Eco' }] } }),
    attribute('tag-matrix', { name: 'set', elementType: { name: 'set', elementType: { name: 'text' } } }),
    attribute('size', nested, { isSearchable: false }),
    attribute('sizes', { name: 'set', elementType: nested }),
  ];
}
