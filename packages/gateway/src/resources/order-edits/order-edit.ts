import type { BaseResource, CustomFields, ErrorObject, MessagePayload, Reference } from '@herald/model';
import type { CentPrecisionMoney } from '../shared/money.js';
import type { UpdateAction } from '../shared/update-actions.js';
import type { Order } from '../orders/order.js';
import type { TaxedPrice } from '../quote-requests/quote-request.js';

export const ORDER_EDIT_TYPE_ID = 'order-edit';

/** Reference OrderExcerpt: the order's prices and version before or after an applied edit. */
export interface OrderExcerpt {
  totalPrice: CentPrecisionMoney;
  taxedPrice?: TaxedPrice;
  version: number;
}

/** Reference OrderEditApplied (stored once applied; queryable as `result(type = "Applied")`). */
export interface OrderEditAppliedResult {
  type: 'Applied';
  appliedAt: string;
  excerptBeforeEdit: OrderExcerpt;
  excerptAfterEdit: OrderExcerpt;
}

/**
 * Reference OrderEditResult. What is stored is NotProcessed or Applied; PreviewSuccess and
 * PreviewFailure are "calculated on the fly" from the order's current version whenever an
 * unapplied edit is answered (OrderEditPreviewSuccess.raml), so they are never stored.
 */
export type OrderEditResult =
  | { type: 'NotProcessed' }
  | OrderEditAppliedResult
  | { type: 'PreviewSuccess'; preview: Order; messagePayloads: MessagePayload[] }
  | { type: 'PreviewFailure'; errors: ErrorObject[] };

export type StoredOrderEditResult = Extract<OrderEditResult, { type: 'NotProcessed' | 'Applied' }>;

/** Reference OrderEdit (types/order-edit/OrderEdit.raml). */
export interface OrderEdit extends BaseResource {
  key?: string;
  resource: Reference<'order'>;
  stagedActions: UpdateAction[];
  result: OrderEditResult;
  comment?: string;
  custom?: CustomFields;
}
