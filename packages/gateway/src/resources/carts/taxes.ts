import { ApiError, invalidInput, type Reference } from '@herald/model';
import { countryCode } from '../shared/address.js';
import { asDraft, optionalString } from '../shared/validation.js';
import { PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import { TAX_CATEGORY_TYPE_ID, type SubRate, type TaxCategory } from '../tax-categories/tax-category.js';
import { taxRateFor } from '../tax-categories/tax-rate-for.js';
import { divideRoundingHalfEven } from '../discounts/rounding.js';
import { centPrecision } from '../shared/money.js';
import type { Cart, CustomLineItem, LineItem } from './cart.js';
import { unitPriceOf } from './product-discounts.js';
import { applyPerShippingTaxes, assignPerShippingRates } from './multi-shipping-taxes.js';
import type { CatalogueReads } from './catalogue.js';
import { cartTaxedPrice, taxedItemPrice, type ItemTaxRate, type TaxableAmount, type TaxedItemPrice } from './taxed-price.js';

/*
 * The cart's taxes by TaxMode (types/cart/TaxMode.raml):
 * - Platform: each item's TaxRate is its TaxCategory's rate for the shipping address (a line item's
 *   product's category, a custom line item's own, the shipping method's), set once the cart has a
 *   shipping address; a category without a rate there is MissingTaxRateForCountry.
 * - External: the rates are set from outside (ExternalTaxRateDraft) and kept.
 * - ExternalAmount: rates and taxed prices are set from outside (tax-actions.ts) and kept as set.
 * - Disabled: no taxes.
 * In Platform and External, taxed prices follow from the rates (taxed-price.ts), and the cart's
 * `taxedPrice` exists once the cart has a shipping address and every item and the shipping a rate.
 */

type TaxedItem = LineItem | CustomLineItem;

export function amountOf(item: TaxedItem, currency: string): TaxableAmount {
  const totalCents = item.totalPrice.centAmount;
  if ('productId' in item) {
    // ExternalTotal sets the total independently of the unit price: there is no unit to tax.
    return item.priceMode === 'ExternalTotal'
      ? { currency, totalCents }
      : { currency, totalCents, unit: { cents: unitPriceOf(item), quantity: item.quantity } };
  }
  return { currency, totalCents, unit: { cents: item.money.centAmount, quantity: item.quantity } };
}

/**
 * UnitPriceLevel with cart discounts: each group of units with the same discounted price
 * (discountedPricePerQuantity) is taxed per unit, the undiscounted rest at the unit price, and
 * the groups' taxes added up as the cart adds up its items'.
 */
function unitLevelTaxes(item: TaxedItem, amount: TaxableAmount, rate: ItemTaxRate, cart: Cart): TaxedItemPrice {
  const unit = amount.unit as { cents: number; quantity: number };
  const discounted = item.discountedPricePerQuantity.map((group) => ({ cents: group.discountedPrice.value.centAmount, quantity: group.quantity }));
  const rest = unit.quantity - discounted.reduce((total, group) => total + group.quantity, 0);
  const groups = rest > 0 ? [...discounted, { cents: unit.cents, quantity: rest }] : discounted;
  const taxed = groups.map((group) =>
    taxedItemPrice({ currency: amount.currency, totalCents: group.cents * group.quantity, unit: group }, rate, 'UnitPriceLevel', cart.taxRoundingMode),
  );
  return cartTaxedPrice(amount.currency, taxed);
}

function itemTaxes(item: TaxedItem, rate: ItemTaxRate, cart: Cart): TaxedItemPrice {
  const amount = amountOf(item, cart.totalPrice.currencyCode);
  if (cart.taxCalculationMode === 'UnitPriceLevel' && amount.unit !== undefined && item.discountedPricePerQuantity.length > 0) {
    return unitLevelTaxes(item, amount, rate, cart);
  }
  return taxedItemPrice(amount, rate, cart.taxCalculationMode, cart.taxRoundingMode);
}

function clearTaxes(cart: Cart, keepRates: boolean): void {
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    if (!keepRates) delete item.taxRate;
    delete item.taxedPrice;
    // A `Multiple` cart's per-Shipping taxes (multi-shipping-taxes.ts) go alike.
    if (!keepRates) item.perMethodTaxRate = [];
    item.taxedPricePortions = [];
  }
  for (const { shippingInfo } of cart.shipping) {
    if (!keepRates) delete shippingInfo.taxRate;
    delete shippingInfo.taxedPrice;
  }
  if (cart.shippingInfo !== undefined) {
    if (!keepRates) delete cart.shippingInfo.taxRate;
    delete cart.shippingInfo.taxedPrice;
  }
  delete cart.taxedPrice;
  delete cart.taxedShippingPrice;
}

