import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken, type Caller, type Json } from '../carts/commerce.js';
import { freshOrder, ORDER_SELLER_SCOPES } from '../orders/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'order-edit-parts';

/**
 * Issue 29: the order actions on the parts of an order are staged actions of order edits too
 * (StagedOrderSetDeliveryCustomFieldAction, StagedOrderSetStoreAction, …): previewed with their
 * messages and applied to the order.
 */
describe('order edits stage the custom fields of an order’s parts and its store', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let seller: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    seller = await callerWith(gateway, P, [...ORDER_SELLER_SCOPES, 'manage_order_edits', 'manage_stores']);
    await seller.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    const fieldDefinitions = [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }];
    await seller.ok(`/${P}/types`, { key: 'delivery-fields', name: { en: 'Delivery' }, resourceTypeIds: ['order-delivery'], fieldDefinitions }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  it('previews and applies setDeliveryCustomField and setStore', async () => {
    const buyer = await customerWithToken(gateway, P, seller, ['manage_my_orders']);
    const order = await freshOrder(P, { seller, buyer });
    const withDelivery = await seller.update(`/${P}/orders/${order.id as string}`, order.version, [
      { action: 'addDelivery', deliveryKey: 'd-1', items: [], custom: { type: { key: 'delivery-fields' }, fields: {} } },
    ]);
    const deliveryId = withDelivery.shippingInfo.deliveries[0].id as string;
    const edit = await seller.ok(
      `/${P}/order-edits`,
      {
        resource: { typeId: 'order', id: order.id },
        stagedActions: [
          { action: 'setDeliveryCustomField', deliveryKey: 'd-1', name: 'note', value: 'leave at the door' },
          { action: 'setStore', store: { key: 'berlin' } },
        ],
      },
      201,
    );
    expect(edit.result.type, JSON.stringify(edit.result)).toBe('PreviewSuccess');
    expect(edit.result.preview.shippingInfo.deliveries[0].custom.fields).toEqual({ note: 'leave at the door' });
    expect(edit.result.messagePayloads).toEqual([
      { type: 'DeliveryCustomFieldAdded', deliveryId, name: 'note', value: 'leave at the door' },
      { type: 'OrderStoreSet', store: { typeId: 'store', key: 'berlin' } },
    ]);

    await seller.ok(`/${P}/order-edits/${edit.id as string}/apply`, { editVersion: edit.version, resourceVersion: withDelivery.version });
    const applied: Json = await seller.read(`/${P}/orders/${order.id as string}`);
    expect(applied.shippingInfo.deliveries[0].custom.fields).toEqual({ note: 'leave at the door' });
    expect(applied.store).toEqual({ typeId: 'store', key: 'berlin' });
  });
});
