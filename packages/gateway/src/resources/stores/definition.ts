import type { ServerFields } from '@herald/store';
import { asDraft, LANGUAGE_TAG, localizedString, stringArray, validKey } from '../validation.js';
import type { ResourceDefinition } from '../versioned-routes.js';
import type { Store } from './store.js';
import { customFieldActions, customFromDraft } from '../custom-fields.js';

export const storeDefinition: ResourceDefinition<Store> = {
  typeId: 'store',
  path: 'stores',
  scopes: { view: ['view_stores'], manage: ['manage_stores'] },

  async fromDraft(body, ctx) {
    const draft = asDraft(body, 'StoreDraft');
    const fields: Omit<Store, ServerFields> = {
      key: validKey(draft.key),
      languages: draft.languages === undefined ? [] : stringArray(draft.languages, 'languages', LANGUAGE_TAG),
    };
    if (draft.name !== undefined && draft.name !== null) fields.name = localizedString(draft.name, 'name');
    const custom = await customFromDraft(draft.custom, 'store', ctx);
    if (custom !== undefined) fields.custom = custom;
    return fields;
  },

  createdMessages: (store) => [{ type: 'StoreCreated', name: store.name, languages: store.languages }],
  deletedMessages: () => [{ type: 'StoreDeleted' }],

  actions: {
    setName(store, action) {
      if (action.name === undefined || action.name === null) delete store.name;
      else store.name = localizedString(action.name, 'name');
      return [{ type: 'StoreNameSet', name: store.name }];
    },
    setLanguages(store, action) {
      const languages = action.languages === undefined ? [] : stringArray(action.languages, 'languages', LANGUAGE_TAG);
      const added = languages.filter((language) => !store.languages.includes(language));
      const removed = store.languages.filter((language) => !languages.includes(language));
      store.languages = languages;
      return [{ type: 'StoreLanguagesChanged', addedLanguages: added, removedLanguages: removed }];
    },
    ...customFieldActions<Store>('store'),
  },
};
