import type { LocalizedString } from '@herald/model';
import type { ProductProjection } from '../products/projection.js';
import type { Attribute, ProductVariant } from '../products/product.js';

/**
 * localeProjection (ProductProjectionLocales): LocalizedStrings keep only the requested locales.
 * A requested `de-CH` also keeps `de` (the language it falls back to), a requested `de` keeps
 * only `de`. Applied to the projection's LocalizedString fields, searchKeywords, asset names and
 * descriptions, and attribute values of type ltext and lenum labels.
 */
type Keep = (locale: string) => boolean;

export function localeFilter(locales: readonly string[]): Keep {
  const kept = new Set(locales.flatMap((locale) => [locale, locale.split('-')[0] as string]));
  return (locale) => kept.has(locale);
}

const LOCALIZED_FIELDS = ['name', 'description', 'slug', 'metaTitle', 'metaDescription', 'metaKeywords'] as const;
const LOCALE_KEY = /^[a-z]{2}(-[A-Za-z0-9]{2,8})*$/;

function project(value: LocalizedString, keep: Keep): LocalizedString {
  return Object.fromEntries(Object.entries(value).filter(([locale]) => keep(locale)));
}

/** An attribute value that is a LocalizedString (ltext): an object of locale keys and strings only. */
function isLocalizedString(value: unknown): value is LocalizedString {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([key, text]) => LOCALE_KEY.test(key) && typeof text === 'string');
}

function attributeValue(value: unknown, keep: Keep): unknown {
  if (isLocalizedString(value)) return project(value, keep);
  if (Array.isArray(value)) return value.map((item: unknown) => attributeValue(item, keep));
  if (typeof value === 'object' && value !== null && 'key' in value && 'label' in value && isLocalizedString(value.label)) {
    return { ...value, label: project(value.label, keep) };
  }
  return value;
}

function attributes(list: Attribute[], keep: Keep): Attribute[] {
  return list.map((attribute) => ({ ...attribute, value: attributeValue(attribute.value, keep) }));
}

function variant(value: ProductVariant, keep: Keep): ProductVariant {
  const assets = value.assets.map((asset) => ({
    ...asset,
    name: project(asset.name, keep),
    ...(asset.description === undefined ? {} : { description: project(asset.description, keep) }),
  }));
  return { ...value, attributes: attributes(value.attributes, keep), assets };
}

export function projectLocales(projection: ProductProjection, keep: Keep): ProductProjection {
  const result: ProductProjection = { ...projection };
  for (const field of LOCALIZED_FIELDS) {
    const value = projection[field];
    if (value !== undefined) result[field] = project(value, keep);
  }
  result.searchKeywords = Object.fromEntries(Object.entries(projection.searchKeywords).filter(([locale]) => keep(locale)));
  result.masterVariant = variant(projection.masterVariant, keep);
  result.variants = projection.variants.map((item) => variant(item, keep));
  result.attributes = attributes(projection.attributes, keep);
  return result;
}
