/**
 * Issue 29, `/{projectKey}/me/payments` (reference: me.raml `/payments`, types/me/MyPayment*):
 * create, query, get, update with the MyPaymentUpdateAction subset and delete, for the token's
 * customer or anonymous session only; no update or delete once the payment has transactions; the
 * method token masked; PaymentCreated and the payment's notifications delivered to SQS.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousWithToken, customerWithToken, eur, type Caller, type Customer, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'my-payments';
const TOKEN = 'card-token-0123456789-secret';

describe('MyPayment /{projectKey}/me/payments', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let buyer: Customer;
  let other: Customer;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_payments', 'manage_customers', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    buyer = await customerWithToken(gateway, P, admin, ['manage_my_payments']);
    other = await customerWithToken(gateway, P, admin, ['manage_my_payments']);
  }, 180_000);
  afterAll(() => setup?.close());

  const draft = (extra: Json = {}): Json => ({
    amountPlanned: eur(1500),
    paymentMethodInfo: { paymentInterface: 'psp', method: 'card', token: { value: TOKEN } },
    ...extra,
  });

  it('creates, reads, queries, updates and deletes the buyer’s own payments only', async () => {
    const created = await buyer.caller.ok(`/${P}/me/payments`, draft({ paymentMethodInfo: { method: 'card', token: { value: TOKEN } } }), 201);
    expect(created).toMatchObject({ version: 1, customer: { typeId: 'customer', id: buyer.id }, amountPlanned: { centAmount: 1500 }, transactions: [] });
    expect(created.paymentMethodInfo.token.value).toBe(`${'*'.repeat(TOKEN.length - 4)}${TOKEN.slice(-4)}`);
    expect(created).not.toHaveProperty('paymentStatus');
    expect(JSON.stringify(created)).not.toContain(TOKEN);
    // The API client sees the whole Payment, its token included.
    expect((await admin.read(`/${P}/payments/${created.id}`)).paymentMethodInfo.token.value).toBe(TOKEN);

    expect(await buyer.caller.read(`/${P}/me/payments/${created.id}`)).toEqual(created);
    expect((await other.caller.get(`/${P}/me/payments/${created.id}`)).status).toBe(404);
    expect((await other.caller.post(`/${P}/me/payments/${created.id}`, { version: 1, actions: [] })).status).toBe(404);
    expect((await other.caller.delete(`/${P}/me/payments/${created.id}?version=1`)).status).toBe(404);
    const page = await buyer.caller.read(`/${P}/me/payments?where=${encodeURIComponent('amountPlanned(centAmount = 1500)')}`);
    expect(page.results.map((payment: Json) => payment.id)).toEqual([created.id]);
    expect((await other.caller.read(`/${P}/me/payments`)).results).toEqual([]);

    const updated = await buyer.caller.update(`/${P}/me/payments/${created.id}`, 1, [
      { action: 'changeAmountPlanned', amount: eur(1800) },
      { action: 'setMethodInfoInterface', interface: 'psp-2' },
      { action: 'setMethodInfoMethod', method: 'paypal' },
      { action: 'setMethodInfoName', name: { en: 'PayPal' } },
      { action: 'setMethodInfoInterfaceAccount', interfaceAccount: 'acct' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      amountPlanned: { centAmount: 1800 },
      paymentMethodInfo: { paymentInterface: 'psp-2', method: 'paypal', name: { en: 'PayPal' }, interfaceAccount: 'acct' },
    });
    // Not a My action.
    expect((await buyer.caller.post(`/${P}/me/payments/${created.id}`, { version: 2, actions: [{ action: 'setKey', key: 'mine' }] })).body.errors[0].code).toBe(
      'InvalidInput',
    );

    const withTransaction = await buyer.caller.update(`/${P}/me/payments/${created.id}`, 2, [
      { action: 'addTransaction', transaction: { type: 'Charge', amount: eur(1800), state: 'Success' } },
    ]);
    expect(withTransaction.transactions).toMatchObject([{ type: 'Charge', state: 'Initial', amount: { centAmount: 1800 } }]);
    const refused = await buyer.caller.post(`/${P}/me/payments/${created.id}`, { version: 3, actions: [{ action: 'changeAmountPlanned', amount: eur(1) }] });
    expect(refused.body.errors[0].code).toBe('InvalidOperation');
    expect((await buyer.caller.delete(`/${P}/me/payments/${created.id}?version=3`)).body.errors[0].code).toBe('InvalidOperation');
    expect((await admin.read(`/${P}/payments/${created.id}`)).version).toBe(3);

    const second = await buyer.caller.ok(`/${P}/me/payments`, draft({ amountPlanned: eur(10) }), 201);
    expect((await buyer.caller.delete(`/${P}/me/payments/${second.id}?version=1`)).status).toBe(200);
    expect((await admin.get(`/${P}/payments/${second.id}`)).status).toBe(404);
  });

  it('serves anonymous sessions, and refuses bad drafts and other tokens', async () => {
    const anonymous = await anonymousWithToken(gateway, P, ['manage_my_payments']);
    const payment = await anonymous.caller.ok(`/${P}/me/payments`, draft({ transaction: { type: 'Authorization', amount: eur(1500) } }), 201);
    expect(payment).toMatchObject({ anonymousId: anonymous.anonymousId, transactions: [{ type: 'Authorization', state: 'Initial' }] });
    expect(payment).not.toHaveProperty('customer');
    expect((await buyer.caller.get(`/${P}/me/payments/${payment.id}`)).status).toBe(404);

    const cases: Array<[string, unknown, string]> = [
      ['not an object', ['x'], 'InvalidInput'],
      ['no amountPlanned', { paymentMethodInfo: { method: 'card' } }, 'RequiredField'],
      ['amountPlanned not money', { amountPlanned: 15 }, 'InvalidInput'],
      ['transaction without type', { amountPlanned: eur(1), transaction: { amount: eur(1) } }, 'RequiredField'],
      ['transaction of an unknown type', { amountPlanned: eur(1), transaction: { type: 'Gift', amount: eur(1) } }, 'InvalidInput'],
    ];
    for (const [name, body, code] of cases) {
      const answer = await buyer.caller.post(`/${P}/me/payments`, body);
      expect({ name, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ name, status: 400, code });
    }
    expect((await admin.post(`/${P}/me/payments`, draft())).status).toBe(403);
  });

  it('delivers PaymentCreated and the payment’s notifications, the token masked', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'payment');
    const payment = await buyer.caller.ok(`/${P}/me/payments`, draft(), 201);
    await buyer.caller.update(`/${P}/me/payments/${payment.id}`, 1, [{ action: 'setMethodInfoMethod', method: 'sepa' }]);
    await buyer.caller.delete(`/${P}/me/payments/${payment.id}?version=2`);
    const id = payment.id as string;
    const delivered = await deliveriesAbout(sqs, queue, id, 5);
    expect(labels(delivered)).toEqual(
      [
        `payment:${id}:Message:PaymentCreated:1`,
        `payment:${id}:ResourceCreated:1`,
        `payment:${id}:Message:PaymentMethodInfoMethodSet:2`,
        `payment:${id}:ResourceUpdated:2`,
        `payment:${id}:ResourceDeleted:2`,
      ].sort(),
    );
    expect(delivered.map(payloadOf).find((each) => each.type === 'PaymentCreated')).toMatchObject({ payment: { customer: { id: buyer.id } } });
    expect(JSON.stringify(delivered)).not.toContain(TOKEN);
  });
});
