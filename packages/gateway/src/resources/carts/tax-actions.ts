import { invalidInput, invalidOperation } from '@herald/model';
import { centPrecision, moneyInCurrency, type CentPrecisionMoney } from '../shared/money.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalString, type Draft } from '../shared/validation.js';
import type { Cart, CustomLineItem, LineItem, TaxMode } from './cart.js';
import { findItem } from './line-items.js';
import { shippingInfoNamed } from './multi-shipping.js';
import { itemRateHolder, setShippingTaxAmount } from './multi-shipping-taxes.js';
import { externalTaxRate } from './taxes.js';
import type { ItemTaxRate, TaxedItemPrice, TaxPortion } from './taxed-price.js';

/*
 * The update actions that set taxes from outside (types/cart/updates): tax rates in the External
 * TaxMode (setLineItemTaxRate, setCustomLineItemTaxRate, setShippingMethodTaxRate) and tax amounts
 * in the ExternalAmount TaxMode (setLineItemTaxAmount, setCustomLineItemTaxAmount,
 * setShippingMethodTaxAmount, setCartTotalTax). Each "can be used if the Cart has the … TaxMode".
 */

function assertTaxMode(cart: Pick<Cart, 'taxMode'>, mode: TaxMode, field: string): void {
  if (cart.taxMode !== mode) throw invalidOperation(`'${field}' can only be used on a cart with the ${mode} tax mode; this cart's is ${cart.taxMode}.`);
}

export function assertExternalTaxMode(cart: Pick<Cart, 'taxMode'>, field: string): void {
  assertTaxMode(cart, 'External', field);
}

type Taxable = LineItem | CustomLineItem;
type ItemKind = 'lineItems' | 'customLineItems';
const SELECTORS = { lineItems: ['lineItemId', 'lineItemKey'], customLineItems: ['customLineItemId', 'customLineItemKey'] } as const;

function itemOf(cart: Cart, kind: ItemKind, action: Draft): Taxable {
  const [idField, keyField] = SELECTORS[kind];
  return findItem<Taxable>(cart[kind], action, idField, keyField);
}

function setOrRemoveRate(holder: { taxRate?: ItemTaxRate }, value: unknown, field: string): void {
  if (value === undefined || value === null) delete holder.taxRate;
  else holder.taxRate = externalTaxRate(value, field);
}

function itemTaxRate(kind: ItemKind): ActionHandler<Cart> {
  return (cart, action) => {
    assertExternalTaxMode(cart, action.action);
    setOrRemoveRate(itemRateHolder(cart, itemOf(cart, kind, action), action.shippingKey), action.externalTaxRate, 'externalTaxRate');
  };
}

/**
 * ExternalTaxAmountDraft (`totalGross` and `taxRate`): the gross as given, the net the item's
 * total ("taxedItemPrice.totalNet is automatically set by the platform to the Line Item's
 * totalPrice", TaxMode.raml ExternalAmount), the tax their difference.
 */
function externalAmount(value: unknown, field: string, net: CentPrecisionMoney): { taxRate: ItemTaxRate; taxedPrice: TaxedItemPrice } {
  const draft = asDraft(value, `'${field}' ExternalTaxAmountDraft`);
  const totalGross = moneyInCurrency(draft.totalGross, `${field}.totalGross`, net.currencyCode, true);
  if (draft.taxRate === undefined || draft.taxRate === null) throw invalidInput(`'${field}.taxRate' is required.`, { field: `${field}.taxRate` });
  const taxRate = externalTaxRate(draft.taxRate, `${field}.taxRate`);
  const tax = centPrecision(net.currencyCode, totalGross.centAmount - net.centAmount);
  return {
    taxRate,
    taxedPrice: { totalNet: { ...net }, totalGross, totalTax: tax, taxPortions: [{ name: taxRate.name, rate: taxRate.amount, amount: tax }] },
  };
}

function setOrRemoveAmount(holder: { taxRate?: ItemTaxRate; taxedPrice?: TaxedItemPrice }, value: unknown, net: CentPrecisionMoney): void {
  if (value === undefined || value === null) {
    delete holder.taxRate;
    delete holder.taxedPrice;
    return;
  }
  Object.assign(holder, externalAmount(value, 'externalTaxAmount', net));
}

function itemTaxAmount(kind: ItemKind): ActionHandler<Cart> {
  return (cart, action) => {
    assertTaxMode(cart, 'ExternalAmount', action.action);
    const item = itemOf(cart, kind, action);
    if (cart.shippingMode === 'Multiple') {
      const value = action.externalTaxAmount;
      const amountFor = value === undefined || value === null ? undefined : (net: CentPrecisionMoney) => externalAmount(value, 'externalTaxAmount', net);
      setShippingTaxAmount(cart, item, action.shippingKey, amountFor);
      return;
    }
    setOrRemoveAmount(item, action.externalTaxAmount, item.totalPrice);
  };
}

