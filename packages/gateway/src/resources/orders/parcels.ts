import { invalidInput, type Clock, type MessagePayload } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Draft } from '../shared/validation.js';
import { allParcels, namedDelivery, parcelFromDraft } from './deliveries.js';
import type { Delivery, Order, Parcel } from './order.js';
import { deliveryItems, optionalMeasurements, optionalTrackingData } from './values.js';

/** The parcel an action names by `parcelId` or `parcelKey`, with the delivery that holds it. */
export function namedParcel(order: Order, action: Draft): { delivery: Delivery; parcel: Parcel } {
  const { parcelId: id, parcelKey: key } = action;
  if (typeof id !== 'string' && typeof key !== 'string') throw invalidInput("Either 'parcelId' or 'parcelKey' is required.", { field: 'parcelId' });
  for (const delivery of order.shippingInfo?.deliveries ?? []) {
    const parcel = delivery.parcels.find((entry) => (typeof id === 'string' ? entry.id === id : entry.key === key));
    if (parcel !== undefined) return { delivery, parcel };
  }
  throw invalidInput(`The order has no parcel with ${typeof id === 'string' ? `id '${id}'` : `key '${String(key)}'`}.`, {
    field: typeof id === 'string' ? 'parcelId' : 'parcelKey',
  });
}

/** Reference OrderAddParcelToDeliveryAction → ParcelAddedToDelivery {delivery, parcel}. */
function addParcelToDelivery(clock: Clock): ActionHandler<Order> {
  return async (order, action, scope): Promise<MessagePayload[]> => {
    const delivery = namedDelivery(order, action);
    const place = { field: '', keyField: 'parcelKey', taken: allParcels(order), now: clock.now().toISOString() };
    const parcel = await parcelFromDraft(order, action, place, scope);
    delivery.parcels.push(parcel);
    return [{ type: 'ParcelAddedToDelivery', delivery: structuredClone(delivery), parcel }];
  };
}

const removeParcelFromDelivery: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const { delivery, parcel } = namedParcel(order, action);
  delivery.parcels = delivery.parcels.filter((entry) => entry.id !== parcel.id);
  return [{ type: 'ParcelRemovedFromDelivery', deliveryId: delivery.id, parcel }];
};

const setParcelMeasurements: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const { delivery, parcel } = namedParcel(order, action);
  const measurements = optionalMeasurements(action.measurements, 'measurements');
  if (measurements === undefined) delete parcel.measurements;
  else parcel.measurements = measurements;
  return [{ type: 'ParcelMeasurementsUpdated', deliveryId: delivery.id, parcelId: parcel.id, ...(measurements === undefined ? {} : { measurements }) }];
};

const setParcelTrackingData: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const { delivery, parcel } = namedParcel(order, action);
  const trackingData = optionalTrackingData(action.trackingData, 'trackingData');
  if (trackingData === undefined) delete parcel.trackingData;
  else parcel.trackingData = trackingData;
  return [{ type: 'ParcelTrackingDataUpdated', deliveryId: delivery.id, parcelId: parcel.id, ...(trackingData === undefined ? {} : { trackingData }) }];
};

const setParcelItems: ActionHandler<Order> = (order, action): MessagePayload[] => {
  const { delivery, parcel } = namedParcel(order, action);
  const items = deliveryItems(order, action.items, 'items', true);
  const oldItems = parcel.items;
  parcel.items = items;
  return [{ type: 'ParcelItemsUpdated', parcelId: parcel.id, deliveryId: delivery.id, items, oldItems }];
};

export function parcelActions(clock: Clock): ActionHandlers<Order> {
  return { addParcelToDelivery: addParcelToDelivery(clock), removeParcelFromDelivery, setParcelMeasurements, setParcelTrackingData, setParcelItems };
}
