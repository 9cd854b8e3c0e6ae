import { invalidInput } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Draft } from '../shared/validation.js';
import type { Cart, LineItem } from './cart.js';
import { findItem } from './line-items.js';

/*
 * What a buyer may not do to their own cart (`/me/carts`, `/in-store/key=…/me/carts`, the GraphQL
 * My Cart update): choose a price. MyCartDraft has no `customLineItems` and no `customerGroup`;
 * MyLineItemDraft and MyCartAddLineItemAction have no `externalPrice`, `externalTotalPrice` or
 * `externalTaxRate`; MyCartUpdateAction has no custom line item actions (reference types/me/).
 * MyCartChangeLineItemQuantityAction and MyCartRemoveLineItemAction do have `externalPrice` and
 * `externalTotalPrice`, for "a Line Item with the ExternalPrice (ExternalTotal) LineItemPriceMode":
 * a buyer may re-price only an item the merchant already priced that way, never turn a catalogue
 * price into one of their own. An API client (manage_orders) may do all of it on `/carts`.
 */

const PRICE_FIELDS = ['externalPrice', 'externalTotalPrice'] as const;

/** What a new line item of a buyer may not carry: a price or a tax rate of its own. */
const NEW_ITEM_FIELDS = [...PRICE_FIELDS, 'externalTaxRate'] as const;

/** The line item price mode in which a buyer's quantity change may carry each price field. */
const MODE_FOR: Readonly<Record<(typeof PRICE_FIELDS)[number], LineItem['priceMode']>> = {
  externalPrice: 'ExternalPrice',
  externalTotalPrice: 'ExternalTotal',
};

/** Actions of CartUpdateAction that MyCartUpdateAction does not have. */
const MERCHANT_ONLY_ACTIONS = new Set([
  'addCustomLineItem',
  'removeCustomLineItem',
  'setCustomLineItemShippingDetails',
  'applyDeltaToCustomLineItemShippingDetailsTargets',
]);

/** My Cart actions on an existing line item that may carry its external price (see above). */
const REPRICING_ACTIONS = new Set(['changeLineItemQuantity', 'removeLineItem']);

const present = (value: unknown): boolean => value !== undefined && value !== null;

function refuseFields(item: Draft, fields: readonly string[], prefix: string): void {
  for (const name of fields) {
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
    if (typeof item === 'object' && item !== null) refuseFields(item as Draft, NEW_ITEM_FIELDS, `lineItems[${index}].`);
  });
}

/** addLineItem: a new item is priced from the catalogue. */
function catalogueItemsOnly(handler: ActionHandler<Cart>): ActionHandler<Cart> {
  return (cart, action, scope) => {
    refuseFields(action, NEW_ITEM_FIELDS, '');
    return handler(cart, action, scope);
  };
}

/** changeLineItemQuantity / removeLineItem: an external price only for an item already in that price mode. */
function repricingOnlyExternal(handler: ActionHandler<Cart>): ActionHandler<Cart> {
  return (cart, action, scope) => {
    const sent = PRICE_FIELDS.filter((name) => present(action[name]));
    if (sent.length > 0) {
      const item = findItem(cart.lineItems, action, 'lineItemId', 'lineItemKey');
      for (const name of sent) {
        if (item.priceMode !== MODE_FOR[name]) {
          throw invalidInput(`'${name}' is allowed on a buyer's own cart only for a line item whose priceMode is ${MODE_FOR[name]}.`, { field: name });
        }
      }
    }
    return handler(cart, action, scope);
  };
}

function buyerForm(name: string, handler: ActionHandler<Cart>): ActionHandler<Cart> {
  if (name === 'addLineItem') return catalogueItemsOnly(handler);
  return REPRICING_ACTIONS.has(name) ? repricingOnlyExternal(handler) : handler;
}

/** The buyer's form of a set of cart actions: no merchant-only action, no price of the buyer's choosing. */
export function buyerActionsOf(actions: ActionHandlers<Cart>): ActionHandlers<Cart> {
  return Object.fromEntries(
    Object.entries(actions)
      .filter(([name]) => !MERCHANT_ONLY_ACTIONS.has(name))
      .map(([name, handler]) => [name, buyerForm(name, handler)]),
  );
}
