import { ApiError } from '@herald/model';
import { ORDER_EDIT_TYPE_ID, type OrderEdit } from '../order-edits/order-edit.js';
import { resultOf } from '../order-edits/preview.js';
import type { Order } from '../orders/order.js';
import type { RequestContext } from '../shared/context.js';
import { loadReferenced } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';

/** EditPreviewFailedError.message as the reference words it (types/error/EditPreviewFailedError.raml). */
const PREVIEW_FAILED = 'Error while applying staged actions. ShippingMethods could not be determined.';

/**
 * The order an OrderEdit results in, which matching-orderedit matches shipping methods for
 * (resources/shipping-methods.raml): the preview of its staged actions on the order's current
 * version, computed as every answer of the edit computes it (order-edits/preview.ts); for an edit
 * applied already, the order as it is now. A preview that fails is the reference's
 * EditPreviewFailed (400), carrying the OrderEditPreviewFailure as `result`.
 */
export async function orderResultingFrom(orderEditId: string, accepted: ActionHandlers<Order>, ctx: RequestContext): Promise<Order> {
  const edit = await loadReferenced<OrderEdit>(ctx.load, ORDER_EDIT_TYPE_ID, { id: orderEditId });
  const result = await resultOf(edit, accepted, ctx);
  if (result.type === 'PreviewFailure') throw new ApiError(400, { code: 'EditPreviewFailed', message: PREVIEW_FAILED, result });
  if (result.type === 'PreviewSuccess') return result.preview;
  return loadReferenced<Order>(ctx.load, 'order', { id: edit.resource.id });
}
