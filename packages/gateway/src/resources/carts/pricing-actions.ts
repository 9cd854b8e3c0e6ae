import { optionalCustomerGroupReference } from '../customer-groups/reference.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { TAX_MODES, type Cart, type LineItem } from './cart.js';
import { updateReads } from './catalogue.js';
import { oneOf } from './draft.js';
import { channelReference, externalTotal } from './line-item-draft.js';
import { findItem } from './line-items.js';
import { repriceAll } from './settle.js';

/*
 * Update actions that change what a cart's prices and taxes are computed from (types/cart/updates):
 * the customer group, a line item's channels and total price, the tax mode, and `recalculate`.
 * The new prices themselves come from the settle step every cart action ends with (actions.ts).
 */

function lineItemOf(cart: Cart, action: Record<string, unknown>): LineItem {
  return findItem(cart.lineItems, action, 'lineItemId', 'lineItemKey');
}

/** Actions a buyer may use on their own cart too (MyCartUpdateAction). */
export const pricingActions: ActionHandlers<Cart> = {
  /** CartRecalculateAction: prices (and with `updateProductData` the product data) from the catalogue as it is now. */
  async recalculate(cart, action, { ctx, reader }) {
    // Prices are selected again after every action (actions.ts settledAfter); product data only on request.
    if (action.updateProductData === true) await repriceAll(cart, updateReads(ctx, reader), true);
  },
  /** CartSetLineItemDistributionChannelAction: the channel Platform price selection uses. */
  async setLineItemDistributionChannel(cart, action, { reader }) {
    const item = lineItemOf(cart, action);
    const channel = await channelReference(action.distributionChannel, 'distributionChannel', reader.get);
    if (channel === undefined) delete item.distributionChannel;
    else item.distributionChannel = channel;
  },
  /** CartSetLineItemSupplyChannelAction: the channel whose InventoryEntry an order checks. */
  async setLineItemSupplyChannel(cart, action, { reader }) {
    const item = lineItemOf(cart, action);
    const channel = await channelReference(action.supplyChannel, 'supplyChannel', reader.get);
    if (channel === undefined) delete item.supplyChannel;
    else item.supplyChannel = channel;
  },
  /**
   * CartChangeTaxModeAction. Rates of the old mode do not carry over: Platform assigns its own,
   * External and ExternalAmount wait for the rates and amounts set from outside.
   */
  changeTaxMode(cart, action) {
    const taxMode = oneOf(TAX_MODES, action.taxMode ?? '', 'taxMode', 'Platform');
    if (taxMode === cart.taxMode) return;
    cart.taxMode = taxMode;
    for (const item of [...cart.lineItems, ...cart.customLineItems, ...(cart.shippingInfo === undefined ? [] : [cart.shippingInfo])]) {
      delete item.taxRate;
      delete item.taxedPrice;
    }
    delete cart.taxedPrice;
  },
};

/** Actions of API clients only. */
export const merchantPricingActions: ActionHandlers<Cart> = {
  /** CartSetCustomerGroupAction: the group Platform price selection uses; absent removes it. */
  async setCustomerGroup(cart, action, { reader }) {
    const group = await optionalCustomerGroupReference(reader.get, action.customerGroup, 'customerGroup');
    if (group === undefined) delete cart.customerGroup;
    else cart.customerGroup = group;
  },
  /** CartSetLineItemTotalPriceAction: `externalTotalPrice` makes the item ExternalTotal; absent, Platform again. */
  setLineItemTotalPrice(cart, action) {
    const item = lineItemOf(cart, action);
    if (action.externalTotalPrice === undefined || action.externalTotalPrice === null) {
      item.priceMode = 'Platform';
      return;
    }
    const total = externalTotal(action.externalTotalPrice, 'externalTotalPrice', cart.totalPrice.currencyCode);
    item.priceMode = 'ExternalTotal';
    item.price = { id: item.price.id, value: total.price };
    item.totalPrice = total.totalPrice;
  },
};
