import { isDeepStrictEqual } from 'node:util';
import type { MessagePayload } from '@herald/model';
import type { Order, OrderCustomLineItem, OrderLineItem } from '../orders/order.js';
import type { UpdateAction } from '../shared/update-actions.js';

/*
 * The Order messages of the staged actions a cart also has (types/message/Order*Message.raml,
 * "Generated after a successful [StagedOrder…Action]"), derived from the order before and after
 * the action. Actions the reference lists no message for (the tax and rounding modes, prices,
 * setCountry, changeLineItemQuantity, …) produce only the discount recalculation messages.
 */

type Item = OrderLineItem | OrderCustomLineItem;
type Deriver = (before: Order, after: Order, action: UpdateAction) => MessagePayload[];

const withKey = (field: string, key: string | undefined): Record<string, string> => (key === undefined ? {} : { [field]: key });
const optional = (field: string, value: unknown): Record<string, unknown> => (value === undefined ? {} : { [field]: value });
const byId = <T extends { id: string }>(items: readonly T[], id: string): T | undefined => items.find((item) => item.id === id);

/** The item the action names (by id, else by key) in `items`. */
function named<T extends Item>(items: readonly T[], action: UpdateAction, kind: 'lineItem' | 'customLineItem'): T | undefined {
  const id = action[`${kind}Id`];
  const key = action[`${kind}Key`];
  return items.find((item) => (typeof id === 'string' ? item.id === id : item.key === key));
}

/** OrderLineItemAdded {lineItem, addedQuantity}: the new item, or the one the draft merged into. */
const lineItemAdded: Deriver = (before, after) => {
  const grown = after.lineItems.find((item) => (byId(before.lineItems, item.id)?.quantity ?? 0) < item.quantity);
  if (grown === undefined) return [];
  return [{ type: 'OrderLineItemAdded', lineItem: grown, addedQuantity: grown.quantity - (byId(before.lineItems, grown.id)?.quantity ?? 0) }];
};

/** OrderLineItemRemoved: the units removed and the item and order after (newQuantity 0 once the item is gone). */
const lineItemRemoved: Deriver = (before, after, action) => {
  const removed = named(before.lineItems, action, 'lineItem');
  if (removed === undefined) return [];
  const left = byId(after.lineItems, removed.id);
  const newQuantity = left?.quantity ?? 0;
  if (newQuantity >= removed.quantity) return [];
  return [
    {
      type: 'OrderLineItemRemoved',
      lineItemId: removed.id,
      ...withKey('lineItemKey', removed.key),
      removedQuantity: removed.quantity - newQuantity,
      newQuantity,
      newState: left?.state ?? [],
      newTotalPrice: after.totalPrice,
      ...optional('newTaxedPrice', left?.taxedPrice),
      ...optional('newPrice', left?.price),
      ...optional('newShippingDetail', left?.shippingDetails),
    },
  ];
};

const customLineItemAdded: Deriver = (before, after) =>
  after.customLineItems
    .filter((item) => byId(before.customLineItems, item.id) === undefined)
    .map((customLineItem) => ({ type: 'OrderCustomLineItemAdded', customLineItem }));

function customLineItemRemovedMessage(removed: OrderCustomLineItem): MessagePayload {
  return { type: 'OrderCustomLineItemRemoved', customLineItemId: removed.id, ...withKey('customLineItemKey', removed.key), customLineItem: removed };
}

const customLineItemRemoved: Deriver = (before, after) =>
  before.customLineItems.filter((item) => byId(after.customLineItems, item.id) === undefined).map(customLineItemRemovedMessage);

/** OrderCustomLineItemQuantityChanged {quantity, oldQuantity}; a quantity of 0 removes the item (OrderCustomLineItemRemoved). */
const customLineItemQuantityChanged: Deriver = (before, after, action) => {
  const changed = named(before.customLineItems, action, 'customLineItem');
  if (changed === undefined) return [];
  const now = byId(after.customLineItems, changed.id);
  if (now === undefined) return [customLineItemRemovedMessage(changed)];
  if (now.quantity === changed.quantity) return [];
  return [
    {
      type: 'OrderCustomLineItemQuantityChanged',
      customLineItemId: now.id,
      ...withKey('customLineItemKey', now.key),
      quantity: now.quantity,
      oldQuantity: changed.quantity,
    },
  ];
};

function codeIds(order: Order): string[] {
  return order.discountCodes.map((info) => info.discountCode.id);
}

function discountCodeChange(type: 'OrderDiscountCodeAdded' | 'OrderDiscountCodeRemoved'): Deriver {
  return (before, after) => {
    const [from, to] = type === 'OrderDiscountCodeAdded' ? [before, after] : [after, before];
    return codeIds(to)
      .filter((id) => !codeIds(from).includes(id))
      .map((id) => ({ type, discountCode: { typeId: 'discount-code', id } }));
  };
}

