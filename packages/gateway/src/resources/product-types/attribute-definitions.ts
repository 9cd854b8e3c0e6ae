import { ApiError, invalidInput, invalidOperation, requiredField } from '@herald/model';
import type { Load } from '../shared/references.js';
import { asDraft, localizedString } from '../shared/validation.js';
import { attributeType } from './attribute-types.js';
import {
  ATTRIBUTE_CONSTRAINTS,
  ATTRIBUTE_LEVELS,
  TEXT_INPUT_HINTS,
  type AttributeConstraint,
  type AttributeDefinition,
  type AttributeLevel,
  type TextInputHint,
} from './product-type.js';

/** AttributeDefinition.name (and every action's attributeName): the reference's pattern and lengths. */
const ATTRIBUTE_NAME = /^[A-Za-z0-9_-]{2,256}$/;
/** Attributes per ProductType: a bound on a document that every product check reads. */
export const MAX_ATTRIBUTES = 1000;

export function attributeName(value: unknown, field: string): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || !ATTRIBUTE_NAME.test(value)) {
    throw invalidInput(`'${field}' must be 2 to 256 characters of letters, digits, '_' and '-'.`, { field, invalidValue: value });
  }
  return value;
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string, fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${allowed.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

export const textInputHint = (value: unknown, field: string, fallback: TextInputHint = 'SingleLine'): TextInputHint =>
  oneOf(TEXT_INPUT_HINTS, value, field, fallback);

export function requiredBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}

function optionalBoolean(value: unknown, field: string): boolean | undefined {
  return value === undefined || value === null ? undefined : requiredBoolean(value, field);
}

/** AttributeDefinitionDraft.label is required; a LocalizedString. */
export function attributeLabel(value: unknown, field: string): AttributeDefinition['label'] {
  if (value === undefined || value === null) throw requiredField(field);
  return localizedString(value, field);
}

/**
 * The reference's rules across fields of one AttributeDefinitionDraft: a Product-level attribute
 * has the constraint None (AttributeDefinitionDraft.attributeConstraint); a nested attribute
 * supports neither a constraint other than None nor isSearchable (AttributeNestedType); a set does
 * not support isRequired (AttributeSetType).
 */
function assertCombination(definition: AttributeDefinition, searchableGiven: boolean | undefined): void {
  const { name, type, level, attributeConstraint } = definition;
  if (level === 'Product' && attributeConstraint !== 'None') {
    throw invalidOperation(`The attribute '${name}' is defined at Product level, so its attributeConstraint must be None.`);
  }
  if (type.name === 'nested' && attributeConstraint !== 'None') {
    throw invalidOperation(`The nested attribute '${name}' supports the attributeConstraint None only.`);
  }
  if (type.name === 'nested' && searchableGiven === true) {
    throw invalidOperation(`The nested attribute '${name}' does not support isSearchable.`);
  }
  if (type.name === 'set' && definition.isRequired) {
    throw invalidOperation(`The set attribute '${name}' does not support isRequired.`);
  }
}

/** One AttributeDefinitionDraft with the reference's defaults applied (level Variant, constraint None, …). */
export async function attributeDefinition(value: unknown, field: string, load: Load): Promise<AttributeDefinition> {
  const draft = asDraft(value, field);
  if (draft.type === undefined || draft.type === null) throw requiredField(`${field}.type`);
  const type = await attributeType(draft.type, `${field}.type`, load);
  const searchable = optionalBoolean(draft.isSearchable, `${field}.isSearchable`);
  const definition: AttributeDefinition = {
    type,
    name: attributeName(draft.name, `${field}.name`),
    label: attributeLabel(draft.label, `${field}.label`),
    isRequired: requiredBoolean(draft.isRequired, `${field}.isRequired`),
    level: oneOf<AttributeLevel>(ATTRIBUTE_LEVELS, draft.level, `${field}.level`, 'Variant'),
    attributeConstraint: oneOf<AttributeConstraint>(ATTRIBUTE_CONSTRAINTS, draft.attributeConstraint, `${field}.attributeConstraint`, 'None'),
    inputHint: textInputHint(draft.inputHint, `${field}.inputHint`),
    // Nested attributes are not searchable (AttributeNestedType); every other type defaults to true.
    isSearchable: searchable ?? type.name !== 'nested',
  };
  if (draft.inputTip !== undefined && draft.inputTip !== null) definition.inputTip = localizedString(draft.inputTip, `${field}.inputTip`);
  assertCombination(definition, searchable);
  return definition;
}

/** AttributeDefinitionAlreadyExists: the name is taken in this ProductType (reference error type). */
export function attributeDefinitionAlreadyExists(name: string, productType: { id?: string; name: string }): ApiError {
  return new ApiError(400, {
    code: 'AttributeDefinitionAlreadyExists',
    message: `An attribute definition with name ${name} already exists on product type ${productType.name}.`,
    ...(productType.id === undefined ? {} : { conflictingProductTypeId: productType.id }),
    conflictingProductTypeName: productType.name,
    conflictingAttributeName: name,
  });
}

/** ProductTypeDraft.attributes: names unique within the ProductType. */
export async function attributeDefinitions(value: unknown, productTypeName: string, load: Load): Promise<AttributeDefinition[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ATTRIBUTES) {
    throw invalidInput(`'attributes' must be an array of at most ${MAX_ATTRIBUTES} AttributeDefinitionDrafts.`, { field: 'attributes' });
  }
  const definitions: AttributeDefinition[] = [];
  for (const [index, item] of value.entries()) {
    const definition = await attributeDefinition(item, `attributes[${index}]`, load);
    if (definitions.some((known) => known.name === definition.name)) throw attributeDefinitionAlreadyExists(definition.name, { name: productTypeName });
    definitions.push(definition);
  }
  return definitions;
}
