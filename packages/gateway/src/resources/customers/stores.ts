import { invalidInput, type KeyReference } from '@herald/model';
import { keyReference } from '../shared/references.js';
import type { Load } from '../shared/references.js';

const MAX_STORES = 100;

/** StoreResourceIdentifiers (CustomerDraft.stores, setStores) as StoreKeyReferences, each store existing, no repeats. */
export async function storeReferences(value: unknown, field: string, load: Load): Promise<Array<KeyReference<'store'>>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_STORES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_STORES} store identifiers.`, { field });
  }
  const stores: Array<KeyReference<'store'>> = [];
  for (const [index, item] of value.entries()) {
    const store = await keyReference(load, 'store', item, `${field}[${index}]`);
    if (!stores.some((known) => known.key === store.key)) stores.push(store);
  }
  return stores;
}
