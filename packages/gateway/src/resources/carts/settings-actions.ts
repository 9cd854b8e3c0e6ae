import { invalidInput, requiredField } from '@herald/model';
import type { ActionHandlers } from '../shared/update-actions.js';
import { optionalKey, optionalString } from '../shared/validation.js';
import { TAX_CALCULATION_MODES, TAX_MODES, TAX_ROUNDING_MODES, type Cart } from './cart.js';
import { oneOf, optionalLocale, shippingRateInput } from './draft.js';
import { recalculate } from './line-items.js';

/*
 * Cart-level `set…`/`change…` actions of the reference's CartUpdateAction on fields Herald keeps.
 * Only CartPurchaseOrderNumberSet is a cart message in the reference; the others change the cart
 * (a new version and its change notification) without one.
 */

/** CartSetReservationExpirationInMinutesAction.reservationExpirationInMinutes `maximum`. */
const MAX_RESERVATION_MINUTES = 44_640;

type OptionalText = 'customerEmail' | 'anonymousId' | 'locale' | 'purchaseOrderNumber';

function setText(cart: Cart, field: OptionalText, value: string | undefined): void {
  if (value === undefined) delete cart[field];
  else cart[field] = value;
}

/** Actions a buyer may use on their own cart too (MyCartUpdateAction). */
export const mySettingsActions: ActionHandlers<Cart> = {
  setCustomerEmail(cart, action) {
    setText(cart, 'customerEmail', optionalString(action.email, 'email', 256));
  },
  setLocale(cart, action) {
    setText(cart, 'locale', optionalLocale(action.locale));
  },
  changeTaxMode(cart, action) {
    cart.taxMode = oneOf(TAX_MODES, action.taxMode ?? '', 'taxMode', 'Platform');
  },
  /** Herald's prices come with the cart: recalculating sums them again (the totals stay consistent). */
  recalculate(cart) {
    recalculate(cart);
  },
};

/** Actions of API clients only. */
export const settingsActions: ActionHandlers<Cart> = {
  ...mySettingsActions,
  setKey(cart, action) {
    const key = optionalKey(action.key);
    if (key === undefined) delete cart.key;
    else cart.key = key;
  },
  setAnonymousId(cart, action) {
    setText(cart, 'anonymousId', optionalString(action.anonymousId, 'anonymousId', 256));
  },
  /** CartPurchaseOrderNumberSetMessage: `purchaseOrderNumber` and `oldPurchaseOrderNumber`, each when set. */
  setPurchaseOrderNumber(cart, action) {
    const purchaseOrderNumber = optionalString(action.purchaseOrderNumber, 'purchaseOrderNumber', 256);
    const old = cart.purchaseOrderNumber;
    if (purchaseOrderNumber === old) return [];
    setText(cart, 'purchaseOrderNumber', purchaseOrderNumber);
    return [
      {
        type: 'CartPurchaseOrderNumberSet',
        ...(purchaseOrderNumber === undefined ? {} : { purchaseOrderNumber }),
        ...(old === undefined ? {} : { oldPurchaseOrderNumber: old }),
      },
    ];
  },
  setShippingRateInput(cart, action) {
    const input = shippingRateInput(action.shippingRateInput, 'shippingRateInput');
    if (input === undefined) delete cart.shippingRateInput;
    else cart.shippingRateInput = input;
  },
  changeTaxRoundingMode(cart, action) {
    cart.taxRoundingMode = oneOf(TAX_ROUNDING_MODES, action.taxRoundingMode ?? '', 'taxRoundingMode', 'HalfEven');
  },
  changePriceRoundingMode(cart, action) {
    cart.priceRoundingMode = oneOf(TAX_ROUNDING_MODES, action.priceRoundingMode ?? '', 'priceRoundingMode', 'HalfEven');
  },
  /**
   * CartSetReservationExpirationInMinutesAction: "a new expiration … for all ReserveOnCart Line Items
   * with a Reservation". Herald keeps no reservations (cart.ts INVENTORY_MODES), so none moves; the
   * value is still checked (1 to 44640 minutes).
   */
  setReservationExpirationInMinutes(_cart, action) {
    const minutes = action.reservationExpirationInMinutes;
    if (minutes === undefined || minutes === null) throw requiredField('reservationExpirationInMinutes');
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_RESERVATION_MINUTES) {
      throw invalidInput(`'reservationExpirationInMinutes' must be an integer from 1 to ${MAX_RESERVATION_MINUTES}.`, {
        field: 'reservationExpirationInMinutes',
        invalidValue: minutes,
      });
    }
  },
  changeTaxCalculationMode(cart, action) {
    cart.taxCalculationMode = oneOf(TAX_CALCULATION_MODES, action.taxCalculationMode ?? '', 'taxCalculationMode', 'LineItemLevel');
  },
};
