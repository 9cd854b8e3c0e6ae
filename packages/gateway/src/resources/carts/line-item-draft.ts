import { randomUUID } from 'node:crypto';
import { ApiError, invalidInput, type Reference } from '@herald/model';
import { CHANNEL_TYPE_ID } from '../channels/channel.js';
import type { RequestContext } from '../shared/context.js';
import { customFromDraft } from '../shared/custom-fields.js';
import { moneyInCurrency, multiply, type CentPrecisionMoney } from '../shared/money.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { asDraft, localizedString, optionalKey, optionalString, type Draft } from '../shared/validation.js';
import { INVENTORY_MODES, type Cart, type LineItem, type LineItemPrice } from './cart.js';
import { findCatalogueVariant, selectLineItemPrice, type CatalogueReads, type CatalogueVariant, type LineItemPriceCriteria } from './catalogue.js';
import { engineFields, NO_PRODUCT_TYPE, productIdForSku, quantity } from './line-items.js';
import { externalTaxRate } from './taxes.js';

/*
 * LineItemDraft (types/cart/LineItemDraft.raml) and addLineItem: the product by `sku` or by
 * `productId` + `variantId`, its name, type, slug and variant copied from its current data, and
 * the price by LineItemPriceMode: `Platform` selects it (catalogue.ts), `ExternalPrice` takes
 * `externalPrice`, `ExternalTotal` takes `externalTotalPrice`. A draft with `name` and
 * `externalPrice` for a product the project does not have is kept as before the catalogue: the
 * caller's ids, no product data.
 */

/** What of the cart decides a line item's price (Line Item price selection). */
export type PricingCart = Pick<Cart, 'totalPrice' | 'country' | 'shippingAddress' | 'customerGroup' | 'taxMode' | 'customerId' | 'businessUnit'>;

/**
 * The selection criteria: the cart's currency, its country (else the shipping address's), customer
 * group (else its buyer's group assignments, buyer-groups.ts) and the item's channel.
 */
export function priceCriteria(cart: PricingCart, distributionChannel: Reference<'channel'> | undefined): LineItemPriceCriteria {
  const criteria: LineItemPriceCriteria = { currency: cart.totalPrice.currencyCode };
  const country = cart.country ?? cart.shippingAddress?.country;
  if (country !== undefined) criteria.country = country;
  if (cart.customerGroup !== undefined) criteria.customerGroupId = cart.customerGroup.id;
  else if (cart.customerId !== undefined || cart.businessUnit !== undefined) criteria.buyer = { customerId: cart.customerId, businessUnit: cart.businessUnit };
  if (distributionChannel !== undefined) criteria.channelId = distributionChannel.id;
  return criteria;
}

function variantId(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw invalidInput(`'${field}' must be a positive integer.`, { field });
  return value;
}

/** LineItemDraft.distributionChannel / supplyChannel: a Channel of the project. */
export async function channelReference(value: unknown, field: string, load: RequestContext['load']): Promise<Reference<'channel'> | undefined> {
  if (value === undefined || value === null) return undefined;
  const channel = await loadReferenced(load, CHANNEL_TYPE_ID, identifierLocator(value, field, CHANNEL_TYPE_ID));
  return { typeId: CHANNEL_TYPE_ID, id: channel.id };
}

/** ExternalLineItemTotalPrice: `price` (the unit price shown) and `totalPrice`, both Money in the cart's currency. */
export function externalTotal(value: unknown, field: string, currency: string): { price: CentPrecisionMoney; totalPrice: CentPrecisionMoney } {
  const draft = asDraft(value, `'${field}' ExternalLineItemTotalPrice`);
  return { price: moneyInCurrency(draft.price, `${field}.price`, currency), totalPrice: moneyInCurrency(draft.totalPrice, `${field}.totalPrice`, currency) };
}

/** The product data a line item copies (LineItem.name, productType, productSlug, productKey, variant). */
export function catalogueFields(found: CatalogueVariant): Pick<LineItem, 'productId' | 'productKey' | 'name' | 'productType' | 'productSlug' | 'variant'> {
  const { product, variant } = found;
  const data = product.masterData.current;
  // "Product Attributes are merged with Variant Attributes" (LineItemDraft.raml). One clone for
  // the three parts: the product may be shared by the carts of one read-ahead.
  const copy = structuredClone({ variant: { ...variant, attributes: [...data.attributes, ...variant.attributes] }, name: data.name, slug: data.slug });
  return {
    productId: product.id,
    ...(product.key === undefined ? {} : { productKey: product.key }),
    name: copy.name,
    productType: { typeId: 'product-type', id: product.productType.id },
    productSlug: copy.slug,
    variant: copy.variant,
  };
}

interface PriceChoice {
  price: LineItemPrice;
  priceMode: LineItem['priceMode'];
  totalPrice?: CentPrecisionMoney;
}

