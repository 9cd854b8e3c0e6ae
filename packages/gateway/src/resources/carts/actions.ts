import { readerLookup } from '../business-units/associates.js';
import { requireBusinessUnitBuyer } from '../business-units/business-unit-buyer.js';
import { invalidInput, invalidOperation } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { countryCode, optionalAddress } from '../shared/address.js';
import { unitProvidesAssignments } from './buyer-groups.js';
import { CART_CUSTOM_FIELDS_TYPE_ID, type Cart, type LineItem } from './cart.js';
import { assignCustomerGroup, existingCustomerId } from './draft.js';
import { assertUniqueItemKeys, customLineItemFromDraft, findItem, mergeLineItem, quantity, recalculate } from './line-items.js';
import { externalTotal, lineItemFromDraft } from './line-item-draft.js';
import { updateReads } from './catalogue.js';
import { addDiscountCode, removeDiscountCode } from './discount-codes.js';
import { paymentActions } from '../orders/payments.js';
import { merchantPricingActions, pricingActions } from './pricing-actions.js';
import { settleCart } from './settle.js';
import { setShippingMethod } from './shipping.js';
import { assertExternalTaxMode, dropStaleTaxAmounts, taxActions, totalsOf } from './tax-actions.js';
import { externalTaxRate } from './taxes.js';
import type { Draft } from '../shared/validation.js';
import { moneyInCurrency, multiply } from '../shared/money.js';
import { itemShippingActions, revalidateShippingDetails } from './item-shipping.js';
import { lineItemActions, merchantItemActions } from './item-actions.js';
import { keyReference } from '../shared/references.js';
import { cartDeleteDays } from './retention.js';
import { buyerActionsOf } from './buyer-limits.js';
import { mySettingsActions, settingsActions } from './settings-actions.js';
import { cartPartCustomFieldActions } from './part-custom-fields.js';
import { cartStateActions, guardedByCartState } from './cart-states.js';
import { customShippingActions } from './custom-shipping.js';
import { multiShippingActions } from './multi-shipping.js';
import { recurrenceInfoActions } from './recurrence-info.js';
import { directDiscountActions } from './direct-discounts.js';
import { shoppingListActions } from './shopping-list-items.js';
import { withGiftRules } from './gift-line-items.js';
import { fillRequiredCartFields } from './required-fields.js';

/*
 * Cart update actions (the reference's CartUpdateAction and MyCartUpdateAction, where Herald holds
 * the fields they change). The reference has almost no cart messages (CartPurchaseOrderNumberSet
 * is one, settings-actions.ts): subscribers learn about cart changes from change notifications.
 */

/**
 * A new quantity (0 removes the item). `externalPrice` / `externalTotalPrice` set the price as the
 * quantity changes (CartChangeLineItemQuantityAction); an ExternalTotal item given no new total
 * goes back to `Platform` (LineItemPriceMode.raml), priced by the settle step.
 */
function setQuantity(cart: Cart, item: LineItem, count: number, action: Draft): void {
  if (count === 0) {
    cart.lineItems = cart.lineItems.filter((candidate) => candidate.id !== item.id);
    return;
  }
  const currency = cart.totalPrice.currencyCode;
  item.quantity = count;
  if (action.externalTotalPrice !== undefined && action.externalTotalPrice !== null) {
    const total = externalTotal(action.externalTotalPrice, 'externalTotalPrice', currency);
    Object.assign(item, { priceMode: 'ExternalTotal', price: { id: item.price.id, value: total.price }, totalPrice: total.totalPrice });
  } else if (action.externalPrice !== undefined && action.externalPrice !== null) {
    Object.assign(item, { priceMode: 'ExternalPrice', price: { id: item.price.id, value: moneyInCurrency(action.externalPrice, 'externalPrice', currency) } });
  } else if (item.priceMode === 'ExternalTotal') {
    item.priceMode = 'Platform';
  }
  if (item.priceMode !== 'ExternalTotal') item.totalPrice = multiply(item.price.value, count, 'lineItems');
  revalidateShippingDetails(cart);
}

