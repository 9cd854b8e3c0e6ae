import type { MessagePayload } from '@herald/model';
import type { Cart } from '../carts/cart.js';
import { customShippingActions } from '../carts/custom-shipping.js';
import type { ActionHandler } from '../shared/update-actions.js';
import type { Order } from './order.js';

/** What the cart's setEstimatedDelivery reads and changes: the same fields, with the same rules, on an order. */
type EstimatedDeliveryFields = Pick<Cart, 'shippingMode' | 'shippingInfo'>;

const onCart = customShippingActions.setEstimatedDelivery;
if (onCart === undefined) throw new Error('carts/custom-shipping.ts has no setEstimatedDelivery handler.');

/**
 * OrderSetEstimatedDeliveryAction is the cart's action on the order's ShippingInfo (the same
 * EstimatedDelivery checks; `shippingKey` InvalidOperation in `Single` mode; InvalidOperation
 * without a shipping method), with the order's message OrderEstimatedDeliverySet {estimatedDelivery?}.
 */
export const setEstimatedDelivery: ActionHandler<Order> = async (order, action, scope): Promise<MessagePayload[]> => {
  const messages = (await onCart(order as unknown as EstimatedDeliveryFields as Cart, action, scope)) ?? [];
  return messages.map((message) => (message.type === 'CartEstimatedDeliverySet' ? { ...message, type: 'OrderEstimatedDeliverySet' } : message));
};
