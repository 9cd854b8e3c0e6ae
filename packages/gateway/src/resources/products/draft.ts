import { invalidInput, requiredField, type LocalizedString, type Reference } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { nonEmptyLocalizedString, optionalLocalizedString, orderHint, slug } from '../categories/fields.js';
import { PRODUCT_TYPE_TYPE_ID, type ProductType } from '../product-types/index.js';
import { markCheckedAgainst } from './type-guard.js';
import type { RequestContext } from '../shared/context.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { asDraft, optionalKey, type Draft } from '../shared/validation.js';
import type { Product, ProductData, SearchKeywords } from './product.js';
import { assertAttributeConstraints } from './constraints.js';
import { assertVariantIdentifiersDistinct, attributesAt, definitionsAt, variantFromDraft } from './variants.js';

type Load = Pick<RequestContext, 'load'>;

/** ProductDraft.variants: "maxItems: 100". */
const MAX_VARIANTS = 100;

/** A reference by id to an existing resource named by a ResourceIdentifier (400 ReferencedResourceNotFound otherwise). */
export async function referenceTo<T extends string>(value: unknown, field: string, typeId: T, ctx: Load): Promise<Reference<T>> {
  const found = await loadReferenced(ctx.load, typeId, identifierLocator(value, field, typeId));
  return { typeId, id: found.id } as Reference<T>;
}

export async function productTypeOf(value: unknown, ctx: Load): Promise<ProductType> {
  if (value === undefined || value === null) throw requiredField('productType');
  return loadReferenced<ProductType>(ctx.load, PRODUCT_TYPE_TYPE_ID, identifierLocator(value, 'productType', PRODUCT_TYPE_TYPE_ID));
}

async function categories(value: unknown, ctx: Load): Promise<Array<Reference<'category'>>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 500) throw invalidInput("'categories' must be an array of Category identifiers.", { field: 'categories' });
  const references: Array<Reference<'category'>> = [];
  for (const [index, item] of value.entries()) {
    const reference = await referenceTo(item, `categories[${index}]`, 'category', ctx);
    if (!references.some(({ id }) => id === reference.id)) references.push(reference);
  }
  return references;
}

/** CategoryOrderHints: category id → an order hint (a decimal in (0, 1)). */
export function categoryOrderHints(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  const hints = asDraft(value, "'categoryOrderHints' object");
  return Object.fromEntries(Object.entries(hints).map(([id, hint]) => [id, orderHint(hint, `categoryOrderHints.${id}`)]));
}

/** SearchKeywords: per locale, `[{text}]` (a SuggestTokenizer is kept as sent). */
export function searchKeywords(value: unknown): SearchKeywords {
  if (value === undefined || value === null) return {};
  const byLocale = asDraft(value, "'searchKeywords' object");
  for (const [locale, keywords] of Object.entries(byLocale)) {
    const valid = Array.isArray(keywords) && keywords.every((keyword: unknown) => typeof (keyword as { text?: unknown } | null)?.text === 'string');
    if (!valid) throw invalidInput(`'searchKeywords.${locale}' must be an array of {"text": "…"}.`, { field: `searchKeywords.${locale}` });
  }
  return byLocale as SearchKeywords;
}

function optionalTexts(draft: Draft): Partial<Record<'description' | 'metaTitle' | 'metaDescription' | 'metaKeywords', LocalizedString>> {
  const texts: Partial<Record<'description' | 'metaTitle' | 'metaDescription' | 'metaKeywords', LocalizedString>> = {};
  for (const field of ['description', 'metaTitle', 'metaDescription', 'metaKeywords'] as const) {
    const text = optionalLocalizedString(draft[field], field);
    if (text !== undefined) texts[field] = text;
  }
  return texts;
}

async function productData(draft: Draft, productType: ProductType, ctx: Load): Promise<ProductData> {
  if (draft.variants !== undefined && draft.variants !== null && (!Array.isArray(draft.variants) || draft.variants.length > MAX_VARIANTS)) {
    throw invalidInput(`'variants' must be an array of at most ${MAX_VARIANTS} ProductVariantDrafts.`, { field: 'variants' });
  }
  const variantDrafts = (draft.variants ?? []) as unknown[];
  const masterVariant = await variantFromDraft(draft.masterVariant, 'masterVariant', 1, productType, ctx);
  const variants = [];
  for (const [index, item] of variantDrafts.entries()) variants.push(await variantFromDraft(item, `variants[${index}]`, index + 2, productType, ctx));
  assertVariantIdentifiersDistinct([masterVariant, ...variants]);
  const data: ProductData = {
    name: nonEmptyLocalizedString(draft.name, 'name'),
    slug: slug(draft.slug),
    categories: await categories(draft.categories, ctx),
    ...optionalTexts(draft),
    masterVariant,
    variants,
    searchKeywords: searchKeywords(draft.searchKeywords),
    attributes: await attributesAt(draft.attributes, 'attributes', productType, 'Product', ctx),
  };
  assertAttributeConstraints(data, definitionsAt(productType, 'Variant'));
  const hints = categoryOrderHints(draft.categoryOrderHints);
  if (hints !== undefined) data.categoryOrderHints = hints;
  return data;
}

function publishFlag(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidInput("'publish' must be a boolean.", { field: 'publish' });
  return value;
}

/** A ProductDraft (types/product/ProductDraft.raml): current and staged start equal; `publish` publishes them. */
export async function productFromDraft(body: unknown, ctx: Load): Promise<Omit<Product, ServerFields>> {
  const draft = asDraft(body, 'ProductDraft');
  const productType = await productTypeOf(draft.productType, ctx);
  if (draft.name === undefined || draft.name === null) throw requiredField('name');
  if (draft.slug === undefined || draft.slug === null) throw requiredField('slug');
  const data = await productData(draft, productType, ctx);
  if (draft.priceMode !== undefined && draft.priceMode !== null && draft.priceMode !== 'Embedded' && draft.priceMode !== 'Standalone') {
    throw invalidInput("'priceMode' must be Embedded or Standalone.", { field: 'priceMode', invalidValue: draft.priceMode });
  }
  const fields: Omit<Product, ServerFields> = {
    productType: { typeId: PRODUCT_TYPE_TYPE_ID, id: productType.id },
    masterData: { published: publishFlag(draft.publish), current: structuredClone(data), staged: data, hasStagedChanges: false },
    priceMode: (draft.priceMode as Product['priceMode'] | undefined) ?? 'Embedded',
  };
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  if (draft.taxCategory !== undefined && draft.taxCategory !== null)
    fields.taxCategory = await referenceTo(draft.taxCategory, 'taxCategory', 'tax-category', ctx);
  if (draft.state !== undefined && draft.state !== null) fields.state = await referenceTo(draft.state, 'state', 'state', ctx);
  // Checked again under the type's lock when the product is written (type-guard.ts).
  return markCheckedAgainst(fields, productType);
}
