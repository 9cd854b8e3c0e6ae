import { randomUUID } from 'node:crypto';
import { invalidInput, type Clock, type MessagePayload } from '@herald/model';
import { optionalAddress } from '../shared/address.js';
import { customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers, ActionScope } from '../shared/update-actions.js';
import type { Draft } from '../shared/validation.js';
import type { Delivery, Order, Parcel, ShippingInfo } from './order.js';
import { asList, asObject, deliveryItems, optionalMeasurements, optionalTrackingData, optionalUniqueKey } from './values.js';

/*
 * Deliveries and their parcels (reference Order*Delivery*, Order*Parcel* actions and the Delivery*,
 * Parcel* messages). Herald orders ship in `Single` mode: the deliveries are in `shippingInfo`.
 */

/** Custom fields of deliveries and parcels use Types for these resource type ids (reference ResourceTypeId). */
export const DELIVERY_TYPE_ID = 'order-delivery';
export const PARCEL_TYPE_ID = 'order-parcel';

/** Herald has no ShippingMethods, so the ShippingInfo that holds deliveries says so and costs nothing. */
function shippingInfoOf(order: Order): ShippingInfo {
  if (order.shippingInfo === undefined) {
    const zero = { ...order.totalPrice, centAmount: 0 };
    order.shippingInfo = {
      shippingMethodName: 'Herald: no shipping method',
      price: zero,
      shippingRate: { price: zero, tiers: [] },
      shippingMethodState: 'MatchesCart',
      deliveries: [],
    };
  }
  return order.shippingInfo;
}

const deliveriesOf = (order: Order): Delivery[] => order.shippingInfo?.deliveries ?? [];
export const allParcels = (order: Order): Parcel[] => deliveriesOf(order).flatMap((delivery) => delivery.parcels);

/** `shippingKey` names a shipping method of a `Multiple` order; Herald orders have none. */
function assertNoShippingKey(action: Draft): void {
  if (action.shippingKey !== undefined && action.shippingKey !== null) {
    throw invalidInput("'shippingKey' names a shipping of a Multiple-mode order; this order ships in Single mode.", {
      field: 'shippingKey',
      invalidValue: action.shippingKey,
    });
  }
}

/** The delivery an action names by `deliveryId` or `deliveryKey`. */
export function namedDelivery(order: Order, action: Draft): Delivery {
  const { deliveryId: id, deliveryKey: key } = action;
  if (typeof id !== 'string' && typeof key !== 'string') throw invalidInput("Either 'deliveryId' or 'deliveryKey' is required.", { field: 'deliveryId' });
  const found = deliveriesOf(order).find((delivery) => (typeof id === 'string' ? delivery.id === id : delivery.key === key));
  if (found === undefined)
    throw invalidInput(`The order has no delivery with ${typeof id === 'string' ? `id '${id}'` : `key '${String(key)}'`}.`, {
      field: typeof id === 'string' ? 'deliveryId' : 'deliveryKey',
    });
  return found;
}

export interface ParcelDraftPlace {
  /** Where the draft is in the request, for error fields (`parcels[0].`, or '' for the action itself). */
  field: string;
  /** The draft's key field: `key` in a ParcelDraft, `parcelKey` in addParcelToDelivery. */
  keyField: string;
  /** Parcels whose keys are taken (the order's, and those added before in the same action). */
  taken: readonly Parcel[];
  now: string;
}

/** A ParcelDraft (or the parcel fields of addParcelToDelivery) as a Parcel. */
export async function parcelFromDraft(order: Order, draft: Draft, place: ParcelDraftPlace, scope: ActionScope): Promise<Parcel> {
  const { field, keyField } = place;
  const parcel: Parcel = { id: randomUUID(), createdAt: place.now, items: deliveryItems(order, draft.items, `${field}items`) };
  const key = optionalUniqueKey(draft[keyField], `${field}${keyField}`, place.taken);
  if (key !== undefined) parcel.key = key;
  const measurements = optionalMeasurements(draft.measurements, `${field}measurements`);
  if (measurements !== undefined) parcel.measurements = measurements;
  const trackingData = optionalTrackingData(draft.trackingData, `${field}trackingData`);
  if (trackingData !== undefined) parcel.trackingData = trackingData;
  const custom = await customFromDraft(draft.custom, PARCEL_TYPE_ID, scope.ctx);
  if (custom !== undefined) parcel.custom = custom;
  return parcel;
}

/** Reference OrderAddDeliveryAction: DeliveryAdded, and ParcelAddedToDelivery for each parcel it brings. */
function addDelivery(clock: Clock): ActionHandler<Order> {
  return async (order, action, scope): Promise<MessagePayload[]> => {
    assertNoShippingKey(action);
    const now = clock.now().toISOString();
    const delivery: Delivery = { id: randomUUID(), createdAt: now, items: deliveryItems(order, action.items, 'items'), parcels: [] };
    const key = optionalUniqueKey(action.deliveryKey, 'deliveryKey', deliveriesOf(order));
    if (key !== undefined) delivery.key = key;
    const address = optionalAddress(action.address, 'address');
    if (address !== undefined) delivery.address = address;
    const custom = await customFromDraft(action.custom, DELIVERY_TYPE_ID, scope.ctx);
    if (custom !== undefined) delivery.custom = custom;
    for (const [index, entry] of asList(action.parcels, 'parcels').entries()) {
      const place = { field: `parcels[${index}].`, keyField: 'key', taken: [...allParcels(order), ...delivery.parcels], now };
      delivery.parcels.push(await parcelFromDraft(order, asObject(entry, `parcels[${index}]`), place, scope));
    }
    shippingInfoOf(order).deliveries.push(delivery);
    // The delivery as the action leaves it, in each message (parcels included).
    return [
      { type: 'DeliveryAdded', delivery: structuredClone(delivery) },
      ...delivery.parcels.map((parcel) => ({ type: 'ParcelAddedToDelivery', delivery: structuredClone(delivery), parcel })),
    ];
  };
}

const removeDelivery: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const delivery = namedDelivery(order, action);
  shippingInfoOf(order).deliveries = deliveriesOf(order).filter((entry) => entry.id !== delivery.id);
  return [{ type: 'DeliveryRemoved', delivery }];
};

const setDeliveryAddress: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const delivery = namedDelivery(order, action);
  const address = optionalAddress(action.address, 'address');
  const oldAddress = delivery.address;
  if (address === undefined) delete delivery.address;
  else delivery.address = address;
  return [
    { type: 'DeliveryAddressSet', deliveryId: delivery.id, ...(address === undefined ? {} : { address }), ...(oldAddress === undefined ? {} : { oldAddress }) },
  ];
};

const setDeliveryItems: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const delivery = namedDelivery(order, action);
  const items = deliveryItems(order, action.items, 'items', true);
  const oldItems = delivery.items;
  delivery.items = items;
  return [{ type: 'DeliveryItemsUpdated', deliveryId: delivery.id, items, oldItems }];
};

export function deliveryActions(clock: Clock): ActionHandlers<Order> {
  return { addDelivery: addDelivery(clock), removeDelivery, setDeliveryAddress, setDeliveryItems };
}
