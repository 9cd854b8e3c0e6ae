import { duplicateField, invalidInput, type BaseResource, type CustomFields } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers, ActionScope, UpdateAction } from '../shared/update-actions.js';
import { localizedString, optionalKey, stringArray } from '../shared/validation.js';
import { assetFromDraft, assetSources, assetTags, MAX_ASSETS, type Asset, type AssetHolder } from './assets.js';
import { nonEmptyLocalizedString } from './fields.js';

/**
 * The Asset an action names by `assetId` or `assetKey` ("Either `assetId` or `assetKey` is
 * required" in every Category asset action); `assetId` wins when both are sent.
 */
function targetAsset(holder: AssetHolder, action: UpdateAction): Asset {
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

/** Runs the shared setCustomType / setCustomField on one Asset (the reference has no messages for them). */
function onAssetCustomFields(name: 'setCustomType' | 'setCustomField'): ActionHandler<AssetHolder> {
  const handler = assetCustomFields[name];
  return async (holder: AssetHolder, action: UpdateAction, scope: ActionScope) => {
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

/**
 * The asset update actions of the reference (CategoryAddAssetAction … CategorySetAssetCustomFieldAction).
 * The reference has no messages for any of them: they make new versions only.
 */
export function assetActions<D extends AssetHolder>(): ActionHandlers<D> {
  const actions: ActionHandlers<AssetHolder> = {
    async addAsset(holder, action, { ctx }) {
      const asset = await assetFromDraft(action.asset, 'asset', ctx);
      if (holder.assets.length >= MAX_ASSETS) throw invalidInput(`At most ${MAX_ASSETS} Assets are allowed.`, { field: 'asset' });
      if (asset.key !== undefined && holder.assets.some((known) => known.key === asset.key)) throw duplicateField('assets.key', asset.key);
      holder.assets.splice(position(action.position, holder.assets.length), 0, asset);
    },
    removeAsset(holder, action) {
      const asset = targetAsset(holder, action);
      holder.assets = holder.assets.filter((known) => known !== asset);
    },
    changeAssetOrder(holder, action) {
      const order = stringArray(action.assetOrder, 'assetOrder');
      const ids = holder.assets.map((asset) => asset.id);
      // "Must contain all Asset ids": each once, none unknown.
      if (order.length !== ids.length || new Set(order).size !== order.length || !order.every((id) => ids.includes(id))) {
        throw invalidInput("'assetOrder' must list the id of every Asset exactly once.", { field: 'assetOrder' });
      }
      holder.assets = order.map((id) => holder.assets.find((asset) => asset.id === id) as Asset);
    },
    changeAssetName(holder, action) {
      targetAsset(holder, action).name = nonEmptyLocalizedString(action.name, 'name');
    },
    setAssetDescription(holder, action) {
      const asset = targetAsset(holder, action);
      if (action.description === undefined || action.description === null) delete asset.description;
      else asset.description = localizedString(action.description, 'description');
    },
    setAssetTags(holder, action) {
      const asset = targetAsset(holder, action);
      const tags = assetTags(action.tags, 'tags');
      if (tags === undefined) delete asset.tags;
      else asset.tags = tags;
    },
    setAssetSources(holder, action) {
      targetAsset(holder, action).sources = assetSources(action.sources, 'sources');
    },
    /** CategorySetAssetKeyAction: the Asset by `assetId` only; no `assetKey` removes the key. */
    setAssetKey(holder, action) {
      if (typeof action.assetId !== 'string') throw invalidInput("'assetId' is required.", { field: 'assetId' });
      const asset = targetAsset(holder, { action: action.action, assetId: action.assetId });
      const key = optionalKey(action.assetKey, 'assetKey');
      if (key === undefined) {
        delete asset.key;
        return;
      }
      if (holder.assets.some((known) => known !== asset && known.key === key)) throw duplicateField('assets.key', key);
      asset.key = key;
    },
    setAssetCustomType: onAssetCustomFields('setCustomType'),
    setAssetCustomField: onAssetCustomFields('setCustomField'),
  };
  return actions as ActionHandlers<D>;
}
