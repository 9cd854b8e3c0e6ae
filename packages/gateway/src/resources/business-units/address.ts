import { randomBytes } from 'node:crypto';
import { invalidInput, type BaseResource } from '@herald/model';
import type { Locator } from '@herald/store';
import { customFromDraft } from '../shared/custom-fields.js';
import { addressFields } from '../shared/address.js';
import type { BusinessUnit, BusinessUnitAddress } from './business-unit.js';

export type Load = <T extends BaseResource>(typeId: string, locator: Locator) => Promise<T | undefined>;

/** Custom fields of addresses are defined by Types for the resource type id `address`. */
export const ADDRESS_CUSTOM_FIELDS_TYPE_ID = 'address';

const MAX_ADDRESSES = 100;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Address ids are Herald's (8 random characters, like the platform's); a client-sent `id` is ignored. */
function randomAddressId(): string {
  return [...randomBytes(8)].map((byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

export function newAddressId(taken: readonly BusinessUnitAddress[]): string {
  for (;;) {
    const id = randomAddressId();
    if (!taken.some((address) => address.id === id)) return id;
  }
}

/** An AddressInput validated (unknown fields dropped, `custom` checked against its Type); without an id. */
export async function addressFromInput(value: unknown, field: string, load: Load): Promise<Omit<BusinessUnitAddress, 'id'>> {
  const address: Omit<BusinessUnitAddress, 'id'> = addressFields(value, field);
  const input = value as Record<string, unknown>;
  const custom = await customFromDraft(input.custom, ADDRESS_CUSTOM_FIELDS_TYPE_ID, { load });
  if (custom !== undefined) address.custom = custom;
  return address;
}

/** Address keys identify addresses in update actions (`addressKey`), so they are unique per unit. */
export function assertUniqueAddressKeys(addresses: readonly BusinessUnitAddress[]): void {
  const seen = new Set<string>();
  for (const address of addresses) {
    if (address.key === undefined) continue;
    if (seen.has(address.key)) {
      throw invalidInput(`The business unit already has an address with the key '${address.key}'.`, {
        field: 'addressKey',
        invalidValue: address.key,
      });
    }
    seen.add(address.key);
  }
  if (addresses.length > MAX_ADDRESSES) throw invalidInput(`A business unit has at most ${MAX_ADDRESSES} addresses.`);
}

/** An action's `addressId`/`addressKey` (the action itself is passed). */
export type AddressSelector = Readonly<Record<string, unknown>>;

/** Whether an action names an address at all (`setDefault…Address` without one unsets the default). */
export function selectsAddress(selector: AddressSelector): boolean {
  return (selector.addressId !== undefined && selector.addressId !== null) || (selector.addressKey !== undefined && selector.addressKey !== null);
}

/**
 * §4.3: `addressId` and `addressKey` are both optional and select an address; exactly one must be
 * given, and it must name an address of this unit.
 */
export function findAddress(unit: BusinessUnit, selector: AddressSelector): BusinessUnitAddress {
  const { addressId, addressKey } = selector;
  const byId = addressId !== undefined && addressId !== null;
  const byKey = addressKey !== undefined && addressKey !== null;
  if (byId === byKey) {
    throw invalidInput("Exactly one of 'addressId' and 'addressKey' must select the address.", { field: 'addressId' });
  }
  const found = byId
    ? unit.addresses.find((address) => address.id === addressId)
    : unit.addresses.find((address) => address.key !== undefined && address.key === addressKey);
  if (found === undefined) {
    const what = byId ? `id '${String(addressId)}'` : `key '${String(addressKey)}'`;
    throw invalidInput(`The business unit '${unit.key}' has no address with the ${what}.`, {
      field: byId ? 'addressId' : 'addressKey',
      invalidValue: byId ? addressId : addressKey,
    });
  }
  return found;
}

export function addressList(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ADDRESSES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ADDRESSES} addresses.`, { field });
  }
  return value;
}
