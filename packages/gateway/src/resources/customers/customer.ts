import type { BaseResource, CustomFields, KeyReference, Reference } from '@herald/model';
import type { AddressFields } from '../shared/address.js';

export const CUSTOMER_TYPE_ID = 'customer';

/** types/customer/CustomerGroupAssignment.raml: one of the groups a customer belongs to. */
export interface CustomerGroupAssignment {
  customerGroup: Reference<'customer-group'>;
}

/** types/customer/AuthenticationMode.raml: whether the customer has a password. */
export type AuthenticationMode = 'Password' | 'ExternalAuth';

/** An address of a customer (reference type Address): `id` is Herald's, `key` the client's. */
export type CustomerAddress = AddressFields & { id: string; custom?: CustomFields };

/**
 * A Customer as the reference's Customer type describes it. The password is NOT part of the
 * document — documents travel in responses, messages, deliveries and query predicates — its scrypt
 * hash lives in `customer_passwords` (credentials.ts), and only while `authenticationMode` is
 * `Password`. `customerGroup` is set by the draft and setCustomerGroup, `customerGroupAssignments`
 * by the draft and the assignment actions (group-assignments.ts).
 */
export interface Customer extends BaseResource {
  key?: string;
  customerNumber?: string;
  externalId?: string;
  email: string;
  firstName?: string;
  lastName?: string;
  middleName?: string;
  title?: string;
  salutation?: string;
  dateOfBirth?: string;
  companyName?: string;
  vatId?: string;
  locale?: string;
  addresses: CustomerAddress[];
  defaultShippingAddressId?: string;
  shippingAddressIds: string[];
  defaultBillingAddressId?: string;
  billingAddressIds: string[];
  isEmailVerified: boolean;
  customerGroup?: Reference<'customer-group'>;
  customerGroupAssignments: CustomerGroupAssignment[];
  /** Empty for global customers; in-store customers belong to the stores listed. */
  stores: Array<KeyReference<'store'>>;
  authenticationMode: AuthenticationMode;
  custom?: CustomFields;
}

/**
 * The first store a customer belongs to, or '' for a global customer: the e-mail index of
 * migration 002 is over this value.
 */
export function storeKeyOf(customer: Pick<Customer, 'stores'>): string {
  return customer.stores[0]?.key ?? '';
}

/** Whether the customer belongs to `storeKey` (one of its stores). */
export function belongsToStore(customer: Pick<Customer, 'stores'>, storeKey: string): boolean {
  return customer.stores.some((store) => store.key === storeKey);
}

/**
 * The fields the reference marks required, for documents written before Herald kept them
 * (Customer.raml: `addresses`, `shippingAddressIds`, `billingAddressIds`, `customerGroupAssignments`).
 * Applied on every read, so answers and updates always see the full shape.
 */
export function withRequiredFields(customer: Customer): Customer {
  const stored: Partial<Customer> = customer;
  stored.addresses ??= [];
  stored.shippingAddressIds ??= [];
  stored.billingAddressIds ??= [];
  stored.customerGroupAssignments ??= [];
  stored.stores ??= [];
  stored.authenticationMode ??= 'Password';
  return customer;
}
