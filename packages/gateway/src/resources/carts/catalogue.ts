import { ApiError, invalidInput, invalidOperation, type BaseResource, type Reference } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { TransactionReader } from '@herald/store';
import { allVariants, PRODUCT_TYPE_ID, type Price, type Product, type ProductVariant } from '../products/product.js';
import { productWithCurrentSku } from '../products/sku-lookup.js';
import { activeDiscounts } from '../discounts/active-discounts.js';
import type { RequestContext } from '../shared/context.js';
import type { CentPrecisionMoney } from '../shared/money.js';
import { selectPrice, unitPriceForQuantity, type PriceCriteria } from '../shared/price-selection.js';
import { referencedResourceNotFound } from '../shared/references.js';
import { activeStandalonePrices } from '../standalone-prices/active-prices.js';
import type { StandalonePrice } from '../standalone-prices/standalone-price.js';
import { buyerGroupIds, type Buyer } from './buyer-groups.js';
import { readCatalogueAhead, type CatalogueAhead } from './catalogue-ahead.js';
import type { LineItemPrice } from './cart.js';

/*
 * What a cart reads of the catalogue: the published product a line item names (by `sku`, or by
 * `productId` and `variantId`) and the price the reference's price selection picks for it.
 */

/** Reads a cart needs: documents by id and the queries `load` cannot express. */
export interface CatalogueReads {
  projectKey: string;
  load: RequestContext['load'];
  db: Queryable;
  /** What a new cart reads before pricing, read with the other drafts of its turn (catalogue-ahead.ts). */
  ahead?: CatalogueAhead;
}

/**
 * `reads` with the published products of `skus` and the project's active discounts read ahead,
 * in one statement with the other cart drafts of this turn: a draft's reads of the catalogue then
 * cost one round trip together instead of one each.
 */
export async function withCatalogueReadAhead(reads: CatalogueReads, skus: readonly string[]): Promise<CatalogueReads> {
  return { ...reads, ahead: await readCatalogueAhead(reads.db, reads.projectKey, skus) };
}

async function publishedProductWithSku(reads: CatalogueReads, sku: string): Promise<Product | undefined> {
  if (reads.ahead?.skus.has(sku) === true) return reads.ahead.products.get(sku);
  return productWithCurrentSku(reads.db, reads.projectKey, sku, { published: true });
}

/** Every active discount of `typeId` (ACTIVE_DISCOUNT_TYPES): as read ahead, else read now. */
export async function activeOf<D extends BaseResource>(reads: CatalogueReads, typeId: string): Promise<D[]> {
  const ahead = reads.ahead?.active.get(typeId);
  return ahead === undefined ? activeDiscounts<D>(reads.db, reads.projectKey, typeId) : (ahead as D[]);
}

/** From a draft's context (no transaction open yet). */
export function draftReads(ctx: RequestContext): CatalogueReads {
  return { projectKey: ctx.projectKey, load: ctx.load, db: ctx.db };
}

/** From an update: its transaction when it holds one (a locked update), else the database (an optimistic one has none). */
export function updateReads(ctx: RequestContext, reader: TransactionReader): CatalogueReads {
  let db = ctx.db;
  try {
    db = reader.tx;
  } catch {
    // readerOutsideTransaction: the optimistic update reads outside any transaction.
  }
  return { projectKey: ctx.projectKey, load: (typeId, locator) => reader.get(typeId, locator), db };
}

/** A line item's product as the cart copies it: the current data of a published product. */
export interface CatalogueVariant {
  product: Product;
  variant: ProductVariant;
}

/** How the line item draft names its product. */
export interface ProductLocator {
  productId?: string | undefined;
  variantId?: number | undefined;
  sku?: string | undefined;
}

/** LineItemDraft: "either the `productId` and `variantId`, or `sku` must be provided"; without `variantId` the master variant. */
function variantOf(product: Product, locator: ProductLocator, field: string): ProductVariant {
  const variants = allVariants(product.masterData.current);
  const variant =
    locator.sku !== undefined
      ? variants.find((candidate) => candidate.sku === locator.sku)
      : variants.find((candidate) => candidate.id === (locator.variantId ?? product.masterData.current.masterVariant.id));
  if (variant === undefined) {
    const what = locator.sku !== undefined ? `the SKU '${locator.sku}'` : `the variant ${locator.variantId ?? 1}`;
    throw invalidInput(`The product '${product.id}' has no variant with ${what}.`, { field: `${field}.${locator.sku !== undefined ? 'sku' : 'variantId'}` });
  }
  return variant;
}

/**
 * The published product and variant a draft names, or the error the platform answers: an unknown
 * or unpublished SKU is InvalidInput ("No published product with an sku … exists"), an unknown
 * `productId` ReferencedResourceNotFound, an unpublished one InvalidOperation.
 */
export async function findCatalogueVariant(reads: CatalogueReads, locator: ProductLocator, field: string): Promise<CatalogueVariant | ApiError> {
  if (locator.sku !== undefined && locator.productId === undefined) {
    const product = await publishedProductWithSku(reads, locator.sku);
    if (product === undefined) return invalidInput(`No published product with an sku '${locator.sku}' exists.`, { field: `${field}.sku` });
    return { product, variant: variantOf(product, locator, field) };
  }
  const productId = locator.productId as string;
  const product = await reads.load<Product>(PRODUCT_TYPE_ID, { id: productId });
  if (product === undefined) return referencedResourceNotFound(PRODUCT_TYPE_ID, { id: productId });
  if (!product.masterData.published) return invalidOperation(`The product '${productId}' is not published: only published products can be added to a cart.`);
  return { product, variant: variantOf(product, locator, field) };
}

