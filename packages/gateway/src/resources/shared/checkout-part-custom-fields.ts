import { invalidInput, invalidOperation, type CustomFields } from '@herald/model';
import type { Address } from './address.js';
import { partCustomFieldActions, partHolding, type CustomizablePart, type LocatedPart } from './part-custom-fields.js';
import type { ActionHandlers, UpdateAction } from './update-actions.js';

/*
 * The parts carts and orders share, with custom fields of their own: the billing and shipping
 * addresses, the item shipping addresses and the shipping (reference Cart/Order
 * Set{Billing,Shipping,ItemShipping}AddressCustom{Type,Field}Action and
 * SetShippingCustom{Type,Field}Action). The reference has no messages for any of them.
 */

/** What the address actions read: the addresses of a cart or an order. */
export interface AddressHolder {
  billingAddress?: Address;
  shippingAddress?: Address;
  itemShippingAddresses: Address[];
}

/** A Shipping of a `Multiple`-mode cart or order, as far as its custom fields go (reference Shipping). */
interface KeyedShipping {
  shippingKey?: string;
  shippingCustomFields?: CustomFields;
}

/** What the shipping actions read: the mode, the `Single` shipping method and its custom fields, the `Multiple` shippings. */
export interface ShippingHolder {
  shippingMode: string;
  shippingInfo?: unknown;
  /** Reference Cart/Order.shippingCustomFields: "Custom Fields of the Shipping Method for `Single` ShippingMode". */
  shippingCustomFields?: CustomFields;
  shipping: readonly unknown[];
}

/** Types for addresses and shippings name these resource type ids (types/type/ResourceTypeId.raml). */
const ADDRESS_TYPE_ID = 'address';
const SHIPPING_TYPE_ID = 'shipping';

function address(holder: AddressHolder, field: 'billingAddress' | 'shippingAddress', resource: string): LocatedPart {
  const found = holder[field];
  if (found === undefined) throw invalidOperation(`The ${resource} has no ${field}; set it before its custom fields.`);
  return partHolding(found);
}

/** An item shipping address by its `addressKey` (required in the reference's actions). */
function itemShippingAddress(holder: AddressHolder, action: UpdateAction, resource: string): LocatedPart {
  const key = action.addressKey;
  if (typeof key !== 'string') throw invalidInput("'addressKey' is required.", { field: 'addressKey' });
  const found = holder.itemShippingAddresses.find((entry) => entry.key === key);
  if (found === undefined)
    throw invalidInput(`The ${resource} has no item shipping address with the key '${key}'.`, { field: 'addressKey', invalidValue: key });
  return partHolding(found);
}

/** set{Billing,Shipping,ItemShipping}AddressCustom{Type,Field}; `resource` ('cart', 'order') words the errors. */
export function addressCustomFieldActions<D extends AddressHolder>(resource: string): ActionHandlers<D> {
  const parts: CustomizablePart<D>[] = [
    { name: 'BillingAddress', resourceTypeId: ADDRESS_TYPE_ID, locate: (doc) => address(doc, 'billingAddress', resource) },
    { name: 'ShippingAddress', resourceTypeId: ADDRESS_TYPE_ID, locate: (doc) => address(doc, 'shippingAddress', resource) },
    { name: 'ItemShippingAddress', resourceTypeId: ADDRESS_TYPE_ID, locate: (doc, action) => itemShippingAddress(doc, action, resource) },
  ];
  return Object.assign({}, ...parts.map((part) => partCustomFieldActions(part))) as ActionHandlers<D>;
}

const isKeyedShipping = (value: unknown): value is KeyedShipping => typeof value === 'object' && value !== null;

/** A `Multiple`-mode shipping by its key; `Single` mode has none to name. */
function keyedShipping(holder: ShippingHolder, key: unknown, resource: string): LocatedPart {
  if (holder.shippingMode !== 'Multiple') {
    throw invalidOperation(`'shippingKey' names a shipping of a Multiple-mode ${resource}; this ${resource} ships in ${holder.shippingMode} mode.`);
  }
  const found = holder.shipping.filter(isKeyedShipping).find((entry) => entry.shippingKey === key);
  if (found === undefined) throw invalidInput(`The ${resource} has no shipping with the key '${String(key)}'.`, { field: 'shippingKey', invalidValue: key });
  return customFieldsAt(found);
}

function customFieldsAt(holder: { shippingCustomFields?: CustomFields }): LocatedPart {
  return {
    read: () => holder.shippingCustomFields,
    write: (custom) => {
      if (custom === undefined) delete holder.shippingCustomFields;
      else holder.shippingCustomFields = custom;
    },
  };
}

/**
 * The shipping an action names: by `shippingKey` in `Multiple` mode (required there), else the
 * one shipping method of a `Single`-mode cart or order, which must have been set.
 */
function shipping(holder: ShippingHolder, action: UpdateAction, resource: string): LocatedPart {
  if (action.shippingKey !== undefined && action.shippingKey !== null) return keyedShipping(holder, action.shippingKey, resource);
  if (holder.shippingMode === 'Multiple') throw invalidInput(`'shippingKey' is required for a Multiple-mode ${resource}.`, { field: 'shippingKey' });
  if (holder.shippingInfo === undefined) throw invalidOperation(`The ${resource} has no shipping method to customize.`);
  return customFieldsAt(holder);
}

/** setShippingCustomType / setShippingCustomField. */
export function shippingCustomFieldActions<D extends ShippingHolder>(resource: string): ActionHandlers<D> {
  return partCustomFieldActions<D>({ name: 'Shipping', resourceTypeId: SHIPPING_TYPE_ID, locate: (doc, action) => shipping(doc, action, resource) });
}