/**
 * Taxed prices from the rates the items hold (pure; every cart change ends here). ExternalAmount
 * carts keep what was set from outside.
 */
export function applyTaxes(cart: Cart): void {
  if (cart.taxMode === 'ExternalAmount') return;
  if (cart.taxMode === 'Disabled') {
    clearTaxes(cart, false);
    return;
  }
  if (cart.shippingMode === 'Multiple') {
    applyPerShippingTaxes(cart);
    discountTotalTaxes(cart);
    return;
  }
  const currency = cart.totalPrice.currencyCode;
  const taxed: TaxedItemPrice[] = [];
  let complete = cart.shippingAddress !== undefined;
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    if (item.taxRate === undefined) {
      delete item.taxedPrice;
      complete = false;
      continue;
    }
    item.taxedPrice = itemTaxes(item, item.taxRate, cart);
    taxed.push(item.taxedPrice);
  }
  const shipping = cart.shippingInfo;
  delete cart.taxedShippingPrice;
  if (shipping !== undefined) {
    if (shipping.taxRate === undefined) {
      delete shipping.taxedPrice;
      complete = false;
    } else {
      const totalCents = (shipping.discountedPrice?.value ?? shipping.price).centAmount;
      shipping.taxedPrice = taxedItemPrice({ currency, totalCents }, shipping.taxRate, 'LineItemLevel', cart.taxRoundingMode);
      cart.taxedShippingPrice = cartTaxedPrice(currency, [shipping.taxedPrice]);
      taxed.push(shipping.taxedPrice);
    }
  }
  if (complete) cart.taxedPrice = cartTaxedPrice(currency, taxed);
  else delete cart.taxedPrice;
  discountTotalTaxes(cart);
}

/** `share` of `cents`, rounded half even: the discount's share of an amount. */
function shareOf(cents: number, share: { part: number; whole: number }): number {
  return divideRoundingHalfEven(cents * share.part, share.whole);
}

/**
 * A discount on the total price takes "the same percentage of discount … as on the
 * discountedAmount" off the cart's net and gross (DiscountOnTotalPrice.raml): the taxed price is
 * lowered by that share, its portions alike (the last taking what rounding leaves).
 */
function discountTotalTaxes(cart: Cart): void {
  const discount = cart.discountOnTotalPrice;
  if (discount === undefined) return;
  delete discount.discountedNetAmount;
  delete discount.discountedGrossAmount;
  const taxed = cart.taxedPrice;
  if (taxed === undefined) return;
  const currency = cart.totalPrice.currencyCode;
  const share = { part: discount.discountedAmount.centAmount, whole: cart.totalPrice.centAmount + discount.discountedAmount.centAmount };
  if (share.whole <= 0) return;
  const net = shareOf(taxed.totalNet.centAmount, share);
  const gross = shareOf(taxed.totalGross.centAmount, share);
  discount.discountedNetAmount = centPrecision(currency, net);
  discount.discountedGrossAmount = centPrecision(currency, gross);
  const tax = taxed.totalTax.centAmount - (gross - net);
  let left = tax;
  const portions = taxed.taxPortions.map((portion, index) => {
    const cents = index === taxed.taxPortions.length - 1 ? left : portion.amount.centAmount - shareOf(portion.amount.centAmount, share);
    left -= cents;
    return { ...portion, amount: centPrecision(currency, cents) };
  });
  cart.taxedPrice = {
    totalNet: centPrecision(currency, taxed.totalNet.centAmount - net),
    totalGross: centPrecision(currency, taxed.totalGross.centAmount - gross),
    totalTax: centPrecision(currency, tax),
    taxPortions: portions,
  };
}

/** MissingTaxRateForCountry (types/error/MissingTaxRateForCountryError.raml). */
function missingTaxRate(category: TaxCategory, country: string, state: string | undefined): ApiError {
  return new ApiError(400, {
    code: 'MissingTaxRateForCountry',
    message: `Tax category ${category.id} is missing a tax rate for country ${country}${state === undefined ? '' : `, state ${state}`}.`,
    taxCategoryId: category.id,
    country,
    ...(state === undefined ? {} : { state }),
  });
}

