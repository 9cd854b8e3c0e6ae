import { randomUUID } from 'node:crypto';
import { duplicateField, invalidInput, type CustomFields, type LocalizedString } from '@herald/model';
import { customFromDraft } from './custom-fields.js';
import type { RequestContext } from './context.js';
import { localizedString, nonEmptyLocalizedString, optionalKey, optionalString, stringArray } from './validation.js';

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

/** What holds an `assets` list: a Category or a ProductVariant (AssetDraft.key: "unique per Category or ProductVariant"). */
export interface AssetHolder {
  assets: Asset[];
}

/** Assets per holder and sources per asset: generous bounds, only so a body cannot grow without end. */
export const MAX_ASSETS = 500;
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

/** Asset.tags: absent or null is none. */
export function assetTags(value: unknown, field: string): string[] | undefined {
  return value === undefined || value === null ? undefined : stringArray(value, field);
}

/** An AssetDraft (types/common/AssetDraft.raml) made into an Asset with a new id. */
export async function assetFromDraft(value: unknown, field: string, ctx: Pick<RequestContext, 'load'>): Promise<Asset> {
  const draft = objectOf(value, field);
  const asset: Asset = {
    id: randomUUID(),
    sources: assetSources(draft.sources, `${field}.sources`),
    name: nonEmptyLocalizedString(draft.name, `${field}.name`),
  };
  if (draft.description !== undefined && draft.description !== null) asset.description = localizedString(draft.description, `${field}.description`);
  const tags = assetTags(draft.tags, `${field}.tags`);
  if (tags !== undefined) asset.tags = tags;
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
