import { isDeepStrictEqual } from 'node:util';
import { invalidInput } from '@herald/model';
import { customFieldName, customFromDraft, validateCustomFields, type TypeDocument } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { INVENTORY_MODES, type Cart, type CustomLineItem, type LineItem } from './cart.js';
import { oneOf } from './draft.js';
import { revalidateShippingDetails } from './item-shipping.js';
import { findItem, quantity, recalculate } from './line-items.js';
import { moneyInCurrency, multiply } from '../shared/money.js';

/*
 * Update actions on one line item or custom line item of a cart (reference CartUpdateAction):
 * custom fields, prices, modes and the order of the line items. Herald's carts have no messages.
 */

type ItemList = 'lineItems' | 'customLineItems';
const SELECTORS = {
  lineItems: { idField: 'lineItemId', keyField: 'lineItemKey', typeId: 'line-item' },
  customLineItems: { idField: 'customLineItemId', keyField: 'customLineItemKey', typeId: 'custom-line-item' },
} as const;

function itemOf(cart: Cart, list: ItemList, action: Record<string, unknown>): LineItem | CustomLineItem {
  const { idField, keyField } = SELECTORS[list];
  return findItem<LineItem | CustomLineItem>(cart[list], action, idField, keyField);
}

/** `set(Custom)LineItemCustomType`: the Type must be one for (custom) line items. */
function setItemCustomType(list: ItemList): ActionHandler<Cart> {
  return async (cart, action, { reader }) => {
    const item = itemOf(cart, list, action);
    if (action.type === undefined || action.type === null) {
      delete item.custom;
      return;
    }
    const custom = await customFromDraft({ type: action.type, fields: action.fields }, SELECTORS[list].typeId, { load: reader.get });
    if (custom !== undefined) item.custom = custom;
  };
}

/** `set(Custom)LineItemCustomField`: validated against the item's Type; no value removes the field. */
function setItemCustomField(list: ItemList): ActionHandler<Cart> {
  return async (cart, action, { reader }) => {
    const item = itemOf(cart, list, action);
    const name = customFieldName(action.name);
    if (item.custom === undefined) throw invalidInput(`The item '${item.id}' has no custom type; use set…CustomType first.`, { field: 'name' });
    if (action.value === undefined || action.value === null) {
      delete item.custom.fields[name];
      return;
    }
    const type = await reader.get<TypeDocument>('type', { id: item.custom.type.id });
    if (type === undefined) throw invalidInput(`The custom type of the item '${item.id}' no longer exists; use set…CustomType.`);
    validateCustomFields(type, { [name]: action.value }, false);
    if (!isDeepStrictEqual(item.custom.fields[name], action.value)) item.custom.fields[name] = action.value;
  };
}

export const lineItemActions: ActionHandlers<Cart> = {
  setLineItemCustomType: setItemCustomType('lineItems'),
  setLineItemCustomField: setItemCustomField('lineItems'),
  /** CartChangeLineItemsOrderAction: every line item id exactly once, in the new order. */
  changeLineItemsOrder(cart, action) {
    const order = action.lineItemOrder;
    const ids = cart.lineItems.map((item) => item.id);
    if (!Array.isArray(order) || order.length !== ids.length || new Set(order).size !== ids.length || !order.every((id) => ids.includes(id as string))) {
      throw invalidInput("'lineItemOrder' must list the id of every line item of the cart exactly once.", { field: 'lineItemOrder' });
    }
    cart.lineItems = (order as string[]).map((id) => cart.lineItems.find((item) => item.id === id) as LineItem);
  },
};

export const merchantItemActions: ActionHandlers<Cart> = {
  setCustomLineItemCustomType: setItemCustomType('customLineItems'),
  setCustomLineItemCustomField: setItemCustomField('customLineItems'),
  /**
   * CartSetLineItemPriceAction: `externalPrice` makes the item ExternalPrice; without it "the price
   * is selected from the Product Variant" again (Platform, priced by the settle step, actions.ts).
   */
  setLineItemPrice(cart, action) {
    const item = itemOf(cart, 'lineItems', action) as LineItem;
    if (action.externalPrice === undefined || action.externalPrice === null) {
      item.priceMode = 'Platform';
      return;
    }
    item.priceMode = 'ExternalPrice';
    item.price = { id: item.price.id, value: moneyInCurrency(action.externalPrice, 'externalPrice', cart.totalPrice.currencyCode) };
    item.totalPrice = multiply(item.price.value, item.quantity, 'lineItems');
    recalculate(cart);
  },
  setLineItemInventoryMode(cart, action) {
    const item = itemOf(cart, 'lineItems', action) as LineItem;
    if (action.inventoryMode === undefined || action.inventoryMode === null) delete item.inventoryMode;
    else item.inventoryMode = oneOf(INVENTORY_MODES, action.inventoryMode, 'inventoryMode', 'None');
  },
  changeCustomLineItemMoney(cart, action) {
    const item = itemOf(cart, 'customLineItems', action) as CustomLineItem;
    if (action.money === undefined || action.money === null) throw invalidInput("'money' is required.", { field: 'money' });
    // As in the draft: custom line items may be negative (a credit).
    item.money = moneyInCurrency(action.money, 'money', cart.totalPrice.currencyCode, true);
    item.totalPrice = multiply(item.money, item.quantity, 'customLineItems');
    recalculate(cart);
  },
  changeCustomLineItemQuantity(cart, action) {
    const item = itemOf(cart, 'customLineItems', action) as CustomLineItem;
    if (action.quantity === undefined || action.quantity === null) throw invalidInput("'quantity' is required.", { field: 'quantity' });
    const count = quantity(action.quantity, 'quantity', 0, 0);
    if (count === 0) cart.customLineItems = cart.customLineItems.filter((candidate) => candidate.id !== item.id);
    item.quantity = count;
    item.totalPrice = multiply(item.money, count, 'customLineItems');
    recalculate(cart);
    revalidateShippingDetails(cart);
  },
  changeCustomLineItemPriceMode(cart, action) {
    const item = itemOf(cart, 'customLineItems', action) as CustomLineItem;
    if (action.mode !== 'Standard' && action.mode !== 'External') {
      throw invalidInput("'mode' must be Standard or External.", { field: 'mode', invalidValue: action.mode });
    }
    item.priceMode = action.mode;
  },
};
