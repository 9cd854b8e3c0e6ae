import { duplicateField, invalidInput, type MessagePayload } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { optionalString, type Draft } from '../shared/validation.js';
import { workflowState } from '../quotes/workflow.js';
import { ORDER_STATES, PAYMENT_STATES, SHIPMENT_STATES, type Order } from './order.js';

export const orderCreated = (order: Order): MessagePayload => ({ type: 'OrderCreated', order });

/**
 * The ShippingInfo of a new order: the cart's or quote's, which also holds the order's deliveries
 * (orders/deliveries.ts), none yet.
 */
export function orderShippingInfo<S extends object>(shippingInfo: S | undefined): (S & { deliveries: [] }) | undefined {
  return shippingInfo === undefined ? undefined : { ...shippingInfo, deliveries: [] };
}

export function oneOfStates<T extends string>(values: readonly T[], value: unknown, field: string): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${values.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

/** The states and number an order draft may set (OrderFromCartDraft, OrderFromQuoteDraft). */
export type OrderDraftFields = Pick<Order, 'orderNumber' | 'orderState' | 'shipmentState' | 'paymentState' | 'state'>;

export async function orderDraftFields(draft: Draft, ctx: RequestContext): Promise<OrderDraftFields> {
  const fields: OrderDraftFields = {
    // Reference: orderState "default: Open".
    orderState: draft.orderState === undefined || draft.orderState === null ? 'Open' : oneOfStates(ORDER_STATES, draft.orderState, 'orderState'),
  };
  const orderNumber = optionalString(draft.orderNumber, 'orderNumber', 256);
  if (orderNumber !== undefined) fields.orderNumber = orderNumber;
  if (draft.shipmentState !== undefined && draft.shipmentState !== null)
    fields.shipmentState = oneOfStates(SHIPMENT_STATES, draft.shipmentState, 'shipmentState');
  if (draft.paymentState !== undefined && draft.paymentState !== null) fields.paymentState = oneOfStates(PAYMENT_STATES, draft.paymentState, 'paymentState');
  if (draft.state !== undefined && draft.state !== null) {
    fields.state = { typeId: 'state', id: (await workflowState(ctx.load, draft.state, 'state', 'OrderState')).id };
  }
  return fields;
}

/**
 * Reference Order.orderNumber: "unique across a Project". Checked in the writing transaction,
 * after a transaction-scoped lock on the number, so two orders cannot take it at once.
 */
export async function assertOrderNumberFree(tx: Queryable, projectKey: string, orderNumber: string | undefined): Promise<void> {
  if (orderNumber === undefined) return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`order-number:${projectKey}:${orderNumber}`]);
  const taken = await tx.query(`SELECT id FROM resources WHERE project_key = $1 AND type_id = 'order' AND doc ->> 'orderNumber' = $2 LIMIT 1`, [
    projectKey,
    orderNumber,
  ]);
  if (taken.rows.length > 0) throw duplicateField('orderNumber', orderNumber);
}
