import { invalidInput } from '@herald/model';
import { identifierLocator, referencedResourceNotFound } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import type { Store } from './store.js';

/*
 * Distribution channels, supply channels and product selections of a Store (reference: Store,
 * StoreDraft and their update actions). Herald has no Channels and no Product Selections, so none
 * can be referenced: the fields are accepted and always empty, and an identifier of one answers
 * 400 ReferencedResourceNotFound, as the platform answers for a Channel that does not exist.
 */

/** The reference's maxItems for each of the three lists. */
const MAX_ITEMS = 100;

/** Throws ReferencedResourceNotFound for a well-formed identifier (none can exist here). */
function refuseIdentifier(value: unknown, field: string, typeId: 'channel' | 'product-selection'): never {
  throw referencedResourceNotFound(typeId, identifierLocator(value, field, typeId));
}

/** A list field of a draft or set-action: only the empty list (or none) can be valid. */
function emptyList(value: unknown, field: string, typeId: 'channel' | 'product-selection'): [] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ITEMS} identifiers.`, { field });
  }
  const first: unknown = value[0];
  if (first === undefined) return [];
  const identifier = typeId === 'product-selection' ? asDraft(first, `${field}[0]`).productSelection : first;
  return refuseIdentifier(identifier, typeId === 'product-selection' ? `${field}[0].productSelection` : `${field}[0]`, typeId);
}

/** The three lists of a StoreDraft, validated (always empty). */
export function storeDraftLists(draft: Record<string, unknown>): Pick<Store, 'distributionChannels' | 'supplyChannels' | 'productSelections'> {
  return {
    distributionChannels: emptyList(draft.distributionChannels, 'distributionChannels', 'channel'),
    supplyChannels: emptyList(draft.supplyChannels, 'supplyChannels', 'channel'),
    productSelections: emptyList(draft.productSelections, 'productSelections', 'product-selection'),
  };
}

/**
 * The reference's channel and product-selection actions. Setting the empty list changes nothing
 * (the lists are always empty); every action that names one answers ReferencedResourceNotFound.
 */
export const missingReferenceActions: ActionHandlers<Store> = {
  setDistributionChannels: (_store, action) => void emptyList(action.distributionChannels, 'distributionChannels', 'channel'),
  addDistributionChannel: (_store, action) => refuseIdentifier(action.distributionChannel, 'distributionChannel', 'channel'),
  removeDistributionChannel: (_store, action) => refuseIdentifier(action.distributionChannel, 'distributionChannel', 'channel'),
  setSupplyChannels: (_store, action) => void emptyList(action.supplyChannels, 'supplyChannels', 'channel'),
  addSupplyChannel: (_store, action) => refuseIdentifier(action.supplyChannel, 'supplyChannel', 'channel'),
  removeSupplyChannel: (_store, action) => refuseIdentifier(action.supplyChannel, 'supplyChannel', 'channel'),
  setProductSelections: (_store, action) => void emptyList(action.productSelections, 'productSelections', 'product-selection'),
  addProductSelection: (_store, action) => refuseIdentifier(action.productSelection, 'productSelection', 'product-selection'),
  removeProductSelection: (_store, action) => refuseIdentifier(action.productSelection, 'productSelection', 'product-selection'),
  changeProductSelectionActive: (_store, action) => refuseIdentifier(action.productSelection, 'productSelection', 'product-selection'),
};
