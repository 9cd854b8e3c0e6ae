import { ApiError, invalidInput } from '@herald/model';
import { addressFromInput, addressList, newAddressId } from '../shared/owned-addresses.js';
import type { Load } from '../shared/references.js';
import type { Draft } from '../shared/validation.js';
import type { Customer, CustomerAddress } from './customer.js';

const MAX_ADDRESSES = 100;

/** The lists of address ids of a customer, and the default each list has. */
export type AddressRole = 'Shipping' | 'Billing';
export const ID_LIST = { Shipping: 'shippingAddressIds', Billing: 'billingAddressIds' } as const;
export const DEFAULT_ID = { Shipping: 'defaultShippingAddressId', Billing: 'defaultBillingAddressId' } as const;

/** A BaseAddress draft validated; the id is Herald's (a client-sent `id` is not kept, as for business units). */
export async function newAddress(value: unknown, field: string, taken: readonly CustomerAddress[], load: Load): Promise<CustomerAddress> {
  return { id: newAddressId(taken), ...(await addressFromInput(value, field, load)) };
}

/** `addresses` of a CustomerDraft, each with a new id, in the order sent (indices refer to it). */
export async function addressesFromDraft(value: unknown, load: Load): Promise<CustomerAddress[]> {
  const addresses: CustomerAddress[] = [];
  for (const [index, item] of addressList(value, 'addresses').entries()) {
    addresses.push(await newAddress(item, `addresses[${index}]`, addresses, load));
  }
  assertAddressLimits(addresses);
  return addresses;
}

/** Address keys select addresses in update actions (`addressKey`), so they are unique per customer. */
export function assertAddressLimits(addresses: readonly CustomerAddress[]): void {
  const seen = new Set<string>();
  for (const address of addresses) {
    if (address.key === undefined) continue;
    if (seen.has(address.key)) {
      throw invalidInput(`The customer already has an address with the key '${address.key}'.`, { field: 'addressKey', invalidValue: address.key });
    }
    seen.add(address.key);
  }
  if (addresses.length > MAX_ADDRESSES) throw invalidInput(`A customer has at most ${MAX_ADDRESSES} addresses.`, { field: 'addresses' });
}

/** `defaultShippingAddress`/`shippingAddresses`… of a CustomerDraft: indices into `addresses`. */
function addressAt(addresses: readonly CustomerAddress[], index: unknown, field: string): string {
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= addresses.length) {
    throw invalidInput(`'${field}' must be the index of an address in 'addresses' (0 to ${addresses.length - 1}).`, { field, invalidValue: index });
  }
  return (addresses[index] as CustomerAddress).id;
}

function addressesAt(addresses: readonly CustomerAddress[], value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`'${field}' must be an array of indices into 'addresses'.`, { field });
  return [...new Set(value.map((index, position) => addressAt(addresses, index, `${field}[${position}]`)))];
}

/**
 * CustomerDraft: `shippingAddresses`/`billingAddresses` list indices of `addresses`; the default
 * (`defaultShippingAddress`/`defaultBillingAddress`, an index too) is added to its list, as the
 * reference's Customer keeps the default among the ids of its kind.
 */
export function addressRolesFromDraft(
  draft: Draft,
  addresses: readonly CustomerAddress[],
): Pick<Customer, 'shippingAddressIds' | 'billingAddressIds' | 'defaultShippingAddressId' | 'defaultBillingAddressId'> {
  const roles: ReturnType<typeof addressRolesFromDraft> = {
    shippingAddressIds: addressesAt(addresses, draft.shippingAddresses, 'shippingAddresses'),
    billingAddressIds: addressesAt(addresses, draft.billingAddresses, 'billingAddresses'),
  };
  for (const [role, field] of [
    ['Shipping', 'defaultShippingAddress'],
    ['Billing', 'defaultBillingAddress'],
  ] as const) {
    const index = draft[field];
    if (index === undefined || index === null) continue;
    const id = addressAt(addresses, index, field);
    roles[DEFAULT_ID[role]] = id;
    if (!roles[ID_LIST[role]].includes(id)) roles[ID_LIST[role]].push(id);
  }
  return roles;
}

/** The address an action selects by `addressId` or `addressKey` (exactly one of them). */
export function findAddress(customer: Customer, action: Draft, idField = 'addressId', keyField = 'addressKey'): CustomerAddress {
  const id = action[idField];
  const key = action[keyField];
  const byId = id !== undefined && id !== null;
  const byKey = key !== undefined && key !== null;
  if (byId === byKey) throw invalidInput(`Exactly one of '${idField}' and '${keyField}' must select the address.`, { field: idField });
  const found = customer.addresses.find((address) => (byId ? address.id === id : address.key === key));
  if (found === undefined) throw addressNotFound(byId ? `id '${String(id)}'` : `key '${String(key)}'`);
  return found;
}

/** Whether the action names an address at all (the `setDefault…Address` actions unset without one). */
export function selectsAddress(action: Draft): boolean {
  return (action.addressId !== undefined && action.addressId !== null) || (action.addressKey !== undefined && action.addressKey !== null);
}

/**
 * An action naming an address the customer does not have: the platform's InvalidOperation (the
 * request is well-formed, the customer's state does not allow it).
 */
function addressNotFound(what: string): ApiError {
  return new ApiError(400, { code: 'InvalidOperation', message: `The customer does not have an address with the ${what}.` });
}

/** The roles an address has, for CustomerAddressChanged/Removed (`addressRoles`). */
export function rolesOf(customer: Customer, addressId: string): AddressRole[] {
  return (['Shipping', 'Billing'] as const).filter((role) => customer[ID_LIST[role]].includes(addressId));
}
