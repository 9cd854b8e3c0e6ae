import { ApiError, invalidOperation } from '@herald/model';
import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '@herald/store';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { stringArray } from '../shared/validation.js';
import { attributeNamed } from './attribute-lookup.js';
import { duplicateEnumValues, enumKey, enumValueList, localizedEnumValue, MAX_ENUM_VALUES, plainEnumValue } from './attribute-types.js';
import { innermostType, type AttributeDefinition, type ProductType } from './product-type.js';
import type { ProductTypeUsage } from './usage.js';

/*
 * The reference's enum actions of ProductTypes (types/product-type/updates): each applies to an
 * `enum` or `lenum` AttributeDefinition or a set of one ("AttributeSetType of AttributeEnumType").
 */

type EnumKind = 'enum' | 'lenum';
interface EnumValue {
  key: string;
  label: unknown;
}

const parserOf = (kind: EnumKind | 'any') => (kind === 'lenum' ? localizedEnumValue : plainEnumValue);

/** The values of the definition's enum; InvalidOperation when it is of another type. */
function enumValuesOf(definition: AttributeDefinition, kind: EnumKind | 'any'): EnumValue[] {
  const type = innermostType(definition.type);
  if ((type.name !== 'enum' && type.name !== 'lenum') || (kind !== 'any' && type.name !== kind)) {
    const expected = kind === 'any' ? 'enum or lenum' : kind;
    throw invalidOperation(`The attribute '${definition.name}' is not of type ${expected} (or a set of ${expected}).`);
  }
  return type.values;
}

function enumKeyDoesNotExist(attributeName: string, key: string): ApiError {
  return new ApiError(400, {
    code: 'EnumKeyDoesNotExist',
    message: `The ${attributeName} field definition does not contain an enum value with the key ${key}.`,
    conflictingEnumKey: key,
    conflictingAttributeName: attributeName,
  });
}

function enumKeyAlreadyExists(attributeName: string, key: string): ApiError {
  return new ApiError(400, {
    code: 'EnumKeyAlreadyExists',
    message: `The ${attributeName} attribute definition already contains an enum value with the key ${key}.`,
    conflictingEnumKey: key,
    conflictingAttributeName: attributeName,
  });
}

function valueWithKey(definition: AttributeDefinition, values: readonly EnumValue[], key: string): EnumValue {
  const known = values.find((candidate) => candidate.key === key);
  if (known === undefined) throw enumKeyDoesNotExist(definition.name, key);
  return known;
}

function addValue(kind: EnumKind): ActionHandler<ProductType> {
  return (productType, action) => {
    const definition = attributeNamed(productType, action.attributeName);
    const values = enumValuesOf(definition, kind);
    const value = parserOf(kind)(action.value, 'value');
    // AttributePlainEnumValue: "must be unique within the enum, else a DuplicateEnumValues error".
    if (values.some(({ key }) => key === value.key)) throw duplicateEnumValues([value.key]);
    if (values.length >= MAX_ENUM_VALUES) throw invalidOperation(`The attribute '${definition.name}' has ${MAX_ENUM_VALUES} enum values already.`);
    values.push(value);
  };
}

function changeLabel(kind: EnumKind): ActionHandler<ProductType> {
  return (productType, action) => {
    const definition = attributeNamed(productType, action.attributeName);
    const value = parserOf(kind)(action.newValue, 'newValue');
    valueWithKey(definition, enumValuesOf(definition, kind), value.key).label = value.label;
  };
}

/** `values` must be the attribute's values (keys and labels) in a new order: else EnumValuesMustMatch. */
function changeOrder(kind: EnumKind): ActionHandler<ProductType> {
  return (productType, action) => {
    const values = enumValuesOf(attributeNamed(productType, action.attributeName), kind);
    const given = enumValueList<EnumValue>(action.values, 'values', parserOf(kind));
    const matches = given.length === values.length && given.every((value) => values.some((known) => isDeepStrictEqual(known, value)));
    if (!matches) throw new ApiError(400, { code: 'EnumValuesMustMatch', message: 'The given values must be equal to the existing enum values.' });
    values.splice(0, values.length, ...given);
  };
}

function changeEnumKey(productType: ProductType, action: Record<string, unknown>): void {
  const definition = attributeNamed(productType, action.attributeName);
  const values = enumValuesOf(definition, 'any');
  const [key, newKey] = [enumKey(action.key, 'key'), enumKey(action.newKey, 'newKey')];
  const value = valueWithKey(definition, values, key);
  if (key === newKey) return;
  if (values.some((candidate) => candidate.key === newKey)) throw enumKeyAlreadyExists(definition.name, newKey);
  value.key = newKey;
}

/**
 * ProductTypeRemoveEnumValuesAction: "if the Attribute is required, the operation returns an
 * EnumValueIsUsed error" when products use the keys; otherwise the products lose those values (the
 * products' side, eventually consistent in the reference).
 */
function removeEnumValues(db: Queryable, usage: ProductTypeUsage): ActionHandler<ProductType> {
  return async (productType, action, { ctx }) => {
    const definition = attributeNamed(productType, action.attributeName);
    const values = enumValuesOf(definition, 'any');
    const keys = [...new Set(stringArray(action.keys, 'keys', undefined, MAX_ENUM_VALUES))];
    for (const key of keys) valueWithKey(definition, values, key);
    if (definition.isRequired) {
      const used = await usage.enumKeysInUse(db, ctx.projectKey, productType.id, definition.name, keys);
      if (used.length > 0) {
        throw new ApiError(400, {
          code: 'EnumValueIsUsed',
          message: `${used.join(', ')} is used by some products and cannot be deleted because the ${definition.name} attribute is required.`,
        });
      }
    }
    values.splice(0, values.length, ...values.filter(({ key }) => !keys.includes(key)));
  };
}

export function enumActions(db: Queryable, usage: ProductTypeUsage): ActionHandlers<ProductType> {
  return {
    addPlainEnumValue: addValue('enum'),
    addLocalizedEnumValue: addValue('lenum'),
    changePlainEnumValueLabel: changeLabel('enum'),
    changeLocalizedEnumValueLabel: changeLabel('lenum'),
    changePlainEnumValueOrder: changeOrder('enum'),
    changeLocalizedEnumValueOrder: changeOrder('lenum'),
    changeEnumKey,
    removeEnumValues: removeEnumValues(db, usage),
  };
}
