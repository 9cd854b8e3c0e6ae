import { invalidInput, requiredField, type LocalizedString } from '@herald/model';

/** Small, explicit draft validators: each throws a 400 that names the field. */

export type Draft = Record<string, unknown>;

export function asDraft(body: unknown, what: string): Draft {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidInput(`The ${what} must be a JSON object.`);
  }
  return body as Draft;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Keys of stores, quote requests and most resources: 2–256 of `[A-Za-z0-9_-]` (§2.3). */
export function validKey(value: unknown, field = 'key'): string {
  if (typeof value !== 'string' || value.length < 2 || value.length > 256 || !KEY_PATTERN.test(value)) {
    throw invalidInput(`'${field}' must be 2 to 256 characters of letters, digits, '_' and '-'.`, {
      field,
      invalidValue: value,
    });
  }
  return value;
}

export function optionalKey(value: unknown, field = 'key'): string | undefined {
  return value === undefined || value === null ? undefined : validKey(value, field);
}

export function requiredString(draft: Draft, field: string, maxLength = 4096): string {
  const value = draft[field];
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length > maxLength) {
    throw invalidInput(`'${field}' must be a string of at most ${maxLength} characters.`, { field });
  }
  return value;
}

export function optionalString(value: unknown, field: string, maxLength = 4096): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > maxLength) {
    throw invalidInput(`'${field}' must be a string of at most ${maxLength} characters.`, { field });
  }
  return value;
}

const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function localizedString(value: unknown, field: string): LocalizedString {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be a localized string object such as {"en": "…"}.`, { field });
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 500) throw invalidInput(`'${field}' has too many locales.`, { field });
  for (const [locale, text] of entries) {
    if (!LOCALE.test(locale) || typeof text !== 'string' || text.length > 65_536) {
      throw invalidInput(`'${field}.${locale}' must be a string under a valid locale.`, { field });
    }
  }
  return value as LocalizedString;
}

/** A required LocalizedString with at least one locale ("Must not be empty": changeName, changeSlug, changeAssetName). */
export function nonEmptyLocalizedString(value: unknown, field: string): LocalizedString {
  if (value === undefined || value === null) throw requiredField(field);
  const text = localizedString(value, field);
  if (Object.keys(text).length === 0) throw invalidInput(`'${field}' must have at least one locale.`, { field });
  return text;
}

export function stringArray(value: unknown, field: string, pattern?: RegExp, maxItems = 500): string[] {
  if (!Array.isArray(value) || value.length > maxItems) {
    throw invalidInput(`'${field}' must be an array of at most ${maxItems} strings.`, { field });
  }
  for (const item of value) {
    if (typeof item !== 'string' || (pattern !== undefined && !pattern.test(item))) {
      throw invalidInput(`'${field}' contains an invalid value: ${JSON.stringify(item)}.`, { field });
    }
  }
  return value as string[];
}

export const LANGUAGE_TAG = LOCALE;
