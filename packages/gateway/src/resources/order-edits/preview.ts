import { ApiError, resourceNotFound, type MessagePayload } from '@herald/model';
import type { TransactionReader } from '@herald/store';
import type { Order } from '../orders/order.js';
import type { RequestContext } from '../shared/context.js';
import { applyActions, type ActionHandlers, type UpdateAction } from '../shared/update-actions.js';
import type { OrderEdit, OrderEditResult, OrderExcerpt } from './order-edit.js';

/** The order after the staged actions, and the messages they produce; ApiErrors are the edit's failure. */
export async function runStagedActions(
  actions: ActionHandlers<Order>,
  order: Order,
  staged: readonly UpdateAction[],
  ctx: RequestContext,
  reader: TransactionReader,
): Promise<{ order: Order; messages: MessagePayload[] }> {
  const edited = structuredClone(order);
  const messages = await applyActions(actions, edited, staged, { ctx, reader });
  return { order: edited, messages };
}

/**
 * OrderEditPreviewSuccess / OrderEditPreviewFailure: the staged actions dry-run on the order's
 * current version ("not from the Order version at the time the OrderEdit was created"), for an
 * edit not applied yet. An applied edit answers its stored OrderEditApplied.
 */
export async function resultOf(edit: OrderEdit, actions: ActionHandlers<Order>, ctx: RequestContext): Promise<OrderEditResult> {
  if (edit.result.type === 'Applied') return edit.result;
  const order = await ctx.load<Order>('order', { id: edit.resource.id });
  if (order === undefined) return { type: 'PreviewFailure', errors: resourceNotFound(`The order '${edit.resource.id}' was not found.`).errors };
  const reader: TransactionReader = { get: (typeId, locator) => ctx.load(typeId, locator), tx: ctx.db };
  try {
    const { order: preview, messages } = await runStagedActions(actions, order, edit.stagedActions, ctx, reader);
    return { type: 'PreviewSuccess', preview, messagePayloads: messages };
  } catch (error) {
    if (error instanceof ApiError) return { type: 'PreviewFailure', errors: error.errors };
    throw error;
  }
}

/** Reference OrderExcerpt of an order version. */
export function excerptOf(order: Order, version: number): OrderExcerpt {
  return { totalPrice: order.totalPrice, ...(order.taxedPrice === undefined ? {} : { taxedPrice: order.taxedPrice }), version };
}
