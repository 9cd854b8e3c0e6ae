import { createHash, randomUUID } from 'node:crypto';
import { invalidInput, type Reference } from '@herald/model';
import { customFromDraft } from '../shared/custom-fields.js';
import type { RequestContext } from '../shared/context.js';
import { localizedString, optionalKey, type Draft } from '../shared/validation.js';
import type { Cart, CustomLineItem, ItemEngineFields, LineItem } from './cart.js';
import { applyTaxes, externalTaxRate } from './taxes.js';
import { TAX_CATEGORY_TYPE_ID } from '../tax-categories/tax-category.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { centPrecision, moneyInCurrency, multiply, sum } from '../shared/money.js';

const MAX_QUANTITY = 1_000_000;
const MAX_ITEMS = 500;

type Loader = Pick<RequestContext, 'load'>;

export function quantity(value: unknown, field: string, fallback: number, min = 1): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_QUANTITY) {
    throw invalidInput(`'${field}' must be an integer from ${min} to ${MAX_QUANTITY}.`, { field, invalidValue: value });
  }
  return value;
}

function asObject(value: unknown, field: string): Draft {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be an object.`, { field });
  }
  return value as Draft;
}

/** The empty engine arrays every (custom) line item carries (cart.ts ItemEngineFields). */
export function engineFields(): ItemEngineFields {
  return { discountedPricePerQuantity: [], taxedPricePortions: [], perMethodTaxRate: [], state: [] };
}

/**
 * The reference requires `productType` on a line item. One for a product the project does not
 * have (a draft with `name` and `externalPrice`, line-item-draft.ts) names the nil UUID: a
 * reference that visibly resolves to nothing.
 */
export const NO_PRODUCT_TYPE = { typeId: 'product-type', id: '00000000-0000-0000-0000-000000000000' } as const;

/**
 * `productId` is required on a line item. A draft that names the product by `sku` only gets a
 * name-based UUID (RFC 9562 version 5 layout over SHA-1 of the SKU): the same SKU always has the
 * same product id, so clients that group line items by product see them together.
 */
export function productIdForSku(sku: string): string {
  const bytes = createHash('sha1').update(`herald:sku:${sku}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function slug(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{2,256}$/.test(value)) {
    throw invalidInput(`'${field}' must be 2 to 256 characters of letters, digits, '_' and '-'.`, { field, invalidValue: value });
  }
  return value;
}

/** CustomLineItemDraft.taxCategory: selects the TaxRate in the Platform TaxMode. */
async function taxCategoryReference(value: unknown, field: string, ctx: Loader): Promise<Reference<'tax-category'> | undefined> {
  if (value === undefined || value === null) return undefined;
  const category = await loadReferenced(ctx.load, TAX_CATEGORY_TYPE_ID, identifierLocator(value, field, TAX_CATEGORY_TYPE_ID));
  return { typeId: TAX_CATEGORY_TYPE_ID, id: category.id };
}

export async function customLineItemFromDraft(value: unknown, field: string, cart: Pick<Cart, 'totalPrice' | 'taxMode'>, ctx: Loader): Promise<CustomLineItem> {
  const currency = cart.totalPrice.currencyCode;
  const draft = asObject(value, field);
  if (draft.name === undefined || draft.name === null) throw invalidInput(`'${field}.name' is required.`, { field: `${field}.name` });
  if (draft.money === undefined || draft.money === null) throw invalidInput(`'${field}.money' is required.`, { field: `${field}.money` });
  // Custom line items may be negative (a goodwill credit, a surcharge refund), as on the platform.
  const money = moneyInCurrency(draft.money, `${field}.money`, currency, true);
  const count = quantity(draft.quantity, `${field}.quantity`, 1);
  const priceMode = draft.priceMode ?? 'Standard';
  if (priceMode !== 'Standard' && priceMode !== 'External') {
    throw invalidInput(`'${field}.priceMode' must be Standard or External.`, { field: `${field}.priceMode` });
  }
  const item: CustomLineItem = {
    id: randomUUID(),
    name: localizedString(draft.name, `${field}.name`),
    slug: slug(draft.slug, `${field}.slug`),
    quantity: count,
    money,
    totalPrice: multiply(money, count, field),
    priceMode,
    ...engineFields(),
  };
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) item.key = key;
  const taxCategory = await taxCategoryReference(draft.taxCategory, `${field}.taxCategory`, ctx);
  if (taxCategory !== undefined) item.taxCategory = taxCategory;
  if (draft.externalTaxRate !== undefined && draft.externalTaxRate !== null) {
    if (cart.taxMode !== 'External')
      throw invalidInput(`'${field}.externalTaxRate' can only be set on a cart with the External tax mode.`, { field: `${field}.externalTaxRate` });
    item.taxRate = externalTaxRate(draft.externalTaxRate, `${field}.externalTaxRate`);
  }
  const custom = await customFromDraft(draft.custom, 'custom-line-item', ctx);
  if (custom !== undefined) item.custom = custom;
  return item;
}

