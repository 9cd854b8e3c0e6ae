import { isDeepStrictEqual } from 'node:util';
import type { Queryable, ServerFields } from '@herald/store';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft, LANGUAGE_TAG, localizedString, stringArray, validKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { withStoreDefaults, type Store } from './store.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { countryActions, storeCountries } from './countries.js';
import { storeChannelActions, storeDraftChannels } from './channels.js';
import { productSelectionActions, storeDraftProductSelections } from './product-selections.js';
import { storefrontActions, storefrontFromDraft } from './storefront.js';

/**
 * Every stored reference to a Store: all are KeyReferences (`{typeId: 'store', key}`), so they
 * name the key, not the Store's id.
 * - customers: `stores` (an in-store customer's store; its e-mail and password are scoped to it),
 * - business units: `stores` (storeMode Explicit; FromParent units list none),
 * - carts: `store` (the in-store cart routes select by it),
 * - quote requests: `store` (copied from the cart).
 */
const STORE_HOLDERS = ['customer', 'business-unit', 'cart', 'quote-request'];

/**
 * The type id of one resource of the project that references the store with this key, if any:
 * one `@?` jsonpath (lax: `@.stores[*].key == k` holds if any element matches) whose equalities the
 * GIN jsonb_path_ops index on `doc` answers.
 */
async function resourceReferencing(db: Queryable, projectKey: string, storeKey: string): Promise<string | undefined> {
  const key = JSON.stringify(storeKey);
  return referencingType(db, projectKey, `$ ? (@.stores[*].key == ${key} || @.store.key == ${key})`, STORE_HOLDERS);
}

export const storeDefinition: ResourceDefinition<Store> = {
  typeId: 'store',
  path: 'stores',
  scopes: { view: ['view_stores'], manage: ['manage_stores'] },

  async fromDraft(body, ctx) {
    const draft = asDraft(body, 'StoreDraft');
    const fields: Omit<Store, ServerFields> = {
      key: validKey(draft.key),
      languages: draft.languages === undefined ? [] : stringArray(draft.languages, 'languages', LANGUAGE_TAG),
      countries: storeCountries(draft.countries),
      ...(await storeDraftChannels(draft, ctx.load)),
      ...(await storeDraftProductSelections(draft, ctx.load)),
    };
    if (draft.name !== undefined && draft.name !== null) fields.name = localizedString(draft.name, 'name');
    const storefront = storefrontFromDraft(draft.storefront);
    if (storefront !== undefined) fields.storefront = storefront;
    const custom = await customFromDraft(draft.custom, 'store', ctx);
    if (custom !== undefined) fields.custom = custom;
    return fields;
  },

  /** The reference's StoreCreated carries every field of the Store a draft can set. */
  createdMessages: (store) => [
    {
      type: 'StoreCreated',
      ...(store.name === undefined ? {} : { name: store.name }),
      languages: store.languages,
      countries: store.countries,
      distributionChannels: store.distributionChannels,
      supplyChannels: store.supplyChannels,
      productSelections: store.productSelections,
      ...(store.custom === undefined ? {} : { custom: store.custom }),
    },
  ],
  deletedMessages: () => [{ type: 'StoreDeleted' }],

  /** Stores written before a required field existed answer with its empty default. */
  present: (store) => withStoreDefaults(store),

  /**
   * A Store that any resource still references (STORE_HOLDERS) is not deleted: 400
   * ReferenceExists, as for a Type in use. The spec says nothing about deleting a referenced
   * Store; Herald refuses because the references hold the key: a Store created later with the same
   * key would silently take over the old one's customers (with their passwords, as in-store
   * sign-ins are scoped by key), carts and business units, and until then in-store customers would
   * be unreachable (their routes 404 for a missing store). All of them block, not only the ones
   * the in-store routes serve, so that no reference is ever left dangling. The way out: remove the
   * store from business units (removeStore, setStores), delete its in-store customers, carts and
   * quote requests.
   *
   * Concurrency, as for Types: this runs in the delete's transaction after the Store row is locked
   * and deleted, so every write committed before is counted; a create that read the Store just
   * before (customer, cart, business unit: no lock on the Store row) and commits after this check
   * can still reference the deleted Store, an accepted race.
   */
  async assertDeletable(store, tx, ctx) {
    const holder = await resourceReferencing(tx, ctx.projectKey, store.key);
    if (holder !== undefined) {
      throw referenceExists(`The store '${store.key}' is still referenced by a resource of type '${holder}'; remove those references first.`, holder);
    }
  },

  /**
   * An action that changes nothing (the current name or languages) emits no message, so the
   * version does not move and no ResourceUpdated goes out (DocumentStore.nextVersion), as for
   * business units: a needless version bump would also turn other clients' updates into 409s.
   */
  actions: {
    setName(store, action) {
      const name = action.name === undefined || action.name === null ? undefined : localizedString(action.name, 'name');
      if (isDeepStrictEqual(name, store.name)) return [];
      if (name === undefined) delete store.name;
      else store.name = name;
      return [{ type: 'StoreNameSet', name: store.name }];
    },
    setLanguages(store, action) {
      const languages = action.languages === undefined ? [] : stringArray(action.languages, 'languages', LANGUAGE_TAG);
      if (isDeepStrictEqual(languages, store.languages)) return [];
      const added = languages.filter((language) => !store.languages.includes(language));
      const removed = store.languages.filter((language) => !languages.includes(language));
      store.languages = languages;
      return [{ type: 'StoreLanguagesChanged', addedLanguages: added, removedLanguages: removed }];
    },
    ...countryActions,
    ...storeChannelActions,
    ...productSelectionActions,
    ...storefrontActions,
    // The reference has no Store custom field messages: the change is a new version only.
    ...customFieldActions<Store>('store', { messages: false }),
  },
};
