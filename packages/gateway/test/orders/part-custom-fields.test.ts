import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freshOrder, messagesOf, orderParties, type OrderParties } from './fixtures.js';

const P = 'order-part-custom';

/** Every part of an order that has custom fields, with the official resource type id its Types list (types/type/ResourceTypeId.raml). */
const PART_TYPE_IDS = ['order-delivery', 'order-parcel', 'order-return-item', 'line-item', 'custom-line-item', 'address', 'shipping'];

/**
 * Issue 29: the reference's Order Set<Part>CustomType / Set<Part>CustomField actions, through
 * HTTP: each part found by its locator, its Type checked for the part's resource type id, its
 * fields validated like a resource's own; Delivery* messages for deliveries, none for the rest.
 */
describe('orders: custom fields on the parts of an order', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let parties: OrderParties;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await orderParties(gateway, P);
    const fieldDefinitions = [
      { name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } },
      { name: 'count', label: { en: 'Count' }, required: false, type: { name: 'Number' } },
    ];
    await parties.seller.ok(`/${P}/types`, { key: 'part-fields', name: { en: 'Part fields' }, resourceTypeIds: PART_TYPE_IDS, fieldDefinitions }, 201);
    await parties.seller.ok(`/${P}/types`, { key: 'order-only', name: { en: 'Order fields' }, resourceTypeIds: ['order'], fieldDefinitions }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  const url = (order: Json) => `/${P}/orders/${order.id as string}`;
  const partType = { typeId: 'type', key: 'part-fields' };

  /** An order with a delivery (with an address) holding a parcel, a return item and an item shipping address. */
  async function orderWithParts(): Promise<Json> {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const lineItemId = order.lineItems[0].id as string;
    return seller.update(url(order), order.version, [
      { action: 'addDelivery', deliveryKey: 'd-1', items: [{ id: lineItemId, quantity: 1 }], address: { country: 'DE' }, parcels: [{ key: 'p-1' }] },
      { action: 'addReturnInfo', items: [{ key: 'r-1', lineItemId, quantity: 1, shipmentState: 'Advised' }] },
      { action: 'addItemShippingAddress', address: { key: 'office', country: 'DE', city: 'Berlin' } },
      { action: 'setBillingAddress', address: { country: 'DE', city: 'Hamburg' } },
    ]);
  }

  /** The `custom` of each part, in the order of PART_LOCATORS. */
  const customsOf = (order: Json): unknown[] => {
    const delivery = order.shippingInfo.deliveries[0];
    return [
      delivery.custom,
      delivery.address.custom,
      delivery.parcels[0].custom,
      order.returnInfo[0].items[0].custom,
      order.lineItems[0].custom,
      order.customLineItems[0].custom,
      order.billingAddress.custom,
      order.shippingAddress.custom,
      order.itemShippingAddresses[0].custom,
      order.shippingCustomFields,
    ];
  };

  /** Each part's action name and the locator fields that name it on the order of orderWithParts. */
  const PART_LOCATORS: [string, Json][] = [
    ['Delivery', { deliveryKey: 'd-1' }],
    ['DeliveryAddress', { deliveryKey: 'd-1' }],
    ['Parcel', { parcelKey: 'p-1' }],
    ['ReturnItem', { returnItemKey: 'r-1' }],
    ['LineItem', { lineItemKey: 'li-1' }],
    ['CustomLineItem', { customLineItemKey: 'cli-1' }],
    ['BillingAddress', {}],
    ['ShippingAddress', {}],
    ['ItemShippingAddress', { addressKey: 'office' }],
    ['Shipping', {}],
  ];

  it('sets, changes and removes the custom type and fields of every part', async () => {
    const { seller } = parties;
    const order = await orderWithParts();
    const typed = await seller.update(
      url(order),
      order.version,
      PART_LOCATORS.map(([part, locator]) => ({ action: `set${part}CustomType`, ...locator, type: partType, fields: { note: part } })),
    );
    const typeId = typed.shippingInfo.deliveries[0].custom.type.id as string;
    expect(customsOf(typed)).toEqual(PART_LOCATORS.map(([part]) => ({ type: { typeId: 'type', id: typeId }, fields: { note: part } })));

    const fielded = await seller.update(
      url(order),
      typed.version,
      PART_LOCATORS.flatMap(([part, locator]) => [
        { action: `set${part}CustomField`, ...locator, name: 'count', value: 2 },
        { action: `set${part}CustomField`, ...locator, name: 'note' },
      ]),
    );
    expect(customsOf(fielded)).toEqual(PART_LOCATORS.map(() => ({ type: { typeId: 'type', id: typeId }, fields: { count: 2 } })));

    const removed = await seller.update(
      url(order),
      fielded.version,
      PART_LOCATORS.map(([part, locator]) => ({ action: `set${part}CustomType`, ...locator })),
    );
    expect(customsOf(removed)).toEqual(PART_LOCATORS.map(() => undefined));
  });

  it('records the Delivery* messages for a delivery (with its id and the previous type or value), none for the other parts', async () => {
    const { seller } = parties;
    const order = await orderWithParts();
    const deliveryId = order.shippingInfo.deliveries[0].id as string;
    const before = (await messagesOf(seller, P, order.id)).length;
    const others = PART_LOCATORS.filter(([part]) => part !== 'Delivery');
    await seller.update(url(order), order.version, [
      { action: 'setDeliveryCustomType', deliveryId, type: partType, fields: { note: 'fragile' } },
      { action: 'setDeliveryCustomField', deliveryKey: 'd-1', name: 'count', value: 1 },
      { action: 'setDeliveryCustomField', deliveryKey: 'd-1', name: 'count', value: 2 },
      { action: 'setDeliveryCustomField', deliveryKey: 'd-1', name: 'note' },
      ...others.map(([part, locator]) => ({ action: `set${part}CustomType`, ...locator, type: partType })),
      ...others.map(([part, locator]) => ({ action: `set${part}CustomField`, ...locator, name: 'count', value: 1 })),
      { action: 'setDeliveryCustomType', deliveryKey: 'd-1' },
    ]);
    const messages = (await messagesOf(seller, P, order.id)).slice(before);
    const typeId = (await seller.read(`/${P}/types/key=part-fields`)).id as string;
    expect(
      messages.map(({ type, deliveryId: id, name, value, previousValue, previousTypeId, customFields }) => ({
        type,
        id,
        name,
        value,
        previousValue,
        previousTypeId,
        customFields,
      })),
    ).toEqual([
      { type: 'DeliveryCustomTypeSet', id: deliveryId, customFields: { type: { typeId: 'type', id: typeId }, fields: { note: 'fragile' } } },
      { type: 'DeliveryCustomFieldAdded', id: deliveryId, name: 'count', value: 1 },
      { type: 'DeliveryCustomFieldChanged', id: deliveryId, name: 'count', value: 2, previousValue: 1 },
      { type: 'DeliveryCustomFieldRemoved', id: deliveryId, name: 'note' },
      { type: 'DeliveryCustomTypeRemoved', id: deliveryId, previousTypeId: typeId },
    ]);
  });

  it('refuses a part that is not there, a Type for another resource type, and a field the Type does not allow, with a 400 naming the field', async () => {
    const { seller } = parties;
    const order = await orderWithParts();
    const bare = await freshOrder(P, parties);
    const refusals: [Json, Json, string, string?][] = [
      [order, { action: 'setDeliveryCustomType', deliveryKey: 'no-such-delivery', type: partType }, 'InvalidInput', 'deliveryKey'],
      [order, { action: 'setDeliveryCustomType', type: partType }, 'InvalidInput', 'deliveryId'],
      [order, { action: 'setParcelCustomField', parcelId: 'no-such-parcel', name: 'note', value: 'x' }, 'InvalidInput', 'parcelId'],
      [order, { action: 'setReturnItemCustomType', returnItemKey: 'no-such-item', type: partType }, 'InvalidInput', 'returnItemKey'],
      [order, { action: 'setLineItemCustomType', lineItemId: 'no-such-item', type: partType }, 'InvalidInput', 'lineItemId'],
      [order, { action: 'setCustomLineItemCustomType', customLineItemKey: 'no-such-item', type: partType }, 'InvalidInput', 'customLineItemKey'],
      [order, { action: 'setItemShippingAddressCustomType', addressKey: 'no-such-address', type: partType }, 'InvalidInput', 'addressKey'],
      [order, { action: 'setItemShippingAddressCustomType', type: partType }, 'InvalidInput', 'addressKey'],
      [order, { action: 'setParcelCustomType', parcelKey: 'p-1', type: { typeId: 'type', key: 'order-only' } }, 'InvalidInput', 'type'],
      [order, { action: 'setParcelCustomType', parcelKey: 'p-1', type: partType, fields: { note: 7 } }, 'InvalidInput', 'note'],
      [order, { action: 'setParcelCustomType', parcelKey: 'p-1', type: partType, fields: { unknown: 'x' } }, 'InvalidInput', 'unknown'],
      [order, { action: 'setParcelCustomField', parcelKey: 'p-1', name: 'note', value: 'no type yet' }, 'InvalidInput'],
      [order, { action: 'setShippingCustomType', shippingKey: 'express', type: partType }, 'InvalidOperation'],
      [bare, { action: 'setBillingAddressCustomType', type: partType }, 'InvalidOperation'],
      [bare, { action: 'setShippingCustomType', type: partType }, 'InvalidOperation'],
    ];
    for (const [target, action, code, field] of refusals) {
      const answer = await seller.post(url(target), { version: target.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0], JSON.stringify(action)).toMatchObject({ code, ...(field === undefined ? {} : { field }) });
    }
  });

  it('a new shipping address replaces the old one, custom fields and all', async () => {
    const { seller } = parties;
    const order = await orderWithParts();
    const typed = await seller.update(url(order), order.version, [
      { action: 'setShippingAddressCustomType', type: partType, fields: { note: 'ring twice' } },
      { action: 'setShippingAddress', address: { country: 'AT' } },
    ]);
    // A new address replaces the old one with its custom fields (OrderSetShippingAddressAction).
    expect(typed.shippingAddress).toEqual({ country: 'AT' });
  });
});
