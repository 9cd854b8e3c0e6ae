import { invalidOperation, type MessagePayload, type Reference } from '@herald/model';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Order } from './order.js';

/** Reference PaymentInfo: the payments of an order (references, expandable as `paymentInfo.payments[*]`). */
export interface PaymentInfo {
  payments: Array<Reference<'payment'>>;
}

/** OrderAddPaymentAction {payment: PaymentResourceIdentifier}: OrderPaymentAdded {paymentRef}. */
const addPayment: ActionHandler<Order> = async (order, action, { reader }): Promise<MessagePayload[]> => {
  const payment = await loadReferenced(reader.get, 'payment', identifierLocator(action.payment, 'payment', 'payment'));
  const payments = order.paymentInfo?.payments ?? [];
  if (payments.some((known) => known.id === payment.id)) throw invalidOperation(`The payment '${payment.id}' is already added to the order.`);
  const paymentRef: Reference<'payment'> = { typeId: 'payment', id: payment.id };
  order.paymentInfo = { payments: [...payments, paymentRef] };
  return [{ type: 'OrderPaymentAdded', paymentRef }];
};

/**
 * OrderRemovePaymentAction: OrderPaymentRemoved {paymentRef, removedPaymentInfo}, the latter true
 * when no payment is left (then the order has no `paymentInfo`, as before its first payment).
 * The payment itself need not exist any more: deleting a payment leaves its reference behind.
 */
const removePayment: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const locator = identifierLocator(action.payment, 'payment', 'payment');
  if (!('id' in locator)) throw invalidOperation("'payment' must name the payment by 'id': the order keeps its payments' ids.");
  const payments = order.paymentInfo?.payments ?? [];
  if (!payments.some((known) => known.id === locator.id)) throw invalidOperation(`The payment '${locator.id}' is not a payment of the order.`);
  const remaining = payments.filter((known) => known.id !== locator.id);
  if (remaining.length === 0) delete order.paymentInfo;
  else order.paymentInfo = { payments: remaining };
  return [{ type: 'OrderPaymentRemoved', paymentRef: { typeId: 'payment', id: locator.id }, removedPaymentInfo: remaining.length === 0 }];
};

export const orderPaymentActions: ActionHandlers<Order> = { addPayment, removePayment };
