import { isDeepStrictEqual } from 'node:util';
import { invalidInput, type BaseResource, type CustomFields, type MessagePayload, type ResourceIdentifier } from '@herald/model';
import type { Locator } from '@herald/store';
import { isMoney } from './money.js';
import type { ActionHandlers } from './update-actions.js';
import type { RequestContext } from './context.js';

/** The parts of a Type (`/{projectKey}/types`) that custom-field validation reads. */
export interface FieldDefinition {
  name: string;
  required?: boolean;
  type: FieldTypeShape;
}

/** A field type as custom-field validation reads it (types/type.ts has the full union). */
interface FieldTypeShape {
  name: string;
  values?: Array<{ key: string }>;
  elementType?: FieldTypeShape;
  referenceTypeId?: string;
}

export interface TypeDocument extends BaseResource {
  key: string;
  resourceTypeIds: string[];
  fieldDefinitions: FieldDefinition[];
}

/**
 * Names that would reach `Object.prototype` when used as a key of a plain object (`fields[name] =
 * value` sets the prototype for `__proto__`, and `fields.constructor` is always "there"). Refused
 * as field-definition and custom-field names, so no accepted value is ever silently lost.
 */
const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Throws 400 InvalidInput for a reserved name (see RESERVED_FIELD_NAMES). */
export function assertFieldNameAllowed(name: string, field: string): void {
  if (RESERVED_FIELD_NAMES.has(name)) {
    throw invalidInput(`'${name}' cannot be used as a custom field name.`, { field, invalidValue: name });
  }
}

/** The `name` of a setCustomField-style action: a string that is not reserved. */
export function customFieldName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || value === '') throw invalidInput(`'${field}' must be a custom field name.`, { field });
  assertFieldNameAllowed(value, field);
  return value;
}

type Load = <T extends BaseResource>(typeId: string, locator: Locator) => Promise<T | undefined>;

function identifierLocator(value: unknown, field: string): Locator {
  const identifier = value as ResourceIdentifier | undefined;
  if (typeof identifier?.id === 'string') return { id: identifier.id };
  if (typeof identifier?.key === 'string') return { key: identifier.key };
  throw invalidInput(`'${field}' must identify a Type by id or key.`, { field });
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}:\d{2})$/;

/** `YYYY-MM-DD`, a day of the calendar. */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `HH:mm:ss` with up to milliseconds. */
export function isTime(value: string): boolean {
  const match = TIME.exec(value);
  return match !== null && Number(match[1]) < 24 && Number(match[2]) < 60 && Number(match[3]) < 60;
}

/** An ISO 8601 instant with its zone (`2024-01-31T12:00:00.000Z`). */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null || !isDate(match[1] as string) || !isTime((match[2] as string).slice(0, 12))) return false;
  const zone = match[3] as string;
  return zone === 'Z' || (Number(zone.slice(1, 3)) <= 14 && Number(zone.slice(4, 6)) < 60);
}

function matchesFieldType(type: FieldTypeShape, value: unknown): boolean {
  switch (type.name) {
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'String':
      return typeof value === 'string';
    case 'Date':
      return typeof value === 'string' && isDate(value);
    case 'Time':
      return typeof value === 'string' && isTime(value);
    case 'DateTime':
      return typeof value === 'string' && isDateTime(value);
    case 'LocalizedString':
      return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
    case 'Enum':
    case 'LocalizedEnum':
      return typeof value === 'string' && (type.values ?? []).some((option) => option.key === value);
    case 'Set':
      return Array.isArray(value) && value.every((item) => matchesFieldType(type.elementType ?? { name: 'Unknown' }, item));
    case 'Money':
      return isMoney(value);
    case 'Reference': {
      // §2.1 Reference: `{typeId, id}`, of the resource type the field definition names.
      const reference = value as { typeId?: unknown; id?: unknown } | null;
      return typeof reference === 'object' && reference !== null && typeof reference.id === 'string' && reference.typeId === type.referenceTypeId;
    }
    default:
      return true;
  }
}

