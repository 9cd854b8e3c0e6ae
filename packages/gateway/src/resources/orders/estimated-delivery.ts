import { isDeepStrictEqual } from 'node:util';
import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import type { ActionHandler } from '../shared/update-actions.js';
import { optionalDateTime } from '../staged-quotes/actions.js';
import type { EstimatedDelivery } from '../carts/shipping.js';
import type { Order } from './order.js';
import { asObject } from './values.js';

/** Reference EstimatedDelivery: `from` and `until` instants; "`until` must be equal to or later than `from`". */
function estimatedDelivery(value: unknown, field: string): EstimatedDelivery | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asObject(value, field);
  const from = optionalDateTime(draft.from, `${field}.from`);
  const until = optionalDateTime(draft.until, `${field}.until`);
  if (from !== undefined && until !== undefined && Date.parse(until) < Date.parse(from)) {
    throw invalidInput(`'${field}.until' must not be before '${field}.from'.`, { field: `${field}.until`, invalidValue: draft.until });
  }
  return { ...(from === undefined ? {} : { from }), ...(until === undefined ? {} : { until }) };
}

/**
 * OrderSetEstimatedDeliveryAction: the window on the order's ShippingInfo. `shippingKey` "is
 * required and valid only for Orders with `Multiple` ShippingMode" (InvalidOperation otherwise);
 * Herald's orders ship in `Single` mode. Message OrderEstimatedDeliverySet {estimatedDelivery?}.
 */
export const setEstimatedDelivery: ActionHandler<Order> = (order, action): MessagePayload[] => {
  if (action.shippingKey !== undefined && action.shippingKey !== null) {
    throw invalidOperation(`'shippingKey' is valid only for an order in Multiple shipping mode; this order ships in ${order.shippingMode} mode.`);
  }
  const info = order.shippingInfo;
  if (info === undefined) throw invalidOperation('The order has no shipping method to estimate a delivery for.');
  const window = estimatedDelivery(action.estimatedDelivery, 'estimatedDelivery');
  if (isDeepStrictEqual(window, info.estimatedDelivery)) return [];
  if (window === undefined) delete info.estimatedDelivery;
  else info.estimatedDelivery = window;
  return [{ type: 'OrderEstimatedDeliverySet', ...(window === undefined ? {} : { estimatedDelivery: window }) }];
};
