import { duplicateField, invalidInput } from '@herald/model';
import { attributesError, loadNestedAttributeTypes, type AttributeDefinition, type ProductType } from '../product-types/index.js';
import { assetsFromDraft } from '../shared/assets.js';
import type { RequestContext } from '../shared/context.js';
import { asDraft, optionalKey, optionalString } from '../shared/validation.js';
import { pricesFromDraft } from './prices.js';
import type { Attribute, Image, ProductVariant } from './product.js';

type Load = Pick<RequestContext, 'load'>;

/** The reference's Image: `url` and pixel `dimensions` required, `label` optional. */
export function imageFromDraft(value: unknown, field: string): Image {
  const image = asDraft(value, `'${field}' Image`);
  if (typeof image.url !== 'string' || image.url.length === 0 || image.url.length > 4096) {
    throw invalidInput(`'${field}.url' must be a URL.`, { field: `${field}.url` });
  }
  const dimensions = asDraft(image.dimensions, `'${field}.dimensions' AssetDimensions`);
  if (!isPixels(dimensions.w) || !isPixels(dimensions.h)) {
    throw invalidInput(`'${field}.dimensions' must be {"w": pixels, "h": pixels}.`, { field: `${field}.dimensions` });
  }
  const result: Image = { url: image.url, dimensions: { w: dimensions.w, h: dimensions.h } };
  const label = optionalString(image.label, `${field}.label`, 256);
  if (label !== undefined) result.label = label;
  return result;
}

function isPixels(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Image.url "must be unique within a single ProductVariant": a second image of one URL is a DuplicateField. */
export function assertImageUrlFree(variant: Pick<ProductVariant, 'images'>, url: string, field = 'images.url'): void {
  if (variant.images.some((image) => image.url === url)) throw duplicateField(field, url);
}

function images(value: unknown, field: string): Image[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 500) throw invalidInput(`'${field}' must be an array of Images.`, { field });
  const variant: Pick<ProductVariant, 'images'> = { images: [] };
  for (const [index, item] of value.entries()) {
    const image = imageFromDraft(item, `${field}[${index}]`);
    assertImageUrlFree(variant, image.url, `${field}.url`);
    variant.images.push(image);
  }
  return variant.images;
}

/** The ProductType's definitions of one AttributeDefinition.level: a variant's or the product's own attributes. */
export function definitionsAt(productType: ProductType, level: AttributeDefinition['level']): AttributeDefinition[] {
  return productType.attributes.filter((definition) => definition.level === level);
}

/** Attribute values checked against the ProductType's definitions of `level` (product-types' attributesError). */
export async function attributesAt(
  value: unknown,
  field: string,
  productType: ProductType,
  level: AttributeDefinition['level'],
  ctx: Load,
): Promise<Attribute[]> {
  const attributes = value === undefined || value === null ? [] : value;
  const definitions = definitionsAt(productType, level);
  const nested = await loadNestedAttributeTypes(definitions, ctx.load);
  const problem = attributesError(definitions, attributes, field, nested);
  if (problem !== undefined) throw invalidInput(`'${problem.path}' ${problem.message}.`, { field: problem.path });
  return (attributes as Array<{ name: string; value: unknown }>).map(({ name, value: attributeValue }) => ({ name, value: attributeValue }));
}

/** SKUs are free text of at most 256 characters, unique in the project (checked by uniqueness.ts). */
export function sku(value: unknown, field: string): string | undefined {
  const text = optionalString(value, field, 256);
  if (text === '') throw invalidInput(`'${field}' must not be empty.`, { field });
  return text;
}

/** A ProductVariantDraft (types/product/ProductVariantDraft.raml) as the variant `id`. */
export async function variantFromDraft(value: unknown, field: string, id: number, productType: ProductType, ctx: Load): Promise<ProductVariant> {
  const draft = value === undefined || value === null ? {} : asDraft(value, `'${field}' ProductVariantDraft`);
  const variant: ProductVariant = {
    id,
    prices: await pricesFromDraft(draft.prices, `${field}.prices`, ctx),
    images: images(draft.images, `${field}.images`),
    attributes: await attributesAt(draft.attributes, `${field}.attributes`, productType, 'Variant', ctx),
    assets: await assetsFromDraft(draft.assets, `${field}.assets`, ctx),
  };
  const variantSku = sku(draft.sku, `${field}.sku`);
  if (variantSku !== undefined) variant.sku = variantSku;
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) variant.key = key;
  return variant;
}

/** SKUs and keys of a product's variants are each used once (the reference's DuplicateField / DuplicateVariantValues). */
export function assertVariantIdentifiersDistinct(variants: readonly ProductVariant[]): void {
  for (const field of ['sku', 'key'] as const) {
    const values = variants.flatMap((variant) => (variant[field] === undefined ? [] : [variant[field]]));
    const duplicate = values.find((item, index) => values.indexOf(item) !== index);
    if (duplicate !== undefined) throw invalidInput(`The variant ${field} '${duplicate}' is used twice.`, { field });
  }
}
