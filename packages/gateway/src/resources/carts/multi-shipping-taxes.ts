import { invalidOperation } from '@herald/model';
import { divideRoundingHalfEven } from '../discounts/rounding.js';
import { centPrecision, type CentPrecisionMoney } from '../shared/money.js';
import type { TaxCategory } from '../tax-categories/tax-category.js';
import type { Cart, CustomLineItem, LineItem } from './cart.js';
import type { CatalogueReads } from './catalogue.js';
import { shippingNamed, type MethodTaxedPrice, type MethodTaxRate } from './multi-shipping.js';
import { amountOf, productTaxCategory, rateOf } from './taxes.js';
import { cartTaxedPrice, taxedItemPrice, type ItemTaxRate, type TaxableAmount, type TaxedItemPrice } from './taxed-price.js';

/*
 * Taxes of a cart with the `Multiple` ShippingMode (Cart.raml taxedPrice, taxedShippingPrice;
 * LineItem.perMethodTaxRate, taxedPricePortions; MethodTaxRate, MethodTaxedPrice):
 * - each Shipping's ShippingInfo is taxed for the Shipping's address;
 * - an item has a TaxRate per Shipping (`perMethodTaxRate`: its TaxCategory's rate for the
 *   Shipping's address in the `Platform` TaxMode; in `External` the item's external rate serves
 *   every Shipping), and the units its `shippingDetails` targets send with a Shipping
 *   (`shippingMethodKey`) are taxed at that rate (`taxedPricePortions`);
 * - "all Line Items and Custom Line Items must be fully distributed between the Shipping Methods
 *   (via `shippingDetails`), otherwise `taxedPrice` is not automatically set" (Cart.raml).
 * `taxedShippingPrice` is the "Sum of the `taxedPrice` field of ShippingInfo across all Shipping
 * Methods"; the cart has no `shippingInfo` of its own.
 */

type TaxedItem = LineItem | CustomLineItem;

/** `Platform` TaxMode: the Shippings' and the items' rates per Shipping, from their TaxCategories for each Shipping's address. */
export async function assignPerShippingRates(cart: Cart, reads: CatalogueReads): Promise<void> {
  const cache = new Map<string, TaxCategory | undefined>();
  for (const shipping of cart.shipping) {
    const rate = await rateOf(reads, shipping.shippingInfo.taxCategory, cart, cache, shipping.shippingAddress);
    if (rate === undefined) delete shipping.shippingInfo.taxRate;
    else shipping.shippingInfo.taxRate = rate;
  }
  const categories = new Map<string, Awaited<ReturnType<typeof productTaxCategory>>>();
  for (const item of cart.lineItems) categories.set(item.id, await productTaxCategory(reads, item));
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    const category = 'productId' in item ? categories.get(item.id) : item.taxCategory;
    delete item.taxRate;
    item.perMethodTaxRate = [];
    for (const shipping of cart.shipping) {
      const taxRate = await rateOf(reads, category, cart, cache, shipping.shippingAddress);
      item.perMethodTaxRate.push({ shippingMethodKey: shipping.shippingKey, ...(taxRate === undefined ? {} : { taxRate }) });
    }
  }
}

/**
 * Where CartSet(Custom)LineItemTaxRateAction puts an external rate: on the item in a `Single` cart;
 * in a `Multiple` one on its MethodTaxRate for the Shipping `shippingKey` names ("required for
 * Carts with `Multiple` ShippingMode"). A `Single` cart has no Shipping to name (InvalidOperation,
 * as for the other actions with a `shippingKey`).
 */
export function itemRateHolder(cart: Cart, item: TaxedItem, shippingKey: unknown): { taxRate?: ItemTaxRate } {
  const given = shippingKey !== undefined && shippingKey !== null;
  if (cart.shippingMode !== 'Multiple') {
    if (given) throw invalidOperation("'shippingKey' can only be given for a cart with the 'Multiple' shipping mode.");
    return item;
  }
  return methodTaxRate(cart, item, shippingKey);
}

