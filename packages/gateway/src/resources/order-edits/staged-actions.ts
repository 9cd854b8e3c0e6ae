import { invalidInput, type Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { createOrderActions } from '../orders/actions.js';
import type { Order } from '../orders/order.js';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { stagedCartActions } from './cart-staged-actions.js';

/** The reference's StagedOrderUpdateAction set (types/order-edit/updates/StagedOrder*Action.raml). */
export const STAGED_ORDER_ACTIONS: readonly string[] = [
  'addCustomLineItem',
  'addDelivery',
  'addDiscountCode',
  'addItemShippingAddress',
  'addLineItem',
  'addParcelToDelivery',
  'addPayment',
  'addReturnInfo',
  'addShoppingList',
  'changeCustomLineItemMoney',
  'changeCustomLineItemQuantity',
  'changeLineItemQuantity',
  'changeOrderState',
  'changePaymentState',
  'changePriceRoundingMode',
  'changeShipmentState',
  'changeTaxCalculationMode',
  'changeTaxMode',
  'changeTaxRoundingMode',
  'importCustomLineItemState',
  'importLineItemState',
  'removeCustomLineItem',
  'removeDelivery',
  'removeDiscountCode',
  'removeItemShippingAddress',
  'removeLineItem',
  'removeParcelFromDelivery',
  'removePayment',
  'setBillingAddress',
  'setBillingAddressCustomField',
  'setBillingAddressCustomType',
  'setBusinessUnit',
  'setCountry',
  'setCustomField',
  'setCustomLineItemCustomField',
  'setCustomLineItemCustomType',
  'setCustomLineItemShippingDetails',
  'setCustomLineItemTaxAmount',
  'setCustomLineItemTaxRate',
  'setCustomShippingMethod',
  'setCustomType',
  'setCustomerEmail',
  'setCustomerGroup',
  'setCustomerId',
  'setDeliveryAddress',
  'setDeliveryAddressCustomField',
  'setDeliveryAddressCustomType',
  'setDeliveryCustomField',
  'setDeliveryCustomType',
  'setDeliveryItems',
  'setDirectDiscounts',
  'setItemShippingAddressCustomField',
  'setItemShippingAddressCustomType',
  'setLineItemCustomField',
  'setLineItemCustomType',
  'setLineItemDistributionChannel',
  'setLineItemPrice',
  'setLineItemShippingDetails',
  'setLineItemTaxAmount',
  'setLineItemTaxRate',
  'setLineItemTotalPrice',
  'setLocale',
  'setOrderNumber',
  'setOrderTotalTax',
  'setParcelCustomField',
  'setParcelCustomType',
  'setParcelItems',
  'setParcelMeasurements',
  'setParcelTrackingData',
  'setPurchaseOrderNumber',
  'setReturnInfo',
  'setReturnItemCustomField',
  'setReturnItemCustomType',
  'setReturnPaymentState',
  'setReturnShipmentState',
  'setShippingAddress',
  'setShippingAddressAndCustomShippingMethod',
  'setShippingAddressAndShippingMethod',
  'setShippingAddressCustomField',
  'setShippingAddressCustomType',
  'setShippingCustomField',
  'setShippingCustomType',
  'setShippingMethod',
  'setShippingMethodTaxAmount',
  'setShippingMethodTaxRate',
  'setShippingRateInput',
  'setStore',
  'transitionCustomLineItemState',
  'transitionLineItemState',
  'transitionState',
  'updateItemShippingAddress',
  'updateSyncInfo',
];

/**
 * The staged actions Herald accepts: those of the set that are order update actions Herald has
 * (orders/actions.ts), applied by the very same handlers, and those a cart has (line items,
 * shipping methods, taxes, discounts…), applied by the carts' handlers on a cart view of the
 * staged order (cart-staged-actions.ts). An order action wins where both have the name. The
 * others are refused when staged, with a 400 naming the action (docs/compatibility.md lists both).
 */
export function stagedOrderActions(clock: Clock, documents?: DocumentStore): ActionHandlers<Order> {
  const known: ActionHandlers<Order> = { ...stagedCartActions(documents), ...createOrderActions(clock) };
  return Object.fromEntries(
    STAGED_ORDER_ACTIONS.flatMap((name) => {
      const handler = Object.hasOwn(known, name) ? known[name] : undefined;
      return handler === undefined ? [] : [[name, handler] as const];
    }),
  );
}

/** Checks staged actions as they are staged: objects with an action name of the set that Herald accepts. */
export function stagedActionsFrom(value: unknown, field: string, accepted: ActionHandlers<Order>): UpdateAction[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`'${field}' must be an array of StagedOrderUpdateActions.`, { field });
  return value.map((action, index) => stagedAction(action, `${field}[${index}]`, accepted));
}

export function stagedAction(value: unknown, field: string, accepted: ActionHandlers<Order>): UpdateAction {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as UpdateAction).action !== 'string') {
    throw invalidInput(`'${field}' must be a StagedOrderUpdateAction: an object with an 'action' name.`, { field });
  }
  const action = value as UpdateAction;
  if (!STAGED_ORDER_ACTIONS.includes(action.action)) throw invalidInput(`'${action.action}' is no StagedOrderUpdateAction.`, { field, action: action.action });
  if (!Object.hasOwn(accepted, action.action)) {
    throw invalidInput(`The staged action '${action.action}' is not supported by Herald's order edits (see docs/compatibility.md).`, {
      field,
      action: action.action,
    });
  }
  return action;
}
