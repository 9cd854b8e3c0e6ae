import { duplicateField, invalidInput, isResourceTypeId } from '@herald/model';
import { assertFieldNameAllowed } from '../shared/custom-fields.js';
import { asDraft, localizedString } from '../shared/validation.js';
import type { FieldType, InputHint, TypeFieldDefinition } from './type.js';

/**
 * FieldDefinition.name: the reference's pattern and minimum length. Its maxLength (36) is not
 * what the platform enforces: the official SDK's integration tests create field names of 52
 * characters (`type-field-name-` and a UUID) and expect 201, so Herald allows the key length, 256.
 */
const FIELD_NAME = /^[A-Za-z0-9_-]{2,256}$/;
const SIMPLE_TYPES = new Set(['Boolean', 'String', 'LocalizedString', 'Number', 'Money', 'Date', 'Time', 'DateTime']);
/** Reference targets beyond the subscribable resource types (reference: CustomFieldReferenceValue). */
const EXTRA_REFERENCE_TYPE_IDS = new Set(['associate-role', 'attribute-group', 'variant']);
const MAX_ENUM_VALUES = 500;

function enumValues<L>(value: unknown, field: string, label: (value: unknown, field: string) => L): Array<{ key: string; label: L }> {
  if (!Array.isArray(value) || value.length > MAX_ENUM_VALUES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ENUM_VALUES} {key, label} values.`, { field });
  }
  const keys = new Set<string>();
  return value.map((item, index) => {
    const entry = enumValue(item, `${field}[${index}]`, label);
    if (keys.has(entry.key)) throw invalidInput(`'${field}' contains the key '${entry.key}' twice.`, { field });
    keys.add(entry.key);
    return entry;
  });
}

/** One CustomFieldEnumValue or CustomFieldLocalizedEnumValue `{key, label}`. */
export function enumValue<L>(value: unknown, field: string, label: (value: unknown, field: string) => L): { key: string; label: L } {
  const entry = asDraft(value, field);
  if (typeof entry.key !== 'string' || entry.key.length === 0 || entry.key.length > 256) {
    throw invalidInput(`'${field}.key' must be a non-empty string.`, { field });
  }
  return { key: entry.key, label: label(entry.label, `${field}.label`) };
}

export function plainLabel(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalidInput(`'${field}' must be a string.`, { field });
  return value;
}

export function fieldType(value: unknown, field: string, insideSet = false): FieldType {
  const draft = asDraft(value, field);
  const name = draft.name;
  if (typeof name === 'string' && SIMPLE_TYPES.has(name)) return { name } as FieldType;
  switch (name) {
    case 'Enum':
      return { name, values: enumValues(draft.values, `${field}.values`, plainLabel) };
    case 'LocalizedEnum':
      return { name, values: enumValues(draft.values, `${field}.values`, localizedString) };
    case 'Reference': {
      const target = draft.referenceTypeId;
      if (typeof target !== 'string' || !(isResourceTypeId(target) || EXTRA_REFERENCE_TYPE_IDS.has(target))) {
        throw invalidInput(`'${field}.referenceTypeId' must name a resource type.`, { field, invalidValue: target });
      }
      return { name, referenceTypeId: target };
    }
    case 'Set':
      if (insideSet) throw invalidInput(`'${field}': a Set of Sets is not supported.`, { field });
      return { name, elementType: fieldType(draft.elementType, `${field}.elementType`, true) };
    default:
      throw invalidInput(`'${field}.name' is not a known field type.`, { field, invalidValue: name });
  }
}

export function fieldDefinition(value: unknown, field: string): TypeFieldDefinition {
  const draft = asDraft(value, field);
  if (typeof draft.name !== 'string' || !FIELD_NAME.test(draft.name)) {
    throw invalidInput(`'${field}.name' must be 2 to 256 characters of letters, digits, '_' and '-'.`, {
      field,
      invalidValue: draft.name,
    });
  }
  assertFieldNameAllowed(draft.name, `${field}.name`);
  if (draft.required !== undefined && typeof draft.required !== 'boolean') {
    throw invalidInput(`'${field}.required' must be a boolean.`, { field });
  }
  const definition: TypeFieldDefinition = {
    name: draft.name,
    type: fieldType(draft.type, `${field}.type`),
    required: draft.required === true,
    label: localizedString(draft.label, `${field}.label`),
  };
  if (draft.inputHint !== undefined && draft.inputHint !== null) definition.inputHint = inputHint(draft.inputHint, `${field}.inputHint`);
  return definition;
}

export function inputHint(value: unknown, field: string): InputHint {
  if (value !== 'SingleLine' && value !== 'MultiLine') throw invalidInput(`'${field}' must be SingleLine or MultiLine.`, { field });
  return value;
}

export function fieldDefinitions(value: unknown, field: string): TypeFieldDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 500) throw invalidInput(`'${field}' must be an array of at most 500 definitions.`, { field });
  const definitions = value.map((item, index) => fieldDefinition(item, `${field}[${index}]`));
  assertUniqueNames(definitions);
  return definitions;
}

export function assertUniqueNames(definitions: readonly TypeFieldDefinition[]): void {
  const names = new Set<string>();
  for (const definition of definitions) {
    if (names.has(definition.name)) {
      throw duplicateField('fieldDefinitions.name', definition.name);
    }
    names.add(definition.name);
  }
}
