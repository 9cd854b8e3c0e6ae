import { invalidInput } from '@herald/model';
import { identifierLocator, referencedResourceNotFound } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import type { Store } from './store.js';

/*
 * Product selections of a Store (reference: Store, StoreDraft and their update actions). Herald
 * has no Product Selections, so none can be referenced: the field is accepted and always empty,
 * and an identifier of one answers 400 ReferencedResourceNotFound, as the platform answers for a
 * Product Selection that does not exist. (Channels are resources: channels.ts.)
 */

/** The reference's maxItems of StoreDraft.productSelections. */
const MAX_ITEMS = 100;

/** Throws ReferencedResourceNotFound for a well-formed identifier (none can exist here). */
function refuseIdentifier(value: unknown, field: string, typeId: 'product-selection'): never {
  throw referencedResourceNotFound(typeId, identifierLocator(value, field, typeId));
}

/** A list field of a draft or set-action: only the empty list (or none) can be valid. */
function emptyList(value: unknown, field: string, typeId: 'product-selection'): [] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ITEMS} identifiers.`, { field });
  }
  const first: unknown = value[0];
  if (first === undefined) return [];
  return refuseIdentifier(asDraft(first, `${field}[0]`).productSelection, `${field}[0].productSelection`, typeId);
}

/** The product selections of a StoreDraft, validated (always empty). */
export function storeDraftProductSelections(draft: Record<string, unknown>): Pick<Store, 'productSelections'> {
  return { productSelections: emptyList(draft.productSelections, 'productSelections', 'product-selection') };
}

/**
 * The reference's product-selection actions. Setting the empty list changes nothing (the list is
 * always empty); every action that names one answers ReferencedResourceNotFound.
 */
export const missingReferenceActions: ActionHandlers<Store> = {
  setProductSelections: (_store, action) => void emptyList(action.productSelections, 'productSelections', 'product-selection'),
  addProductSelection: (_store, action) => refuseIdentifier(action.productSelection, 'productSelection', 'product-selection'),
  removeProductSelection: (_store, action) => refuseIdentifier(action.productSelection, 'productSelection', 'product-selection'),
  changeProductSelectionActive: (_store, action) => refuseIdentifier(action.productSelection, 'productSelection', 'product-selection'),
};