async function priceOf(
  draft: Draft,
  field: string,
  cart: PricingCart,
  found: CatalogueVariant,
  count: number,
  channel: Reference<'channel'> | undefined,
  reads: CatalogueReads,
): Promise<PriceChoice> {
  const currency = cart.totalPrice.currencyCode;
  if (draft.externalTotalPrice !== undefined && draft.externalTotalPrice !== null) {
    const total = externalTotal(draft.externalTotalPrice, `${field}.externalTotalPrice`, currency);
    return { price: { id: randomUUID(), value: total.price }, priceMode: 'ExternalTotal', totalPrice: total.totalPrice };
  }
  if (draft.externalPrice !== undefined && draft.externalPrice !== null) {
    return { price: { id: randomUUID(), value: moneyInCurrency(draft.externalPrice, `${field}.externalPrice`, currency) }, priceMode: 'ExternalPrice' };
  }
  return { price: await selectLineItemPrice(reads, found, priceCriteria(cart, channel), count), priceMode: 'Platform' };
}

/** A draft for a product the project does not have: `name` and `externalPrice` stand in for the catalogue (the pre-catalogue form). */
function withoutCatalogue(
  draft: Draft,
  field: string,
  currency: string,
  locator: { productId?: string | undefined; sku?: string | undefined; variantId?: number | undefined },
): Pick<LineItem, 'productId' | 'productType' | 'variant' | 'name' | 'price' | 'priceMode'> {
  const unit = moneyInCurrency(draft.externalPrice, `${field}.externalPrice`, currency);
  return {
    productId: locator.productId ?? productIdForSku(locator.sku as string),
    productType: { ...NO_PRODUCT_TYPE },
    // Without `variantId` the platform takes the product's master variant, whose id is always 1.
    variant: { id: locator.variantId ?? 1, ...(locator.sku === undefined ? {} : { sku: locator.sku }) },
    name: localizedString(draft.name, `${field}.name`),
    price: { id: randomUUID(), value: unit },
    priceMode: 'ExternalPrice',
  };
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

function inventoryMode(value: unknown, field: string): NonNullable<LineItem['inventoryMode']> {
  const mode = INVENTORY_MODES.find((candidate) => candidate === value);
  if (mode === undefined) throw invalidInput(`'${field}' must be one of ${INVENTORY_MODES.join(', ')}.`, { field, invalidValue: value });
  return mode;
}

/** A LineItemDraft (or the fields of `addLineItem`) as the cart's line item. */
export async function lineItemFromDraft(
  value: unknown,
  field: string,
  cart: PricingCart,
  reads: CatalogueReads,
  ctx: Pick<RequestContext, 'load'>,
): Promise<LineItem> {
  const draft = asDraft(value, `'${field}' LineItemDraft`);
  const locator = {
    productId: optionalString(draft.productId, `${field}.productId`, 256),
    sku: optionalString(draft.sku, `${field}.sku`, 256),
    variantId: variantId(draft.variantId, `${field}.variantId`),
  };
  if (locator.productId === undefined && locator.sku === undefined) throw invalidInput(`'${field}' must name the product by 'productId' or 'sku'.`, { field });
  const count = quantity(draft.quantity, `${field}.quantity`, 1);
  const distributionChannel = await channelReference(draft.distributionChannel, `${field}.distributionChannel`, ctx.load);
  const found = await findCatalogueVariant(reads, locator, field);
  let item: LineItem;
  if (found instanceof ApiError) {
    if (!present(draft.name) || !present(draft.externalPrice)) throw found;
    const fields = withoutCatalogue(draft, field, cart.totalPrice.currencyCode, locator);
    item = {
      id: randomUUID(),
      ...fields,
      quantity: count,
      lineItemMode: 'Standard',
      totalPrice: multiply(fields.price.value, count, field),
      ...engineFields(),
    };
  } else {
    const choice = await priceOf(draft, field, cart, found, count, distributionChannel, reads);
    const totalPrice = choice.totalPrice ?? multiply(choice.price.value, count, field);
    item = {
      id: randomUUID(),
      ...catalogueFields(found),
      quantity: count,
      price: choice.price,
      priceMode: choice.priceMode,
      lineItemMode: 'Standard',
      totalPrice,
      ...engineFields(),
    };
  }
  await optionalItemFields(item, draft, field, cart, ctx);
  if (distributionChannel !== undefined) item.distributionChannel = distributionChannel;
  return item;
}

async function optionalItemFields(item: LineItem, draft: Draft, field: string, cart: PricingCart, ctx: Pick<RequestContext, 'load'>): Promise<void> {
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) item.key = key;
  const supplyChannel = await channelReference(draft.supplyChannel, `${field}.supplyChannel`, ctx.load);
  if (supplyChannel !== undefined) item.supplyChannel = supplyChannel;
  if (present(draft.inventoryMode)) item.inventoryMode = inventoryMode(draft.inventoryMode, `${field}.inventoryMode`);
  if (present(draft.externalTaxRate)) {
    // "An external Tax Rate can be set if the Cart has the External TaxMode" (LineItemDraft.externalTaxRate).
    if (cart.taxMode !== 'External')
      throw invalidInput(`'${field}.externalTaxRate' can only be set on a cart with the External tax mode.`, { field: `${field}.externalTaxRate` });
    item.taxRate = externalTaxRate(draft.externalTaxRate, `${field}.externalTaxRate`);
  }
  const custom = await customFromDraft(draft.custom, 'line-item', ctx);
  if (custom !== undefined) item.custom = custom;
}
