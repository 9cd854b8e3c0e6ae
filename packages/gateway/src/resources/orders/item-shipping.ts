import type { Cart } from '../carts/cart.js';
import { itemShippingActions } from '../carts/item-shipping.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Order } from './order.js';

/** What the cart's item shipping handlers read and change: the same fields, with the same rules, on an order. */
type ItemShippingFields = Pick<Cart, 'lineItems' | 'customLineItems' | 'itemShippingAddresses'>;

/**
 * The reference's Order{Add,Update,Remove}ItemShippingAddressAction and
 * Order{Set,}{Custom,}LineItemShippingDetailsAction are the cart's actions on the order's copy of
 * those fields (no messages in the reference, as for carts). The handlers touch only
 * ItemShippingFields; an order's items differ from a cart's in `state` alone, which they never read.
 */
function onOrder(handler: ActionHandler<Cart>): ActionHandler<Order> {
  return (order, action, scope) => handler(order as unknown as ItemShippingFields as Cart, action, scope);
}

export const orderItemShippingActions: ActionHandlers<Order> = Object.fromEntries(
  Object.entries(itemShippingActions).map(([name, handler]) => [name, onOrder(handler)]),
);
