import { isDeepStrictEqual } from 'node:util';
import { invalidInput, type MessagePayload } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalString } from '../shared/validation.js';
import { STOREFRONT_FIELDS, type Store, type Storefront, type StorefrontField } from './store.js';

const MAX_URL_LENGTH = 2048;

/** The URI template variable each template must contain (reference: Storefront). */
const TEMPLATE_VARIABLES: Partial<Record<StorefrontField, string>> = {
  checkoutUrlTemplate: 'checkoutId',
  orderUrlTemplate: 'orderId',
};

/** An absolute `https` URL (reference: the Storefront's policy and page links). */
function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

function storefrontValue(name: StorefrontField, value: unknown): string | undefined {
  const text = optionalString(value, name, MAX_URL_LENGTH);
  if (text === undefined) return undefined;
  const variable = TEMPLATE_VARIABLES[name];
  if (variable !== undefined ? !text.includes(`{${variable}}`) : !isHttpsUrl(text)) {
    const rule = variable !== undefined ? `a URI template containing {${variable}}` : 'an absolute https URL';
    throw invalidInput(`'${name}' must be ${rule}.`, { field: name, invalidValue: text });
  }
  return text;
}

/** A StoreDraft's `storefront`, each field validated; undefined when none is set. */
export function storefrontFromDraft(value: unknown): Storefront | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asDraft(value, 'storefront');
  const storefront: Storefront = {};
  for (const name of STOREFRONT_FIELDS) {
    const text = storefrontValue(name, draft[name]);
    if (text !== undefined) storefront[name] = text;
  }
  return Object.keys(storefront).length === 0 ? undefined : storefront;
}

const capitalized = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** `set<Field>` {<field>?}: sets or (absent) removes one link; message `Store<Field>Set`. */
function setter(name: StorefrontField): ActionHandler<Store> {
  return (store, action): MessagePayload[] => {
    const value = storefrontValue(name, action[name]);
    const next: Storefront = { ...store.storefront };
    if (value === undefined) delete next[name];
    else next[name] = value;
    if (isDeepStrictEqual(next, store.storefront ?? {})) return [];
    if (Object.keys(next).length === 0) delete store.storefront;
    else store.storefront = next;
    return [{ type: `Store${capitalized(name)}Set`, ...(value === undefined ? {} : { [name]: value }) }];
  };
}

/** The reference's ten Storefront actions (setCheckoutUrlTemplate … setContactUrl). */
export const storefrontActions: ActionHandlers<Store> = Object.fromEntries(STOREFRONT_FIELDS.map((name) => [`set${capitalized(name)}`, setter(name)]));
