import { invalidInput, type LocalizedString, type Reference } from '@herald/model';
import type { Attribute, Image, Price, ProductVariant } from '../../resources/products/product.js';
import { MAX_PRICE_CUSTOMER_GROUPS } from '../../resources/product-projections/options.js';
import { standalonePricesOfSkus, type SelectablePrice } from '../../resources/product-projections/standalone-pricing.js';
import { selectPrice, type PriceCriteria } from '../../resources/shared/price-selection.js';
import type { GraphQLContext } from '../context.js';
import { BatchLoader } from '../loaders.js';

/**
 * Field resolvers shared by Product's ProductData and the ProductProjection of queries and search
 * (schema/products.ts): localized texts, variants, prices, images and raw attributes.
 */

export interface LocaleArgs {
  locale?: string | null;
  acceptLanguage?: readonly string[] | null;
}

/** The text in `locale`, else in the first of `acceptLanguage` it has, else (neither given) its first locale. */
export function localizedText(value: LocalizedString | undefined, args: LocaleArgs): string | null {
  if (value === undefined) return null;
  // Own properties only: a locale named like an Object.prototype member ("constructor") is absent.
  const inLocale = (locale: string): string | undefined => (Object.hasOwn(value, locale) ? value[locale] : undefined);
  if (typeof args.locale === 'string') return inLocale(args.locale) ?? null;
  if (Array.isArray(args.acceptLanguage) && args.acceptLanguage.length > 0) {
    for (const locale of args.acceptLanguage) if (inLocale(locale) !== undefined) return inLocale(locale) ?? null;
    return null;
  }
  return Object.values(value)[0] ?? null;
}

const allLocales = (value: LocalizedString | undefined): Array<{ locale: string; value: string }> | null =>
  value === undefined ? null : Object.entries(value).map(([locale, text]) => ({ locale, value: text }));

type Localized = Partial<Record<'name' | 'description' | 'slug' | 'metaTitle' | 'metaKeywords' | 'metaDescription', LocalizedString>>;

/** `name(locale, acceptLanguage)` and `nameAllLocales`, … for each LocalizedString field of ProductData. */
export function localizedResolvers(): Record<string, (data: Localized, args: LocaleArgs) => unknown> {
  const resolvers: Record<string, (data: Localized, args: LocaleArgs) => unknown> = {};
  for (const field of ['name', 'description', 'slug', 'metaTitle', 'metaKeywords', 'metaDescription'] as const) {
    resolvers[field] = (data, args) => localizedText(data[field], args);
    resolvers[`${field}AllLocales`] = (data) => allLocales(data[field]);
  }
  return resolvers;
}

export const categoryOrderHintList = (hints: Record<string, string> | undefined): Array<{ categoryId: string; orderHint: string }> =>
  Object.entries(hints ?? {}).map(([categoryId, orderHint]) => ({ categoryId, orderHint }));

export interface VariantFilterArgs {
  skus?: readonly string[] | null;
  hasImages?: boolean | null;
}

/** ProductData.variants/allVariants arguments: by SKU, with or without images. */
export function filterVariants<V extends ProductVariant>(variants: readonly V[], args: VariantFilterArgs): V[] {
  const skus = Array.isArray(args.skus) ? new Set(args.skus) : undefined;
  return variants.filter(
    (variant) =>
      (skus === undefined || (variant.sku !== undefined && skus.has(variant.sku))) &&
      (typeof args.hasImages !== 'boolean' || variant.images.length > 0 === args.hasImages),
  );
}

export interface PriceArgs {
  currency: string;
  country?: string | null;
  customerGroupId?: string | null;
  customerGroupAssignmentIds?: readonly string[] | null;
  channelId?: string | null;
  date?: string | null;
}

/**
 * Marks the variants of staged data (ProductCatalogData.staged, a staged productProjectionSearch):
 * their `price` selects among StandalonePrices as their staged changes leave them, as REST's
 * staged projections do. A variant does not know which data it belongs to; the mark is a symbol
 * on a shallow copy, so the stored document and the current data's variants stay unmarked.
 */
const STAGED = Symbol('variant of staged data');

export function stagedVariant<V extends ProductVariant>(variant: V): V {
  return { ...variant, [STAGED]: true };
}

const isStaged = (variant: ProductVariant): boolean => (variant as { [STAGED]?: boolean })[STAGED] === true;