/** At most this many StandalonePrices of one SKU are read for a line item (a bound on one read). */
const STANDALONE_PRICES_PER_SKU = 500;

function standalonePricesOf(reads: CatalogueReads, sku: string, currency: string): Promise<StandalonePrice[]> {
  return activeStandalonePrices(reads.db, reads.projectKey, [sku], { currency, limit: STANDALONE_PRICES_PER_SKU });
}

/** A StandalonePrice as the Price a line item holds (its HighPrecisionMoney answers with its rounded centAmount). */
function asLineItemPrice(price: StandalonePrice | Price): LineItemPrice {
  const money = (value: { currencyCode: string; centAmount: number; fractionDigits: number }): CentPrecisionMoney => ({
    type: 'centPrecision',
    currencyCode: value.currencyCode,
    centAmount: value.centAmount,
    fractionDigits: value.fractionDigits,
  });
  const copy: LineItemPrice = { id: price.id, value: money(price.value) };
  if (price.key !== undefined) copy.key = price.key;
  if (price.country !== undefined) copy.country = price.country;
  if (price.customerGroup !== undefined) copy.customerGroup = { ...price.customerGroup };
  if (price.channel !== undefined) copy.channel = { ...price.channel };
  if (price.validFrom !== undefined) copy.validFrom = price.validFrom;
  if (price.validUntil !== undefined) copy.validUntil = price.validUntil;
  if (price.tiers !== undefined && price.tiers.length > 0)
    copy.tiers = price.tiers.map((tier) => ({ minimumQuantity: tier.minimumQuantity, value: money(tier.value) }));
  return copy;
}

/** MatchingPriceNotFound (types/error/MatchingPriceNotFoundError.raml) with the selection's criteria. */
function matchingPriceNotFound(product: Product, variant: ProductVariant, criteria: PriceCriteria): ApiError {
  const scope = [criteria.currency, criteria.country, criteria.customerGroupId, criteria.channelId].filter((part) => part !== undefined).join(', ');
  const customerGroup: Reference<'customer-group'> | undefined =
    criteria.customerGroupId === undefined ? undefined : { typeId: 'customer-group', id: criteria.customerGroupId };
  const channel: Reference<'channel'> | undefined = criteria.channelId === undefined ? undefined : { typeId: 'channel', id: criteria.channelId };
  return new ApiError(400, {
    code: 'MatchingPriceNotFound',
    message: `The variant ${variant.id} of product ${product.id} does not contain a price for ${scope}.`,
    productId: product.id,
    variantId: variant.id,
    currency: criteria.currency,
    ...(criteria.country === undefined ? {} : { country: criteria.country }),
    ...(customerGroup === undefined ? {} : { customerGroup }),
    ...(channel === undefined ? {} : { channel }),
  });
}

/** The criteria of a cart's line item: with the buyer whose group assignments price it (buyer-groups.ts). */
export interface LineItemPriceCriteria extends PriceCriteria {
  buyer?: Buyer;
}

/** The buyer's groups, read once per CatalogueReads (one request or update), not once per line item. */
const buyerGroupsRead = new WeakMap<CatalogueReads, Map<string, Promise<string[] | undefined>>>();

function buyerGroupsOf(reads: CatalogueReads, buyer: Buyer): Promise<string[] | undefined> {
  let read = buyerGroupsRead.get(reads);
  if (read === undefined) buyerGroupsRead.set(reads, (read = new Map()));
  const key = `${buyer.customerId ?? ''}\u0000${buyer.businessUnit?.key ?? ''}`;
  let groups = read.get(key);
  if (groups === undefined) read.set(key, (groups = buyerGroupIds(reads.load, buyer)));
  return groups;
}

/** PriceCriteria with the buyer's groups in place of the buyer. */
async function withBuyerGroups(reads: CatalogueReads, { buyer, ...criteria }: LineItemPriceCriteria): Promise<PriceCriteria> {
  if (buyer === undefined) return criteria;
  const customerGroupIds = await buyerGroupsOf(reads, buyer);
  return customerGroupIds === undefined ? criteria : { ...criteria, customerGroupIds };
}

/**
 * The Price a `Platform` line item pays: selected among the variant's embedded prices, or among the
 * SKU's active StandalonePrices when the product's `priceMode` is `Standalone`
 * (ProductPriceModeEnum), with `value` the tier the quantity reaches (PriceTier.raml). A buyer's
 * customer group assignments price with any of their groups (buyer-groups.ts).
 */
export async function selectLineItemPrice(
  reads: CatalogueReads,
  found: CatalogueVariant,
  lineItemCriteria: LineItemPriceCriteria,
  quantity: number,
): Promise<LineItemPrice> {
  const { product, variant } = found;
  const criteria = await withBuyerGroups(reads, lineItemCriteria);
  const candidates: ReadonlyArray<StandalonePrice | Price> =
    product.priceMode === 'Standalone' ? (variant.sku === undefined ? [] : await standalonePricesOf(reads, variant.sku, criteria.currency)) : variant.prices;
  const selected = selectPrice(candidates, criteria, new Date());
  if (selected === undefined) throw matchingPriceNotFound(product, variant, criteria);
  const price = asLineItemPrice(selected);
  return { ...price, value: unitPriceForQuantity(price, quantity) };
}