/** Validates `fields` against the Type's field definitions (unknown names, types, required ones). */
export function validateCustomFields(type: TypeDocument, fields: Record<string, unknown>, checkRequired: boolean): void {
  const definitions = new Map(type.fieldDefinitions.map((definition) => [definition.name, definition]));
  for (const [name, value] of Object.entries(fields)) {
    assertFieldNameAllowed(name, name);
    const definition = definitions.get(name);
    if (definition === undefined) {
      throw invalidInput(`The custom field '${name}' is not defined by the Type '${type.key}'.`, { field: name });
    }
    if (!matchesFieldType(definition.type, value)) {
      throw invalidInput(`The value of custom field '${name}' does not match its type ${definition.type.name}.`, {
        field: name,
        invalidValue: value,
      });
    }
  }
  if (checkRequired) {
    for (const definition of type.fieldDefinitions) {
      if (definition.required === true && !Object.hasOwn(fields, definition.name)) {
        throw invalidInput(`The custom field '${definition.name}' is required by the Type '${type.key}'.`, {
          field: definition.name,
        });
      }
    }
  }
}

/**
 * Resource type ids a Type may name for a resource besides its own: the reference's ResourceTypeId
 * has `quote` for quote requests, staged quotes and quotes, where Herald used `quote-request`.
 */
const RESOURCE_TYPE_ID_ALIASES: Readonly<Record<string, readonly string[]>> = { 'quote-request': ['quote'] };

function servesResourceType(type: TypeDocument, resourceTypeId: string): boolean {
  const accepted = [resourceTypeId, ...(RESOURCE_TYPE_ID_ALIASES[resourceTypeId] ?? [])];
  return accepted.some((id) => type.resourceTypeIds.includes(id));
}

async function loadType(load: Load, identifier: unknown, resourceTypeId: string, field: string): Promise<TypeDocument> {
  const type = await load<TypeDocument>('type', identifierLocator(identifier, field));
  if (type === undefined) throw invalidInput(`The Type referenced by '${field}' does not exist.`, { field });
  if (!servesResourceType(type, resourceTypeId)) {
    throw invalidInput(`The Type '${type.key}' cannot be used for resources of type '${resourceTypeId}'.`, { field });
  }
  return type;
}

function fieldMap(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInput(`'${field}' must be an object.`, { field });
  return value as Record<string, unknown>;
}

/** A `custom` draft (`{type: {key|id}, fields}`) resolved and validated against its Type. */
export async function customFromDraft(draft: unknown, resourceTypeId: string, ctx: Pick<RequestContext, 'load'>): Promise<CustomFields | undefined> {
  if (draft === undefined || draft === null) return undefined;
  const custom = draft as { type?: unknown; fields?: unknown };
  const type = await loadType(ctx.load, custom.type, resourceTypeId, 'custom.type');
  const fields = fieldMap(custom.fields, 'custom.fields');
  validateCustomFields(type, fields, true);
  return { type: { typeId: 'type', id: type.id }, fields };
}

interface Customizable extends BaseResource {
  custom?: CustomFields;
}