/** The item's MethodTaxRate for the Shipping `shippingKey` names in a `Multiple` cart (added when it has none). */
function methodTaxRate(cart: Cart, item: TaxedItem, shippingKey: unknown): MethodTaxRate {
  if (shippingKey === undefined || shippingKey === null) {
    throw invalidOperation("'shippingKey' is required to set an item's tax on a cart with the 'Multiple' shipping mode.");
  }
  const { shippingKey: key } = shippingNamed(cart, shippingKey);
  const known = item.perMethodTaxRate.find((entry) => entry.shippingMethodKey === key);
  if (known !== undefined) return known;
  const added: MethodTaxRate = { shippingMethodKey: key };
  item.perMethodTaxRate.push(added);
  return added;
}

/** The units of an item each Shipping takes (ItemShippingTarget.shippingMethodKey), in the order of the cart's shippings. */
function unitsPerShipping(cart: Cart, item: TaxedItem): Array<{ key: string; quantity: number }> {
  return cart.shipping
    .map((shipping) => ({
      key: shipping.shippingKey,
      quantity: (item.shippingDetails?.targets ?? [])
        .filter((target) => target.shippingMethodKey === shipping.shippingKey)
        .reduce((total, target) => total + target.quantity, 0),
    }))
    .filter((entry) => entry.quantity > 0);
}

/** The item's rate for a Shipping: its `perMethodTaxRate` entry, else (External TaxMode) its own `taxRate`. */
function rateFor(item: TaxedItem, key: string): ItemTaxRate | undefined {
  return item.perMethodTaxRate.find((entry) => entry.shippingMethodKey === key)?.taxRate ?? item.taxRate;
}

/**
 * What the units sent with one Shipping are taxed on: their share of the item's total (the last
 * share of a fully distributed item takes what the rounded others leave, so the shares add up to
 * the total). Undiscounted units keep their unit price for UnitPriceLevel.
 */
function shareOf(item: TaxedItem, amount: TaxableAmount, quantity: number, sharedBefore: number, last: boolean): TaxableAmount {
  const totalCents = last ? amount.totalCents - sharedBefore : divideRoundingHalfEven(amount.totalCents * quantity, item.quantity);
  const unit = amount.unit !== undefined && item.discountedPricePerQuantity.length === 0 ? { unit: { cents: amount.unit.cents, quantity } } : {};
  return { currency: amount.currency, totalCents, ...unit };
}

/** What the units each Shipping takes of an item are taxed on, and whether every unit goes with a Shipping. */
function sharesOf(cart: Cart, item: TaxedItem): { shares: Array<{ key: string; amount: TaxableAmount }>; distributed: boolean } {
  const amount = amountOf(item, cart.totalPrice.currencyCode);
  const units = unitsPerShipping(cart, item);
  const distributed = units.reduce((total, entry) => total + entry.quantity, 0) === item.quantity;
  let sharedBefore = 0;
  const shares = units.map((entry, index) => {
    const share = shareOf(item, amount, entry.quantity, sharedBefore, distributed && index === units.length - 1);
    sharedBefore += share.totalCents;
    return { key: entry.key, amount: share };
  });
  return { shares, distributed };
}

/** The item's `taxedPrice`: the sum of its portions once every unit goes with a Shipping and each portion is taxed. */
function sumPortions(cart: Cart, item: TaxedItem, distributed: boolean, shippingCount: number): TaxedItemPrice | undefined {
  const taxed = item.taxedPricePortions.flatMap((portion) => (portion.taxedPrice === undefined ? [] : [portion.taxedPrice]));
  if (!distributed || taxed.length < shippingCount) {
    delete item.taxedPrice;
    return undefined;
  }
  item.taxedPrice = cartTaxedPrice(cart.totalPrice.currencyCode, taxed);
  return item.taxedPrice;
}

