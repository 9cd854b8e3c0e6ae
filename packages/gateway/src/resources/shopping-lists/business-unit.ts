import { requireAssociate, type BusinessUnitLookup } from '../business-units/associates.js';
import type { ShoppingList } from './shopping-list.js';

/**
 * ShoppingListDraft.businessUnit: "When the `customer` of the Shopping List is set, the Customer
 * must be an Associate of the Business Unit." Checked whenever either field is set (draft,
 * setBusinessUnit, setCustomer); the unit must exist (400 ReferencedResourceNotFound) and a
 * customer who is not one of its associates is 403 AssociateMissingPermission, as for carts.
 */
export async function assertCustomerIsAssociate(
  lookup: BusinessUnitLookup,
  projectKey: string,
  list: Pick<ShoppingList, 'customer' | 'businessUnit'>,
): Promise<void> {
  if (list.customer === undefined || list.businessUnit === undefined) return;
  await requireAssociate(lookup, projectKey, { key: list.businessUnit.key }, list.customer.id);
}
