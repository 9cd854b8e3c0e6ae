import { isDate, isDateTime, isTime } from '../shared/custom-fields.js';
import { isMoney } from '../shared/money.js';
import { LANGUAGE_TAG } from '../shared/validation.js';
import type { AttributeDefinition, AttributeType } from './product-type.js';

/*
 * What a product variant's attribute value must look like for its AttributeDefinition (reference:
 * types/product/Attribute.raml and the AttributeType it names). Pure: no I/O, so the products
 * slice can check every variant of a draft at once, and it is unit-tested without a database.
 */

/** Where in the value the first problem is (`size`, `dims[1]`, `parts[0].width`) and what it is. */
export interface AttributeValueError {
  path: string;
  message: string;
}

/**
 * The attribute definitions of the ProductTypes that nested attributes point at, by ProductType id
 * (`loadNestedAttributeTypes` reads them). A nested value is checked against them.
 */
export type NestedAttributeTypes = ReadonlyMap<string, readonly AttributeDefinition[]>;

const NO_NESTED_TYPES: NestedAttributeTypes = new Map();

/** The first problem of `value` as the value of an attribute defined by `definition`, if any. */
export function attributeValueError(
  definition: AttributeDefinition,
  value: unknown,
  nested: NestedAttributeTypes = NO_NESTED_TYPES,
): AttributeValueError | undefined {
  return valueError(definition.type, value, definition.name, nested);
}

/**
 * The first problem of a list of Attributes `{name, value}` (a variant's, or a nested value) for
 * `definitions`: each name defined and given once, each value of its type, each required one there.
 */
export function attributesError(
  definitions: readonly AttributeDefinition[],
  attributes: unknown,
  path: string,
  nested: NestedAttributeTypes = NO_NESTED_TYPES,
): AttributeValueError | undefined {
  if (!Array.isArray(attributes)) return { path, message: 'must be an array of Attributes {name, value}' };
  const seen = new Set<string>();
  for (const [index, attribute] of attributes.entries()) {
    const problem = attributeError(definitions, attribute, `${path}[${index}]`, seen, nested);
    if (problem !== undefined) return problem;
  }
  const missing = definitions.find((definition) => definition.isRequired && !seen.has(definition.name));
  return missing === undefined ? undefined : { path, message: `the required attribute '${missing.name}' has no value` };
}

function attributeError(
  definitions: readonly AttributeDefinition[],
  attribute: unknown,
  path: string,
  seen: Set<string>,
  nested: NestedAttributeTypes,
): AttributeValueError | undefined {
  if (!isObject(attribute) || typeof attribute.name !== 'string') return { path, message: 'must be an Attribute {name, value}' };
  const definition = definitions.find(({ name }) => name === attribute.name);
  if (definition === undefined) return { path: `${path}.name`, message: `no attribute '${attribute.name}' is defined` };
  if (seen.has(definition.name)) return { path: `${path}.name`, message: `the attribute '${definition.name}' is given twice` };
  seen.add(definition.name);
  return valueError(definition.type, attribute.value, `${path}.value`, nested);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLocalizedString(value: unknown): boolean {
  return isObject(value) && Object.entries(value).every(([locale, text]) => LANGUAGE_TAG.test(locale) && typeof text === 'string');
}

/** The key of an enum value as sent: the key itself, or the `{key, label}` object answers show. */
function enumKeyOf(value: unknown): unknown {
  return isObject(value) ? value.key : value;
}

type Check = (value: unknown) => boolean;

/** The AttributeTypes whose values are one JSON value, and what such a value must be. */
const SCALAR_CHECKS: Readonly<Record<string, readonly [Check, string]>> = {
  boolean: [(value) => typeof value === 'boolean', 'must be true or false'],
  text: [(value) => typeof value === 'string', 'must be a string'],
  ltext: [isLocalizedString, 'must be a LocalizedString such as {"en": "…"}'],
  number: [(value) => typeof value === 'number' && Number.isFinite(value), 'must be a number'],
  money: [isMoney, 'must be Money {"currencyCode": "EUR", "centAmount": 100}'],
  date: [(value) => typeof value === 'string' && isDate(value), 'must be a Date (YYYY-MM-DD)'],
  time: [(value) => typeof value === 'string' && isTime(value), 'must be a Time (hh:mm:ss.sss)'],
  datetime: [(value) => typeof value === 'string' && isDateTime(value), 'must be a DateTime (ISO 8601 with its zone)'],
};

function valueError(type: AttributeType, value: unknown, path: string, nested: NestedAttributeTypes): AttributeValueError | undefined {
  if (value === undefined || value === null) return { path, message: 'must have a value' };
  switch (type.name) {
    case 'enum':
    case 'lenum': {
      const key = enumKeyOf(value);
      if (type.values.some((known) => known.key === key)) return undefined;
      return { path, message: `must be one of the keys ${type.values.map(({ key: known }) => known).join(', ')}` };
    }
    case 'reference':
      return referenceError(type.referenceTypeId, value, path);
    case 'set':
      return setError(type.elementType, value, path, nested);
    case 'nested':
      return nestedError(type.typeReference.id, value, path, nested);
    default: {
      const [check, message] = SCALAR_CHECKS[type.name] as readonly [Check, string];
      return check(value) ? undefined : { path, message };
    }
  }
}

/** A Reference (or ResourceIdentifier by key) to a resource of the type the definition names. */
function referenceError(referenceTypeId: string, value: unknown, path: string): AttributeValueError | undefined {
  const valid = isObject(value) && value.typeId === referenceTypeId && (typeof value.id === 'string' || typeof value.key === 'string');
  return valid ? undefined : { path, message: `must be a Reference {"typeId": "${referenceTypeId}", "id": "…"}` };
}

/** AttributeSetType: "a set (without duplicate elements)"; enum elements are the same when their keys are. */
function setError(elementType: AttributeType, value: unknown, path: string, nested: NestedAttributeTypes): AttributeValueError | undefined {
  if (!Array.isArray(value)) return { path, message: 'must be an array (a set)' };
  const seen = new Set<string>();
  for (const [index, element] of value.entries()) {
    const problem = valueError(elementType, element, `${path}[${index}]`, nested);
    if (problem !== undefined) return problem;
    const identity = canonical(elementType.name === 'enum' || elementType.name === 'lenum' ? enumKeyOf(element) : element);
    if (seen.has(identity)) return { path: `${path}[${index}]`, message: 'is in the set already' };
    seen.add(identity);
  }
  return undefined;
}

/** JSON with object keys sorted, so that `{a, b}` and `{b, a}` are the same element. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** AttributeNestedType: the value is a list of Attributes of the ProductType it references. */
function nestedError(productTypeId: string, value: unknown, path: string, nested: NestedAttributeTypes): AttributeValueError | undefined {
  const definitions = nested.get(productTypeId);
  if (definitions === undefined) return { path, message: `the nested ProductType '${productTypeId}' is unknown` };
  return attributesError(definitions, value, path, nested);
}
