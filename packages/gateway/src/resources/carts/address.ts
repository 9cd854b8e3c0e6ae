import { invalidInput } from '@herald/model';
import { optionalKey, optionalString } from '../validation.js';

/** The Address fields Herald keeps (§2.1 lists Address as a nested type; these are the platform's). */
const ADDRESS_TEXT_FIELDS = [
  'id',
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

type AddressTextField = (typeof ADDRESS_TEXT_FIELDS)[number];

export type Address = { country: string; key?: string } & Partial<Record<AddressTextField, string>>;

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

/** Validates an address draft; unknown fields are dropped rather than stored. */
export function address(value: unknown, field: string): Address {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be an Address object with at least a country.`, { field });
  }
  const draft = value as Record<string, unknown>;
  const result: Address = { country: countryCode(draft.country, `${field}.country`) };
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) result.key = key;
  for (const name of ADDRESS_TEXT_FIELDS) {
    const text = optionalString(draft[name], `${field}.${name}`, 256);
    if (text !== undefined) result[name] = text;
  }
  return result;
}

export function optionalAddress(value: unknown, field: string): Address | undefined {
  return value === undefined || value === null ? undefined : address(value, field);
}

/** `itemShippingAddresses`: line items point at these by key, so every one needs a unique key. */
export function itemShippingAddresses(value: unknown, field: string): Address[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 100) {
    throw invalidInput(`'${field}' must be an array of at most 100 addresses.`, { field });
  }
  const addresses = value.map((item, index) => address(item, `${field}[${index}]`));
  const keys = new Set<string>();
  addresses.forEach((item, index) => {
    if (item.key === undefined) throw invalidInput(`'${field}[${index}].key' is required.`, { field: `${field}[${index}].key` });
    if (keys.has(item.key)) throw invalidInput(`'${field}' contains the key '${item.key}' twice.`, { field });
    keys.add(item.key);
  });
  return addresses;
}
