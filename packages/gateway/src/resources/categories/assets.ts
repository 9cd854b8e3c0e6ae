import { randomUUID } from 'node:crypto';
import { duplicateField, invalidInput, type BaseResource, type CustomFields, type LocalizedString } from '@herald/model';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import type { RequestContext } from '../shared/context.js';
import type { ActionHandler, ActionHandlers, ActionScope, UpdateAction } from '../shared/update-actions.js';
import { localizedString, optionalKey, optionalString, stringArray } from '../shared/validation.js';

/** The reference's AssetDimensions (types/common/AssetDimensions.raml): pixels. */
export interface AssetDimensions {
  w: number;
  h: number;
}

/** The reference's AssetSource: one rendition of an Asset. */
export interface AssetSource {
  uri: string;
  key?: string;
  dimensions?: AssetDimensions;
  contentType?: string;
}

/** The reference's Asset (types/common/Asset.raml); `key` is unique within its holder. */
export interface Asset {
  id: string;
  sources: AssetSource[];
  name: LocalizedString;
  description?: LocalizedString;
  tags?: string[];
  custom?: CustomFields;
  key?: string;
}

/** A resource with an `assets` list (a Category; product variants have theirs too). */
export interface AssetHolder {
  assets: Asset[];
}

/** Assets per holder and sources per asset: generous bounds, only so a body cannot grow without end. */
const MAX_ASSETS = 500;
const MAX_SOURCES = 100;

function objectOf(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be an object.`, { field });
  }
  return value as Record<string, unknown>;
}

function pixels(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2_147_483_647) {
    throw invalidInput(`'${field}' must be a non-negative int32 number of pixels.`, { field, invalidValue: value });
  }
  return value;
}

function assetSource(value: unknown, field: string): AssetSource {
  const draft = objectOf(value, field);
  if (typeof draft.uri !== 'string' || draft.uri === '' || draft.uri.length > 4096) {
    throw invalidInput(`'${field}.uri' must be a non-empty string.`, { field: `${field}.uri` });
  }
  const source: AssetSource = { uri: draft.uri };
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) source.key = key;
  if (draft.dimensions !== undefined && draft.dimensions !== null) {
    const dimensions = objectOf(draft.dimensions, `${field}.dimensions`);
    source.dimensions = { w: pixels(dimensions.w, `${field}.dimensions.w`), h: pixels(dimensions.h, `${field}.dimensions.h`) };
  }
  const contentType = optionalString(draft.contentType, `${field}.contentType`, 256);
  if (contentType !== undefined) source.contentType = contentType;
  return source;
}

/** AssetSource[] with `minItems: 1`; a source key is unique per Asset (AssetSource.key). */
export function assetSources(value: unknown, field: string): AssetSource[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SOURCES) {
    throw invalidInput(`'${field}' must be an array of 1 to ${MAX_SOURCES} AssetSources.`, { field });
  }
  const sources = value.map((item, index) => assetSource(item, `${field}[${index}]`));
  assertUniqueKeys(sources, `${field}.key`);
  return sources;
}

function assertUniqueKeys(items: ReadonlyArray<{ key?: string }>, field: string): void {
  const seen = new Set<string>();
  for (const { key } of items) {
    if (key === undefined) continue;
    if (seen.has(key)) throw duplicateField(field, key);
    seen.add(key);
  }
}

function requiredLocalizedString(value: unknown, field: string): LocalizedString {
  if (value === undefined || value === null) throw invalidInput(`'${field}' is required.`, { field });
  const text = localizedString(value, field);
  if (Object.keys(text).length === 0) throw invalidInput(`'${field}' must not be empty.`, { field });
  return text;
}

function tags(value: unknown, field: string): string[] | undefined {
  return value === undefined || value === null ? undefined : stringArray(value, field);
}

/** An AssetDraft (types/common/AssetDraft.raml) made into an Asset with a new id. */
export async function assetFromDraft(value: unknown, field: string, ctx: Pick<RequestContext, 'load'>): Promise<Asset> {
  const draft = objectOf(value, field);
  const asset: Asset = {
    id: randomUUID(),
    sources: assetSources(draft.sources, `${field}.sources`),
    name: requiredLocalizedString(draft.name, `${field}.name`),
  };
  if (draft.description !== undefined && draft.description !== null) asset.description = localizedString(draft.description, `${field}.description`);
  const assetTags = tags(draft.tags, `${field}.tags`);
  if (assetTags !== undefined) asset.tags = assetTags;
  const custom = await customFromDraft(draft.custom, 'asset', ctx);
  if (custom !== undefined) asset.custom = custom;
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) asset.key = key;
  return asset;
}

/** `assets` of a draft: each an AssetDraft, keys unique within the holder (Asset.key). */
export async function assetsFromDraft(value: unknown, field: string, ctx: Pick<RequestContext, 'load'>): Promise<Asset[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ASSETS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ASSETS} AssetDrafts.`, { field });
  }
  const assets: Asset[] = [];
  for (const [index, item] of value.entries()) assets.push(await assetFromDraft(item, `${field}[${index}]`, ctx));
  assertUniqueKeys(assets, `${field}.key`);
  return assets;
}

/**
 * The Asset an action names by `assetId` or `assetKey` ("Either `assetId` or `assetKey` is
 * required" in every Category asset action); `assetId` wins when both are sent.
 */
function targetAsset(holder: AssetHolder, action: UpdateAction): Asset {
  const { assetId, assetKey } = action;
  if (typeof assetId !== 'string' && typeof assetKey !== 'string') {
    throw invalidInput("Either 'assetId' or 'assetKey' is required.", { field: 'assetId' });
  }
  const found = typeof assetId === 'string'
    ? holder.assets.find((asset) => asset.id === assetId)
    : holder.assets.find((asset) => asset.key === assetKey);
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
      targetAsset(holder, action).name = requiredLocalizedString(action.name, 'name');
    },
    setAssetDescription(holder, action) {
      const asset = targetAsset(holder, action);
      if (action.description === undefined || action.description === null) delete asset.description;
      else asset.description = localizedString(action.description, 'description');
    },
    setAssetTags(holder, action) {
      const asset = targetAsset(holder, action);
      const assetTags = tags(action.tags, 'tags');
      if (assetTags === undefined) delete asset.tags;
      else asset.tags = assetTags;
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
