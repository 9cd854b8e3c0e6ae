import { invalidOperation } from '@herald/model';
import { addressCustomFieldActions, shippingCustomFieldActions } from '../shared/checkout-part-custom-fields.js';
import { partCustomFieldActions, partHolding, type CustomizablePart } from '../shared/part-custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { DELIVERY_TYPE_ID, namedDelivery, PARCEL_TYPE_ID } from './deliveries.js';
import type { Order } from './order.js';
import { namedParcel } from './parcels.js';
import { namedReturnItem, RETURN_ITEM_TYPE_ID } from './returns.js';
import { namedItem } from './values.js';

/*
 * Custom fields on the parts of an order (reference Order Set<Part>Custom{Type,Field}Action):
 * deliveries, their addresses, parcels, return items, line items, custom line items, and the
 * addresses and shipping an order shares with carts. Only deliveries have messages in the
 * reference (types/message/DeliveryCustom*.raml); the other parts have none.
 */

const ORDER_PARTS: readonly CustomizablePart<Order>[] = [
  {
    name: 'Delivery',
    resourceTypeId: DELIVERY_TYPE_ID,
    locate: (order, action) => partHolding(namedDelivery(order, action)),
    messages: { prefix: 'Delivery', idField: 'deliveryId' },
  },
  {
    // A Delivery's address is a reference Address: Types for `address`.
    name: 'DeliveryAddress',
    resourceTypeId: 'address',
    locate: (order, action) => {
      const delivery = namedDelivery(order, action);
      if (delivery.address === undefined) throw invalidOperation(`The delivery '${delivery.id}' has no address; use setDeliveryAddress first.`);
      return partHolding(delivery.address);
    },
  },
  { name: 'Parcel', resourceTypeId: PARCEL_TYPE_ID, locate: (order, action) => partHolding(namedParcel(order, action).parcel) },
  { name: 'ReturnItem', resourceTypeId: RETURN_ITEM_TYPE_ID, locate: (order, action) => partHolding(namedReturnItem(order, action)) },
  { name: 'LineItem', resourceTypeId: 'line-item', locate: (order, action) => partHolding(namedItem(order.lineItems, action, 'lineItem')) },
  {
    name: 'CustomLineItem',
    resourceTypeId: 'custom-line-item',
    locate: (order, action) => partHolding(namedItem(order.customLineItems, action, 'customLineItem')),
  },
];

export const orderPartCustomFieldActions: ActionHandlers<Order> = Object.assign(
  {},
  ...ORDER_PARTS.map((part) => partCustomFieldActions(part)),
  addressCustomFieldActions<Order>('order'),
  shippingCustomFieldActions<Order>('order'),
) as ActionHandlers<Order>;
