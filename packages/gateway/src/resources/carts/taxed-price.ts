import { centPrecision, type CentPrecisionMoney } from '../shared/money.js';
import { netOfGross, taxOnNet, type RoundingMode } from '../shared/tax-math.js';
import type { SubRate } from '../tax-categories/tax-category.js';
import type { TaxCalculationMode } from './cart.js';

/*
 * Pure tax arithmetic of a cart (types/cart/TaxedItemPrice.raml, TaxedPrice.raml, TaxPortion.raml,
 * TaxCalculationMode.raml): the taxed price of one item from its amounts and TaxRate, and the
 * cart's taxed price from its items'. Integer minor units throughout (shared/tax-math.ts).
 */

/** The reference's TaxRate as a line item, custom line item or shipping info holds it. */
export interface ItemTaxRate {
  id?: string;
  key?: string;
  name: string;
  amount: number;
  includedInPrice: boolean;
  country: string;
  state?: string;
  subRates?: SubRate[];
}

/** The reference's TaxPortion: one (sub-)rate's share of the tax. */
export interface TaxPortion {
  name?: string;
  rate: number;
  amount: CentPrecisionMoney;
}

/** The reference's TaxedItemPrice; the cart's TaxedPrice has the same fields. */
export interface TaxedItemPrice {
  totalNet: CentPrecisionMoney;
  totalGross: CentPrecisionMoney;
  totalTax: CentPrecisionMoney;
  taxPortions: TaxPortion[];
}

export type TaxedPrice = TaxedItemPrice;

/** What an item's taxes are computed from. */
export interface TaxableAmount {
  currency: string;
  /** The item's `totalPrice` in minor units (gross when the rate is included in the price). */
  totalCents: number;
  /** The unit price and quantity, for UnitPriceLevel; absent for an amount without units (ExternalTotal, shipping). */
  unit?: { cents: number; quantity: number };
}

interface PortionCents {
  name: string;
  rate: number;
  cents: number;
}

/** A rate with sub-rates is taxed per sub-rate ("If a Tax Rate has SubRates, they are used", TaxPortion.raml). */
function componentsOf(rate: ItemTaxRate): SubRate[] {
  return rate.subRates !== undefined && rate.subRates.length > 0 ? rate.subRates : [{ name: rate.name, amount: rate.amount }];
}

/**
 * Net and tax portions of one amount. Not included in the price: the amount is net and each
 * portion is the rounded product. Included: the net is the amount divided by (1 + rate), rounded
 * (the platform's default rounding target is the net), and the portions share the difference, the
 * last one taking what the rounded others leave so that net + portions is the amount exactly.
 */
function taxesOfAmount(cents: number, rate: ItemTaxRate, mode: RoundingMode): { net: number; portions: PortionCents[] } {
  const components = componentsOf(rate);
  if (!rate.includedInPrice) {
    return { net: cents, portions: components.map((part) => ({ name: part.name, rate: part.amount, cents: taxOnNet(cents, part.amount, mode) })) };
  }
  const net = netOfGross(cents, rate.amount, mode);
  let left = cents - net;
  const portions = components.map((part, index) => {
    const share = index === components.length - 1 ? left : taxOnNet(net, part.amount, mode);
    left -= share;
    return { name: part.name, rate: part.amount, cents: share };
  });
  return { net, portions };
}

function taxedFrom(currency: string, net: number, portions: readonly PortionCents[]): TaxedItemPrice {
  const tax = portions.reduce((total, portion) => total + portion.cents, 0);
  return {
    totalNet: centPrecision(currency, net),
    totalGross: centPrecision(currency, net + tax),
    totalTax: centPrecision(currency, tax),
    taxPortions: portions.map((portion) => ({ name: portion.name, rate: portion.rate, amount: centPrecision(currency, portion.cents) })),
  };
}

/**
 * An item's TaxedItemPrice. LineItemLevel taxes the total; UnitPriceLevel taxes one unit and
 * multiplies ("($1.08 * 1.19 = $1.2852 -> $1.29 rounded) * 3 = $3.87", TaxCalculationMode.raml).
 */
export function taxedItemPrice(amount: TaxableAmount, rate: ItemTaxRate, calculation: TaxCalculationMode, mode: RoundingMode): TaxedItemPrice {
  if (calculation === 'UnitPriceLevel' && amount.unit !== undefined) {
    const { cents, quantity } = amount.unit;
    const perUnit = taxesOfAmount(cents, rate, mode);
    const portions = perUnit.portions.map((portion) => ({ ...portion, cents: portion.cents * quantity }));
    return taxedFrom(amount.currency, perUnit.net * quantity, portions);
  }
  const { net, portions } = taxesOfAmount(amount.totalCents, rate, mode);
  return taxedFrom(amount.currency, net, portions);
}

/**
 * The cart's TaxedPrice: the items' nets summed, their portions accumulated per rate and name
 * ("Tax portions from Line Items with the same rate and name are accumulated", TaxPortion.raml),
 * gross = net + tax.
 */
export function cartTaxedPrice(currency: string, items: readonly TaxedItemPrice[]): TaxedPrice {
  const portions = new Map<string, PortionCents>();
  let net = 0;
  for (const item of items) {
    net += item.totalNet.centAmount;
    for (const portion of item.taxPortions) {
      const name = portion.name ?? '';
      const key = `${portion.rate}\u0000${name}`;
      const known = portions.get(key) ?? { name, rate: portion.rate, cents: 0 };
      known.cents += portion.amount.centAmount;
      portions.set(key, known);
    }
  }
  return taxedFrom(currency, net, [...portions.values()]);
}
