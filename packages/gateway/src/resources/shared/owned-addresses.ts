import { randomBytes } from 'node:crypto';
import { invalidInput, type CustomFields } from '@herald/model';
import { addressFields, type AddressFields } from './address.js';
import { customFromDraft } from './custom-fields.js';
import type { Load } from './references.js';

/*
 * Addresses a resource owns and names by Herald's ids (reference type Address on Customer and
 * BusinessUnit): customers and business units validate, number and list them the same way.
 */

/** An owned address as validated from a draft, before Herald gives it an id. */
export type OwnedAddressDraft = AddressFields & { custom?: CustomFields };

/** Custom fields of addresses are defined by Types for the resource type id `address`. */
export const ADDRESS_CUSTOM_FIELDS_TYPE_ID = 'address';

export const MAX_ADDRESSES = 100;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Address ids are Herald's (8 random characters, like the platform's); a client-sent `id` is ignored. */
function randomAddressId(): string {
  return [...randomBytes(8)].map((byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

export function newAddressId(taken: readonly { id: string }[]): string {
  for (;;) {
    const id = randomAddressId();
    if (!taken.some((address) => address.id === id)) return id;
  }
}

/** An AddressInput validated (unknown fields dropped, `custom` checked against its Type); without an id. */
export async function addressFromInput(value: unknown, field: string, load: Load): Promise<OwnedAddressDraft> {
  const address: OwnedAddressDraft = addressFields(value, field);
  const input = value as Record<string, unknown>;
  const custom = await customFromDraft(input.custom, ADDRESS_CUSTOM_FIELDS_TYPE_ID, { load });
  if (custom !== undefined) address.custom = custom;
  return address;
}

export function addressList(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ADDRESSES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ADDRESSES} addresses.`, { field });
  }
  return value;
}
