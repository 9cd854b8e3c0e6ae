import { ApiError, invalidOperation, type LocalizedString } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { localizedString, stringArray } from '../shared/validation.js';
import { enumValue, plainLabel } from './field-definitions.js';
import { fieldNamed } from './field-lookup.js';
import type { FieldType, Type, TypeFieldDefinition } from './type.js';

/*
 * The reference's enum actions of Types (types/type/updates): add a value, change a value's label,
 * reorder the values, for Enum and LocalizedEnum field definitions and Sets of them.
 */

type EnumKind = 'Enum' | 'LocalizedEnum';
type EnumValues<L> = Array<{ key: string; label: L }>;

/** The values of the definition's enum (also inside a Set); InvalidOperation for another type. */
function enumValuesOf(definition: TypeFieldDefinition, kind: EnumKind): EnumValues<unknown> {
  const type: FieldType = definition.type.name === 'Set' ? definition.type.elementType : definition.type;
  if (type.name !== kind) {
    throw invalidOperation(`The field definition '${definition.name}' is not of type ${kind} (or a Set of ${kind}).`);
  }
  return type.values;
}

function enumKeyDoesNotExist(fieldName: string, key: string): ApiError {
  return new ApiError(400, {
    code: 'EnumKeyDoesNotExist',
    message: `The ${fieldName} field definition does not contain an enum value with the key ${key}.`,
    conflictingEnumKey: key,
    conflictingAttributeName: fieldName,
  });
}

function labelOf(kind: EnumKind): (value: unknown, field: string) => string | LocalizedString {
  return kind === 'Enum' ? plainLabel : localizedString;
}

function addValue(kind: EnumKind): ActionHandler<Type> {
  return (type, action) => {
    const definition = fieldNamed(type, action.fieldName);
    const values = enumValuesOf(definition, kind);
    const value = enumValue(action.value, 'value', labelOf(kind));
    if (values.some((known) => known.key === value.key)) {
      throw new ApiError(400, { code: 'DuplicateEnumValues', message: `The enum values contain duplicate keys: ${value.key}.`, duplicates: [value.key] });
    }
    values.push(value);
  };
}

function changeLabel(kind: EnumKind): ActionHandler<Type> {
  return (type, action) => {
    const definition = fieldNamed(type, action.fieldName);
    const value = enumValue(action.value, 'value', labelOf(kind));
    const known = enumValuesOf(definition, kind).find((candidate) => candidate.key === value.key);
    if (known === undefined) throw enumKeyDoesNotExist(definition.name, value.key);
    known.label = value.label;
  };
}

/** `keys` must be the definition's keys in a new order (reference: "must match the set of keys"). */
function changeOrder(kind: EnumKind): ActionHandler<Type> {
  return (type, action) => {
    const definition = fieldNamed(type, action.fieldName);
    const values = enumValuesOf(definition, kind);
    const keys = stringArray(action.keys, 'keys');
    const byKey = new Map(values.map((value) => [value.key, value]));
    if (keys.length !== values.length || new Set(keys).size !== keys.length || !keys.every((key) => byKey.has(key))) {
      throw new ApiError(400, { code: 'EnumValuesMustMatch', message: 'The given values must be equal to the existing enum values.' });
    }
    values.splice(0, values.length, ...keys.map((key) => byKey.get(key) as (typeof values)[number]));
  };
}

export const enumActions: ActionHandlers<Type> = {
  addEnumValue: addValue('Enum'),
  addLocalizedEnumValue: addValue('LocalizedEnum'),
  changeEnumValueLabel: changeLabel('Enum'),
  changeLocalizedEnumValueLabel: changeLabel('LocalizedEnum'),
  changeEnumValueOrder: changeOrder('Enum'),
  changeLocalizedEnumValueOrder: changeOrder('LocalizedEnum'),
};
