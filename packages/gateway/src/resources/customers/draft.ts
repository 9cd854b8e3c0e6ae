import { invalidInput, requiredField } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { optionalCustomerGroupReference } from '../customer-groups/reference.js';
import { customFromDraft } from '../shared/custom-fields.js';
import type { RequestContext } from '../shared/context.js';
import { asDraft, LANGUAGE_TAG, optionalKey, optionalString, type Draft } from '../shared/validation.js';
import { addressesFromDraft, addressRolesFromDraft } from './addresses.js';
import { draftCredentials } from './authentication-mode.js';
import type { Customer } from './customer.js';
import { groupAssignmentList } from './group-assignments.js';
import { storeReferences } from './stores.js';

const MAX_PASSWORD_LENGTH = 256;
const MAX_EMAIL_LENGTH = 256;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The reference's Customer.email is a string, unique per project or store; the platform does not
 * check its syntax, so neither does Herald (an empty string is refused: it could never sign in).
 */
export function validEmail(value: unknown, field = 'email'): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_EMAIL_LENGTH) {
    throw invalidInput(`'${field}' must be a string of 1 to ${MAX_EMAIL_LENGTH} characters.`, { field, invalidValue: value });
  }
  return value;
}

/** `dateOfBirth` is a date-only (`YYYY-MM-DD`) of the calendar. */
export function dateOfBirth(value: unknown, field = 'dateOfBirth'): string | undefined {
  if (value === undefined || value === null) return undefined;
  const match = typeof value === 'string' ? DATE_ONLY.exec(value) : null;
  const date = match === null ? undefined : new Date(`${value as string}T00:00:00Z`);
  if (match === null || date === undefined || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw invalidInput(`'${field}' must be a date such as "1990-12-31".`, { field, invalidValue: value });
  }
  return value as string;
}

/** The password itself never appears in an error (it is not echoed as `invalidValue`). */
export function validPassword(value: unknown, field = 'password'): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PASSWORD_LENGTH) {
    throw invalidInput(`'${field}' must be a string of 1 to ${MAX_PASSWORD_LENGTH} characters.`, { field });
  }
  return value;
}

export interface CustomerDraft {
  fields: Omit<Customer, ServerFields | 'stores'>;
  /** CustomerDraft.stores; an in-store sign-up adds the store of the path (service.ts). */
  stores: Customer['stores'];
  /** Absent for an ExternalAuth customer, which has no password. */
  password?: string;
}

const TEXT_FIELDS = ['customerNumber', 'externalId', 'firstName', 'lastName', 'middleName', 'title', 'salutation', 'companyName', 'vatId'] as const;

function optionalFields(draft: Draft): Partial<Customer> {
  const fields: Partial<Customer> = {};
  for (const name of TEXT_FIELDS) {
    const text = optionalString(draft[name], name, 256);
    if (text !== undefined) fields[name] = text;
  }
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  const born = dateOfBirth(draft.dateOfBirth);
  if (born !== undefined) fields.dateOfBirth = born;
  const locale = optionalString(draft.locale, 'locale', 64);
  if (locale !== undefined) {
    if (!LANGUAGE_TAG.test(locale))
      throw invalidInput('\'locale\' must be an IETF language tag such as "en" or "de-DE".', { field: 'locale', invalidValue: locale });
    fields.locale = locale;
  }
  return fields;
}

/**
 * Validates a CustomerDraft (reference type CustomerDraft); unknown fields are ignored (§4.4.8
 * applies the same leniency). `addresses` get ids, and the index fields become address ids.
 */
export async function parseCustomerDraft(body: unknown, ctx: RequestContext): Promise<CustomerDraft> {
  const draft = asDraft(body, 'CustomerDraft');
  const load = ctx.load;
  const credentials = draftCredentials(draft.authenticationMode, draft.password);
  const addresses = await addressesFromDraft(draft.addresses, load);
  const fields: CustomerDraft['fields'] = {
    email: validEmail(draft.email),
    ...optionalFields(draft),
    addresses,
    ...addressRolesFromDraft(draft, addresses),
    isEmailVerified: draft.isEmailVerified === true,
    customerGroupAssignments: await groupAssignmentList(load, draft.customerGroupAssignments),
    authenticationMode: credentials.authenticationMode,
  };
  const customerGroup = await optionalCustomerGroupReference(load, draft.customerGroup, 'customerGroup');
  if (customerGroup !== undefined) fields.customerGroup = customerGroup;
  const custom = await customFromDraft(draft.custom, 'customer', ctx);
  if (custom !== undefined) fields.custom = custom;
  const stores = await storeReferences(draft.stores, 'stores', load);
  return credentials.password === undefined ? { fields, stores } : { fields, stores, password: credentials.password };
}
