import { duplicateField, invalidInput, type BaseResource, type CustomFields } from '@herald/model';
import { assetFromDraft, assetSources, assetTags, MAX_ASSETS, type Asset, type AssetHolder } from './assets.js';
import { customFieldActions } from './custom-fields.js';
import type { ActionScope, UpdateAction } from './update-actions.js';
import { localizedString, nonEmptyLocalizedString, optionalKey, stringArray } from './validation.js';

/**
 * The asset update actions Categories and Products share (types/category/updates/CategoryAddAssetAction …
 * CategorySetAssetCustomFieldAction, types/product/updates/ProductAddAssetAction … ProductSetAssetCustomFieldAction).
 * Each is read from the action once and then applied to every holder it concerns: a Category, or
 * a ProductVariant in the staged data and, with `staged: false`, the current data too, so an asset
 * added to both carries one id. The reference has no messages for any of them.
 */
export type AssetChange = (holder: AssetHolder) => Promise<void> | void;
export type AssetChangeOf = (action: UpdateAction, scope: ActionScope) => Promise<AssetChange> | AssetChange;

/**
 * The Asset an action names by `assetId` or `assetKey` ("The Asset to update must be specified using
 * either `assetId` or `assetKey`"); `assetId` wins when both are sent.
 */
export function targetAsset(holder: AssetHolder, action: UpdateAction): Asset {
  const { assetId, assetKey } = action;
  if (typeof assetId !== 'string' && typeof assetKey !== 'string') {
    throw invalidInput("Either 'assetId' or 'assetKey' is required.", { field: 'assetId' });
  }
  const found = typeof assetId === 'string' ? holder.assets.find((asset) => asset.id === assetId) : holder.assets.find((asset) => asset.key === assetKey);
  if (found === undefined) {
    const what = typeof assetId === 'string' ? `id '${assetId}'` : `key '${String(assetKey)}'`;
    throw invalidInput(`There is no Asset with ${what}.`, { field: typeof assetId === 'string' ? 'assetId' : 'assetKey' });
  }
  return found;
}

/** An Asset as the shared custom-field actions see it: they read and write only `custom`. */
type CustomizableAsset = BaseResource & { custom?: CustomFields };
const assetCustomFields = customFieldActions<CustomizableAsset>('asset', { messages: false });

/** The shared setCustomType / setCustomField, run on the named Asset of each holder. */
function onAssetCustomFields(name: 'setCustomType' | 'setCustomField'): AssetChangeOf {
  const handler = assetCustomFields[name];
  return (action, scope) => async (holder) => {
    const asset = targetAsset(holder, action);
    await handler?.(asset as unknown as CustomizableAsset, { ...action, action: name }, scope);
  };
}

/** Insert position of addAsset: 0 up to the number of Assets (that many appends). */
function position(value: unknown, length: number): number {
  if (value === undefined || value === null) return length;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > length) {
    throw invalidInput(`'position' must be an integer from 0 to ${length}.`, { field: 'position', invalidValue: value });
  }
  return value;
}

function addAsset(asset: Asset, at: unknown): AssetChange {
  return (holder) => {
    if (holder.assets.length >= MAX_ASSETS) throw invalidInput(`At most ${MAX_ASSETS} Assets are allowed.`, { field: 'asset' });
    if (asset.key !== undefined && holder.assets.some((known) => known.key === asset.key)) throw duplicateField('assets.key', asset.key);
    holder.assets.splice(position(at, holder.assets.length), 0, structuredClone(asset));
  };
}

/** changeAssetOrder: "Must contain all Asset ids", each once, none unknown. */
function reorder(order: readonly string[]): AssetChange {
  return (holder) => {
    const ids = holder.assets.map((asset) => asset.id);
    if (order.length !== ids.length || new Set(order).size !== order.length || !order.every((id) => ids.includes(id))) {
      throw invalidInput("'assetOrder' must list the id of every Asset exactly once.", { field: 'assetOrder' });
    }
    holder.assets = order.map((id) => holder.assets.find((asset) => asset.id === id) as Asset);
  };
}

/** setAssetKey: the Asset by `assetId` only (required there); no `assetKey` removes the key. */
function setKey(action: UpdateAction): AssetChange {
  if (typeof action.assetId !== 'string') throw invalidInput("'assetId' is required.", { field: 'assetId' });
  const byId = { action: action.action, assetId: action.assetId };
  const key = optionalKey(action.assetKey, 'assetKey');
  return (holder) => {
    const asset = targetAsset(holder, byId);
    if (key === undefined) {
      delete asset.key;
      return;
    }
    if (holder.assets.some((known) => known !== asset && known.key === key)) throw duplicateField('assets.key', key);
    asset.key = key;
  };
}

/** Sets (or, with `undefined`, removes) one optional field of the named Asset. */
function setOptional<F extends 'description' | 'tags'>(action: UpdateAction, field: F, value: Asset[F] | undefined): AssetChange {
  return (holder) => {
    const asset = targetAsset(holder, action);
    if (value === undefined) delete asset[field];
    else asset[field] = structuredClone(value);
  };
}

function optionalDescription(value: unknown): Asset['description'] {
  return value === undefined || value === null ? undefined : localizedString(value, 'description');
}

/** Every shared asset action by its `action` name. */
export const ASSET_CHANGES: Readonly<Record<string, AssetChangeOf>> = {
  addAsset: async (action, { ctx }) => addAsset(await assetFromDraft(action.asset, 'asset', ctx), action.position),
  removeAsset: (action) => (holder) => {
    const asset = targetAsset(holder, action);
    holder.assets = holder.assets.filter((known) => known !== asset);
  },
  changeAssetOrder: (action) => reorder(stringArray(action.assetOrder, 'assetOrder')),
  changeAssetName: (action) => {
    const name = nonEmptyLocalizedString(action.name, 'name');
    return (holder) => {
      targetAsset(holder, action).name = structuredClone(name);
    };
  },
  setAssetDescription: (action) => setOptional(action, 'description', optionalDescription(action.description)),
  setAssetTags: (action) => setOptional(action, 'tags', assetTags(action.tags, 'tags')),
  setAssetSources: (action) => {
    const sources = assetSources(action.sources, 'sources');
    return (holder) => {
      targetAsset(holder, action).sources = structuredClone(sources);
    };
  },
  setAssetKey: setKey,
  setAssetCustomType: onAssetCustomFields('setCustomType'),
  setAssetCustomField: onAssetCustomFields('setCustomField'),
};
