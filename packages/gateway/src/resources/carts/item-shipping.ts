import { ApiError, invalidInput } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Draft } from '../shared/validation.js';
import { address, type Address } from '../shared/address.js';
import type { Cart, CustomLineItem, ItemShippingDetails, ItemShippingTarget, LineItem } from './cart.js';
import { findItem, quantity } from './line-items.js';

/*
 * Multiple shipping addresses (the reference's `itemShippingAddresses` and ItemShippingDetails):
 * line items and custom line items split their quantity over addresses of the cart, by key, and in
 * a `Multiple` cart over its Shippings by `shippingMethodKey` (multi-shipping.ts).
 * Carts have no messages for these actions in the reference.
 */

const MAX_ITEM_SHIPPING_ADDRESSES = 100;
const MAX_TARGETS = 100;

/** `itemShippingAddresses`: line items point at these by key, so every one needs a unique key. */
export function itemShippingAddresses(value: unknown, field: string): Address[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 100) {
    throw invalidInput(`'${field}' must be an array of at most 100 addresses.`, { field });
  }
  const addresses = value.map((item, index) => address(item, `${field}[${index}]`));
  const keys = new Set<string>();
  addresses.forEach((item, index) => {
    if (item.key === undefined) throw invalidInput(`'${field}[${index}].key' is required.`, { field: `${field}[${index}].key` });
    if (keys.has(item.key)) throw invalidInput(`'${field}' contains the key '${item.key}' twice.`, { field });
    keys.add(item.key);
  });
  return addresses;
}

/** InvalidItemShippingDetails (reference error): targets that name no address of the cart. */
function invalidItemShippingDetails(subject: 'LineItem' | 'CustomLineItem', itemId: string, message: string): ApiError {
  return new ApiError(400, { code: 'InvalidItemShippingDetails', message, subject, itemId });
}

function itemShippingAddress(value: unknown): ReturnType<typeof address> & { key: string } {
  const parsed = address(value, 'address');
  if (parsed.key === undefined) throw invalidInput("'address.key' is required: items refer to their addresses by key.", { field: 'address.key' });
  return { ...parsed, key: parsed.key };
}

function targetsOf(value: unknown): ItemShippingTarget[] {
  const draft = value as Draft;
  if (!Array.isArray(draft.targets) || draft.targets.length > MAX_TARGETS) {
    throw invalidInput(`'shippingDetails.targets' must be an array of at most ${MAX_TARGETS} targets.`, { field: 'shippingDetails.targets' });
  }
  return (draft.targets as unknown[]).map((item, index) => {
    const field = `shippingDetails.targets[${index}]`;
    const target = (typeof item === 'object' && item !== null ? item : {}) as Draft;
    if (typeof target.addressKey !== 'string') throw invalidInput(`'${field}.addressKey' must be a string.`, { field: `${field}.addressKey` });
    if (target.quantity === undefined || target.quantity === null) throw invalidInput(`'${field}.quantity' is required.`, { field: `${field}.quantity` });
    const result: ItemShippingTarget = { addressKey: target.addressKey, quantity: quantity(target.quantity, `${field}.quantity`, 1) };
    if (typeof target.shippingMethodKey === 'string') result.shippingMethodKey = target.shippingMethodKey;
    return result;
  });
}

/** `valid` (ItemShippingDetails): the targets' quantities add up to the item's quantity. */
function details(targets: ItemShippingTarget[], itemQuantity: number): ItemShippingDetails {
  return { targets, valid: targets.reduce((total, target) => total + target.quantity, 0) === itemQuantity };
}

/** Keeps `valid` true to the items' quantities after any action (quantities change elsewhere). */
export function revalidateShippingDetails(cart: Pick<Cart, 'lineItems' | 'customLineItems'>): void {
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    if (item.shippingDetails !== undefined) item.shippingDetails = details(item.shippingDetails.targets, item.quantity);
  }
}

