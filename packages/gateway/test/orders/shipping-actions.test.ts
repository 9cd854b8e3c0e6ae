import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freshOrder, messagesOf, orderParties, type OrderParties } from './fixtures.js';

const P = 'order-shipping';

/**
 * Issue 27: the reference's delivery and parcel update actions of orders, through HTTP, with
 * their official messages (DeliveryAdded, ParcelAddedToDelivery, …) and payload fields.
 */
describe('orders: deliveries and parcels', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let parties: OrderParties;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await orderParties(gateway, P);
  }, 120_000);
  afterAll(() => gateway?.close());

  const url = (order: Json) => `/${P}/orders/${order.id as string}`;

  it('adds a delivery with a parcel, edits both, removes them, each with its message', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const [lineItemId, customLineItemId] = [order.lineItems[0].id as string, order.customLineItems[0].id as string];
    let current = await seller.update(url(order), order.version, [
      {
        action: 'addDelivery',
        deliveryKey: 'first-delivery',
        items: [{ id: lineItemId, quantity: 2 }],
        address: { country: 'DE', city: 'Berlin' },
        parcels: [{ key: 'box-1', measurements: { weightInGram: 1200 }, items: [{ id: lineItemId, quantity: 2 }] }],
      },
    ]);
    const delivery = current.shippingInfo.deliveries[0];
    expect(delivery).toMatchObject({ key: 'first-delivery', items: [{ id: lineItemId, quantity: 2 }], address: { country: 'DE', city: 'Berlin' } });
    expect(delivery.parcels).toMatchObject([{ key: 'box-1', measurements: { weightInGram: 1200 }, items: [{ id: lineItemId, quantity: 2 }] }]);
    expect(current.shippingInfo.price.centAmount).toBe(0);
    expect(current.totalPrice).toEqual(order.totalPrice);

    current = await seller.update(url(order), current.version, [
      {
        action: 'addParcelToDelivery',
        deliveryKey: 'first-delivery',
        parcelKey: 'box-2',
        trackingData: { trackingId: 'T-1', carrier: 'DHL' },
        items: [{ id: customLineItemId, quantity: 1 }],
      },
      { action: 'setParcelMeasurements', parcelKey: 'box-2', measurements: { heightInMillimeter: 100, weightInGram: 50 } },
      { action: 'setParcelTrackingData', parcelKey: 'box-1', trackingData: { trackingId: 'T-0', isReturn: false } },
      { action: 'setParcelItems', parcelKey: 'box-1', items: [{ id: lineItemId, quantity: 1 }] },
      {
        action: 'setDeliveryItems',
        deliveryId: delivery.id,
        items: [
          { id: lineItemId, quantity: 3 },
          { id: customLineItemId, quantity: 1 },
        ],
      },
      { action: 'setDeliveryAddress', deliveryKey: 'first-delivery', address: { country: 'AT' } },
    ]);
    const edited = current.shippingInfo.deliveries[0];
    expect(edited.parcels.map((parcel: Json) => [parcel.key, parcel.measurements, parcel.trackingData, parcel.items])).toEqual([
      ['box-1', { weightInGram: 1200 }, { trackingId: 'T-0', isReturn: false }, [{ id: lineItemId, quantity: 1 }]],
      ['box-2', { heightInMillimeter: 100, weightInGram: 50 }, { trackingId: 'T-1', carrier: 'DHL' }, [{ id: customLineItemId, quantity: 1 }]],
    ]);
    expect(edited.address).toEqual({ country: 'AT' });

    current = await seller.update(url(order), current.version, [
      { action: 'removeParcelFromDelivery', parcelKey: 'box-2' },
      { action: 'removeDelivery', deliveryKey: 'first-delivery' },
    ]);
    expect(current.shippingInfo.deliveries).toEqual([]);

    const messages = await messagesOf(seller, P, order.id);
    expect(messages.map((message) => message.type)).toEqual([
      'OrderCreated',
      'DeliveryAdded',
      'ParcelAddedToDelivery',
      'ParcelAddedToDelivery',
      'ParcelMeasurementsUpdated',
      'ParcelTrackingDataUpdated',
      'ParcelItemsUpdated',
      'DeliveryItemsUpdated',
      'DeliveryAddressSet',
      'ParcelRemovedFromDelivery',
      'DeliveryRemoved',
    ]);
    expect(messages.map((message) => message.sequenceNumber)).toEqual(messages.map((_message, index) => index + 1));
    const byType = (type: string) => messages.filter((message) => message.type === type);
    expect(byType('ParcelItemsUpdated')[0]).toMatchObject({
      deliveryId: delivery.id,
      items: [{ id: lineItemId, quantity: 1 }],
      oldItems: [{ id: lineItemId, quantity: 2 }],
    });
    expect(byType('DeliveryAddressSet')[0]).toMatchObject({
      deliveryId: delivery.id,
      address: { country: 'AT' },
      oldAddress: { country: 'DE', city: 'Berlin' },
    });
    expect(byType('DeliveryAdded')[0]?.delivery).toMatchObject({ id: delivery.id, key: 'first-delivery', parcels: [{ key: 'box-1' }] });
    expect(byType('ParcelAddedToDelivery')[0]).toMatchObject({ delivery: { id: delivery.id, parcels: [{ key: 'box-1' }] }, parcel: { key: 'box-1' } });
    expect(byType('ParcelAddedToDelivery')[1]).toMatchObject({ delivery: { id: delivery.id }, parcel: { key: 'box-2' } });
  });

  it('refuses unknown items, deliveries, parcels and taken keys with a 400, changing nothing', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const lineItemId = order.lineItems[0].id as string;
    const withDelivery = await seller.update(url(order), order.version, [{ action: 'addDelivery', deliveryKey: 'd-1', parcels: [{ key: 'p-1' }] }]);
    const refusals: Array<[Json, string]> = [
      [{ action: 'addDelivery', items: [{ id: 'no-such-item', quantity: 1 }] }, 'items[0].id'],
      [{ action: 'addDelivery', items: [{ id: lineItemId, quantity: -1 }] }, 'items[0].quantity'],
      [{ action: 'addDelivery', deliveryKey: 'd-1' }, 'deliveryKey'],
      [{ action: 'addDelivery', shippingKey: 'express' }, 'shippingKey'],
      [{ action: 'addParcelToDelivery', deliveryKey: 'd-1', parcelKey: 'p-1' }, 'parcelKey'],
      [{ action: 'setDeliveryAddress', deliveryKey: 'no-such-delivery', address: { country: 'DE' } }, 'deliveryKey'],
      [{ action: 'removeDelivery' }, 'deliveryId'],
      [{ action: 'setParcelMeasurements', parcelId: 'no-such-parcel', measurements: {} }, 'parcelId'],
      [{ action: 'setParcelMeasurements', parcelKey: 'p-1', measurements: { weightInGram: 1.5 } }, 'measurements.weightInGram'],
      [{ action: 'setParcelTrackingData', parcelKey: 'p-1', trackingData: { isReturn: 'yes' } }, 'trackingData.isReturn'],
    ];
    for (const [action, field] of refusals) {
      const answer = await seller.post(url(order), { version: withDelivery.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0], JSON.stringify(action)).toMatchObject({ code: 'InvalidInput', field });
    }
    expect((await seller.read(url(order))).version).toBe(withDelivery.version);
  });
});
