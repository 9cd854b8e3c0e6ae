import { invalidOperation, type MessagePayload, type Reference } from '@herald/model';
import { testedDocumentSql, type Queryable } from '@herald/store';
import { updateReads } from '../carts/catalogue.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Order } from './order.js';

/** Reference PaymentInfo: the payments of an order or cart (references, expandable as `paymentInfo.payments[*]`). */
export interface PaymentInfo {
  payments: Array<Reference<'payment'>>;
}

/** An order or a cart: both hold their payments in `paymentInfo` (Order.raml, Cart.raml). */
interface PaymentHolder {
  id: string;
  paymentInfo?: PaymentInfo;
}

/** The messages a holder's payment actions return (orders have OrderPaymentAdded/Removed; carts none). */
interface PaymentMessages {
  added?: string;
  removed?: string;
}

/** Orders and carts as their index holds them (without items): what the payment test reads is outside them. */
const HOLDER_DOC = testedDocumentSql('order', false);

/**
 * {Order,Cart}AddPaymentAction: the payment "must not be assigned to another Order or active Cart
 * already" (one `@>` query over both; a Cart that was ordered passes its payments to its order).
 */
async function assertUnassigned(db: Queryable, projectKey: string, paymentId: string, holderId: string): Promise<void> {
  const held = JSON.stringify({ paymentInfo: { payments: [{ id: paymentId }] } });
  const found = await db.query<{ id: string; type_id: string }>(
    `SELECT r.id, r.type_id FROM resources r WHERE r.project_key = $1 AND r.type_id IN ('order', 'cart') AND ${HOLDER_DOC} @> $2::jsonb AND r.id <> $3
       AND (r.type_id = 'order' OR ${HOLDER_DOC} @> '{"cartState": "Active"}'::jsonb) LIMIT 1`,
    [projectKey, held, holderId],
  );
  const other = found.rows[0];
  if (other !== undefined) throw invalidOperation(`The payment '${paymentId}' is already assigned to the ${other.type_id} '${other.id}'.`);
}

function addPayment<T extends PaymentHolder>(what: string, messages: PaymentMessages): ActionHandler<T> {
  return async (holder, action, { ctx, reader }): Promise<MessagePayload[]> => {
    const payment = await loadReferenced(reader.get, 'payment', identifierLocator(action.payment, 'payment', 'payment'));
    const payments = holder.paymentInfo?.payments ?? [];
    if (payments.some((known) => known.id === payment.id)) throw invalidOperation(`The payment '${payment.id}' is already added to the ${what}.`);
    // Within the update's transaction when it holds one: PGlite has one connection, which that transaction holds.
    await assertUnassigned(updateReads(ctx, reader).db, ctx.projectKey, payment.id, holder.id);
    const paymentRef: Reference<'payment'> = { typeId: 'payment', id: payment.id };
    holder.paymentInfo = { payments: [...payments, paymentRef] };
    return messages.added === undefined ? [] : [{ type: messages.added, paymentRef }];
  };
}

/**
 * {Order,Cart}RemovePaymentAction: OrderPaymentRemoved {paymentRef, removedPaymentInfo}, the latter
 * true when no payment is left (then no `paymentInfo`, as before the first payment). The payment
 * itself need not exist any more: deleting a payment leaves its reference behind.
 */
function removePayment<T extends PaymentHolder>(what: string, messages: PaymentMessages): ActionHandler<T> {
  return (holder, action): MessagePayload[] => {
    const locator = identifierLocator(action.payment, 'payment', 'payment');
    if (!('id' in locator)) throw invalidOperation(`'payment' must name the payment by 'id': the ${what} keeps its payments' ids.`);
    const payments = holder.paymentInfo?.payments ?? [];
    if (!payments.some((known) => known.id === locator.id)) throw invalidOperation(`The payment '${locator.id}' is not a payment of the ${what}.`);
    const remaining = payments.filter((known) => known.id !== locator.id);
    if (remaining.length === 0) delete holder.paymentInfo;
    else holder.paymentInfo = { payments: remaining };
    const paymentRef = { typeId: 'payment', id: locator.id };
    return messages.removed === undefined ? [] : [{ type: messages.removed, paymentRef, removedPaymentInfo: remaining.length === 0 }];
  };
}

/** addPayment and removePayment of `what` (an order or a cart). */
export function paymentActions<T extends PaymentHolder>(what: 'order' | 'cart', messages: PaymentMessages = {}): ActionHandlers<T> {
  return { addPayment: addPayment<T>(what, messages), removePayment: removePayment<T>(what, messages) };
}

export const orderPaymentActions: ActionHandlers<Order> = paymentActions<Order>('order', { added: 'OrderPaymentAdded', removed: 'OrderPaymentRemoved' });
