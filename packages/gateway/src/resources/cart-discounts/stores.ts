import { invalidInput, invalidOperation, type KeyReference, type MessagePayload } from '@herald/model';
import type { Queryable } from '@herald/store';
import { keyReference, type Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import type { CartDiscount } from './cart-discount.js';
import { assertStoresHaveRoom, countsAgainstLimits } from './limits.js';

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

/** The Stores of `after` the discount did not have (`before`): those whose limit it now counts against. */
const addedStores = (before: ReadonlyArray<KeyReference<'store'>>, after: Array<KeyReference<'store'>>): Array<KeyReference<'store'>> =>
  after.filter((store) => !before.some((known) => known.key === store.key));

/**
 * addStore, removeStore and setStores with their CartDiscountStore* messages. Adding Stores to a
 * discount that counts against the limits checks theirs (CartDiscountAddStoreAction,
 * CartDiscountSetStoresAction: StoreCartDiscountsLimitReached). `db` reads outside the update,
 * whose actions run without a transaction (versioned-routes.ts, optimistic).
 */
export const storeActions = (db: Queryable): ActionHandlers<CartDiscount> => ({
  async addStore(discount, action, { ctx }): Promise<MessagePayload[]> {
    const [store] = await storeReferences([action.store], 'store', ctx.load);
    if (store === undefined || discount.stores.some((known) => known.key === store.key)) return [];
    if (countsAgainstLimits(discount)) await assertStoresHaveRoom(db, ctx.projectKey, [store], discount.id);
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
    const stores = await storeReferences(action.stores, 'stores', ctx.load);
    if (countsAgainstLimits(discount)) await assertStoresHaveRoom(db, ctx.projectKey, addedStores(discount.stores, stores), discount.id);
    discount.stores = stores;
    return [{ type: 'CartDiscountStoresSet', stores: structuredClone(discount.stores) }];
  },
});
