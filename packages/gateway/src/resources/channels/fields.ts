import { invalidInput, invalidOperation, requiredField, type LocalizedString } from '@herald/model';
import { isDeepStrictEqual } from 'node:util';
import { localizedString } from '../shared/validation.js';

/**
 * The reference gives a Channel's key no pattern and no length; 256 is the bound keys of other
 * resources have, so that a key stays usable in `/channels/key={key}`.
 */
const MAX_KEY_LENGTH = 256;

/**
 * ChannelDraft.key and ChannelChangeKeyAction.key: required; "If set to an empty value, an
 * InvalidOperation error is returned" (uniqueness is the store's: DuplicateField).
 */
export function channelKey(value: unknown): string {
  if (value === undefined || value === null) throw requiredField('key');
  if (typeof value !== 'string' || value.length > MAX_KEY_LENGTH) {
    throw invalidInput(`'key' must be a string of at most ${MAX_KEY_LENGTH} characters.`, { field: 'key', invalidValue: value });
  }
  if (value.trim() === '') throw invalidOperation("A Channel's 'key' cannot be empty.");
  return value;
}

/** An optional LocalizedString of a draft (name, description). */
export function optionalLocalized(value: unknown, field: string): LocalizedString | undefined {
  return value === undefined || value === null ? undefined : localizedString(value, field);
}

/**
 * The value of changeName / changeDescription: "If set to an empty value, an InvalidOperation
 * error is returned. If the new value is the same as the current value, an InvalidOperation error
 * is returned."
 */
export function changedLocalized(value: unknown, current: LocalizedString | undefined, field: 'name' | 'description'): LocalizedString {
  if (value === undefined || value === null) throw requiredField(field);
  const next = localizedString(value, field);
  if (Object.keys(next).length === 0) throw invalidOperation(`A Channel's '${field}' cannot be set to an empty value.`);
  if (isDeepStrictEqual(next, current)) throw invalidOperation(`The Channel's '${field}' is this value already.`);
  return next;
}
