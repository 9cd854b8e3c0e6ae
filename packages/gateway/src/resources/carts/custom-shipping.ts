import { invalidInput, invalidOperation, requiredField } from '@herald/model';
import { optionalInstant } from '../discounts/validity.js';
import { customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalString } from '../shared/validation.js';
import { taxCategoryReference } from '../shipping-methods/fields.js';
import { shippingRateDraft } from '../shipping-methods/zone-rates.js';
import type { Cart } from './cart.js';
import { shippingInfoNamed } from './multi-shipping.js';
import { ratePrice, type EstimatedDelivery } from './shipping.js';
import { assertExternalTaxMode } from './tax-actions.js';
import { externalTaxRate } from './taxes.js';

/*
 * A custom shipping method of a `Single` cart (CartSetCustomShippingMethodAction: a name and a
 * ShippingRateDraft instead of a ShippingMethod), priced like a method's rate (tiers, `freeAbove`,
 * shipping.ts) and taxed by its `taxCategory` (Platform) or `externalTaxRate` (External); and the
 * estimated delivery window of the cart's ShippingInfo (CartSetEstimatedDeliveryAction).
 */

/** EstimatedDelivery.raml: "When both `from` and `until` are set, `until` must be equal to or later than `from`." */
export function estimatedDelivery(value: unknown, field: string): EstimatedDelivery | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asDraft(value, `'${field}' EstimatedDelivery`);
  const from = optionalInstant(draft.from, `${field}.from`);
  const until = optionalInstant(draft.until, `${field}.until`);
  if (from !== undefined && until !== undefined && Date.parse(until) < Date.parse(from)) {
    throw invalidInput(`'${field}.until' must not be earlier than '${field}.from'.`, { field: `${field}.until`, invalidValue: until });
  }
  return { ...(from === undefined ? {} : { from }), ...(until === undefined ? {} : { until }) };
}

function assertSingleWithAddress(cart: Cart): void {
  if (cart.shippingMode !== 'Single') throw invalidOperation("A custom shipping method can only be set on a cart with the 'Single' shipping mode.");
  if (cart.shippingAddress === undefined) throw invalidOperation('The cart needs a shipping address before a custom shipping method can be set.');
}

export function shippingRateInCartCurrency(cart: Cart, value: unknown, ctx: Parameters<typeof shippingRateDraft>[2]): ReturnType<typeof shippingRateDraft> {
  const rate = shippingRateDraft(value, 'shippingRate', ctx);
  if (rate.price.currencyCode !== cart.totalPrice.currencyCode) {
    throw invalidInput(`'shippingRate.price' must be in the cart's currency ${cart.totalPrice.currencyCode}.`, {
      field: 'shippingRate.price',
      invalidValue: rate.price.currencyCode,
    });
  }
  return rate;
}

/** API Clients only: MyCartUpdateAction has neither action. */
export const customShippingActions: ActionHandlers<Cart> = {
  async setCustomShippingMethod(cart, action, { ctx }) {
    assertSingleWithAddress(cart);
    const shippingMethodName = optionalString(action.shippingMethodName, 'shippingMethodName', 4096);
    if (shippingMethodName === undefined) throw requiredField('shippingMethodName');
    const shippingRate = shippingRateInCartCurrency(cart, action.shippingRate, ctx.project);
    const present = (value: unknown) => value !== undefined && value !== null;
    const taxCategory = present(action.taxCategory) ? await taxCategoryReference(ctx.load, action.taxCategory, 'taxCategory') : undefined;
    if (present(action.externalTaxRate)) assertExternalTaxMode(cart, 'externalTaxRate');
    const delivery = estimatedDelivery(action.estimatedDelivery, 'estimatedDelivery');
    const custom = await customFromDraft(action.custom, 'shipping', ctx);
    cart.shippingInfo = {
      shippingMethodName,
      price: ratePrice(shippingRate, cart),
      shippingRate,
      shippingMethodState: 'MatchesCart',
      ...(taxCategory === undefined ? {} : { taxCategory }),
      ...(present(action.externalTaxRate) ? { taxRate: externalTaxRate(action.externalTaxRate, 'externalTaxRate') } : {}),
      ...(delivery === undefined ? {} : { estimatedDelivery: delivery }),
    };
    if (custom === undefined) delete cart.shippingCustomFields;
    else cart.shippingCustomFields = custom;
  },
  /** CartEstimatedDeliverySetMessage: the window set (absent when removed) and, for a `Multiple` cart, the `shippingKey`. */
  setEstimatedDelivery(cart, action) {
    const info = shippingInfoNamed(cart, action.shippingKey, 'setEstimatedDelivery');
    const delivery = estimatedDelivery(action.estimatedDelivery, 'estimatedDelivery');
    if (delivery === undefined) delete info.estimatedDelivery;
    else info.estimatedDelivery = delivery;
    const key = cart.shippingMode === 'Multiple' ? { shippingKey: action.shippingKey } : {};
    return [{ type: 'CartEstimatedDeliverySet', ...key, ...(delivery === undefined ? {} : { estimatedDelivery: delivery }) }];
  },
};
