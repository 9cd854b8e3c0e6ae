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
 * Parcel* messages). A `Single` order's deliveries are in `shippingInfo`; a `Multiple` order's in
 * the ShippingInfo of each Shipping (reference Shipping), which actions name by `shippingKey`.
 */

/** Custom fields of deliveries and parcels use Types for these resource type ids (reference ResourceTypeId). */
export const DELIVERY_TYPE_ID = 'order-delivery';
export const PARCEL_TYPE_ID = 'order-parcel';

/** What a delivery's items may name: the (custom) line items of an order, or of a cart for a ShippingDraft's deliveries. */
type ItemHolder = Pick<Order, 'lineItems' | 'customLineItems'>;

/** Herald's `Single` orders may have no ShippingMethod, so the ShippingInfo that holds deliveries says so and costs nothing. */
function singleShippingInfo(order: Order): ShippingInfo {
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

/** Every ShippingInfo of the order that can hold deliveries. */
function shippingInfos(order: Order): ShippingInfo[] {
  if (order.shippingMode === 'Multiple') return order.shipping.map((shipping) => shipping.shippingInfo);
  return order.shippingInfo === undefined ? [] : [order.shippingInfo];
}

const deliveriesOf = (order: Order): Delivery[] => shippingInfos(order).flatMap((info) => info.deliveries);
export const allParcels = (order: Order): Parcel[] => deliveriesOf(order).flatMap((delivery) => delivery.parcels);

/**
 * Where addDelivery puts the delivery. OrderAddDeliveryAction.shippingKey: "required for `Multiple`
 * ShippingMode"; a `Single` order has no Shipping to name.
 */
function shippingForDelivery(order: Order, action: Draft): { info: ShippingInfo; shippingKey?: string } {
  const key = action.shippingKey;
  const given = key !== undefined && key !== null;
  if (order.shippingMode !== 'Multiple') {
    if (given)
      throw invalidInput("'shippingKey' names a shipping of a Multiple-mode order; this order ships in Single mode.", {
        field: 'shippingKey',
        invalidValue: key,
      });
    return { info: singleShippingInfo(order) };
  }
  if (!given) throw invalidInput("'shippingKey' is required for an order with the Multiple shipping mode.", { field: 'shippingKey' });
  const shipping = order.shipping.find((entry) => entry.shippingKey === key);
  if (shipping === undefined) throw invalidInput(`The order has no shipping with the key '${String(key)}'.`, { field: 'shippingKey', invalidValue: key });
  return { info: shipping.shippingInfo, shippingKey: shipping.shippingKey };
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
export async function parcelFromDraft(order: ItemHolder, draft: Draft, place: ParcelDraftPlace, scope: Pick<ActionScope, 'ctx'>): Promise<Parcel> {
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

/** Where a delivery draft is: the prefix of its fields, its key field, the deliveries whose keys are taken. */
export interface DeliveryDraftPlace {
  field: string;
  /** `deliveryKey` in OrderAddDeliveryAction, `key` in a DeliveryDraft (ShippingDraft.deliveries). */
  keyField: string;
  taken: readonly Delivery[];
  parcelsTaken: readonly Parcel[];
  now: string;
}

/** A DeliveryDraft (or the delivery fields of addDelivery) as a Delivery with its parcels. */
export async function deliveryFromDraft(holder: ItemHolder, draft: Draft, place: DeliveryDraftPlace, scope: Pick<ActionScope, 'ctx'>): Promise<Delivery> {
  const { field, now } = place;
  const delivery: Delivery = { id: randomUUID(), createdAt: now, items: deliveryItems(holder, draft.items, `${field}items`), parcels: [] };
  const key = optionalUniqueKey(draft[place.keyField], `${field}${place.keyField}`, place.taken);
  if (key !== undefined) delivery.key = key;
  const address = optionalAddress(draft.address, `${field}address`);
  if (address !== undefined) delivery.address = address;
  const custom = await customFromDraft(draft.custom, DELIVERY_TYPE_ID, scope.ctx);
  if (custom !== undefined) delivery.custom = custom;
  for (const [index, entry] of asList(draft.parcels, `${field}parcels`).entries()) {
    const at = `${field}parcels[${index}]`;
    const parcelPlace = { field: `${at}.`, keyField: 'key', taken: [...place.parcelsTaken, ...delivery.parcels], now };
    delivery.parcels.push(await parcelFromDraft(holder, asObject(entry, at), parcelPlace, scope));
  }
  return delivery;
}

/** Reference OrderAddDeliveryAction: DeliveryAdded (with the `shippingKey` of a `Multiple` order), and ParcelAddedToDelivery for each parcel it brings. */
function addDelivery(clock: Clock): ActionHandler<Order> {
  return async (order, action, scope): Promise<MessagePayload[]> => {
    const target = shippingForDelivery(order, action);
    const place = { field: '', keyField: 'deliveryKey', taken: deliveriesOf(order), parcelsTaken: allParcels(order), now: clock.now().toISOString() };
    const delivery = await deliveryFromDraft(order, action, place, scope);
    target.info.deliveries.push(delivery);
    const shippingKey = target.shippingKey === undefined ? {} : { shippingKey: target.shippingKey };
    // The delivery as the action leaves it, in each message (parcels included).
    return [
      { type: 'DeliveryAdded', delivery: structuredClone(delivery), ...shippingKey },
      ...delivery.parcels.map((parcel) => ({ type: 'ParcelAddedToDelivery', delivery: structuredClone(delivery), parcel, ...shippingKey })),
    ];
  };
}

const removeDelivery: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const delivery = namedDelivery(order, action);
  for (const info of shippingInfos(order)) info.deliveries = info.deliveries.filter((entry) => entry.id !== delivery.id);
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
