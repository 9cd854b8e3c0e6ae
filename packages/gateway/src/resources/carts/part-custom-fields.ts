import { addressCustomFieldActions, shippingCustomFieldActions } from '../shared/checkout-part-custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import type { Cart } from './cart.js';

/**
 * Custom fields on the parts of a cart that the item actions (item-actions.ts) do not cover: the
 * billing, shipping and item shipping addresses and the shipping (reference
 * CartSet{Billing,Shipping,ItemShipping}AddressCustom{Type,Field}Action,
 * CartSetShippingCustom{Type,Field}Action). Merchant actions: MyCartUpdateAction has none of them.
 * The shipping's custom fields are the cart's `shippingCustomFields` in `Single` mode; an order
 * made from the cart keeps them (orders/from-cart.ts).
 */
export const cartPartCustomFieldActions: ActionHandlers<Cart> = {
  ...addressCustomFieldActions<Cart>('cart'),
  ...shippingCustomFieldActions<Cart>('cart'),
};
