import { invalidInput } from '@herald/model';
import { addressFields, type AddressFields } from '../shared/address.js';
import { optionalString } from '../shared/validation.js';

/** A cart's address: the common fields and the client's own `id`, kept as sent. */
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
