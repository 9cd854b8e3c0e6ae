import { invalidInput } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Draft } from '../shared/validation.js';
import type { Cart } from './cart.js';

/*
 * What a buyer may not do to their own cart (`/me/carts`, `/in-store/key=…/me/carts`, the GraphQL
 * My Cart update): choose a price. MyCartDraft has no `customLineItems` and no `customerGroup`;
 * MyLineItemDraft and the My Cart line item actions have no `externalPrice` or
 * `externalTotalPrice`; MyCartUpdateAction has no custom line item actions (reference types/me/).
 * Each of them would let a shopper set what they pay (a customer group selects its prices); an API
 * client (manage_orders) still may, on `/carts`.
 */

const PRICE_FIELDS = ['externalPrice', 'externalTotalPrice'] as const;

/** Actions of CartUpdateAction that MyCartUpdateAction does not have. */
const MERCHANT_ONLY_ACTIONS = new Set(['addCustomLineItem', 'removeCustomLineItem', 'setCustomLineItemShippingDetails']);

/** Actions whose line item fields may carry a price (CartAddLineItemAction, CartChangeLineItemQuantityAction, CartRemoveLineItemAction). */
const PRICED_LINE_ITEM_ACTIONS = new Set(['addLineItem', 'changeLineItemQuantity', 'removeLineItem']);

const present = (value: unknown): boolean => value !== undefined && value !== null;

function refusePrices(item: Draft, prefix: string): void {
  for (const name of PRICE_FIELDS) {
    if (present(item[name]))
      throw invalidInput(`'${prefix}${name}' cannot be set on a buyer's own cart: its prices come from the catalogue.`, { field: `${prefix}${name}` });
  }
}

/** Fields of CartDraft that MyCartDraft does not have and that choose a price. */
const MERCHANT_ONLY_DRAFT_FIELDS = ['customLineItems', 'customerGroup'] as const;

/** 400 InvalidInput for a MyCartDraft that sets a price (custom line items, customer group, external line item prices). */
export function assertBuyerCartDraft(draft: Draft): void {
  for (const name of MERCHANT_ONLY_DRAFT_FIELDS) {
    if (present(draft[name])) throw invalidInput(`'${name}' cannot be set on a buyer's own cart (MyCartDraft has none).`, { field: name });
  }
  if (!Array.isArray(draft.lineItems)) return;
  draft.lineItems.forEach((item: unknown, index) => {
    if (typeof item === 'object' && item !== null) refusePrices(item as Draft, `lineItems[${index}].`);
  });
}

function withoutPrices(handler: ActionHandler<Cart>): ActionHandler<Cart> {
  return (cart, action, scope) => {
    refusePrices(action, '');
    return handler(cart, action, scope);
  };
}

/** The buyer's form of a set of cart actions: no merchant-only action, no price on a line item action. */
export function buyerActionsOf(actions: ActionHandlers<Cart>): ActionHandlers<Cart> {
  return Object.fromEntries(
    Object.entries(actions)
      .filter(([name]) => !MERCHANT_ONLY_ACTIONS.has(name))
      .map(([name, handler]) => [name, PRICED_LINE_ITEM_ACTIONS.has(name) ? withoutPrices(handler) : handler]),
  );
}
