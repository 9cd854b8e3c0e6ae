import { invalidInput, invalidOperation, type KeyReference } from '@herald/model';
import { keyReference, type Load } from '../shared/references.js';

/** ShippingMethodDraft.stores / setStores: maxItems 100, "If the number … exceeds … an InvalidOperation error is returned". */
export const MAX_STORES = 100;

export function assertStoreLimit(stores: readonly unknown[]): void {
  if (stores.length > MAX_STORES) throw invalidOperation(`A ShippingMethod can be in at most ${MAX_STORES} Stores.`);
}

/** StoreResourceIdentifiers resolved to StoreKeyReferences (ShippingMethod.stores), each Store once. */
export async function storeList(value: unknown, field: string, load: Load): Promise<Array<KeyReference<'store'>>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`'${field}' must be an array of StoreResourceIdentifiers.`, { field });
  assertStoreLimit(value);
  const stores: Array<KeyReference<'store'>> = [];
  for (const [index, item] of value.entries()) {
    const store = await keyReference(load, 'store', item, `${field}[${index}]`);
    if (!stores.some((known) => known.key === store.key)) stores.push(store);
  }
  return stores;
}