/**
 * The StandalonePrices of the SKUs of `Standalone` products, batched per level of the query (a
 * variant does not know its product's priceMode): per request one loader for current and one for
 * staged data, beside its Loaders.
 */
const standaloneLoaders = new WeakMap<GraphQLContext, Record<'current' | 'staged', BatchLoader<readonly SelectablePrice[]>>>();

function standaloneLoader(context: GraphQLContext, staged: boolean): BatchLoader<readonly SelectablePrice[]> {
  let loaders = standaloneLoaders.get(context);
  if (loaders === undefined) {
    const { documents } = context.services;
    const loader = (stagedPrices: boolean) =>
      new BatchLoader((skus) => standalonePricesOfSkus(documents.db, context.projectKey, skus, stagedPrices), context.readBudget);
    loaders = { current: loader(false), staged: loader(true) };
    standaloneLoaders.set(context, loaders);
  }
  return staged ? loaders.staged : loaders.current;
}

/**
 * ProductVariant.price(customerGroupAssignmentIds): REST's priceCustomerGroupAssignments, bounded
 * alike (a price of any of the groups matches, resources/shared/price-selection.ts).
 */
function customerGroupAssignmentIds(ids: readonly string[]): readonly string[] {
  if (ids.length > MAX_PRICE_CUSTOMER_GROUPS || ids.some((id) => id.trim() === '')) {
    throw invalidInput(`'customerGroupAssignmentIds' must name at most ${MAX_PRICE_CUSTOMER_GROUPS} customer group ids, none empty.`, {
      field: 'customerGroupAssignmentIds',
    });
  }
  return ids;
}

/**
 * ProductVariant.price: the reference's price selection (resources/shared/price-selection.ts) at
 * `date`, else now, among the Embedded Prices, or the SKU's StandalonePrices when the product's
 * priceMode is `Standalone` (ProductPriceModeEnum); staged data's as their staged changes leave them.
 */
async function selectedPrice(variant: ProductVariant, args: PriceArgs, context: GraphQLContext): Promise<Price | SelectablePrice | null> {
  const criteria: PriceCriteria = { currency: args.currency };
  if (typeof args.country === 'string') criteria.country = args.country;
  if (typeof args.customerGroupId === 'string') criteria.customerGroupId = args.customerGroupId;
  if (Array.isArray(args.customerGroupAssignmentIds)) criteria.customerGroupIds = customerGroupAssignmentIds(args.customerGroupAssignmentIds);
  if (typeof args.channelId === 'string') criteria.channelId = args.channelId;
  const at = typeof args.date === 'string' ? new Date(args.date) : context.services.clock.now();
  const standalone = variant.sku === undefined ? undefined : await standaloneLoader(context, isStaged(variant)).load(variant.sku);
  return selectPrice(standalone ?? variant.prices, criteria, at) ?? null;
}

interface AttributeArgs {
  includeNames?: readonly string[] | null;
  excludeNames?: readonly string[] | null;
}

function rawAttributes(variant: ProductVariant, args: AttributeArgs): Attribute[] {
  const include = Array.isArray(args.includeNames) ? new Set(args.includeNames) : undefined;
  const exclude = new Set(args.excludeNames ?? []);
  return variant.attributes.filter(({ name }) => (include === undefined || include.has(name)) && !exclude.has(name));
}

export const variantResolvers = {
  price: (variant: ProductVariant, args: PriceArgs, context: GraphQLContext): Promise<Price | SelectablePrice | null> => selectedPrice(variant, args, context),
  attributesRaw: (variant: ProductVariant, args: AttributeArgs): Attribute[] => rawAttributes(variant, args),
};

/** ProductPrice, ProductPriceSearch and ScopedPrice name their references `…Ref`. */
export const priceResolvers = {
  customerGroupRef: (price: Price): Reference | null => price.customerGroup ?? null,
  channelRef: (price: Price): Reference | null => price.channel ?? null,
};

/** Image.dimensions: the reference's `{w, h}` as the official schema's `{width, height}`. */
export const dimensionsResolvers = {
  width: (dimensions: Image['dimensions']): number => dimensions.w,
  height: (dimensions: Image['dimensions']): number => dimensions.h,
};

/** BaseMoney is Money (centPrecision) or HighPrecisionMoney. */
export const baseMoneyResolvers = {
  resolveType: (money: { type?: string }): string => (money.type === 'highPrecision' ? 'HighPrecisionMoney' : 'Money'),
};
