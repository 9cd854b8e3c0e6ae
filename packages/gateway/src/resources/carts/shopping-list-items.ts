import { invalidInput, requiredField } from '@herald/model';
import { CHANNEL_TYPE_ID, type Channel } from '../channels/channel.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { SHOPPING_LIST_TYPE_ID, type ShoppingList } from '../shopping-lists/shopping-list.js';
import type { Cart } from './cart.js';
import { updateReads } from './catalogue.js';
import { lineItemFromDraft } from './line-item-draft.js';
import { assertUniqueItemKeys, mergeLineItem, recalculate } from './line-items.js';
import { revalidateShippingDetails } from './item-shipping.js';

/*
 * CartAddShoppingListAction: "Adds all LineItems of a ShoppingList to the Cart", each as addLineItem
 * would add it (the product's current data, priced from the catalogue: line-item-draft.ts), with the
 * action's channels. Text line items are not products and stay behind; so do items deactivated
 * since their product or variant went (ShoppingListLineItem.deactivatedAt).
 */

/** The action's channel, which "must have the `role`" (CartAddShoppingListAction). */
async function channelWithRole(
  value: unknown,
  field: string,
  role: Channel['roles'][number],
  load: Load,
): Promise<{ typeId: 'channel'; id: string } | undefined> {
  if (value === undefined || value === null) return undefined;
  const channel = await loadReferenced<Channel>(load, CHANNEL_TYPE_ID, identifierLocator(value, field, CHANNEL_TYPE_ID));
  if (!channel.roles.includes(role)) throw invalidInput(`The channel in '${field}' must have the role ${role}.`, { field });
  return { typeId: CHANNEL_TYPE_ID, id: channel.id };
}

/** API Clients only: MyCartUpdateAction has no addShoppingList. */
export const shoppingListActions: ActionHandlers<Cart> = {
  async addShoppingList(cart, action, { ctx, reader }) {
    if (action.shoppingList === undefined || action.shoppingList === null) throw requiredField('shoppingList');
    const list = await loadReferenced<ShoppingList>(
      ctx.load,
      SHOPPING_LIST_TYPE_ID,
      identifierLocator(action.shoppingList, 'shoppingList', SHOPPING_LIST_TYPE_ID),
    );
    const distributionChannel = await channelWithRole(action.distributionChannel, 'distributionChannel', 'ProductDistribution', ctx.load);
    const supplyChannel = await channelWithRole(action.supplyChannel, 'supplyChannel', 'InventorySupply', ctx.load);
    const reads = updateReads(ctx, reader);
    for (const [index, entry] of list.lineItems.entries()) {
      if (entry.deactivatedAt !== undefined) continue;
      const draft = { productId: entry.productId, variantId: entry.variantId, quantity: entry.quantity, distributionChannel, supplyChannel };
      mergeLineItem(cart.lineItems, await lineItemFromDraft(draft, `shoppingList.lineItems[${index}]`, cart, reads, ctx));
    }
    assertUniqueItemKeys(cart);
    recalculate(cart);
    revalidateShippingDetails(cart);
  },
};
