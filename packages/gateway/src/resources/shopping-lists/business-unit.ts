import { invalidInput, type KeyReference } from '@herald/model';
import { requireAssociate, type BusinessUnitLookup } from '../business-units/associates.js';
import { BUSINESS_UNIT_TYPE_ID, type BusinessUnit } from '../business-units/business-unit.js';
import type { ShoppingList } from './shopping-list.js';

type UnitFields = Pick<ShoppingList, 'customer' | 'businessUnit' | 'store'>;

/**
 * ShoppingListDraft.businessUnit: "When the `customer` of the Shopping List is set, the Customer
 * must be an Associate of the Business Unit." Checked whenever either field is set (draft,
 * setBusinessUnit, setCustomer); the unit must exist (400 ReferencedResourceNotFound) and a
 * customer who is not one of its associates is 403 AssociateMissingPermission, as for carts.
 */
export async function assertCustomerIsAssociate(lookup: BusinessUnitLookup, projectKey: string, list: UnitFields): Promise<void> {
  if (list.customer === undefined || list.businessUnit === undefined) return;
  await requireAssociate(lookup, projectKey, { key: list.businessUnit.key }, list.customer.id);
}

/**
 * The unit's Stores: its own (`storeMode` Explicit), else those of the nearest ancestor that sets
 * them ("inherited from a parent"); `ancestors` runs from the Company down to the direct parent.
 */
async function storesOfUnit(lookup: BusinessUnitLookup, projectKey: string, key: string): Promise<ReadonlyArray<KeyReference<'store'>>> {
  let unit = await lookup.get<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, { key });
  for (const ancestor of [...(unit?.ancestors ?? [])].reverse()) {
    if (unit === undefined || unit.storeMode === 'Explicit') break;
    unit = await lookup.get<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, { key: ancestor.key });
  }
  return unit?.storeMode === 'Explicit' ? unit.stores : [];
}

/**
 * BusinessUnit.stores: "If the Business Unit has Stores defined, then all of its … Shopping Lists
 * must belong to one of the Business Unit's Stores"; ShoppingListSetBusinessUnitAction: the unit
 * "must have access to the Store that is set on the Shopping List". A list without a store is
 * not limited. 400 InvalidInput naming `field` (the one the request set).
 */
export async function assertUnitHasStore(lookup: BusinessUnitLookup, projectKey: string, list: UnitFields, field: string): Promise<void> {
  if (list.businessUnit === undefined || list.store === undefined) return;
  const stores = await storesOfUnit(lookup, projectKey, list.businessUnit.key);
  const storeKey = list.store.key;
  if (stores.length > 0 && !stores.some((store) => store.key === storeKey)) {
    throw invalidInput(`The business unit '${list.businessUnit.key}' has no access to the store '${storeKey}'.`, { field });
  }
}

/** Both rules of a list's business unit, after a write of `field`. */
export async function assertBusinessUnitRules(lookup: BusinessUnitLookup, projectKey: string, list: UnitFields, field: string): Promise<void> {
  await assertCustomerIsAssociate(lookup, projectKey, list);
  await assertUnitHasStore(lookup, projectKey, list, field);
}
