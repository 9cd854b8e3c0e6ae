import { ApiError, invalidInput, type LocalizedString } from '@herald/model';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { asDraft, localizedString } from '../shared/validation.js';
import {
  ATTRIBUTE_REFERENCE_TYPE_IDS,
  PRODUCT_TYPE_TYPE_ID,
  SIMPLE_ATTRIBUTE_TYPES,
  type AttributeReferenceTypeId,
  type AttributeType,
  type LocalizedEnumValue,
  type PlainEnumValue,
  type ProductType,
  type SimpleAttributeTypeName,
} from './product-type.js';

/**
 * AttributeSetType: "in case the iteration terminates with an AttributeNestedType, [it] can have
 * 5 steps at maximum". Other chains of sets are unbounded in the reference; Herald stops at 10 so
 * that a hostile body cannot recurse deeply (no real catalogue nests sets that far).
 */
const MAX_SETS_AROUND_NESTED = 5;
const MAX_SETS = 10;
/** Enum values per attribute: as for Types' enums, a bound on a document that is read often. */
export const MAX_ENUM_VALUES = 500;

export function duplicateEnumValues(keys: readonly string[]): ApiError {
  return new ApiError(400, { code: 'DuplicateEnumValues', message: `The enum values contain duplicate keys: ${keys.join(', ')}.`, duplicates: [...keys] });
}

/** The key of an enum value (an action's `key`, `newKey`): a non-empty string. */
export function enumKey(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) {
    throw invalidInput(`'${field}' must be a string of 1 to 256 characters.`, { field, invalidValue: value });
  }
  return value;
}

function plainLabel(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 4096) throw invalidInput(`'${field}' must be a string.`, { field, invalidValue: value });
  return value;
}

/** AttributePlainEnumValue `{key, label: string}`. */
export function plainEnumValue(value: unknown, field: string): PlainEnumValue {
  const entry = asDraft(value, field);
  return { key: enumKey(entry.key, `${field}.key`), label: plainLabel(entry.label, `${field}.label`) };
}

/** AttributeLocalizedEnumValue `{key, label: LocalizedString}`. */
export function localizedEnumValue(value: unknown, field: string): LocalizedEnumValue {
  const entry = asDraft(value, field);
  const label: LocalizedString = localizedString(entry.label, `${field}.label`);
  return { key: enumKey(entry.key, `${field}.key`), label };
}

/** A list of enum values; a key given twice is the reference's DuplicateEnumValues. */
export function enumValueList<V extends { key: string }>(value: unknown, field: string, parse: (item: unknown, field: string) => V): V[] {
  if (!Array.isArray(value) || value.length > MAX_ENUM_VALUES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ENUM_VALUES} {key, label} values.`, { field });
  }
  const values = value.map((item, index) => parse(item, `${field}[${index}]`));
  const seen = new Set<string>();
  const duplicates = values.filter(({ key }) => seen.size === seen.add(key).size).map(({ key }) => key);
  if (duplicates.length > 0) throw duplicateEnumValues([...new Set(duplicates)]);
  return values;
}

function referenceTypeId(value: unknown, field: string): AttributeReferenceTypeId {
  if (!(ATTRIBUTE_REFERENCE_TYPE_IDS as readonly unknown[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${ATTRIBUTE_REFERENCE_TYPE_IDS.join(', ')}.`, { field, invalidValue: value });
  }
  return value as AttributeReferenceTypeId;
}

/** AttributeNestedType.typeReference: an existing ProductType (400 ReferencedResourceNotFound otherwise). */
async function nestedTypeReference(value: unknown, field: string, load: Load): Promise<AttributeType> {
  const target = await loadReferenced<ProductType>(load, PRODUCT_TYPE_TYPE_ID, identifierLocator(value, field, PRODUCT_TYPE_TYPE_ID));
  return { name: 'nested', typeReference: { typeId: PRODUCT_TYPE_TYPE_ID, id: target.id } };
}

function setsAroundNested(elementType: AttributeType, sets: number): number | undefined {
  if (elementType.name === 'set') return setsAroundNested(elementType.elementType, sets + 1);
  return elementType.name === 'nested' ? sets : undefined;
}

/** An AttributeType draft (`{name: …}` and the properties of that name), checked as the reference types it. */
export async function attributeType(value: unknown, field: string, load: Load, sets = 0): Promise<AttributeType> {
  const draft = asDraft(value, field);
  const name = draft.name;
  if ((SIMPLE_ATTRIBUTE_TYPES as readonly unknown[]).includes(name)) return { name: name as SimpleAttributeTypeName };
  switch (name) {
    case 'enum':
      return { name, values: enumValueList(draft.values, `${field}.values`, plainEnumValue) };
    case 'lenum':
      return { name, values: enumValueList(draft.values, `${field}.values`, localizedEnumValue) };
    case 'reference':
      return { name, referenceTypeId: referenceTypeId(draft.referenceTypeId, `${field}.referenceTypeId`) };
    case 'nested':
      return nestedTypeReference(draft.typeReference, `${field}.typeReference`, load);
    case 'set':
      return setType(draft.elementType, field, load, sets + 1);
    default:
      throw invalidInput(
        `'${field}.name' must be an AttributeType name: ${[...SIMPLE_ATTRIBUTE_TYPES, 'enum', 'lenum', 'reference', 'set', 'nested'].join(', ')}.`,
        {
          field: `${field}.name`,
          invalidValue: name,
        },
      );
  }
}

async function setType(elementDraft: unknown, field: string, load: Load, sets: number): Promise<AttributeType> {
  if (sets > MAX_SETS) throw invalidInput(`'${field}' nests more than ${MAX_SETS} sets.`, { field });
  const elementType = await attributeType(elementDraft, `${field}.elementType`, load, sets);
  const type: AttributeType = { name: 'set', elementType };
  if ((setsAroundNested(elementType, 1) ?? 0) > MAX_SETS_AROUND_NESTED) {
    throw invalidInput(`'${field}': a set of nested attributes may have at most ${MAX_SETS_AROUND_NESTED} levels of sets.`, { field });
  }
  return type;
}

/**
 * The AttributeType with its enum values left out: AttributeDefinitionDraft.name says that the
 * same name must have the same `type` in every ProductType, but "for enum or lenum Types and sets
 * of these AttributeTypes, the enum values can be different".
 */
export function typeShape(type: AttributeType): unknown {
  switch (type.name) {
    case 'enum':
    case 'lenum':
      return { name: type.name };
    case 'set':
      return { name: 'set', elementType: typeShape(type.elementType) };
    case 'nested':
      return { name: 'nested', typeReference: type.typeReference.id };
    default:
      return type;
  }
}
