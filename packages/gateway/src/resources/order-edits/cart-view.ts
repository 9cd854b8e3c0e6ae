import { invalidOperation } from '@herald/model';
import type { Cart } from '../carts/cart.js';
import type { Delivery, ItemState, Order, ShippingInfo } from '../orders/order.js';

/*
 * The staged order seen as a cart. The reference's StagedOrderUpdateActions that a cart also has
 * (addLineItem, setShippingMethod, the tax actions, …) change the fields an order shares with the
 * cart it was made from (orders/from-cart.ts copies them); running the carts' own handlers and
 * settle step (carts/actions.ts) on this view re-prices and re-taxes the order as a cart would be.
 */

/**
 * The fields a cart and an order share (carts/cart.ts, orders/order.ts; the reference's Order),
 * which cart actions read and write. A cart's own (totalLineItemQuantity, cartState, …) stay on the view.
 */
const SHARED_FIELDS = [
  'lineItems',
  'customLineItems',
  'totalPrice',
  'taxedPrice',
  'taxedShippingPrice',
  'shippingInfo',
  'shippingAddress',
  'billingAddress',
  'itemShippingAddresses',
  'discountCodes',
  'discountOnTotalPrice',
  'directDiscounts',
  // Removing a gift line item refuses its discount on the order too (Order.refusedGifts; carts/gift-line-items.ts).
  'refusedGifts',
  'paymentInfo',
  'taxMode',
  'priceRoundingMode',
  'taxRoundingMode',
  'taxCalculationMode',
  'inventoryMode',
  'shippingMode',
  'shippingRateInput',
  'shippingCustomFields',
  // A `Multiple` order's Shippings (with their deliveries): cart actions price and tax them (carts/multi-shipping.ts).
  'shipping',
  'customerGroup',
  'customerId',
  'customerEmail',
  'country',
  'locale',
  'store',
  'businessUnit',
] as const;

type Fields = Record<string, unknown>;

/**
 * A cart holding a copy of the order's shared fields, `Active` so that the cart actions run; the
 * modes an order made before they existed lacks take the cart defaults (§2.3).
 */
export function cartViewOf(order: Order): Cart {
  const copy = structuredClone(order) as unknown as Fields;
  const view: Fields = {
    id: order.id,
    version: order.version,
    createdAt: order.createdAt,
    lastModifiedAt: order.lastModifiedAt,
    cartState: 'Active',
    origin: order.origin,
    taxMode: 'Platform',
    priceRoundingMode: 'HalfEven',
    taxRoundingMode: 'HalfEven',
    taxCalculationMode: 'LineItemLevel',
    inventoryMode: 'None',
    shippingMode: 'Single',
    shipping: [],
    refusedGifts: [],
    deleteDaysAfterLastModification: 0,
  };
  for (const field of SHARED_FIELDS) if (copy[field] !== undefined) view[field] = copy[field];
  return view as unknown as Cart;
}

/** The units of an item not accounted for by its ItemStates go to `initial`; units gone leave the states in their order. */
export function reconcileItemStates(states: ItemState[] | undefined, quantity: number, initial: ItemState['state'] | undefined): ItemState[] {
  const kept = (states ?? []).map((entry) => ({ ...entry }));
  let surplus = kept.reduce((total, entry) => total + entry.quantity, 0) - quantity;
  for (const entry of kept) {
    const taken = Math.min(Math.max(surplus, 0), entry.quantity);
    entry.quantity -= taken;
    surplus -= taken;
  }
  const remaining = kept.filter((entry) => entry.quantity > 0);
  if (surplus >= 0 || initial === undefined) return remaining;
  const target = remaining.find((entry) => entry.state.id === initial.id);
  if (target === undefined) return [...remaining, { quantity: -surplus, state: initial }];
  target.quantity -= surplus;
  return remaining;
}

/**
 * The order's deliveries live in its ShippingInfo (orders/order.ts): a new shipping method keeps
 * them; removing the shipping info of an order with deliveries would lose them, so it is refused.
 */
function shippingInfoWithDeliveries(cart: Cart, before: ShippingInfo | undefined): ShippingInfo | undefined {
  const deliveries: Delivery[] = before?.deliveries ?? [];
  if (cart.shippingInfo === undefined) {
    if (deliveries.length > 0) throw invalidOperation('The order has deliveries in its shippingInfo: its shipping method cannot be removed.');
    return undefined;
  }
  return { ...(cart.shippingInfo as unknown as ShippingInfo), deliveries };
}

/** Writes the cart view's shared fields back onto the order; new units start in the initial LineItemState. */
export function copyCartBack(order: Order, cart: Cart, initial: ItemState['state'] | undefined): void {
  const target = order as unknown as Fields;
  const source: Fields = { ...(cart as unknown as Fields), shippingInfo: shippingInfoWithDeliveries(cart, order.shippingInfo) };
  for (const field of SHARED_FIELDS) {
    if (source[field] === undefined) delete target[field];
    else target[field] = source[field];
  }
  for (const item of [...order.lineItems, ...order.customLineItems]) {
    item.state = reconcileItemStates(item.state as ItemState[] | undefined, item.quantity, initial);
  }
}