/** An item's `taxedPricePortions`, and its `taxedPrice` when its every unit goes with a Shipping that has a rate for it. */
function taxItem(cart: Cart, item: TaxedItem): TaxedItemPrice | undefined {
  const { shares, distributed } = sharesOf(cart, item);
  item.taxedPricePortions = shares.map(({ key, amount }): MethodTaxedPrice => {
    const rate = rateFor(item, key);
    const taxedPrice = rate === undefined ? undefined : taxedItemPrice(amount, rate, cart.taxCalculationMode, cart.taxRoundingMode);
    return { shippingMethodKey: key, ...(taxedPrice === undefined ? {} : { taxedPrice }) };
  });
  return sumPortions(cart, item, distributed, shares.length);
}

/** An ExternalTaxAmountDraft read against the net it taxes (tax-actions.ts), or undefined to remove the amount. */
export type ExternalAmountFor = ((net: CentPrecisionMoney) => { taxRate: ItemTaxRate; taxedPrice: TaxedItemPrice }) | undefined;

/**
 * CartSet(Custom)LineItemTaxAmountAction with the `shippingKey` of a `Multiple` cart (ExternalAmount
 * TaxMode): the amount of the units the item sends with that Shipping (its MethodTaxedPrice, net
 * their share of the item's total) and its rate (MethodTaxRate); the item's `taxedPrice` is the sum
 * once every unit goes with a Shipping that has one.
 */
export function setShippingTaxAmount(cart: Cart, item: TaxedItem, shippingKey: unknown, amountFor: ExternalAmountFor): void {
  const holder = methodTaxRate(cart, item, shippingKey);
  const key = holder.shippingMethodKey;
  const { shares, distributed } = sharesOf(cart, item);
  const share = shares.find((entry) => entry.key === key);
  const others = item.taxedPricePortions.filter((portion) => portion.shippingMethodKey !== key);
  if (amountFor === undefined || share === undefined) {
    if (amountFor !== undefined) throw invalidOperation(`The item sends no units with the shipping '${key}': set its shippingDetails first.`);
    delete holder.taxRate;
    item.taxedPricePortions = others;
  } else {
    const { taxRate, taxedPrice } = amountFor(centPrecision(share.amount.currency, share.amount.totalCents));
    holder.taxRate = taxRate;
    const order = shares.map((entry) => entry.key);
    item.taxedPricePortions = [...others, { shippingMethodKey: key, taxedPrice }].sort(
      (a, b) => order.indexOf(a.shippingMethodKey) - order.indexOf(b.shippingMethodKey),
    );
  }
  sumPortions(cart, item, distributed, shares.length);
}

/** Each Shipping's taxed price, on its discounted price where a cart discount applies (ShippingInfo.discountedPrice). */
function taxShippings(cart: Cart): TaxedItemPrice[] | undefined {
  const currency = cart.totalPrice.currencyCode;
  let complete = true;
  const taxed = cart.shipping.flatMap(({ shippingInfo: info }) => {
    if (info.taxRate === undefined) {
      delete info.taxedPrice;
      complete = false;
      return [];
    }
    const totalCents = (info.discountedPrice?.value ?? info.price).centAmount;
    info.taxedPrice = taxedItemPrice({ currency, totalCents }, info.taxRate, 'LineItemLevel', cart.taxRoundingMode);
    return [info.taxedPrice];
  });
  return complete ? taxed : undefined;
}

/** Taxed prices of a `Multiple` cart from the rates its items and Shippings hold (pure; taxes.ts applyTaxes calls it). */
export function applyPerShippingTaxes(cart: Cart): void {
  const currency = cart.totalPrice.currencyCode;
  const items = [...cart.lineItems, ...cart.customLineItems].map((item) => taxItem(cart, item));
  const shippings = taxShippings(cart);
  delete cart.taxedShippingPrice;
  if (shippings !== undefined && shippings.length > 0) cart.taxedShippingPrice = cartTaxedPrice(currency, shippings);
  const taxedItems = items.flatMap((taxed) => (taxed === undefined ? [] : [taxed]));
  // Without a Shipping the cart has no address to be taxed for, as a `Single` cart without `shippingAddress`.
  if (shippings === undefined || shippings.length === 0 || taxedItems.length < items.length) delete cart.taxedPrice;
  else cart.taxedPrice = cartTaxedPrice(currency, [...taxedItems, ...shippings]);
}
