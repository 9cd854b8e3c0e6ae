/**
 * Issue 29, payments of orders (reference: types/order/OrderAddPaymentAction, OrderRemovePaymentAction,
 * PaymentInfo; messages OrderPaymentAdded, OrderPaymentRemoved): `paymentInfo.payments` holds
 * references to existing payments, expandable; both actions send their messages, delivered to an
 * SQS subscription with the order's change notifications; an order edit stages them too.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerWithToken, eur, type Caller } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';
import { freshOrder, messagesOf, ORDER_SELLER_SCOPES, type OrderParties } from './fixtures.js';

const P = 'order-payments';

describe('payments of orders', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let seller: Caller;
  let parties: OrderParties;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [...ORDER_SELLER_SCOPES, 'manage_payments', 'manage_order_edits', 'manage_subscriptions']);
    ({ sqs, gateway, admin: seller } = setup);
    parties = { seller, buyer: await customerWithToken(gateway, P, seller, ['manage_my_orders']) };
  }, 180_000);
  afterAll(() => setup?.close());

  const newPayment = (key: string) => seller.ok(`/${P}/payments`, { key, amountPlanned: eur(3200) }, 201);

  it('adds and removes payments with their messages; paymentInfo.payments expands', async () => {
    const queue = await subscribedQueue(sqs, seller, P, 'order');
    const order = await freshOrder(P, parties);
    const first = await newPayment('first-payment');
    const second = await newPayment('second-payment');

    let current = await seller.update(`/${P}/orders/${order.id}`, 1, [
      { action: 'addPayment', payment: { typeId: 'payment', id: first.id } },
      { action: 'addPayment', payment: { key: 'second-payment' } },
    ]);
    expect(current.paymentInfo).toEqual({
      payments: [
        { typeId: 'payment', id: first.id },
        { typeId: 'payment', id: second.id },
      ],
    });
    const expanded = await seller.read(`/${P}/orders/${order.id}?expand=paymentInfo.payments[*]`);
    expect(expanded.paymentInfo.payments.map((payment: { obj?: { key: string } }) => payment.obj?.key)).toEqual(['first-payment', 'second-payment']);

    const refusals: Array<[unknown, number, string]> = [
      [{ action: 'addPayment', payment: { id: first.id } }, 400, 'InvalidOperation'],
      [{ action: 'addPayment', payment: { id: 'no-such-payment' } }, 400, 'ReferencedResourceNotFound'],
      [{ action: 'addPayment' }, 400, 'InvalidInput'],
      [{ action: 'addPayment', payment: { typeId: 'cart', id: first.id } }, 400, 'InvalidInput'],
      [{ action: 'removePayment', payment: { id: 'not-on-the-order' } }, 400, 'InvalidOperation'],
      [{ action: 'removePayment', payment: { key: 'first-payment' } }, 400, 'InvalidOperation'],
    ];
    for (const [action, status, code] of refusals) {
      const answer = await seller.post(`/${P}/orders/${order.id}`, { version: 2, actions: [action] });
      expect({ action, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ action, status, code });
    }

    current = await seller.update(`/${P}/orders/${order.id}`, 2, [{ action: 'removePayment', payment: { typeId: 'payment', id: first.id } }]);
    expect(current.paymentInfo).toEqual({ payments: [{ typeId: 'payment', id: second.id }] });
    current = await seller.update(`/${P}/orders/${order.id}`, 3, [{ action: 'removePayment', payment: { id: second.id } }]);
    expect(current).not.toHaveProperty('paymentInfo');

    const messages = (await messagesOf(seller, P, order.id as string)).filter((message) => String(message.type).startsWith('OrderPayment'));
    expect(messages).toMatchObject([
      { type: 'OrderPaymentAdded', paymentRef: { typeId: 'payment', id: first.id }, resourceVersion: 2 },
      { type: 'OrderPaymentAdded', paymentRef: { typeId: 'payment', id: second.id }, resourceVersion: 2 },
      { type: 'OrderPaymentRemoved', paymentRef: { typeId: 'payment', id: first.id }, removedPaymentInfo: false, resourceVersion: 3 },
      { type: 'OrderPaymentRemoved', paymentRef: { typeId: 'payment', id: second.id }, removedPaymentInfo: true, resourceVersion: 4 },
    ]);

    const id = order.id as string;
    const delivered = await deliveriesAbout(sqs, queue, id, 9);
    expect(labels(delivered)).toEqual(
      [
        `order:${id}:Message:OrderCreated:1`,
        `order:${id}:ResourceCreated:1`,
        `order:${id}:Message:OrderPaymentAdded:2`,
        `order:${id}:Message:OrderPaymentAdded:3`,
        `order:${id}:ResourceUpdated:2`,
        `order:${id}:Message:OrderPaymentRemoved:4`,
        `order:${id}:ResourceUpdated:3`,
        `order:${id}:Message:OrderPaymentRemoved:5`,
        `order:${id}:ResourceUpdated:4`,
      ].sort(),
    );
    expect(delivered.map(payloadOf).find((payload) => payload.sequenceNumber === 5)).toMatchObject({ removedPaymentInfo: true });
  });

  it('stages addPayment in an order edit', async () => {
    const order = await freshOrder(P, parties);
    const payment = await newPayment('staged-payment');
    const edit = await seller.ok(
      `/${P}/order-edits`,
      { resource: { id: order.id }, stagedActions: [{ action: 'addPayment', payment: { id: payment.id } }] },
      201,
    );
    expect(edit.result).toMatchObject({ type: 'PreviewSuccess', messagePayloads: [{ type: 'OrderPaymentAdded', paymentRef: { id: payment.id } }] });
    await seller.ok(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 1, resourceVersion: 1 });
    expect((await seller.read(`/${P}/orders/${order.id}`)).paymentInfo).toEqual({ payments: [{ typeId: 'payment', id: payment.id }] });
  });
});
