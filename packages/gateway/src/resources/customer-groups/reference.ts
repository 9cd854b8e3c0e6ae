import type { Reference } from '@herald/model';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { CUSTOMER_GROUP_TYPE_ID, type CustomerGroup } from './customer-group.js';

/**
 * A CustomerGroupResourceIdentifier (e.g. CustomerDraft.customerGroup) resolved to a reference by
 * id; absent or null: none. 400 ReferencedResourceNotFound when no such group exists.
 */
export async function optionalCustomerGroupReference(load: Load, value: unknown, field: string): Promise<Reference<'customer-group'> | undefined> {
  if (value === undefined || value === null) return undefined;
  const group = await loadReferenced<CustomerGroup>(load, CUSTOMER_GROUP_TYPE_ID, identifierLocator(value, field, CUSTOMER_GROUP_TYPE_ID));
  return { typeId: CUSTOMER_GROUP_TYPE_ID, id: group.id };
}