/** The TaxRate a category gives the cart's shipping address (or a `Multiple` cart's shipping's), as an item holds it. */
export async function rateOf(
  reads: CatalogueReads,
  category: Reference<'tax-category'> | undefined,
  cart: Cart,
  cache: Map<string, TaxCategory | undefined>,
  address = cart.shippingAddress,
): Promise<ItemTaxRate | undefined> {
  if (category === undefined || address === undefined) return undefined;
  if (!cache.has(category.id)) cache.set(category.id, await reads.load<TaxCategory>(TAX_CATEGORY_TYPE_ID, { id: category.id }));
  const found = cache.get(category.id);
  if (found === undefined) return undefined;
  const where = { country: address.country, ...(address.state === undefined ? {} : { state: address.state }) };
  const rate = taxRateFor(found, where);
  if (rate === undefined) throw missingTaxRate(found, address.country, address.state);
  return structuredClone(rate);
}

export async function productTaxCategory(reads: CatalogueReads, item: LineItem): Promise<Reference<'tax-category'> | undefined> {
  const product = await reads.load<Product>(PRODUCT_TYPE_ID, { id: item.productId });
  return product?.taxCategory;
}

function setRate(item: { taxRate?: ItemTaxRate }, rate: ItemTaxRate | undefined): void {
  if (rate === undefined) delete item.taxRate;
  else item.taxRate = rate;
}

/** Platform TaxMode: every item's rate from its TaxCategory for the shipping address (TaxMode.raml `Platform`). */
export async function assignPlatformRates(cart: Cart, reads: CatalogueReads, shippingCategory?: Reference<'tax-category'>): Promise<void> {
  if (cart.taxMode !== 'Platform') return;
  if (cart.shippingMode === 'Multiple') return assignPerShippingRates(cart, reads);
  if (cart.shippingAddress === undefined) {
    // "the taxRate of Line Items is set automatically once a shipping address is set" (LineItem.raml).
    clearTaxes(cart, false);
    return;
  }
  const cache = new Map<string, TaxCategory | undefined>();
  for (const item of cart.lineItems) setRate(item, await rateOf(reads, await productTaxCategory(reads, item), cart, cache));
  for (const item of cart.customLineItems) setRate(item, await rateOf(reads, item.taxCategory, cart, cache));
  if (cart.shippingInfo !== undefined) setRate(cart.shippingInfo, await rateOf(reads, shippingCategory ?? cart.shippingInfo.taxCategory, cart, cache));
}

function subRates(value: unknown, field: string): SubRate[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 100) throw invalidInput(`'${field}' must be an array of SubRates.`, { field });
  return value.map((item, index) => {
    const draft = asDraft(item, `'${field}[${index}]' SubRate`);
    const name = optionalString(draft.name, `${field}[${index}].name`, 256);
    if (name === undefined) throw invalidInput(`'${field}[${index}].name' is required.`, { field: `${field}[${index}].name` });
    return { name, amount: rateAmount(draft.amount, `${field}[${index}].amount`) };
  });
}

/** The sum of sub-rates as the decimal it is (0.04 + 0.04875 is 0.08875, not its nearest double's neighbour). */
function sumOfRates(rates: readonly SubRate[]): number {
  return Number(rates.reduce((total, rate) => total + rate.amount, 0).toFixed(12));
}

function rateAmount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw invalidInput(`'${field}' must be a number from 0 to 1.`, { field, invalidValue: value });
  }
  return value;
}

/**
 * ExternalTaxRateDraft: `name` and `country` required; `amount` 0..1, or the sum of `subRates`
 * when only they are given; `includedInPrice` defaults to false.
 */
export function externalTaxRate(value: unknown, field: string): ItemTaxRate {
  const draft = asDraft(value, `'${field}' ExternalTaxRateDraft`);
  const name = optionalString(draft.name, `${field}.name`, 256);
  if (name === undefined) throw invalidInput(`'${field}.name' is required.`, { field: `${field}.name` });
  if (draft.country === undefined || draft.country === null) throw invalidInput(`'${field}.country' is required.`, { field: `${field}.country` });
  const rates = subRates(draft.subRates, `${field}.subRates`);
  const amount =
    draft.amount === undefined || draft.amount === null ? rateAmount(sumOfRates(rates ?? []), `${field}.amount`) : rateAmount(draft.amount, `${field}.amount`);
  if (draft.includedInPrice !== undefined && typeof draft.includedInPrice !== 'boolean') {
    throw invalidInput(`'${field}.includedInPrice' must be a boolean.`, { field: `${field}.includedInPrice` });
  }
  const rate: ItemTaxRate = { name, amount, includedInPrice: draft.includedInPrice === true, country: countryCode(draft.country, `${field}.country`) };
  const state = optionalString(draft.state, `${field}.state`, 256);
  if (state !== undefined) rate.state = state;
  if (rates !== undefined && rates.length > 0) rate.subRates = rates;
  return rate;
}
