import { invalidInput } from '@herald/model';
import type { Locator } from '@herald/store';
import { assertFieldNameAllowed } from '../resources/shared/custom-fields.js';
import { assertActionCount, type UpdateAction } from '../resources/shared/update-actions.js';

/**
 * GraphQL inputs turned into what the REST API receives, so both reach the same service:
 * `{changeName: {name}}` becomes `{action: 'changeName', name}`, custom field values (JSON-encoded
 * strings in GraphQL) become JSON values, `CustomFieldsDraft` becomes `{type, fields: {…}}`.
 */

export type InputObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is InputObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** §4.3: "an input object with exactly one member set". */
function singleMember(input: InputObject, path: string): [string, InputObject] {
  const set = Object.entries(input).filter(([, value]) => value !== undefined && value !== null);
  const [first, ...rest] = set;
  if (first === undefined || rest.length > 0) {
    throw invalidInput(`${path} must set exactly one member (it sets ${set.length === 0 ? 'none' : set.map(([name]) => name).join(', ')}).`, {
      field: path,
    });
  }
  const [member, fields] = first;
  if (!isObject(fields)) throw invalidInput(`${path}.${member} must be an input object.`, { field: `${path}.${member}` });
  return [member, fields];
}

/** A custom field value as GraphQL sends it: JSON text. Absent or null stays absent (removes). */
function decodeJson(value: unknown, field: string): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidInput(`'${field}' must be a JSON-encoded string.`, { field });
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalidInput(`'${field}' must be JSON-encoded (a string value keeps its quotes: "\\"text\\"").`, { field, invalidValue: value });
  }
}

function customFieldValues(fields: unknown, path: string): Record<string, unknown> | undefined {
  if (fields === undefined || fields === null) return undefined;
  if (!Array.isArray(fields)) throw invalidInput(`'${path}' must be a list of {name, value}.`, { field: path });
  const values: Record<string, unknown> = {};
  for (const entry of fields as unknown[]) {
    if (!isObject(entry) || typeof entry.name !== 'string') throw invalidInput(`'${path}' must be a list of {name, value}.`, { field: path });
    assertFieldNameAllowed(entry.name, `${path}.name`);
    values[entry.name] = decodeJson(entry.value, `${path}.${entry.name}`);
  }
  return values;
}

/** `type`, `typeId` or `typeKey` (at most one) as a REST ResourceIdentifier; none means "no type". */
function typeIdentifier(input: InputObject, path: string): unknown {
  const given = [input.type, input.typeId, input.typeKey].filter((value) => value !== undefined && value !== null);
  if (given.length > 1) throw invalidInput(`${path}: give the Type by one of type, typeId and typeKey.`, { field: path });
  if (input.type !== undefined && input.type !== null) return input.type;
  if (typeof input.typeId === 'string') return { typeId: 'type', id: input.typeId };
  if (typeof input.typeKey === 'string') return { typeId: 'type', key: input.typeKey };
  return undefined;
}

/** CustomFieldsDraft → REST `{type, fields}`. */
function customDraft(value: unknown, path: string): unknown {
  if (!isObject(value)) return value;
  return { type: typeIdentifier(value, path), fields: customFieldValues(value.fields, `${path}.fields`) ?? {} };
}

function address(value: unknown, path: string): unknown {
  if (!isObject(value)) return value;
  const { custom, ...rest } = value;
  return custom === undefined || custom === null ? rest : { ...rest, custom: customDraft(custom, `${path}.custom`) };
}

/** `set<Part>CustomType` / `set<Part>CustomField` of any part (setCustomType, setAddressCustomType, setDeliveryCustomType, …). */
const CUSTOM_TYPE_MEMBER = /^set\w*CustomType$/;
const CUSTOM_FIELD_MEMBER = /^set\w*CustomField$/;

/** The REST fields of one member, from its GraphQL input. */
function restFields(member: string, input: InputObject, path: string): InputObject {
  if (CUSTOM_TYPE_MEMBER.test(member)) {
    const { type: _type, typeId: _typeId, typeKey: _typeKey, fields, ...rest } = input;
    return { ...rest, type: typeIdentifier(input, path), fields: customFieldValues(fields, `${path}.fields`) };
  }
  if (CUSTOM_FIELD_MEMBER.test(member)) return { ...input, value: decodeJson(input.value, `${path}.value`) };
  return restDraftFields(input, path);
}

/** `[{locale, value}]` (LocalizedStringItemInputType) as a REST LocalizedString. */
function localizedString(items: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(items.filter(isObject).map((item) => [item.locale, item.value]));
}

/** ShippingRateInputDraft `{Classification: {key}}` / `{Score: {score}}` as REST's `{type, …}` (types/cart/ShippingRateInputDraft.raml). */
function shippingRateInput(value: InputObject): InputObject {
  const [variant, fields] = Object.entries(value).find(([, member]) => isObject(member)) ?? [];
  return variant === undefined ? value : { type: variant, ...(fields as InputObject) };
}

/** The fields of an action's input whose GraphQL form differs from the REST draft's. */
function restDraftFields(input: InputObject, path: string): InputObject {
  const fields: Record<string, unknown> = { ...input };
  // Every action's `address` (addAddress, setShippingAddress, addItemShippingAddress, addDelivery, …) may carry a CustomFieldsDraft.
  if (isObject(input.address)) fields.address = address(input.address, `${path}.address`);
  if (isObject(input.shippingAddress)) fields.shippingAddress = address(input.shippingAddress, `${path}.shippingAddress`);
  if (Array.isArray(input.deliveries))
    fields.deliveries = input.deliveries.map((item, index) => (isObject(item) ? restDraftFields(item, `${path}.deliveries[${index}]`) : item));
  if (isObject(input.custom)) fields.custom = customDraft(input.custom, `${path}.custom`);
  if (Array.isArray(input.name)) fields.name = localizedString(input.name);
  if (isObject(input.shippingRateInput)) fields.shippingRateInput = shippingRateInput(input.shippingRateInput);
  return fields;
}

/** A list of GraphQL update-action inputs as REST update actions, under REST's cap on their number. */
export function restActions(inputs: readonly InputObject[]): UpdateAction[] {
  assertActionCount(inputs.length);
  return inputs.map((input, index) => {
    const path = `actions[${index}]`;
    const [member, fields] = singleMember(input, path);
    return { ...restFields(member, fields, `${path}.${member}`), action: member };
  });
}

/** BusinessUnitDraft / MyBusinessUnitDraft as the REST draft. */
export function restBusinessUnitDraft(draft: InputObject): InputObject {
  const converted: Record<string, unknown> = { ...draft };
  if (Array.isArray(draft.addresses)) converted.addresses = (draft.addresses as unknown[]).map((item, index) => address(item, `draft.addresses[${index}]`));
  if (draft.custom !== undefined && draft.custom !== null) converted.custom = customDraft(draft.custom, 'draft.custom');
  return converted;
}

/** §4.3 `id` and `key` arguments: exactly one of them selects the resource. */
export function locatorOf(args: { id?: string | null; key?: string | null }): Locator {
  const hasId = typeof args.id === 'string';
  const hasKey = typeof args.key === 'string';
  if (hasId === hasKey) throw invalidInput("Give exactly one of 'id' and 'key'.", { field: hasId ? 'key' : 'id' });
  return hasId ? { id: args.id as string } : { key: args.key as string };
}
