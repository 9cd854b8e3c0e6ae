/**
 * Issue 29: a cart's discount code and payment actions still send the cart's change notifications,
 * in sequence, to an SQS subscription (fauxqs). The reference has no Cart message for them
 * (types/message has no CartDiscountCodeAdded, CartPaymentAdded): notifications only.
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, labels, payloadOf, REGION, subscribedQueue } from '../subscriptions/support.js';
import { callerWith, eur, type Caller } from './commerce.js';

const P = 'discount-notifications';

describe('cart discount and payment actions: change notifications', { timeout: 90_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [P],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
    admin = await callerWith(gateway, P, ['manage_project']);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  it('delivers ResourceCreated and one ResourceUpdated per write, with the discounted total', async () => {
    const discount = await admin.ok(
      `/${P}/cart-discounts`,
      {
        name: { en: 'Ten off' },
        value: { type: 'absolute', money: [eur(1000)] },
        target: { type: 'totalPrice' },
        cartPredicate: '1 = 1',
        sortOrder: '0.5',
        requiresDiscountCode: true,
      },
      201,
    );
    const code = await admin.ok(`/${P}/discount-codes`, { code: 'TEN', cartDiscounts: [{ typeId: 'cart-discount', id: discount.id }] }, 201);
    const payment = await admin.ok(`/${P}/payments`, { amountPlanned: eur(4000) }, 201);
    const queue = await subscribedQueue(sqs, admin, P, 'cart');

    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', customLineItems: [{ name: { en: 'Gift box' }, slug: 'gift-box', money: eur(5000) }] }, 201);
    const discounted = await admin.update(`/${P}/carts/${cart.id}`, 1, [{ action: 'addDiscountCode', code: 'TEN' }]);
    expect(discounted.totalPrice.centAmount).toBe(4000);
    const paid = await admin.update(`/${P}/carts/${cart.id}`, 2, [{ action: 'addPayment', payment: { typeId: 'payment', id: payment.id } }]);
    await admin.update(`/${P}/carts/${cart.id}`, paid.version, [
      { action: 'removeDiscountCode', discountCode: { typeId: 'discount-code', id: code.id } },
      { action: 'removePayment', payment: { typeId: 'payment', id: payment.id } },
    ]);

    const id = cart.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 4);
    expect(labels(documents)).toEqual([
      `cart:${id}:ResourceCreated:1`,
      `cart:${id}:ResourceUpdated:2`,
      `cart:${id}:ResourceUpdated:3`,
      `cart:${id}:ResourceUpdated:4`,
    ]);
    expect(documents.map(payloadOf).every((payload) => payload.notificationType !== 'Message')).toBe(true);
  });
});
