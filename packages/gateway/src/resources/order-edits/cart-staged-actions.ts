import { requiredField } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { cartActions } from '../carts/actions.js';
import type { Cart } from '../carts/cart.js';
import { updateReads } from '../carts/catalogue.js';
import { initialLineItemState } from '../orders/item-states.js';
import type { ItemState, Order } from '../orders/order.js';
import type { ActionHandler, ActionHandlers, ActionScope } from '../shared/update-actions.js';
import { cartViewOf, copyCartBack } from './cart-view.js';
import { stagedCartMessages } from './staged-messages.js';

/*
 * The StagedOrderUpdateActions that are cart update actions (types/order-edit/updates): applied by
 * the carts' handlers, each ending with the carts' settle step, on a cart view of the staged order
 * (cart-view.ts), so the preview and the applied order are re-priced and re-taxed like a cart.
 */

/** Staged actions a cart has under the same name and with the same fields (taken when carts/actions.ts has them). */
const SAME_AS_CART = [
  'addLineItem',
  'removeLineItem',
  'changeLineItemQuantity',
  'addCustomLineItem',
  'removeCustomLineItem',
  'changeCustomLineItemQuantity',
  'changeCustomLineItemMoney',
  'setLineItemPrice',
  'setLineItemTotalPrice',
  'setLineItemTaxRate',
  'setLineItemTaxAmount',
  'setCustomLineItemTaxRate',
  'setCustomLineItemTaxAmount',
  'setLineItemDistributionChannel',
  'addDiscountCode',
  'removeDiscountCode',
  'setDirectDiscounts',
  'setShippingMethod',
  'setCustomShippingMethod',
  'setShippingMethodTaxRate',
  'setShippingMethodTaxAmount',
  'setShippingRateInput',
  'changeTaxMode',
  'changeTaxRoundingMode',
  'changeTaxCalculationMode',
  'changePriceRoundingMode',
  'setCountry',
  'setCustomerGroup',
  'addShoppingList',
] as const;

/** StagedOrderSetOrderTotalTaxAction has CartSetCartTotalTaxAction's fields (externalTotalGross, externalTaxPortions). */
const RENAMED = { setOrderTotalTax: 'setCartTotalTax' } as const;

/** StagedOrderSetShippingAddressAnd{,Custom}ShippingMethodAction: the address (required), then the method. */
const ADDRESS_THEN = {
  setShippingAddressAndShippingMethod: 'setShippingMethod',
  setShippingAddressAndCustomShippingMethod: 'setCustomShippingMethod',
} as const;

type InitialState = (scope: ActionScope) => Promise<ItemState['state'] | undefined>;

const cartHandler = (name: string): ActionHandler<Cart> | undefined => (Object.hasOwn(cartActions, name) ? cartActions[name] : undefined);

/** Units without an ItemState (added, or more of an item): only then is the initial LineItemState looked up. */
function hasUnitsWithoutState(cart: Cart): boolean {
  return [...cart.lineItems, ...cart.customLineItems].some((item) => {
    const states = item.state as unknown as ItemState[] | undefined;
    return (states ?? []).reduce((total, entry) => total + entry.quantity, 0) < item.quantity;
  });
}

/** The cart handlers run in turn on the order's cart view; the order takes the result and gets its Order messages. */
function onCartView(handlers: readonly ActionHandler<Cart>[], initialState: InitialState): ActionHandler<Order> {
  return async (order, action, scope) => {
    const before = structuredClone(order);
    const cart = cartViewOf(order);
    for (const handler of handlers) await handler(cart, action, scope);
    copyCartBack(order, cart, hasUnitsWithoutState(cart) ? await initialState(scope) : undefined);
    return stagedCartMessages(before, order, action);
  };
}

/** The initial LineItemState new units start in, as in a new order (orders/item-states.ts), read in the update's transaction. */
function initialStateFrom(documents: DocumentStore | undefined): InitialState {
  return async ({ ctx, reader }) => {
    if (documents === undefined) return undefined;
    const state = await initialLineItemState(documents.within(updateReads(ctx, reader).db), ctx.projectKey);
    return state === undefined ? undefined : { typeId: 'state', id: state.id };
  };
}

const requireAddress: ActionHandler<Cart> = (_cart, action) => {
  if (action.address === undefined || action.address === null) throw requiredField('address');
};

/**
 * The staged cart actions whose cart handlers exist. `documents` (absent where only a preview's
 * prices matter) lets new units start in the project's initial LineItemState.
 */
export function stagedCartActions(documents?: DocumentStore): ActionHandlers<Order> {
  const initialState = initialStateFrom(documents);
  const entries: Array<[string, ActionHandler<Order>]> = [];
  const add = (name: string, names: readonly string[], guards: readonly ActionHandler<Cart>[] = []): void => {
    const handlers = names.flatMap((cartName) => cartHandler(cartName) ?? []);
    if (handlers.length === names.length) entries.push([name, onCartView([...guards, ...handlers], initialState)]);
  };
  for (const name of SAME_AS_CART) add(name, [name]);
  for (const [name, cartName] of Object.entries(RENAMED)) add(name, [cartName]);
  for (const [name, methodAction] of Object.entries(ADDRESS_THEN)) add(name, ['setShippingAddress', methodAction], [requireAddress]);
  return Object.fromEntries(entries);
}
