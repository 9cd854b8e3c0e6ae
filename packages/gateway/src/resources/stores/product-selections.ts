import { invalidInput, invalidOperation, type MessagePayload, type Reference } from '@herald/model';
import { PRODUCT_SELECTION_TYPE_ID } from '../product-selections/product-selection.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import { withStoreDefaults, type ProductSelectionSetting, type Store } from './store.js';

/*
 * A Store's Product Selections (reference: StoreDraft.productSelections, ProductSelectionSettingDraft,
 * the Store's product-selection update actions and StoreProductSelectionsChanged). Every selection
 * named must exist (400 ReferencedResourceNotFound); which products they make available is
 * product-selections/availability.ts.
 */

/** The reference's maxItems of StoreDraft.productSelections and setProductSelections. */
const MAX_ITEMS = 100;

async function selectionReference(load: Load, value: unknown, field: string): Promise<Reference<'product-selection'>> {
  const selection = await loadReferenced(load, PRODUCT_SELECTION_TYPE_ID, identifierLocator(value, field, PRODUCT_SELECTION_TYPE_ID));
  return { typeId: 'product-selection', id: selection.id };
}

/** `active`: "default: false" in ProductSelectionSettingDraft and the actions. */
function activeFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}

/** A ProductSelectionSettingDraft (or an action's `{productSelection, active}`), resolved. */
async function setting(load: Load, value: unknown, field: string): Promise<ProductSelectionSetting> {
  const draft = asDraft(value, field);
  const prefix = field === '' ? '' : `${field}.`;
  return {
    productSelection: await selectionReference(load, draft.productSelection, `${prefix}productSelection`),
    active: activeFlag(draft.active, `${prefix}active`),
  };
}

/** A list of settings, each selection once (the first setting of it wins), in the order given. */
async function settingList(load: Load, value: unknown): Promise<ProductSelectionSetting[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS) {
    throw invalidInput(`'productSelections' must be an array of at most ${MAX_ITEMS} ProductSelectionSettingDrafts.`, { field: 'productSelections' });
  }
  const settings: ProductSelectionSetting[] = [];
  for (const [index, item] of value.entries()) {
    const next = await setting(load, item, `productSelections[${index}]`);
    if (!settings.some((known) => known.productSelection.id === next.productSelection.id)) settings.push(next);
  }
  return settings;
}

/** The product selections of a StoreDraft, resolved. */
export async function storeDraftProductSelections(draft: Record<string, unknown>, load: Load): Promise<Pick<Store, 'productSelections'>> {
  return { productSelections: await settingList(load, draft.productSelections) };
}

const sameSelection = (a: ProductSelectionSetting, b: ProductSelectionSetting): boolean => a.productSelection.id === b.productSelection.id;

/**
 * Replaces the list; StoreProductSelectionsChanged names the settings added, removed and updated
 * (same selection, other `active`). Nothing changed: no message, no new version.
 */
function replaceSettings(store: Store, next: ProductSelectionSetting[]): MessagePayload[] {
  const current = withStoreDefaults(store).productSelections;
  const added = next.filter((item) => !current.some((known) => sameSelection(known, item)));
  const removed = current.filter((known) => !next.some((item) => sameSelection(known, item)));
  const updated = next.filter((item) => current.some((known) => sameSelection(known, item) && known.active !== item.active));
  if (added.length + removed.length + updated.length === 0) return [];
  store.productSelections = next;
  return [
    {
      type: 'StoreProductSelectionsChanged',
      ...(added.length === 0 ? {} : { addedProductSelections: added }),
      ...(removed.length === 0 ? {} : { removedProductSelections: removed }),
      ...(updated.length === 0 ? {} : { updatedProductSelections: updated }),
    },
  ];
}

/** addProductSelection: "no effect if the given Product Selection is already present in the Store and has the same active flag". */
const addProductSelection: ActionHandler<Store> = async (store, action, { reader }) => {
  const added = await setting(reader.get, action, '');
  const current = withStoreDefaults(store).productSelections;
  const present = current.some((known) => sameSelection(known, added));
  return replaceSettings(store, present ? current.map((known) => (sameSelection(known, added) ? added : known)) : [...current, added]);
};

/** removeProductSelection: "no effect if the given Product Selection is not in the Store". */
const removeProductSelection: ActionHandler<Store> = async (store, action, { reader }) => {
  const removed = await selectionReference(reader.get, action.productSelection, 'productSelection');
  return replaceSettings(
    store,
    withStoreDefaults(store).productSelections.filter((known) => known.productSelection.id !== removed.id),
  );
};

/** changeProductSelectionActive: the selection must be one of the Store's ("Current Product Selection of the Store"). */
const changeProductSelectionActive: ActionHandler<Store> = async (store, action, { reader }) => {
  const changed = await setting(reader.get, action, '');
  const current = withStoreDefaults(store).productSelections;
  if (!current.some((known) => sameSelection(known, changed))) {
    throw invalidOperation(`The product-selection '${changed.productSelection.id}' is not a Product Selection of the store '${store.key}'.`);
  }
  return replaceSettings(
    store,
    current.map((known) => (sameSelection(known, changed) ? changed : known)),
  );
};

export const productSelectionActions: ActionHandlers<Store> = {
  setProductSelections: async (store, action, { reader }) => replaceSettings(store, await settingList(reader.get, action.productSelections)),
  addProductSelection,
  removeProductSelection,
  changeProductSelectionActive,
};
