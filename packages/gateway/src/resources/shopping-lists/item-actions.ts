import { invalidInput, type BaseResource, type CustomFields, type MessagePayload } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { localizedString } from '../shared/validation.js';
import { itemContext, type ShoppingListDeps } from './draft.js';
import {
  addLineItem,
  addTextLineItem,
  itemOf,
  itemQuantity,
  lineItemFromDraft,
  LINE_ITEM_SELECTOR,
  reordered,
  TEXT_LINE_ITEM_SELECTOR,
  textLineItemFromDraft,
  type ItemSelector,
} from './line-items.js';
import { LINE_ITEM_CUSTOM_TYPE_ID, TEXT_LINE_ITEM_CUSTOM_TYPE_ID, type ShoppingList } from './shopping-list.js';

/*
 * The reference's update actions on a ShoppingList's line items and text line items
 * (types/shopping-list/updates). Only addLineItem and removeLineItem have messages
 * (types/message/ShoppingListLineItemAdded/Removed).
 */

type ListName = 'lineItems' | 'textLineItems';
type CustomHolder = BaseResource & { custom?: CustomFields };

const SELECTORS: Record<ListName, ItemSelector> = { lineItems: LINE_ITEM_SELECTOR, textLineItems: TEXT_LINE_ITEM_SELECTOR };
const CUSTOM_TYPE_IDS: Record<ListName, string> = { lineItems: LINE_ITEM_CUSTOM_TYPE_ID, textLineItems: TEXT_LINE_ITEM_CUSTOM_TYPE_ID };

/**
 * The shared setCustomType/setCustomField handler applied to the addressed item (the handlers
 * touch only its `custom`), so the change lands in the list being updated; no messages.
 */
function onItem(list: ListName, name: 'setCustomType' | 'setCustomField'): ActionHandler<ShoppingList> {
  const handler = customFieldActions<CustomHolder>(CUSTOM_TYPE_IDS[list], { messages: false })[name];
  if (handler === undefined) throw new Error(`customFieldActions() has no ${name}`);
  return async (shoppingList, action, scope) => {
    const item = itemOf<{ id: string; key?: string }>(shoppingList[list], action, SELECTORS[list]);
    await handler(item as unknown as CustomHolder, action, scope);
  };
}

/** change(Text)LineItemQuantity: "If `0`, the … is removed from the ShoppingList." */
function changeQuantity(list: ListName): ActionHandler<ShoppingList> {
  return (shoppingList, action) => {
    const item = itemOf<{ id: string; key?: string; quantity: number }>(shoppingList[list], action, SELECTORS[list]);
    const quantity = itemQuantity(action.quantity, 'quantity', undefined, 0);
    if (quantity === 0) removeFrom(shoppingList, list, item.id);
    else item.quantity = quantity;
  };
}

function removeFrom(shoppingList: ShoppingList, list: ListName, id: string): void {
  if (list === 'lineItems') shoppingList.lineItems = shoppingList.lineItems.filter((item) => item.id !== id);
  else shoppingList.textLineItems = shoppingList.textLineItems.filter((item) => item.id !== id);
}

/**
 * remove(Text)LineItem {quantity?}: "If not set, the … is removed … If this value matches or
 * exceeds the current `quantity` …, the … is removed"; otherwise the quantity goes down by it.
 * Answers the item as it was before.
 */
function removeItem(shoppingList: ShoppingList, list: ListName, action: Record<string, unknown>) {
  const item = itemOf<{ id: string; key?: string; quantity: number }>(shoppingList[list], action, SELECTORS[list]);
  const before = structuredClone(item);
  const quantity = action.quantity === undefined || action.quantity === null ? undefined : itemQuantity(action.quantity, 'quantity', undefined, 1);
  if (quantity === undefined || quantity >= item.quantity) removeFrom(shoppingList, list, item.id);
  else item.quantity -= quantity;
  return before;
}

export function itemActions(deps: ShoppingListDeps): ActionHandlers<ShoppingList> {
  return {
    async addLineItem(shoppingList, action, { ctx }): Promise<MessagePayload[]> {
      const added = addLineItem(shoppingList, await lineItemFromDraft(action, itemContext(ctx, deps)));
      return [{ type: 'ShoppingListLineItemAdded', lineItem: structuredClone(added) }];
    },
    async addTextLineItem(shoppingList, action, { ctx }) {
      addTextLineItem(shoppingList, await textLineItemFromDraft(action, itemContext(ctx, deps)));
    },
    changeLineItemQuantity: changeQuantity('lineItems'),
    changeTextLineItemQuantity: changeQuantity('textLineItems'),
    changeLineItemsOrder(shoppingList, action) {
      shoppingList.lineItems = reordered(shoppingList.lineItems, action.lineItemOrder, 'lineItemOrder');
    },
    changeTextLineItemsOrder(shoppingList, action) {
      shoppingList.textLineItems = reordered(shoppingList.textLineItems, action.textLineItemOrder, 'textLineItemOrder');
    },
    removeLineItem(shoppingList, action): MessagePayload[] {
      return [{ type: 'ShoppingListLineItemRemoved', lineItem: removeItem(shoppingList, 'lineItems', action) }];
    },
    removeTextLineItem(shoppingList, action) {
      removeItem(shoppingList, 'textLineItems', action);
    },
    changeTextLineItemName(shoppingList, action) {
      const item = itemOf(shoppingList.textLineItems, action, TEXT_LINE_ITEM_SELECTOR);
      if (action.name === undefined || action.name === null) throw invalidInput("'name' is required.", { field: 'name' });
      item.name = localizedString(action.name, 'name');
    },
    setTextLineItemDescription(shoppingList, action) {
      const item = itemOf(shoppingList.textLineItems, action, TEXT_LINE_ITEM_SELECTOR);
      if (action.description === undefined || action.description === null) delete item.description;
      else item.description = localizedString(action.description, 'description');
    },
    setLineItemCustomType: onItem('lineItems', 'setCustomType'),
    setLineItemCustomField: onItem('lineItems', 'setCustomField'),
    setTextLineItemCustomType: onItem('textLineItems', 'setCustomType'),
    setTextLineItemCustomField: onItem('textLineItems', 'setCustomField'),
  };
}