/**
 * CartState `Merged` and `Ordered`: no further operations are allowed on the cart (reference
 * CartState); a `Frozen` or locked cart refuses some or all of them (cart-states.ts).
 */
function onlyWhileActive(handlers: ActionHandlers<Cart>): ActionHandlers<Cart> {
  return Object.fromEntries(
    Object.entries(guardedByCartState(handlers)).map(([name, handler]) => [
      name,
      (cart: Cart, action: Parameters<typeof handler>[1], scope: Parameters<typeof handler>[2]) => {
        // A cart stored by an older release lacks fields the actions use (shipping, refusedGifts, …).
        fillRequiredCartFields(cart);
        if (cart.cartState === 'Merged' || cart.cartState === 'Ordered')
          throw invalidOperation(`The cart is ${cart.cartState}: it cannot be changed any more.`);
        return handler(cart, action, scope);
      },
    ]),
  );
}

/**
 * Every cart change ends with the cart settled (settle.ts): `Platform` prices selected again
 * ("MatchingPriceNotFound can be returned as a failed response to all update actions on Carts"),
 * the shipping rate, the tax rates and the totals; in ExternalAmount, amounts made stale dropped.
 * Gift line items' rules apply to every action (gift-line-items.ts withGiftRules).
 */
function settledAfter(handlers: ActionHandlers<Cart>): ActionHandlers<Cart> {
  return Object.fromEntries(
    Object.entries(withGiftRules(handlers)).map(([name, handler]) => [
      name,
      async (cart: Cart, action: Parameters<typeof handler>[1], scope: Parameters<typeof handler>[2]) => {
        const before = totalsOf(cart);
        const messages = await handler(cart, action, scope);
        await settleCart(cart, updateReads(scope.ctx, scope.reader), { reprice: true });
        dropStaleTaxAmounts(cart, before);
        return messages;
      },
    ]),
  );
}