/** OrderShippingInfoSet {shippingInfo?, oldShippingInfo?}. */
const shippingInfoSet: Deriver = (before, after) => [
  { type: 'OrderShippingInfoSet', ...optional('shippingInfo', after.shippingInfo), ...optional('oldShippingInfo', before.shippingInfo) },
];

/** OrderShippingAddressSet {address?, oldAddress?}, as the order's setShippingAddress (orders/actions.ts). */
const shippingAddressSet: Deriver = (before, after) => [
  { type: 'OrderShippingAddressSet', ...optional('address', after.shippingAddress), ...optional('oldAddress', before.shippingAddress) },
];

const shippingRateInputSet: Deriver = (before, after) => [
  {
    type: 'OrderShippingRateInputSet',
    ...optional('shippingRateInput', after.shippingRateInput),
    ...optional('oldShippingRateInput', before.shippingRateInput),
  },
];

/** The order document keeps its cart's customerGroup (orders/from-cart.ts), which the Order type does not list. */
const customerGroupOf = (order: Order): unknown => (order as Order & { customerGroup?: unknown }).customerGroup;

const customerGroupSet: Deriver = (before, after) => [
  { type: 'OrderCustomerGroupSet', ...optional('customerGroup', customerGroupOf(after)), ...optional('oldCustomerGroup', customerGroupOf(before)) },
];

const distributionChannelSet: Deriver = (before, after, action) => {
  const item = named(after.lineItems, action, 'lineItem');
  if (item === undefined) return [];
  return [
    {
      type: 'OrderLineItemDistributionChannelSet',
      lineItemId: item.id,
      ...withKey('lineItemKey', item.key),
      ...optional('distributionChannel', item.distributionChannel),
    },
  ];
};

const MESSAGES_OF: Readonly<Record<string, Deriver>> = {
  addLineItem: lineItemAdded,
  removeLineItem: lineItemRemoved,
  addCustomLineItem: customLineItemAdded,
  removeCustomLineItem: customLineItemRemoved,
  changeCustomLineItemQuantity: customLineItemQuantityChanged,
  addDiscountCode: discountCodeChange('OrderDiscountCodeAdded'),
  removeDiscountCode: discountCodeChange('OrderDiscountCodeRemoved'),
  setShippingMethod: shippingInfoSet,
  setCustomShippingMethod: shippingInfoSet,
  setShippingAddressAndShippingMethod: (before, after, action) => [...shippingAddressSet(before, after, action), ...shippingInfoSet(before, after, action)],
  setShippingAddressAndCustomShippingMethod: (before, after, action) => [
    ...shippingAddressSet(before, after, action),
    ...shippingInfoSet(before, after, action),
  ],
  setShippingRateInput: shippingRateInputSet,
  setCustomerGroup: customerGroupSet,
  setLineItemDistributionChannel: distributionChannelSet,
};

/** OrderLineItemDiscountSet / OrderCustomLineItemDiscountSet: an item whose discounts the recalculation changed. */
function itemDiscountsSet(before: Order, after: Order): MessagePayload[] {
  const changed = <T extends Item>(items: readonly T[], previous: readonly T[]): T[] =>
    items.filter((item) => {
      const old = byId(previous, item.id);
      return old !== undefined && !isDeepStrictEqual(old.discountedPricePerQuantity, item.discountedPricePerQuantity);
    });
  return [
    ...changed(after.lineItems, before.lineItems).map((item) => ({
      type: 'OrderLineItemDiscountSet',
      lineItemId: item.id,
      ...withKey('lineItemKey', item.key),
      discountedPricePerQuantity: item.discountedPricePerQuantity,
      totalPrice: item.totalPrice,
      ...optional('taxedPrice', item.taxedPrice),
      taxedPricePortions: item.taxedPricePortions,
    })),
    ...changed(after.customLineItems, before.customLineItems).map((item) => ({
      type: 'OrderCustomLineItemDiscountSet',
      customLineItemId: item.id,
      ...withKey('customLineItemKey', item.key),
      discountedPricePerQuantity: item.discountedPricePerQuantity,
      ...optional('taxedPrice', item.taxedPrice),
    })),
  ];
}

/** OrderDiscountCodeStateSet {discountCode, state, oldState?}: a kept code whose state the recalculation changed. */
function codeStatesSet(before: Order, after: Order): MessagePayload[] {
  return after.discountCodes.flatMap((info) => {
    const old = before.discountCodes.find((candidate) => candidate.discountCode.id === info.discountCode.id);
    if (old === undefined || old.state === info.state) return [];
    return [{ type: 'OrderDiscountCodeStateSet', discountCode: info.discountCode, state: info.state, oldState: old.state }];
  });
}

/** The messages of one staged cart action: the action's own, then those of the recalculation it caused. */
export function stagedCartMessages(before: Order, after: Order, action: UpdateAction): MessagePayload[] {
  const own = Object.hasOwn(MESSAGES_OF, action.action) ? (MESSAGES_OF[action.action]?.(before, after, action) ?? []) : [];
  return [...own, ...itemDiscountsSet(before, after), ...codeStatesSet(before, after)];
}
