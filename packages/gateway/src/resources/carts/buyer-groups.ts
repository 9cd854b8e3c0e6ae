import type { KeyReference } from '@herald/model';
import type { BusinessUnit } from '../business-units/business-unit.js';
import type { Customer } from '../customers/customer.js';
import type { RequestContext } from '../shared/context.js';

/*
 * Multiple customer groups on carts (carts.raml, Replicate cart: "If using the
 * customerGroupAssignments field (for multiple Customer Groups), the Cart no longer keeps a direct
 * reference to a Customer Group. If a Customer's group assignments change, the Cart and its Line
 * Item prices are not updated automatically. Prices are only updated when the Cart is changed via a
 * direct update action"). BusinessUnit.customerGroupAssignments "are considered during line Item
 * price selection, if provided (non-null)".
 *
 * Herald's reading: a cart whose business unit provides assignments prices with those (an empty
 * list: with no group); else a customer with assignments prices with the customer's. Either way the
 * cart keeps no `customerGroup` unless one is named (CartDraft.customerGroup, setCustomerGroup),
 * which then wins. Prices follow the assignments as they are at each update action (every one
 * reprices), not when the customer or unit changes.
 */

/** Who buys: the cart's customer and business unit. */
export interface Buyer {
  customerId?: string | undefined;
  businessUnit?: KeyReference<'business-unit'> | undefined;
}

type Load = RequestContext['load'];

const idsOf = (assignments: ReadonlyArray<{ customerGroup: { id: string } }>): string[] => assignments.map((assignment) => assignment.customerGroup.id);

/** The groups of the unit's assignments, or undefined when it provides none. */
async function unitGroupIds(load: Load, businessUnit: KeyReference<'business-unit'>): Promise<string[] | undefined> {
  const unit = await load<BusinessUnit>('business-unit', { key: businessUnit.key });
  return unit?.customerGroupAssignments === undefined ? undefined : idsOf(unit.customerGroupAssignments);
}

/** Whether the cart's business unit provides assignments: then they price it, not the customer's group. */
export async function unitProvidesAssignments(load: Load, businessUnit: KeyReference<'business-unit'>): Promise<boolean> {
  return (await unitGroupIds(load, businessUnit)) !== undefined;
}

/** The groups of the buyer's assignments, or undefined when neither the unit nor the customer has any. */
export async function buyerGroupIds(load: Load, buyer: Buyer): Promise<string[] | undefined> {
  const unitGroups = buyer.businessUnit === undefined ? undefined : await unitGroupIds(load, buyer.businessUnit);
  if (unitGroups !== undefined) return unitGroups;
  if (buyer.customerId === undefined) return undefined;
  const customer = await load<Customer>('customer', { id: buyer.customerId });
  const assignments = customer?.customerGroupAssignments ?? [];
  return assignments.length > 0 ? idsOf(assignments) : undefined;
}

/** Whether the buyer prices with assignments (then the cart keeps no direct customer group). */
export async function pricesWithAssignments(load: Load, buyer: Buyer): Promise<boolean> {
  return (await buyerGroupIds(load, buyer)) !== undefined;
}
