import { invalidInput, requiredField, type BaseResource } from '@herald/model';
import { expectedVersion } from '../../http/version.js';
import { asDraft } from '../shared/validation.js';

// The store keeps Custom Objects by container and key; their type id is its constant.
export { CUSTOM_OBJECT_TYPE_ID } from '@herald/store';

/** reference: CustomObject. `value` is any JSON value. */
export interface CustomObject extends BaseResource {
  container: string;
  key: string;
  value: unknown;
}

/** A validated CustomObjectDraft. */
export interface CustomObjectDraft {
  container: string;
  key: string;
  value: unknown;
  /** 0: create only; n: replace only version n; absent: create or replace whatever is there. */
  version?: number;
}

/** `container` and `key` (reference: pattern `^[-_~.a-zA-Z0-9]+$`, 1 to 256 characters). */
const IDENTIFIER = /^[-_~.a-zA-Z0-9]{1,256}$/;

/** A container or key from a draft or a path, or a 400 naming the field. */
export function identifier(value: unknown, field: 'container' | 'key'): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    throw invalidInput(`'${field}' must be 1 to 256 characters of letters, digits and -_~. (got ${JSON.stringify(value)}).`, {
      field,
      invalidValue: value,
    });
  }
  return value;
}

/** reference: "Fields within `value` that have `null` values are not saved" (in objects, at every depth). */
export function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (field !== null) kept[name] = withoutNullFields(field);
  }
  return kept;
}

export function customObjectDraft(body: unknown): CustomObjectDraft {
  const draft = asDraft(body, 'CustomObjectDraft');
  const container = identifier(draft.container, 'container');
  const key = identifier(draft.key, 'key');
  // `value` is required, and `null` is no value (it would not be saved).
  if (draft.value === undefined || draft.value === null) throw requiredField('value');
  const parsed: CustomObjectDraft = { container, key, value: withoutNullFields(draft.value) };
  if (draft.version !== undefined && draft.version !== null) parsed.version = expectedVersion(draft.version);
  return parsed;
}
