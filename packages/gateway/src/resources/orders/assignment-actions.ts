import { invalidOperation, type KeyReference, type MessagePayload } from '@herald/model';
import { keyReference } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Order } from './order.js';

/*
 * Moving an order to another Store or Business Unit (reference OrderSetStoreAction,
 * OrderSetBusinessUnitAction). Neither re-prices the order or checks the customer's rights there:
 * "No validations are performed", "does not recalculate prices or discounts".
 */

const absent = (value: unknown): boolean => value === undefined || value === null;

/**
 * OrderSetStoreAction: a Store that exists (ReferencedResourceNotFound otherwise), or none. "Returns
 * a 400 error if `store` references the same Store the Order is currently assigned to, including
 * if you try to remove the value when no Store is currently assigned." Message OrderStoreSet {store?}.
 */
const setStore: ActionHandler<Order> = async (order, action, { reader }): Promise<MessagePayload[]> => {
  const store = absent(action.store) ? undefined : await keyReference(reader.get, 'store', action.store, 'store');
  if (store?.key === order.store?.key) {
    throw invalidOperation(store === undefined ? 'The order has no store to remove.' : `The order is already assigned to the store '${store.key}'.`);
  }
  if (store === undefined) delete order.store;
  else order.store = store;
  return [{ type: 'OrderStoreSet', ...(store === undefined ? {} : { store }) }];
};

const sameUnit = (a: KeyReference<'business-unit'> | undefined, b: KeyReference<'business-unit'> | undefined): boolean => a?.key === b?.key;

/**
 * OrderSetBusinessUnitAction: a Business Unit that exists (ReferencedResourceNotFound), or none.
 * Message OrderBusinessUnitSet {businessUnit?, oldbusinessUnit?}: the reference spells the old
 * value's field `oldbusinessUnit` (types/message/OrderBusinessUnitSetMessage.raml), and so does Herald.
 */
const setBusinessUnit: ActionHandler<Order> = async (order, action, { reader }): Promise<MessagePayload[]> => {
  const businessUnit = absent(action.businessUnit) ? undefined : await keyReference(reader.get, 'business-unit', action.businessUnit, 'businessUnit');
  const old = order.businessUnit;
  if (sameUnit(businessUnit, old)) return [];
  if (businessUnit === undefined) delete order.businessUnit;
  else order.businessUnit = businessUnit;
  return [{ type: 'OrderBusinessUnitSet', ...(businessUnit === undefined ? {} : { businessUnit }), ...(old === undefined ? {} : { oldbusinessUnit: old }) }];
};

export const orderAssignmentActions: ActionHandlers<Order> = { setStore, setBusinessUnit };
