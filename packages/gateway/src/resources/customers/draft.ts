import { invalidInput, requiredField } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { customFromDraft } from '../custom-fields.js';
import type { RequestContext } from '../context.js';
import { asDraft, optionalKey, optionalString } from '../validation.js';
import type { Customer } from './customer.js';

const EMAIL = /^[^\s@]{1,128}@[^\s@]{1,127}$/;
const MAX_PASSWORD_LENGTH = 256;

export function validEmail(value: unknown, field = 'email'): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || !EMAIL.test(value)) {
    throw invalidInput(`'${field}' must be an e-mail address.`, { field, invalidValue: value });
  }
  return value;
}

/** The password itself never appears in an error (it is not echoed as `invalidValue`). */
function validPassword(value: unknown): string {
  if (value === undefined || value === null) throw requiredField('password');
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PASSWORD_LENGTH) {
    throw invalidInput(`'password' must be a string of 1 to ${MAX_PASSWORD_LENGTH} characters.`, { field: 'password' });
  }
  return value;
}

export interface CustomerDraft {
  fields: Omit<Customer, ServerFields | 'stores'>;
  password: string;
}

/** Validates a CustomerDraft; unknown fields are ignored (§4.4.8 applies the same leniency). */
export async function parseCustomerDraft(body: unknown, ctx: RequestContext): Promise<CustomerDraft> {
  const draft = asDraft(body, 'CustomerDraft');
  const fields: CustomerDraft['fields'] = {
    email: validEmail(draft.email),
    isEmailVerified: draft.isEmailVerified === true,
    authenticationMode: 'Password',
  };
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  const firstName = optionalString(draft.firstName, 'firstName', 256);
  if (firstName !== undefined) fields.firstName = firstName;
  const lastName = optionalString(draft.lastName, 'lastName', 256);
  if (lastName !== undefined) fields.lastName = lastName;
  const custom = await customFromDraft(draft.custom, 'customer', ctx);
  if (custom !== undefined) fields.custom = custom;
  return { fields, password: validPassword(draft.password) };
}
