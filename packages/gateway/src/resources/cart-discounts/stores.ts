import { invalidInput, invalidOperation, type KeyReference, type MessagePayload } from '@herald/model';
import { keyReference, type Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import type { CartDiscount } from './cart-discount.js';

/** CartDiscountDraft.stores: `maxItems: 500`. */
const MAX_STORES = 500;

/** StoreResourceIdentifiers as StoreKeyReferences, each Store once (ReferencedResourceNotFound for one that does not exist). */
export async function storeReferences(value: unknown, field: string, load: Load): Promise<Array<KeyReference<'store'>>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_STORES)
    throw invalidInput(`'${field}' must be an array of at most ${MAX_STORES} Store identifiers.`, { field });
  const stores: Array<KeyReference<'store'>> = [];
  for (const [index, item] of value.entries()) {
    const store = await keyReference(load, 'store', item, `${field}[${index}]`);
    if (!stores.some((known) => known.key === store.key)) stores.push(store);
  }
  return stores;
}

/** addStore, removeStore and setStores with their CartDiscountStore* messages. */
export const storeActions: ActionHandlers<CartDiscount> = {
  async addStore(discount, action, { ctx }): Promise<MessagePayload[]> {
    const [store] = await storeReferences([action.store], 'store', ctx.load);
    if (store === undefined || discount.stores.some((known) => known.key === store.key)) return [];
    discount.stores.push(store);
    return [{ type: 'CartDiscountStoreAdded', store }];
  },
  async removeStore(discount, action, { ctx }): Promise<MessagePayload[]> {
    const [store] = await storeReferences([action.store], 'store', ctx.load);
    if (store === undefined || !discount.stores.some((known) => known.key === store.key)) {
      throw invalidOperation(`The cart discount is not limited to the store '${store?.key ?? ''}'.`);
    }
    discount.stores = discount.stores.filter((known) => known.key !== store.key);
    return [{ type: 'CartDiscountStoreRemoved', store }];
  },
  async setStores(discount, action, { ctx }): Promise<MessagePayload[]> {
    discount.stores = await storeReferences(action.stores, 'stores', ctx.load);
    return [{ type: 'CartDiscountStoresSet', stores: structuredClone(discount.stores) }];
  },
};
