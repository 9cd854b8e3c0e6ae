import { invalidInput } from '@herald/model';
import { MAX_ADDRESSES } from '../shared/owned-addresses.js';
import type { BusinessUnit, BusinessUnitAddress } from './business-unit.js';

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