export function itemList(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ITEMS} items.`, { field });
  }
  return value as unknown[];
}

/** Line item keys are unique within a cart (they address items in update actions). */
export function assertUniqueItemKeys(cart: Pick<Cart, 'lineItems' | 'customLineItems'>): void {
  for (const items of [cart.lineItems, cart.customLineItems]) {
    const seen = new Set<string>();
    for (const item of items) {
      if (item.key === undefined) continue;
      if (seen.has(item.key)) throw invalidInput(`The item key '${item.key}' is used twice in the cart.`, { field: 'key' });
      seen.add(item.key);
    }
  }
  if (cart.lineItems.length + cart.customLineItems.length > MAX_ITEMS) {
    throw invalidInput(`A cart holds at most ${MAX_ITEMS} line items and custom line items.`);
  }
}

/**
 * `addLineItem` for a product the cart already holds (same product, variant, sku, channels and
 * price mode, both `Standard`, neither with custom fields or a key) increases that item's
 * quantity, as the platform does (a gift line item "won't be merged when adding the same Line
 * Item", LineItemMode.raml); the price sent (or selected) last becomes the item's price. Returns
 * the item that holds the added quantity (a `Platform` price is selected again for it: its tier may change).
 */
export function mergeLineItem(items: LineItem[], added: LineItem): LineItem {
  const existing = items.find(
    (item) =>
      item.productId === added.productId &&
      item.variant.id === added.variant.id &&
      item.variant.sku === added.variant.sku &&
      item.priceMode === added.priceMode &&
      item.lineItemMode === 'Standard' &&
      added.lineItemMode === 'Standard' &&
      item.distributionChannel?.id === added.distributionChannel?.id &&
      item.supplyChannel?.id === added.supplyChannel?.id &&
      item.custom === undefined &&
      added.custom === undefined &&
      item.key === undefined &&
      added.key === undefined,
  );
  if (existing === undefined) {
    items.push(added);
    return added;
  }
  existing.quantity = quantity(existing.quantity + added.quantity, 'quantity', 1);
  existing.price = added.price;
  existing.totalPrice = added.priceMode === 'ExternalTotal' ? added.totalPrice : multiply(existing.price.value, existing.quantity, 'lineItems');
  return existing;
}

/** Finds an item addressed by `lineItemId`/`lineItemKey` (or the custom line item fields). */
export function findItem<T extends { id: string; key?: string }>(items: T[], action: Draft, idField: string, keyField: string): T {
  const id = action[idField];
  const key = action[keyField];
  if (typeof id !== 'string' && typeof key !== 'string') {
    throw invalidInput(`Either '${idField}' or '${keyField}' is required.`, { field: idField });
  }
  const item = items.find((candidate) => (typeof id === 'string' ? candidate.id === id : candidate.key === key));
  if (item === undefined) {
    const what = typeof id === 'string' ? `id '${id}'` : `key '${String(key)}'`;
    throw invalidInput(`The cart has no item with ${what}.`, { field: typeof id === 'string' ? idField : keyField });
  }
  return item;
}

/**
 * `totalPrice` (§2.3, Cart.raml): the sum of the line item and custom line item totals and the
 * shipping price, less the discount on the total price; `totalLineItemQuantity`, which the reference's Cart has only while it has line
 * items; and the taxed prices that follow from the items' tax rates (taxes.ts).
 */
export function recalculate(cart: Cart): void {
  const count = cart.lineItems.reduce((total, item) => total + item.quantity, 0);
  if (cart.lineItems.length === 0) delete cart.totalLineItemQuantity;
  else cart.totalLineItemQuantity = count;
  const currency = cart.totalPrice.currencyCode;
  // The shipping's and the total's cart discounts (discounting.ts) count: `totalPrice` is what the cart costs.
  // A `Multiple` cart's every Shipping counts (multi-shipping.ts).
  const infos = [...(cart.shippingInfo === undefined ? [] : [cart.shippingInfo]), ...cart.shipping.map((entry) => entry.shippingInfo)];
  const shipping = infos.map((info) => info.discountedPrice?.value ?? info.price);
  const gross = sum(currency, [...cart.lineItems.map((item) => item.totalPrice), ...cart.customLineItems.map((item) => item.totalPrice), ...shipping]);
  cart.totalPrice = centPrecision(currency, gross.centAmount - (cart.discountOnTotalPrice?.discountedAmount.centAmount ?? 0));
  applyTaxes(cart);
}

export function emptyTotal(currency: string) {
  return centPrecision(currency, 0);
}