/** Message type prefix per resource type, for the Custom* messages (e.g. `StoreCustomTypeSet`). */
function prefix(resourceTypeId: string): string {
  return resourceTypeId
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export interface CustomFieldActionOptions {
  /**
   * Whether the actions produce `<Resource>CustomTypeSet`/`…CustomField…` messages. Resources whose
   * message catalogue (`MESSAGE_TYPES`) has none, such as carts and quote requests, pass false.
   */
  messages?: boolean;
  /**
   * How the messages name what was replaced: `oldTypeId` / `oldValue` (business units, customer
   * groups, payments…) or `previousTypeId` / `previousValue` (the reference's Customer*, Order*
   * and RecurringOrder* Custom messages, e.g. types/message/OrderCustomFieldChangedMessage.raml).
   */
  replacedAs?: 'old' | 'previous';
}

/** `setCustomType` and `setCustomField`, shared by every resource with custom fields. */
export function customFieldActions<D extends Customizable>(resourceTypeId: string, options: CustomFieldActionOptions = {}): ActionHandlers<D> {
  const handlers = customFieldHandlers<D>(resourceTypeId, options.replacedAs ?? 'old');
  if (options.messages !== false) return handlers;
  return Object.fromEntries(
    Object.entries(handlers).map(([action, handler]) => [
      action,
      async (...args: Parameters<typeof handler>): Promise<MessagePayload[]> => {
        await handler(...args);
        return [];
      },
    ]),
  );
}

function customFieldHandlers<D extends Customizable>(resourceTypeId: string, replacedAs: 'old' | 'previous'): ActionHandlers<D> {
  const name = prefix(resourceTypeId);
  const typeIdField = replacedAs === 'old' ? 'oldTypeId' : 'previousTypeId';
  const valueField = replacedAs === 'old' ? 'oldValue' : 'previousValue';
  return {
    async setCustomType(doc, action, { reader }): Promise<MessagePayload[]> {
      // The reference's *CustomTypeSet/*CustomTypeRemoved carry the previous Type's id.
      const oldTypeId = doc.custom?.type.id;
      const previous = oldTypeId === undefined ? {} : { [typeIdField]: oldTypeId };
      if (action.type === undefined || action.type === null) {
        delete doc.custom;
        return oldTypeId !== undefined ? [{ type: `${name}CustomTypeRemoved`, ...previous }] : [];
      }
      const type = await loadType(reader.get, action.type, resourceTypeId, 'type');
      const fields = fieldMap(action.fields, 'fields');
      validateCustomFields(type, fields, true);
      const custom = { type: { typeId: 'type' as const, id: type.id }, fields };
      // The same type and values again change nothing: no message, so no new version either.
      if (isDeepStrictEqual(custom, doc.custom)) return [];
      doc.custom = custom;
      // A copy: a later setCustomField of the same request changes doc.custom, not this message.
      return [{ type: `${name}CustomTypeSet`, customFields: structuredClone(custom), ...previous }];
    },
    async setCustomField(doc, action, { reader }): Promise<MessagePayload[]> {
      const fieldName = customFieldName(action.name);
      if (doc.custom === undefined) throw invalidInput('The resource has no custom type; use setCustomType first.');
      const type = await reader.get<TypeDocument>('type', { id: doc.custom.type.id });
      // Without its Type nothing could be validated: no value is stored unchecked.
      if (type === undefined) throw invalidInput(`The custom type '${doc.custom.type.id}' of the resource no longer exists; use setCustomType.`);
      const existed = Object.hasOwn(doc.custom.fields, fieldName);
      if (action.value === undefined || action.value === null) {
        if (!existed) return [];
        if (type.fieldDefinitions.some((definition) => definition.name === fieldName && definition.required === true)) {
          throw invalidInput(`The custom field '${fieldName}' is required by the Type '${type.key}' and cannot be removed.`, { field: fieldName });
        }
        delete doc.custom.fields[fieldName];
        return [{ type: `${name}CustomFieldRemoved`, name: fieldName }];
      }
      validateCustomFields(type, { [fieldName]: action.value }, false);
      const oldValue: unknown = doc.custom.fields[fieldName];
      if (existed && isDeepStrictEqual(oldValue, action.value)) return [];
      doc.custom.fields[fieldName] = action.value;
      // The reference's *CustomFieldChanged carries the value it replaced.
      if (existed) return [{ type: `${name}CustomFieldChanged`, name: fieldName, value: action.value, [valueField]: oldValue }];
      return [{ type: `${name}CustomFieldAdded`, name: fieldName, value: action.value }];
    },
  };
}
