import { invalidInput } from '@herald/model';
import { optionalKey, optionalString } from './validation.js';

/**
 * The Address (§2.1 names it as a nested type without its fields; these are the platform's), shared
 * by carts, quote requests, business units and customers. Each resource adds what is its own (ids,
 * custom): carts and quote requests keep the client's `id` (`address` below); customers and business
 * units give their addresses Herald's ids (owned-addresses.ts).
 */
export const ADDRESS_TEXT_FIELDS = [
  'title',
  'salutation',
  'firstName',
  'lastName',
  'streetName',
  'streetNumber',
  'additionalStreetInfo',
  'postalCode',
  'city',
  'region',
  'state',
  'company',
  'department',
  'building',
  'apartment',
  'pOBox',
  'phone',
  'mobile',
  'email',
  'fax',
  'additionalAddressInfo',
  'externalId',
] as const;

export type AddressTextField = (typeof ADDRESS_TEXT_FIELDS)[number];

export type AddressFields = { country: string; key?: string } & Partial<Record<AddressTextField, string>>;

export const COUNTRY_CODE = /^[A-Z]{2}$/;

export function countryCode(value: unknown, field: string): string {
  if (typeof value !== 'string' || !COUNTRY_CODE.test(value)) {
    throw invalidInput(`'${field}' must be a two-letter ISO 3166-1 country code such as "DE" (§2.3).`, {
      field,
      invalidValue: value,
    });
  }
  return value;
}

/** Validates an address draft's common fields; unknown fields are dropped rather than stored. */
export function addressFields(value: unknown, field: string): AddressFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be an Address object with at least a country.`, { field });
  }
  const draft = value as Record<string, unknown>;
  const result: AddressFields = { country: countryCode(draft.country, `${field}.country`) };
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) result.key = key;
  for (const name of ADDRESS_TEXT_FIELDS) {
    const text = optionalString(draft[name], `${field}.${name}`, 256);
    if (text !== undefined) result[name] = text;
  }
  return result;
}

/** A cart's or quote request's address: the common fields and the client's own `id`, kept as sent. */
export type Address = AddressFields & { id?: string };

export function address(value: unknown, field: string): Address {
  const result: Address = addressFields(value, field);
  const id = optionalString((value as Record<string, unknown>).id, `${field}.id`, 256);
  if (id !== undefined) result.id = id;
  return result;
}

export function optionalAddress(value: unknown, field: string): Address | undefined {
  return value === undefined || value === null ? undefined : address(value, field);
}