/** The first target's `shippingMethodKey` that names no Shipping of the cart (a `Single` cart has none to name). */
function unknownShippingMethodKey(cart: Cart, targets: readonly ItemShippingTarget[]): string | undefined {
  const keys = new Set(cart.shipping.map((shipping) => shipping.shippingKey));
  return targets.find((target) => target.shippingMethodKey !== undefined && !keys.has(target.shippingMethodKey))?.shippingMethodKey;
}

/** An ItemShippingDetailsDraft whose every target names one of the cart's item shipping addresses, and of its Shippings where it names one. */
function shippingDetails(cart: Cart, value: unknown, subject: 'LineItem' | 'CustomLineItem', item: LineItem | CustomLineItem): ItemShippingDetails {
  const targets = targetsOf(value);
  const keys = new Set(cart.itemShippingAddresses.map((entry) => entry.key));
  const unknown = targets.find((target) => !keys.has(target.addressKey));
  if (unknown !== undefined) {
    throw invalidItemShippingDetails(subject, item.id, `The address key '${unknown.addressKey}' is not one of the cart's itemShippingAddresses.`);
  }
  const method = unknownShippingMethodKey(cart, targets);
  if (method !== undefined)
    throw invalidItemShippingDetails(subject, item.id, `The shippingMethodKey '${method}' is not the key of one of the cart's shippings.`);
  return details(targets, item.quantity);
}

function setShippingDetails(list: 'lineItems' | 'customLineItems'): ActionHandler<Cart> {
  const [idField, keyField, subject] =
    list === 'lineItems' ? (['lineItemId', 'lineItemKey', 'LineItem'] as const) : (['customLineItemId', 'customLineItemKey', 'CustomLineItem'] as const);
  return (cart, action) => {
    const item: LineItem | CustomLineItem = findItem<LineItem | CustomLineItem>(cart[list], action, idField, keyField);
    if (action.shippingDetails === undefined || action.shippingDetails === null) delete item.shippingDetails;
    else item.shippingDetails = shippingDetails(cart, action.shippingDetails, subject, item);
  };
}

/** One ItemShippingTarget of `targetsDelta`: a quantity to add to (or, negative, take from) an address's target. */
function deltaTarget(item: unknown, field: string): ItemShippingTarget {
  const target = (typeof item === 'object' && item !== null ? item : {}) as Draft;
  if (typeof target.addressKey !== 'string') throw invalidInput(`'${field}.addressKey' must be a string.`, { field: `${field}.addressKey` });
  const delta = target.quantity;
  if (typeof delta !== 'number' || !Number.isSafeInteger(delta)) {
    throw invalidInput(`'${field}.quantity' must be an integer (negative to ship fewer units there).`, { field: `${field}.quantity`, invalidValue: delta });
  }
  const result: ItemShippingTarget = { addressKey: target.addressKey, quantity: delta };
  if (typeof target.shippingMethodKey === 'string') result.shippingMethodKey = target.shippingMethodKey;
  return result;
}

function deltasOf(value: unknown): ItemShippingTarget[] {
  if (!Array.isArray(value) || value.length > MAX_TARGETS) {
    throw invalidInput(`'targetsDelta' must be an array of at most ${MAX_TARGETS} targets.`, { field: 'targetsDelta' });
  }
  return value.map((item, index) => deltaTarget(item, `targetsDelta[${index}]`));
}

/** The item's targets with each delta added per address; a target that reaches 0 goes, one below 0 is refused. */
function appliedDeltas(
  cart: Cart,
  current: readonly ItemShippingTarget[],
  deltas: readonly ItemShippingTarget[],
  refuse: (message: string) => ApiError,
): ItemShippingTarget[] {
  const keys = new Set(cart.itemShippingAddresses.map((entry) => entry.key));
  const method = unknownShippingMethodKey(cart, deltas);
  if (method !== undefined) throw refuse(`The shippingMethodKey '${method}' is not the key of one of the cart's shippings.`);
  const targets = current.map((target) => ({ ...target }));
  for (const delta of deltas) {
    if (!keys.has(delta.addressKey)) throw refuse(`The address key '${delta.addressKey}' is not one of the cart's itemShippingAddresses.`);
    const target = targets.find((candidate) => candidate.addressKey === delta.addressKey);
    const next = (target?.quantity ?? 0) + delta.quantity;
    if (next < 0) throw refuse(`The target of the address '${delta.addressKey}' would ship ${next} units.`);
    if (target === undefined) targets.push({ ...delta });
    else {
      target.quantity = next;
      if (delta.shippingMethodKey !== undefined) target.shippingMethodKey = delta.shippingMethodKey;
    }
  }
  return targets.filter((target) => target.quantity > 0);
}

