import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerWithToken, type Caller } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, sqsDestination, subscribedQueue } from '../subscriptions/support.js';
import { freshOrder, ORDER_SELLER_SCOPES } from './fixtures.js';

const P = 'order-part-deliveries';

/**
 * Issue 29: the messages of the new order actions (DeliveryCustom*, OrderStoreSet,
 * OrderBusinessUnitSet, OrderEstimatedDeliverySet) are message types a subscription may name, and
 * reach an SQS subscription through the outbox like the order's other messages.
 */
describe('orders: the new actions’ messages are delivered', { timeout: 120_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let seller: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [...ORDER_SELLER_SCOPES, 'manage_subscriptions', 'manage_stores']);
    ({ sqs, gateway, admin: seller } = setup);
    await seller.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    const fieldDefinitions = [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }];
    await seller.ok(`/${P}/types`, { key: 'delivery-fields', name: { en: 'Delivery' }, resourceTypeIds: ['order-delivery'], fieldDefinitions }, 201);
  }, 120_000);
  afterAll(() => setup?.close());

  it('a subscription may name the new message types', async () => {
    const types = [
      'DeliveryCustomTypeSet',
      'DeliveryCustomTypeRemoved',
      'DeliveryCustomFieldAdded',
      'DeliveryCustomFieldChanged',
      'DeliveryCustomFieldRemoved',
      'OrderStoreSet',
      'OrderBusinessUnitSet',
      'OrderEstimatedDeliverySet',
    ];
    const queue = sqs.createQueue('named-order-types');
    const subscription = await seller.post(`/${P}/subscriptions`, { destination: sqsDestination(queue), messages: [{ resourceTypeId: 'order', types }] });
    expect(subscription.status, JSON.stringify(subscription.body)).toBe(201);
  });

  it('delivers DeliveryCustomTypeSet, DeliveryCustomFieldAdded and OrderStoreSet with the order change', async () => {
    const queue = await subscribedQueue(sqs, seller, P, 'order');
    const buyer = await customerWithToken(gateway, P, seller, ['manage_my_orders']);
    const order = await freshOrder(P, { seller, buyer });
    const id = order.id as string;
    await seller.update(`/${P}/orders/${id}`, order.version, [
      { action: 'addDelivery', deliveryKey: 'd-1', items: [] },
      { action: 'setDeliveryCustomType', deliveryKey: 'd-1', type: { key: 'delivery-fields' } },
      { action: 'setDeliveryCustomField', deliveryKey: 'd-1', name: 'note', value: 'ring twice' },
      { action: 'setStore', store: { key: 'berlin' } },
    ]);
    const documents = await deliveriesAbout(sqs, queue, id, 7);
    expect(labels(documents)).toEqual(
      [
        `order:${id}:ResourceCreated:1`,
        `order:${id}:Message:OrderCreated:1`,
        `order:${id}:ResourceUpdated:2`,
        `order:${id}:Message:DeliveryAdded:2`,
        `order:${id}:Message:DeliveryCustomTypeSet:3`,
        `order:${id}:Message:DeliveryCustomFieldAdded:4`,
        `order:${id}:Message:OrderStoreSet:5`,
      ].sort(),
    );
    const added = documents.map(payloadOf).find((payload) => payload.type === 'DeliveryCustomFieldAdded');
    expect(added).toMatchObject({ name: 'note', value: 'ring twice', deliveryId: expect.any(String) as unknown });
  });
});