/** Actions that a buyer may use on their own cart (`/me/carts`), within buyerActionsOf's limits (buyer-limits.ts). */
const buyerActions: ActionHandlers<Cart> = {
  setDeleteDaysAfterLastModification(cart, action, { ctx }) {
    cart.deleteDaysAfterLastModification = cartDeleteDays(action.deleteDaysAfterLastModification, 'deleteDaysAfterLastModification', ctx.project);
  },
  async addLineItem(cart, action, { ctx, reader }) {
    mergeLineItem(cart.lineItems, await lineItemFromDraft(action, 'addLineItem', cart, updateReads(ctx, reader), ctx));
    assertUniqueItemKeys(cart);
    recalculate(cart);
    revalidateShippingDetails(cart);
  },
  removeLineItem(cart, action) {
    const item = findItem(cart.lineItems, action, 'lineItemId', 'lineItemKey');
    // Without `quantity` the item goes; with it, that many units go (all of them at most).
    const removed = quantity(action.quantity, 'quantity', item.quantity);
    setQuantity(cart, item, Math.max(0, item.quantity - removed), action);
    recalculate(cart);
  },
  changeLineItemQuantity(cart, action) {
    const item = findItem(cart.lineItems, action, 'lineItemId', 'lineItemKey');
    if (action.quantity === undefined || action.quantity === null) throw invalidInput("'quantity' is required.", { field: 'quantity' });
    setQuantity(cart, item, quantity(action.quantity, 'quantity', 0, 0), action);
    recalculate(cart);
  },
  async addCustomLineItem(cart, action, { ctx }) {
    cart.customLineItems.push(await customLineItemFromDraft(action, 'addCustomLineItem', cart, ctx));
    assertUniqueItemKeys(cart);
    recalculate(cart);
  },
  removeCustomLineItem(cart, action) {
    const item = findItem(cart.customLineItems, action, 'customLineItemId', 'customLineItemKey');
    cart.customLineItems = cart.customLineItems.filter((candidate) => candidate.id !== item.id);
    recalculate(cart);
  },
  async setShippingMethod(cart, action, { ctx, reader }) {
    await setShippingMethod(cart, action.shippingMethod, updateReads(ctx, reader));
    if (action.externalTaxRate !== undefined && action.externalTaxRate !== null && cart.shippingInfo !== undefined) {
      assertExternalTaxMode(cart, 'externalTaxRate');
      cart.shippingInfo.taxRate = externalTaxRate(action.externalTaxRate, 'externalTaxRate');
    }
  },
  setShippingAddress(cart, action) {
    const shippingAddress = optionalAddress(action.address, 'address');
    if (shippingAddress === undefined) delete cart.shippingAddress;
    else cart.shippingAddress = shippingAddress;
  },
  setBillingAddress(cart, action) {
    const billingAddress = optionalAddress(action.address, 'address');
    if (billingAddress === undefined) delete cart.billingAddress;
    else cart.billingAddress = billingAddress;
  },
  setCountry(cart, action) {
    if (action.country === undefined || action.country === null) delete cart.country;
    else cart.country = countryCode(action.country, 'country');
  },
  async setBusinessUnit(cart, action, { reader, ctx }) {
    if (action.businessUnit === undefined || action.businessUnit === null) {
      throw invalidInput("'businessUnit' is required.", { field: 'businessUnit' });
    }
    cart.businessUnit = await keyReference(reader.get, 'business-unit', action.businessUnit, 'businessUnit');
    await requireBusinessUnitBuyer(readerLookup(reader), ctx.projectKey, cart.businessUnit, ctx.auth);
    // A unit with customer group assignments prices the cart with them (buyer-groups.ts).
    if (await unitProvidesAssignments(reader.get, cart.businessUnit)) delete cart.customerGroup;
  },
  /** CartAddDiscountCodeAction: the code's state and prices follow in the settle step. */
  async addDiscountCode(cart, action, { ctx, reader }) {
    await addDiscountCode(cart, action.code, 'code', updateReads(ctx, reader), new Date());
  },
  removeDiscountCode(cart, action) {
    removeDiscountCode(cart, action.discountCode);
  },
  /** CartAddPaymentAction / CartRemovePaymentAction (and the My Cart ones): the orders' implementation, without messages (the reference has no Cart payment messages). */
  ...paymentActions<Cart>('cart'),
  ...customFieldActions<Cart>(CART_CUSTOM_FIELDS_TYPE_ID, { messages: false }),
  ...lineItemActions,
  ...itemShippingActions,
  ...mySettingsActions,
};

export const myCartActions: ActionHandlers<Cart> = onlyWhileActive(settledAfter(buyerActionsOf({ ...buyerActions, ...pricingActions })));

/** Actions of API clients (`/carts`, `/in-store/key=…/carts`): also re-assigning the customer. */
export const cartActions: ActionHandlers<Cart> = onlyWhileActive(
  settledAfter({
    ...buyerActions,
    ...merchantItemActions,
    ...settingsActions,
    ...pricingActions,
    ...merchantPricingActions,
    ...taxActions,
    ...cartPartCustomFieldActions,
    ...cartStateActions,
    ...customShippingActions,
    ...multiShippingActions,
    ...recurrenceInfoActions,
    ...directDiscountActions,
    ...shoppingListActions,
    /** The customer's group comes along ("customerGroup is set automatically", CartDraft.raml); prices follow. */
    async setCustomerId(cart, action, { reader }) {
      if (action.customerId === undefined || action.customerId === null) delete cart.customerId;
      else cart.customerId = await existingCustomerId(action.customerId, 'customerId', { load: reader.get });
      await assignCustomerGroup(cart, undefined, { load: reader.get });
    },
  }),
);
