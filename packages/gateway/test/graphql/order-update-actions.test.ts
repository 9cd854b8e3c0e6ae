import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import { freshOrder, messagesOf, ORDER_SELLER_SCOPES, orderParties, type OrderParties } from '../orders/fixtures.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'graphql-order-updates';

/**
 * Issue 29: GraphQL's OrderUpdateAction has every REST order action (orders/actions.ts), with the
 * same handlers: setStore, setBusinessUnit, addPayment, setEstimatedDelivery, the shipping-target
 * deltas and the Set<Part>Custom{Type,Field} actions of the order's parts, whose JSON-encoded
 * custom field values GraphQL sends as strings. The order is read back through REST.
 */
describe('GraphQL: updateOrder with every REST order action', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let parties: OrderParties;
  let seller: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await orderParties(gateway, P);
    seller = await callerWith(gateway, P, [...ORDER_SELLER_SCOPES, 'manage_stores', 'manage_business_units', 'manage_payments']);
    const fieldDefinitions = [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }];
    const resourceTypeIds = ['order-delivery', 'line-item', 'address', 'order-parcel'];
    await seller.ok(`/${P}/types`, { key: 'part-fields', name: { en: 'Part fields' }, resourceTypeIds, fieldDefinitions }, 201);
    await seller.ok(`/${P}/stores`, { key: 'berlin', name: { en: 'Berlin' } }, 201);
    await seller.ok(`/${P}/business-units`, { key: 'acme', name: 'Acme', unitType: 'Company' }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  const UPDATE = `mutation ($id: String!, $version: Long!, $actions: [OrderUpdateAction!]!) {
    updateOrder(id: $id, version: $version, actions: $actions) { id version storeRef { key } businessUnitRef { key } }
  }`;

  async function graphql(actions: Json[], order: Json): Promise<Json> {
    const payload = { query: UPDATE, variables: { id: order.id, version: order.version, actions } };
    const response = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(seller.token), payload });
    return { status: response.statusCode, ...(response.json() as Json) };
  }

  /** The updated order as REST shows it; the mutation must have answered without errors. */
  async function updated(order: Json, actions: Json[]): Promise<Json> {
    const answer = await graphql(actions, order);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.updateOrder.version).toBeGreaterThan(order.version as number);
    return seller.read(`/${P}/orders/${order.id as string}`);
  }

  it('moves an order to a store and a business unit, and adds a payment', async () => {
    const order = await freshOrder(P, parties);
    const payment = await seller.ok(`/${P}/payments`, { amountPlanned: eur(3200) }, 201);
    const answer = await graphql(
      [{ setStore: { store: { key: 'berlin' } } }, { setBusinessUnit: { businessUnit: { key: 'acme' } } }, { addPayment: { payment: { id: payment.id } } }],
      order,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.updateOrder).toMatchObject({ storeRef: { key: 'berlin' }, businessUnitRef: { key: 'acme' } });
    const after = await seller.read(`/${P}/orders/${order.id as string}`);
    expect(after.paymentInfo).toEqual({ payments: [{ typeId: 'payment', id: payment.id }] });
    const types = (await messagesOf(seller, P, order.id as string)).map((message) => message.type);
    expect(types).toEqual(expect.arrayContaining(['OrderStoreSet', 'OrderBusinessUnitSet', 'OrderPaymentAdded']));
  });

  it('sets custom types and JSON-encoded fields on a line item, the shipping address and a delivery', async () => {
    const order = await freshOrder(P, parties);
    const lineItemId = order.lineItems[0].id as string;
    const type = { typeKey: 'part-fields' };
    const after = await updated(order, [
      { addDelivery: { deliveryKey: 'd-1', items: [{ id: lineItemId, quantity: 1 }], parcels: [{ key: 'p-1' }] } },
      { setLineItemCustomType: { lineItemKey: 'li-1', ...type, fields: [{ name: 'note', value: '"fragile"' }] } },
      { setShippingAddressCustomType: { ...type } },
      { setShippingAddressCustomField: { name: 'note', value: '"back door"' } },
      { setDeliveryCustomType: { deliveryKey: 'd-1', ...type } },
      { setDeliveryCustomField: { deliveryKey: 'd-1', name: 'note', value: '"first"' } },
      { setParcelCustomType: { parcelKey: 'p-1', ...type, fields: [{ name: 'note', value: '"top"' }] } },
    ]);
    expect(after.lineItems[0].custom.fields).toEqual({ note: 'fragile' });
    expect(after.shippingAddress.custom.fields).toEqual({ note: 'back door' });
    const delivery = after.shippingInfo.deliveries[0];
    expect(delivery.custom.fields).toEqual({ note: 'first' });
    expect(delivery.parcels[0].custom.fields).toEqual({ note: 'top' });
    const types = (await messagesOf(seller, P, order.id as string)).map((message) => message.type);
    expect(types).toEqual(expect.arrayContaining(['DeliveryCustomTypeSet', 'DeliveryCustomFieldAdded']));
  });

  it('adds an item shipping address, sets its custom fields and ships a line item there by deltas', async () => {
    const order = await freshOrder(P, parties);
    const after = await updated(order, [
      { addItemShippingAddress: { address: { key: 'office', country: 'DE' } } },
      { setItemShippingAddressCustomType: { addressKey: 'office', typeKey: 'part-fields', fields: [{ name: 'note', value: '"reception"' }] } },
      { applyDeltaToLineItemShippingDetailsTargets: { lineItemKey: 'li-1', targetsDelta: [{ addressKey: 'office', quantity: 2 }] } },
      { applyDeltaToLineItemShippingDetailsTargets: { lineItemKey: 'li-1', targetsDelta: [{ addressKey: 'office', quantity: -1 }] } },
    ]);
    expect(after.itemShippingAddresses[0]).toMatchObject({ key: 'office', custom: { fields: { note: 'reception' } } });
    expect(after.lineItems[0].shippingDetails.targets).toEqual([{ addressKey: 'office', quantity: 1 }]);
  });

  it("answers a REST handler's refusal in the spec's error codes: setEstimatedDelivery without a shipping method, a bad custom field value", async () => {
    const order = await freshOrder(P, parties);
    const estimated = await graphql([{ setEstimatedDelivery: { estimatedDelivery: { from: '2030-01-01T00:00:00.000Z' } } }], order);
    expect(estimated.errors?.[0]?.extensions).toMatchObject({ code: 'InvalidOperation' });
    const malformed = await graphql([{ setLineItemCustomField: { lineItemKey: 'li-1', name: 'note', value: 'not json' } }], order);
    expect(malformed.errors?.[0]?.extensions).toMatchObject({ code: 'InvalidInput' });
    expect((await seller.read(`/${P}/orders/${order.id as string}`)).version).toBe(order.version);
  });
});
