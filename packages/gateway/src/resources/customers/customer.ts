import type { BaseResource, CustomFields, KeyReference } from '@herald/model';

export const CUSTOMER_TYPE_ID = 'customer';

/**
 * A Customer: the minimum the OAuth password flow, `/me` and later references need. The password
 * is NOT part of the document — documents travel in responses, messages, deliveries and query
 * predicates — its scrypt hash lives in `customer_passwords` (credentials.ts).
 */
export interface Customer extends BaseResource {
  key?: string;
  email: string;
  firstName?: string;
  lastName?: string;
  /** In-store customers belong to the store they were created in; global customers to none. */
  stores: Array<KeyReference<'store'>>;
  isEmailVerified: boolean;
  authenticationMode: 'Password';
  custom?: CustomFields;
}

/** The store a customer belongs to, or '' for a global customer (matches the e-mail index). */
export function storeKeyOf(customer: Pick<Customer, 'stores'>): string {
  return customer.stores[0]?.key ?? '';
}
