/**
 * Issue 29: the Payment resource `/{projectKey}/payments` (reference: resources/payments.raml,
 * types/payment): the versioned template's operations by id and key, PaymentDraft validation, every
 * official update action with the rules the reference states, its Payment* messages in order and the
 * change notifications delivered to an SQS subscription in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'payments';

const fieldsType = (key: string, resourceTypeId: string): Json => ({
  key,
  name: { en: key },
  resourceTypeIds: [resourceTypeId],
  fieldDefinitions: [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
});

describe('Payment /{projectKey}/payments', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let customerId: string;
  const states: Record<string, string> = {};

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_payments', 'manage_types', 'manage_subscriptions', 'manage_states', 'manage_customers']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_payments']);
    for (const [key, resourceTypeId] of [
      ['payment-fields', 'payment'],
      ['transaction-fields', 'transaction'],
      ['interaction-fields', 'payment-interface-interaction'],
      ['method-fields', 'payment-method-info'],
    ] as const)
      await admin.ok(`/${P}/types`, fieldsType(key, resourceTypeId), 201);
    const paid = await admin.ok(`/${P}/states`, { key: 'paid', type: 'PaymentState', initial: false }, 201);
    const open = await admin.ok(`/${P}/states`, { key: 'open', type: 'PaymentState', transitions: [{ id: paid.id }] }, 201);
    await admin.ok(`/${P}/states`, { key: 'refunded', type: 'PaymentState', initial: false }, 201);
    await admin.ok(`/${P}/states`, { key: 'order-open', type: 'OrderState' }, 201);
    Object.assign(states, { paid: paid.id, open: open.id });
    const created = await admin.ok(`/${P}/customers`, { email: 'payer@example.com', password: 'secret-password-1' }, 201);
    customerId = created.customer.id as string;
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a payment from a full draft and reads it by id, by key, by query, sorted and expanded', async () => {
    const payment = await admin.ok(
      `/${P}/payments`,
      {
        key: 'pay-1',
        customer: { typeId: 'customer', id: customerId },
        interfaceId: 'psp-1',
        amountPlanned: eur(1999),
        paymentMethodInfo: { paymentInterface: 'psp', method: 'card', name: { en: 'Card' }, token: { value: 'tok_123456789' } },
        paymentStatus: { interfaceCode: '100', interfaceText: 'ok', state: { key: 'open' } },
        transactions: [{ type: 'Authorization', amount: eur(1999), timestamp: '2024-05-01T10:00:00.000Z' }],
        interfaceInteractions: [{ type: { key: 'interaction-fields' }, fields: { note: 'redirect' } }],
        custom: { type: { key: 'payment-fields' }, fields: { note: 'first' } },
      },
      201,
    );
    expect(payment).toMatchObject({
      version: 1,
      key: 'pay-1',
      customer: { typeId: 'customer', id: customerId },
      amountPlanned: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 1999, fractionDigits: 2 },
      paymentMethodInfo: { paymentInterface: 'psp', method: 'card', token: { value: 'tok_123456789' } },
      paymentStatus: { interfaceCode: '100', state: { typeId: 'state', id: states.open } },
      // TransactionDraft.state defaults to Initial; the id is Herald's.
      transactions: [{ type: 'Authorization', state: 'Initial', amount: { centAmount: 1999 }, timestamp: '2024-05-01T10:00:00.000Z' }],
      interfaceInteractions: [{ type: { typeId: 'type' }, fields: { note: 'redirect' } }],
      custom: { fields: { note: 'first' } },
    });
    expect(payment.transactions[0].id).toEqual(expect.any(String));
    expect(await viewer.read(`/${P}/payments/${payment.id}`)).toEqual(payment);
    expect(await viewer.read(`/${P}/payments/key=pay-1`)).toEqual(payment);
    await admin.ok(`/${P}/payments`, { amountPlanned: eur(500) }, 201);
    const page = await viewer.read(`/${P}/payments?where=${encodeURIComponent('amountPlanned(centAmount > 1000)')}&sort=createdAt%20desc`);
    expect(page.results.map((found: Json) => found.key)).toEqual(['pay-1']);
    const sorted = await viewer.read(`/${P}/payments?sort=${encodeURIComponent('amountPlanned.centAmount asc')}`);
    expect(sorted.results.map((found: Json) => found.amountPlanned.centAmount)).toEqual([500, 1999]);
    const expanded = await admin.read(`/${P}/payments/${payment.id}?expand=paymentStatus.state&expand=customer`);
    expect(expanded.paymentStatus.state.obj).toMatchObject({ key: 'open' });
    expect(expanded.customer.obj).toMatchObject({ email: 'payer@example.com' });
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    const cases: Array<[Json, string]> = [
      [{}, 'RequiredField'],
      [{ amountPlanned: 'ten euros' }, 'InvalidInput'],
      [{ amountPlanned: { currencyCode: 'euro', centAmount: 1 } }, 'InvalidInput'],
      [{ amountPlanned: { currencyCode: 'EUR', centAmount: 1.5 } }, 'InvalidInput'],
      [{ amountPlanned: eur(1), key: 'x' }, 'InvalidInput'],
      [{ amountPlanned: eur(1), interfaceId: 7 }, 'InvalidInput'],
      [{ amountPlanned: eur(1), customer: { typeId: 'customer', id: 'no-such-customer' } }, 'ReferencedResourceNotFound'],
      [{ amountPlanned: eur(1), paymentMethodInfo: { name: 'Card' } }, 'InvalidInput'],
      [{ amountPlanned: eur(1), paymentMethodInfo: { token: {} } }, 'RequiredField'],
      [{ amountPlanned: eur(1), paymentStatus: { state: { key: 'no-such-state' } } }, 'ReferencedResourceNotFound'],
      [{ amountPlanned: eur(1), paymentStatus: { state: { key: 'order-open' } } }, 'InvalidInput'],
      [{ amountPlanned: eur(1), transactions: [{ amount: eur(1) }] }, 'RequiredField'],
      [{ amountPlanned: eur(1), transactions: [{ type: 'Charge' }] }, 'RequiredField'],
      [{ amountPlanned: eur(1), transactions: [{ type: 'Payout', amount: eur(1) }] }, 'InvalidInput'],
      [{ amountPlanned: eur(1), transactions: [{ type: 'Charge', amount: eur(1), state: 'Done' }] }, 'InvalidInput'],
      [{ amountPlanned: eur(1), transactions: [{ type: 'Charge', amount: eur(1), timestamp: 'yesterday' }] }, 'InvalidInput'],
      [{ amountPlanned: eur(1), transactions: 'none' }, 'InvalidInput'],
      [{ amountPlanned: eur(1), custom: { type: { key: 'transaction-fields' } } }, 'InvalidInput'],
      [{ amountPlanned: eur(1), interfaceInteractions: [{ type: { key: 'payment-fields' } }] }, 'InvalidInput'],
      [[], 'InvalidInput'],
    ];
    for (const [draft, code] of cases) {
      const answer = await admin.post(`/${P}/payments`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    await admin.ok(`/${P}/payments`, { key: 'dup', amountPlanned: eur(1), interfaceId: 'psp-dup', paymentMethodInfo: { paymentInterface: 'psp' } }, 201);
    const duplicateKey = await admin.post(`/${P}/payments`, { key: 'dup', amountPlanned: eur(1) });
    expect(duplicateKey.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'key' });
    // PaymentDraft.interfaceId: unique together with paymentMethodInfo.paymentInterface.
    const duplicatePair = await admin.post(`/${P}/payments`, { amountPlanned: eur(1), interfaceId: 'psp-dup', paymentMethodInfo: { paymentInterface: 'psp' } });
    expect(duplicatePair.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'interfaceId' });
    await admin.ok(`/${P}/payments`, { amountPlanned: eur(1), interfaceId: 'psp-dup', paymentMethodInfo: { paymentInterface: 'other-psp' } }, 201);
    expect((await viewer.post(`/${P}/payments`, { amountPlanned: eur(1) })).status).toBe(403);
  });

  it('applies the payment, status and method info actions with the reference rules', async () => {
    const payment = await admin.ok(`/${P}/payments`, { amountPlanned: eur(1000), anonymousId: 'anon-1' }, 201);
    const url = `/${P}/payments/${payment.id}`;
    const updated = await admin.update(url, 1, [
      { action: 'changeAmountPlanned', amount: eur(1200) },
      { action: 'setAmountPaid', amount: eur(100) },
      { action: 'setAmountRefunded', amount: eur(50) },
      { action: 'setAuthorization', amount: eur(1200), until: '2030-01-01T00:00:00.000Z' },
      { action: 'setExternalId', externalId: 'crm-9' },
      { action: 'setKey', key: 'pay-actions' },
      { action: 'setAnonymousId' },
      { action: 'setCustomer', customer: { id: customerId } },
      { action: 'setInterfaceId', interfaceId: 'psp-actions' },
      { action: 'setStatusInterfaceCode', interfaceCode: '200' },
      { action: 'setStatusInterfaceText', interfaceText: 'Authorised' },
      { action: 'setMethodInfoInterface', interface: 'psp' },
      { action: 'setMethodInfoMethod', method: 'card' },
      { action: 'setMethodInfoName', name: { en: 'Card' } },
      { action: 'setMethodInfoToken', token: { value: 'tok_abcdefghij' } },
      { action: 'setMethodInfoInterfaceAccount', interfaceAccount: 'acct-1' },
      { action: 'setMethodInfoCustomType', type: { key: 'method-fields' }, fields: { note: 'm' } },
      { action: 'setMethodInfoCustomField', name: 'note', value: 'm2' },
      { action: 'setCustomType', type: { key: 'payment-fields' } },
      { action: 'setCustomField', name: 'note', value: 'p' },
      { action: 'transitionState', state: { key: 'open' } },
      { action: 'transitionState', state: { key: 'paid' } },
      { action: 'addInterfaceInteraction', type: { key: 'interaction-fields' }, fields: { note: 'callback' } },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'pay-actions',
      externalId: 'crm-9',
      customer: { id: customerId },
      interfaceId: 'psp-actions',
      amountPlanned: { centAmount: 1200 },
      amountPaid: { centAmount: 100 },
      amountRefunded: { centAmount: 50 },
      amountAuthorized: { centAmount: 1200 },
      authorizedUntil: '2030-01-01T00:00:00.000Z',
      paymentStatus: { interfaceCode: '200', interfaceText: 'Authorised', state: { id: states.paid } },
      paymentMethodInfo: {
        paymentInterface: 'psp',
        method: 'card',
        name: { en: 'Card' },
        token: { value: 'tok_abcdefghij' },
        interfaceAccount: 'acct-1',
        custom: { fields: { note: 'm2' } },
      },
      custom: { fields: { note: 'p' } },
      interfaceInteractions: [{ fields: { note: 'callback' } }],
    });
    expect(updated.anonymousId).toBeUndefined();
    // setMethodInfo: the fields it names change (null removes), the others stay.
    const combined = await admin.update(url, 2, [{ action: 'setMethodInfo', method: 'sepa', token: null }]);
    expect(combined.paymentMethodInfo).toMatchObject({ paymentInterface: 'psp', method: 'sepa', name: { en: 'Card' }, interfaceAccount: 'acct-1' });
    expect(combined.paymentMethodInfo.token).toBeUndefined();
    const refusals: Array<[Json, string]> = [
      // setAnonymousId: "If the Payment is already associated with a Customer, an InvalidOperation".
      [{ action: 'setAnonymousId', anonymousId: 'anon-2' }, 'InvalidOperation'],
      // interfaceId and paymentInterface "cannot be modified after" they are set.
      [{ action: 'setInterfaceId', interfaceId: 'psp-other' }, 'InvalidOperation'],
      [{ action: 'setMethodInfoInterface', interface: 'other' }, 'InvalidOperation'],
      // A payment's workflow State must be a PaymentState.
      [{ action: 'transitionState', state: { key: 'order-open' } }, 'InvalidInput'],
      [{ action: 'transitionState', state: { key: 'nope' } }, 'ReferencedResourceNotFound'],
      [{ action: 'changeAmountPlanned' }, 'RequiredField'],
      [{ action: 'setCustomer', customer: { id: 'missing' } }, 'ReferencedResourceNotFound'],
      [{ action: 'setStatusInterfaceText' }, 'InvalidInput'],
      [{ action: 'addInterfaceInteraction', type: { key: 'payment-fields' } }, 'InvalidInput'],
      [{ action: 'setAmountPaid', amount: { currencyCode: 'EUR', centAmount: -1 } }, 'InvalidInput'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(url, { version: 3, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    const other = await admin.ok(`/${P}/payments`, { amountPlanned: eur(1), paymentMethodInfo: { paymentInterface: 'psp' } }, 201);
    const taken = await admin.post(`/${P}/payments/${other.id}`, { version: 1, actions: [{ action: 'setInterfaceId', interfaceId: 'psp-actions' }] });
    expect(taken.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'interfaceId' });
    // A payment without a State must enter an initial one; 'paid' is not initial unless forced.
    const fresh = await admin.ok(`/${P}/payments`, { amountPlanned: eur(1) }, 201);
    const notInitial = await admin.post(`/${P}/payments/${fresh.id}`, { version: 1, actions: [{ action: 'transitionState', state: { key: 'paid' } }] });
    expect(notInitial.body.errors[0].code).toBe('InvalidOperation');
    const forced = await admin.update(`/${P}/payments/${fresh.id}`, 1, [{ action: 'transitionState', state: { key: 'paid' }, force: true }]);
    expect(forced.paymentStatus.state.id).toBe(states.paid);
    // 'open' allows only 'paid'.
    const opened = await admin.ok(`/${P}/payments`, { amountPlanned: eur(1), paymentStatus: { state: { key: 'open' } } }, 201);
    const blocked = await admin.post(`/${P}/payments/${opened.id}`, { version: 1, actions: [{ action: 'transitionState', state: { key: 'refunded' } }] });
    expect(blocked.body.errors[0].code).toBe('InvalidOperation');
  });

  it('applies the transaction actions; an unknown transaction is 400 InvalidOperation', async () => {
    const payment = await admin.ok(`/${P}/payments`, { amountPlanned: eur(1000) }, 201);
    const url = `/${P}/payments/${payment.id}`;
    const added = await admin.update(url, 1, [{ action: 'addTransaction', transaction: { type: 'Charge', amount: eur(1000), state: 'Pending' } }]);
    const transactionId = added.transactions[0].id as string;
    const updated = await admin.update(url, 2, [
      { action: 'changeTransactionState', transactionId, state: 'Success' },
      { action: 'changeTransactionTimestamp', transactionId, timestamp: '2024-06-01T12:00:00.000Z' },
      { action: 'changeTransactionInteractionId', transactionId, interactionId: 'int-7' },
      { action: 'setTransactionInterfaceId', transactionId, interfaceId: 'tx-psp-7' },
      { action: 'setTransactionCustomType', transactionId, type: { key: 'transaction-fields' }, fields: { note: 't' } },
      { action: 'setTransactionCustomField', transactionId, name: 'note', value: 't2' },
    ]);
    expect(updated.transactions).toEqual([
      {
        id: transactionId,
        type: 'Charge',
        amount: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 1000, fractionDigits: 2 },
        state: 'Success',
        timestamp: '2024-06-01T12:00:00.000Z',
        interactionId: 'int-7',
        interfaceId: 'tx-psp-7',
        custom: { type: { typeId: 'type', id: expect.any(String) }, fields: { note: 't2' } },
      },
    ]);
    const refusals: Array<[Json, string]> = [
      [{ action: 'changeTransactionState', transactionId: 'nope', state: 'Failure' }, 'InvalidOperation'],
      [{ action: 'setTransactionCustomType', transactionId: 'nope' }, 'InvalidOperation'],
      [{ action: 'changeTransactionState', transactionId, state: 'Refunded' }, 'InvalidInput'],
      [{ action: 'changeTransactionTimestamp', transactionId, timestamp: 'now' }, 'InvalidInput'],
      [{ action: 'changeTransactionInteractionId', transactionId }, 'RequiredField'],
      [{ action: 'addTransaction', transaction: { type: 'Refund' } }, 'RequiredField'],
      [{ action: 'addTransaction' }, 'RequiredField'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(url, { version: 3, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
  });

  it('delivers its messages in order and the change notifications to an SQS subscription', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'payment');

    const payment = await admin.ok(
      `/${P}/payments`,
      {
        amountPlanned: eur(700),
        paymentMethodInfo: { paymentInterface: 'psp', token: { value: 'tok_secret_987654' } },
      },
      201,
    );
    const id = payment.id as string;
    const afterAdd = await admin.update(`/${P}/payments/${id}`, 1, [{ action: 'addTransaction', transaction: { type: 'Authorization', amount: eur(700) } }]);
    const transactionId = afterAdd.transactions[0].id as string;
    await admin.update(`/${P}/payments/${id}`, 2, [
      { action: 'changeTransactionState', transactionId, state: 'Success' },
      { action: 'setTransactionInterfaceId', transactionId, interfaceId: 'tx-1' },
      { action: 'addInterfaceInteraction', type: { key: 'interaction-fields' }, fields: { note: 'webhook' } },
      { action: 'setInterfaceId', interfaceId: 'psp-delivered' },
      { action: 'setStatusInterfaceCode', interfaceCode: 'AUTH' },
      { action: 'transitionState', state: { key: 'open' } },
      { action: 'setMethodInfoMethod', method: 'card' },
      { action: 'setMethodInfoName', name: { en: 'Card' } },
      { action: 'setMethodInfoToken', token: { value: 'tok_secret_123456' } },
      { action: 'setMethodInfoInterfaceAccount', interfaceAccount: 'acct' },
      { action: 'setMethodInfoCustomType', type: { key: 'method-fields' } },
      { action: 'setMethodInfoCustomField', name: 'note', value: 'a' },
      { action: 'setMethodInfoCustomField', name: 'note', value: 'b' },
      { action: 'setMethodInfoCustomField', name: 'note' },
      { action: 'setMethodInfoCustomType' },
    ]);
    await admin.delete(`/${P}/payments/${id}?version=3`);

    const expected = [
      'PaymentCreated:1',
      'PaymentTransactionAdded:2',
      'PaymentTransactionStateChanged:3',
      'PaymentTransactionInterfaceIdSet:4',
      'PaymentInteractionAdded:5',
      'PaymentInterfaceIdSet:6',
      'PaymentStatusInterfaceCodeSet:7',
      'PaymentStatusStateTransition:8',
      'PaymentMethodInfoMethodSet:9',
      'PaymentMethodInfoNameSet:10',
      'PaymentMethodInfoTokenSet:11',
      'PaymentMethodInfoInterfaceAccountSet:12',
      'PaymentMethodInfoCustomTypeSet:13',
      'PaymentMethodInfoCustomFieldAdded:14',
      'PaymentMethodInfoCustomFieldChanged:15',
      'PaymentMethodInfoCustomFieldRemoved:16',
      'PaymentMethodInfoCustomTypeRemoved:17',
    ].map((label) => `payment:${id}:Message:${label}`);
    const notifications = ['ResourceCreated:1', 'ResourceUpdated:2', 'ResourceUpdated:3', 'ResourceDeleted:3'].map((label) => `payment:${id}:${label}`);
    const documents = await deliveriesAbout(sqs, queue, id, expected.length + notifications.length);
    expect(labels(documents)).toEqual([...expected, ...notifications].sort());
    const payloads = documents.map(payloadOf).filter((payload) => payload.sequenceNumber !== undefined && payload.notificationType === 'Message');
    expect(payloads.map((payload) => payload.sequenceNumber).sort((a, b) => a - b)).toEqual(expected.map((_, index) => index + 1));
    const byType = (type: string) => documents.map(payloadOf).find((payload) => payload.type === type);
    // PaymentMethodToken.value is masked in Payment messages.
    expect(JSON.stringify(documents)).not.toContain('tok_secret');
    expect(byType('PaymentCreated')).toMatchObject({
      payment: { id, amountPlanned: { centAmount: 700 }, paymentMethodInfo: { token: { value: expect.stringMatching(/^\*+7654$/) } } },
    });
    expect(byType('PaymentTransactionAdded')).toMatchObject({ transaction: { id: transactionId, type: 'Authorization', state: 'Initial' } });
    expect(byType('PaymentTransactionStateChanged')).toMatchObject({ transactionId, state: 'Success' });
    expect(byType('PaymentTransactionInterfaceIdSet')).toMatchObject({ transactionId, newInterfaceId: 'tx-1' });
    expect(byType('PaymentInteractionAdded')).toMatchObject({ interaction: { fields: { note: 'webhook' } } });
    expect(byType('PaymentInterfaceIdSet')).toMatchObject({ interfaceId: 'psp-delivered' });
    expect(byType('PaymentStatusInterfaceCodeSet')).toMatchObject({ paymentId: id, interfaceCode: 'AUTH' });
    expect(byType('PaymentStatusStateTransition')).toMatchObject({ state: { typeId: 'state', id: states.open }, force: false });
    expect(byType('PaymentMethodInfoNameSet')).toMatchObject({ name: { en: 'Card' } });
    expect(byType('PaymentMethodInfoTokenSet')?.token.value).toMatch(/^\*+3456$/);
    expect(byType('PaymentMethodInfoCustomFieldChanged')).toMatchObject({ name: 'note', value: 'b', oldValue: 'a' });
  });
});