/** CartApplyDeltaTo(Custom)LineItemShippingDetailsTargetsAction: "positive or negative quantities increase or decrease the number of items shipped to an address". */
function applyDeltaToTargets(list: 'lineItems' | 'customLineItems'): ActionHandler<Cart> {
  const [idField, keyField, subject] =
    list === 'lineItems' ? (['lineItemId', 'lineItemKey', 'LineItem'] as const) : (['customLineItemId', 'customLineItemKey', 'CustomLineItem'] as const);
  return (cart, action) => {
    const item: LineItem | CustomLineItem = findItem<LineItem | CustomLineItem>(cart[list], action, idField, keyField);
    const deltas = deltasOf(action.targetsDelta);
    const targets = appliedDeltas(cart, item.shippingDetails?.targets ?? [], deltas, (message) => invalidItemShippingDetails(subject, item.id, message));
    item.shippingDetails = details(targets, item.quantity);
  };
}

function isTargeted(cart: Cart, addressKey: string): boolean {
  return [...cart.lineItems, ...cart.customLineItems].some((item) => item.shippingDetails?.targets.some((target) => target.addressKey === addressKey) === true);
}

/** Item shipping address and details actions (the buyer may use all but the custom line item one: buyer-limits.ts). */
export const itemShippingActions: ActionHandlers<Cart> = {
  addItemShippingAddress(cart, action) {
    const added = itemShippingAddress(action.address);
    if (cart.itemShippingAddresses.some((entry) => entry.key === added.key)) {
      throw invalidInput(`The cart already has an item shipping address with the key '${added.key}'.`, { field: 'address.key', invalidValue: added.key });
    }
    if (cart.itemShippingAddresses.length >= MAX_ITEM_SHIPPING_ADDRESSES) {
      throw invalidInput(`A cart has at most ${MAX_ITEM_SHIPPING_ADDRESSES} item shipping addresses.`, { field: 'address' });
    }
    cart.itemShippingAddresses.push(added);
  },
  updateItemShippingAddress(cart, action) {
    const updated = itemShippingAddress(action.address);
    const index = cart.itemShippingAddresses.findIndex((entry) => entry.key === updated.key);
    if (index < 0)
      throw invalidInput(`The cart has no item shipping address with the key '${updated.key}'.`, { field: 'address.key', invalidValue: updated.key });
    cart.itemShippingAddresses[index] = updated;
  },
  /** CartRemoveItemShippingAddressAction: only an address that no ItemShippingTarget names. */
  removeItemShippingAddress(cart, action) {
    const key = action.addressKey;
    if (typeof key !== 'string') throw invalidInput("'addressKey' is required.", { field: 'addressKey' });
    if (!cart.itemShippingAddresses.some((entry) => entry.key === key)) {
      throw invalidInput(`The cart has no item shipping address with the key '${key}'.`, { field: 'addressKey', invalidValue: key });
    }
    if (isTargeted(cart, key)) {
      throw new ApiError(400, { code: 'InvalidOperation', message: `The item shipping address '${key}' is still used by the shipping details of an item.` });
    }
    cart.itemShippingAddresses = cart.itemShippingAddresses.filter((entry) => entry.key !== key);
  },
  setLineItemShippingDetails: setShippingDetails('lineItems'),
  setCustomLineItemShippingDetails: setShippingDetails('customLineItems'),
  applyDeltaToLineItemShippingDetailsTargets: applyDeltaToTargets('lineItems'),
  applyDeltaToCustomLineItemShippingDetailsTargets: applyDeltaToTargets('customLineItems'),
};
