import { invalidInput } from '@herald/model';
import { optionalKey, optionalString } from './validation.js';

/**
 * The Address (§2.1 names it as a nested type without its fields; these are the platform's), shared
 * by carts, quote requests and business units. Each resource adds what is its own (ids, custom).
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
