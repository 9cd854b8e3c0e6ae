import { invalidOperation, systemClock, type Clock, type MessagePayload } from '@herald/model';
import { optionalAddress } from '../shared/address.js';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { optionalString } from '../shared/validation.js';
import { optionalLocale } from '../carts/draft.js';
import { loadReferenced } from '../shared/references.js';
import { transitionStateAction } from '../quotes/workflow.js';
import { deliveryActions } from './deliveries.js';
import { assertOrderNumberFree, oneOfStates } from './fields.js';
import { itemStateActions } from './item-states.js';
import { orderItemShippingActions } from './item-shipping.js';
import { orderAssignmentActions } from './assignment-actions.js';
import { setEstimatedDelivery } from './estimated-delivery.js';
import { orderPartCustomFieldActions } from './part-custom-fields.js';
import { parcelActions } from './parcels.js';
import { orderPaymentActions } from './payments.js';
import { returnActions } from './returns.js';
import { updateSyncInfo } from './sync-info.js';
import { ORDER_CUSTOM_FIELDS_TYPE_ID, ORDER_STATES, PAYMENT_STATES, SHIPMENT_STATES, type Order } from './order.js';

/**
 * A change of one of the order's three states (reference OrderChange{Order,Shipment,Payment}StateAction),
 * with its message {<field>, old<Field>?}. Setting the current value changes nothing.
 */
function changeState<F extends 'orderState' | 'shipmentState' | 'paymentState'>(
  field: F,
  values: readonly NonNullable<Order[F]>[],
  messageType: string,
): ActionHandler<Order> {
  const oldField = `old${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  return (order, action): MessagePayload[] => {
    const to = oneOfStates(values, action[field], field);
    const from = order[field];
    if (from === to) return [];
    order[field] = to as Order[F];
    return [{ type: messageType, [field]: to, ...(from === undefined ? {} : { [oldField]: from }) }];
  };
}

/** Reference setOrderNumber: "Must be unique across a Project. Once set, the value cannot be changed." */
const setOrderNumber: ActionHandler<Order> = async (order, action, { ctx, reader }): Promise<void> => {
  const orderNumber = optionalString(action.orderNumber, 'orderNumber', 256);
  if (orderNumber === order.orderNumber) return;
  if (order.orderNumber !== undefined) throw invalidOperation(`The order has the orderNumber '${order.orderNumber}'; once set, it cannot be changed.`);
  if (orderNumber === undefined) return;
  await assertOrderNumberFree(reader.tx, ctx.projectKey, orderNumber);
  order.orderNumber = orderNumber;
};

/** An address setter with its message {address?, oldAddress?} (reference OrderSet*AddressAction). */
function setAddress(field: 'shippingAddress' | 'billingAddress', messageType: string): ActionHandler<Order> {
  return (order, action): MessagePayload[] => {
    const address = optionalAddress(action.address, 'address');
    const oldAddress = order[field];
    if (address === undefined) delete order[field];
    else order[field] = address;
    return [{ type: messageType, ...(address === undefined ? {} : { address }), ...(oldAddress === undefined ? {} : { oldAddress }) }];
  };
}

/** A string setter with its message {<name>?, old<Name>?} (setCustomerEmail, setPurchaseOrderNumber). */
function setText(field: 'customerEmail' | 'purchaseOrderNumber', actionField: string, messageType: string): ActionHandler<Order> {
  const oldName = `old${actionField.charAt(0).toUpperCase()}${actionField.slice(1)}`;
  return (order, action): MessagePayload[] => {
    const value = optionalString(action[actionField], actionField);
    const old = order[field];
    if (value === old) return [];
    if (value === undefined) delete order[field];
    else order[field] = value;
    return [{ type: messageType, ...(value === undefined ? {} : { [actionField]: value }), ...(old === undefined ? {} : { [oldName]: old }) }];
  };
}

/** Reference setLocale: no message. */
const setLocale: ActionHandler<Order> = (order, action): void => {
  const locale = optionalLocale(action.locale);
  if (locale === undefined) delete order.locale;
  else order.locale = locale;
};

/**
 * Reference OrderSetCustomerIdAction {customerId?}: an existing customer, or none. Message
 * OrderCustomerSet {customer?, oldCustomer?} (Herald has no customer groups to carry along).
 */
const setCustomerId: ActionHandler<Order> = async (order, action, { reader }): Promise<MessagePayload[]> => {
  const customerId = optionalString(action.customerId, 'customerId', 256);
  const old = order.customerId;
  if (customerId === old) return [];
  if (customerId === undefined) delete order.customerId;
  else order.customerId = (await loadReferenced(reader.get, 'customer', { id: customerId })).id;
  const reference = (id: string | undefined) => (id === undefined ? {} : { typeId: 'customer', id });
  return [
    {
      type: 'OrderCustomerSet',
      ...(customerId === undefined ? {} : { customer: reference(customerId) }),
      ...(old === undefined ? {} : { oldCustomer: reference(old) }),
    },
  ];
};

/** The actions on the order's own fields. */
const ownFieldActions: ActionHandlers<Order> = {
  changeOrderState: changeState('orderState', ORDER_STATES, 'OrderStateChanged'),
  changeShipmentState: changeState('shipmentState', SHIPMENT_STATES, 'OrderShipmentStateChanged'),
  changePaymentState: changeState('paymentState', PAYMENT_STATES, 'OrderPaymentStateChanged'),
  setOrderNumber,
  transitionState: transitionStateAction<Order>('OrderState', 'OrderStateTransition'),
  setShippingAddress: setAddress('shippingAddress', 'OrderShippingAddressSet'),
  setBillingAddress: setAddress('billingAddress', 'OrderBillingAddressSet'),
  setCustomerEmail: setText('customerEmail', 'email', 'OrderCustomerEmailSet'),
  setPurchaseOrderNumber: setText('purchaseOrderNumber', 'purchaseOrderNumber', 'OrderPurchaseOrderNumberSet'),
  setLocale,
  setCustomerId,
  ...customFieldActions<Order>(ORDER_CUSTOM_FIELDS_TYPE_ID, { replacedAs: 'previous' }),
};

/**
 * Reference OrderUpdateAction (payments included), except the catalogue-bound edits.
 * Timestamps the actions record (deliveries, parcels, returns, transition dates) read `clock`.
 */
export function createOrderActions(clock: Clock = systemClock): ActionHandlers<Order> {
  return {
    ...ownFieldActions,
    ...itemStateActions(clock),
    ...deliveryActions(clock),
    ...parcelActions(clock),
    ...returnActions(clock),
    ...orderItemShippingActions,
    ...orderPaymentActions,
    ...orderAssignmentActions,
    ...orderPartCustomFieldActions,
    setEstimatedDelivery,
    updateSyncInfo: updateSyncInfo(clock),
  };
}
