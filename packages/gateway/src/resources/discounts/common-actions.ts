import { invalidInput, requiredField, type LocalizedString } from '@herald/model';
import type { ActionHandlers } from '../shared/update-actions.js';
import { localizedString, optionalKey } from '../shared/validation.js';

/** The fields every discount resource has in common with the others. */
interface Described {
  key?: string;
  name?: LocalizedString;
  description?: LocalizedString;
  isActive: boolean;
}

export function requiredLocalized(value: unknown, field: string): LocalizedString {
  if (value === undefined || value === null) throw requiredField(field);
  return localizedString(value, field);
}

export function optionalLocalized(value: unknown, field: string): LocalizedString | undefined {
  return value === undefined || value === null ? undefined : localizedString(value, field);
}

export function booleanField(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}

export function requiredBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) throw requiredField(field);
  return booleanField(value, field, false);
}

function setOrDelete<D extends Described, F extends 'key' | 'name' | 'description'>(doc: D, field: F, value: D[F] | undefined): void {
  if (value === undefined) delete doc[field];
  else doc[field] = value;
}

/** setKey, setDescription and changeIsActive (no messages: the callers add theirs where the reference has one). */
export function describedActions<D extends Described>(): ActionHandlers<D> {
  return {
    setKey(doc, action) {
      setOrDelete(doc, 'key', optionalKey(action.key));
    },
    setDescription(doc, action) {
      setOrDelete(doc, 'description', optionalLocalized(action.description, 'description'));
    },
    changeIsActive(doc, action) {
      doc.isActive = requiredBoolean(action.isActive, 'isActive');
    },
  };
}