/** The cart's shipping method, or a `Multiple` cart's Shipping the action names by `shippingKey` (multi-shipping.ts). */
function shippingInfoOf(cart: Cart, action: Draft, name: string): NonNullable<Cart['shippingInfo']> {
  return shippingInfoNamed(cart, action.shippingKey, name);
}

/** TaxPortionDraft: `rate` 0..1, `amount` Money in the cart's currency, `name` optional. */
function taxPortions(value: unknown, currency: string): TaxPortion[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 100)
    throw invalidInput("'externalTaxPortions' must be an array of TaxPortionDrafts.", { field: 'externalTaxPortions' });
  return value.map((item, index) => {
    const field = `externalTaxPortions[${index}]`;
    const draft = asDraft(item, `'${field}' TaxPortionDraft`);
    if (typeof draft.rate !== 'number' || !Number.isFinite(draft.rate) || draft.rate < 0 || draft.rate > 1) {
      throw invalidInput(`'${field}.rate' must be a number from 0 to 1.`, { field: `${field}.rate`, invalidValue: draft.rate });
    }
    const portion: TaxPortion = { rate: draft.rate, amount: moneyInCurrency(draft.amount, `${field}.amount`, currency, true) };
    const name = optionalString(draft.name, `${field}.name`, 256);
    if (name !== undefined) portion.name = name;
    return portion;
  });
}

export const taxActions: ActionHandlers<Cart> = {
  setLineItemTaxRate: itemTaxRate('lineItems'),
  setCustomLineItemTaxRate: itemTaxRate('customLineItems'),
  setShippingMethodTaxRate(cart, action) {
    assertExternalTaxMode(cart, 'setShippingMethodTaxRate');
    setOrRemoveRate(shippingInfoOf(cart, action, 'setShippingMethodTaxRate'), action.externalTaxRate, 'externalTaxRate');
  },
  setLineItemTaxAmount: itemTaxAmount('lineItems'),
  setCustomLineItemTaxAmount: itemTaxAmount('customLineItems'),
  setShippingMethodTaxAmount(cart, action) {
    assertTaxMode(cart, 'ExternalAmount', 'setShippingMethodTaxAmount');
    const info = shippingInfoOf(cart, action, 'setShippingMethodTaxAmount');
    setOrRemoveAmount(info, action.externalTaxAmount, info.price);
  },
  /** CartSetCartTotalTaxAction: the gross as given; net the cart's total, tax the difference. */
  setCartTotalTax(cart, action) {
    assertTaxMode(cart, 'ExternalAmount', 'setCartTotalTax');
    const currency = cart.totalPrice.currencyCode;
    if (action.externalTotalGross === undefined || action.externalTotalGross === null) {
      throw invalidInput("'externalTotalGross' is required.", { field: 'externalTotalGross' });
    }
    const totalGross = moneyInCurrency(action.externalTotalGross, 'externalTotalGross', currency, true);
    cart.taxedPrice = {
      totalNet: { ...cart.totalPrice },
      totalGross,
      totalTax: centPrecision(currency, totalGross.centAmount - cart.totalPrice.centAmount),
      taxPortions: taxPortions(action.externalTaxPortions, currency),
    };
  },
};

/**
 * ExternalAmount: "Price-affecting update actions … In these cases, `taxedPrice` and `taxRate`
 * are removed and must be set again" (TaxMode.raml). Called with the totals before an action.
 */
export function dropStaleTaxAmounts(cart: Cart, before: { itemTotals: Map<string, number>; totalCents: number }): void {
  if (cart.taxMode !== 'ExternalAmount') return;
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    if (before.itemTotals.get(item.id) !== item.totalPrice.centAmount) {
      delete item.taxRate;
      delete item.taxedPrice;
      // A `Multiple` cart's amounts per Shipping (multi-shipping-taxes.ts) are stale alike.
      item.taxedPricePortions = [];
      item.perMethodTaxRate = [];
    }
  }
  if (before.totalCents !== cart.totalPrice.centAmount) delete cart.taxedPrice;
}

export function totalsOf(cart: Cart): { itemTotals: Map<string, number>; totalCents: number } {
  return {
    itemTotals: new Map([...cart.lineItems, ...cart.customLineItems].map((item) => [item.id, item.totalPrice.centAmount])),
    totalCents: cart.totalPrice.centAmount,
  };
}
