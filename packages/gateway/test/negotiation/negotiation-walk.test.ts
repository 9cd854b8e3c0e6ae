import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { eventually, payloadOf, REGION, sqsDestination, sqsDocuments } from '../subscriptions/support.js';
import { negotiationParties, orderableCart, type Parties } from './fixtures.js';

const P = 'negotiation';
const TYPES = ['quote-request', 'staged-quote', 'quote', 'order'] as const;

/**
 * Issue 27 "Done when", first bullet: the whole negotiation through HTTP as three parties — the
 * seller (API client), a buyer associate (role Buyer) and an admin associate (role Admin) — from
 * cart to quote request to staged quote to quote, one renegotiation round, and the order; every
 * state is checked, and the messages arrive on an SQS subscription in order, with consecutive
 * sequence numbers per resource.
 */
describe('The B2B negotiation, end to end', { timeout: 180_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let parties: Parties;
  let queueUrl: string;
  let walk: { quoteRequest: Json; staged: Json; first: Json; second: Json; order: Json } | undefined;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({ projects: [P], delivery: { environment: { endpoints: { sqs: sqs.endpoint } } } });
    parties = await negotiationParties(gateway, P, 'acme');
    queueUrl = sqs.createQueue('negotiation');
    await parties.seller.ok(
      `/${P}/subscriptions`,
      {
        key: 'negotiation',
        destination: sqsDestination(queueUrl),
        messages: TYPES.map((resourceTypeId) => ({ resourceTypeId })),
      },
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  it('walks from cart to order through every state', async () => {
    const { seller, buyer, admin } = parties;

    // The buyer associate asks for a quote for a cart of the business unit.
    const cart = await orderableCart(P, buyer, { businessUnit: { key: 'acme' } });
    const quoteRequest = await buyer.caller.ok(`/${P}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
    expect(quoteRequest).toMatchObject({ quoteRequestState: 'Submitted', businessUnit: { key: 'acme' } });

    // The seller accepts it by staging a quote: both commit together.
    const staged = await seller.ok(
      `/${P}/staged-quotes`,
      {
        key: 'acme-offer',
        quoteRequest: { typeId: 'quote-request', id: quoteRequest.id },
        quoteRequestVersion: quoteRequest.version,
        quoteRequestStateToAccepted: true,
      },
      201,
    );
    expect(staged).toMatchObject({ stagedQuoteState: 'InProgress', customer: { id: buyer.id }, businessUnit: { key: 'acme' } });
    expect((await seller.read(`/${P}/quote-requests/${quoteRequest.id}`)).quoteRequestState).toBe('Accepted');

    // The seller prices the offer on the quotation cart and sends it.
    const cartUrl = `/${P}/carts/${staged.quotationCart.id}`;
    const quotationCart = await seller.read(cartUrl);
    expect(quotationCart).toMatchObject({ origin: 'Quote', customerId: buyer.id, totalPrice: { centAmount: 3000 } });
    const lineItemId = quotationCart.lineItems[0].id as string;
    await seller.update(cartUrl, quotationCart.version, [{ action: 'setLineItemPrice', lineItemId, externalPrice: { currencyCode: 'EUR', centAmount: 900 } }]);
    const commented = await seller.update(`/${P}/staged-quotes/${staged.id}`, staged.version, [
      { action: 'setSellerComment', sellerComment: '10% off' },
      { action: 'setValidTo', validTo: '2099-01-01T00:00:00.000Z' },
    ]);
    const first = await seller.ok(
      `/${P}/quotes`,
      {
        stagedQuote: { typeId: 'staged-quote', id: staged.id },
        stagedQuoteVersion: commented.version,
        stagedQuoteStateToSent: true,
      },
      201,
    );
    expect(first).toMatchObject({ quoteState: 'Pending', sellerComment: '10% off', validTo: '2099-01-01T00:00:00.000Z', totalPrice: { centAmount: 2700 } });
    const sent = await seller.read(`/${P}/staged-quotes/${staged.id}`);
    expect(sent.stagedQuoteState).toBe('Sent');

    // The buyer asks for a better price: one renegotiation round.
    const renegotiating = await buyer.caller.update(`/${P}/me/quotes/${first.id}`, first.version, [
      { action: 'requestQuoteRenegotiation', buyerComment: '15% please' },
    ]);
    expect(renegotiating).toMatchObject({ quoteState: 'DeclinedForRenegotiation', buyerComment: '15% please' });
    const revising = await seller.update(`/${P}/staged-quotes/${staged.id}`, sent.version, [
      { action: 'changeStagedQuoteState', stagedQuoteState: 'InProgress' },
    ]);
    const repriced = await seller.read(cartUrl);
    await seller.update(cartUrl, repriced.version, [{ action: 'setLineItemPrice', lineItemId, externalPrice: { currencyCode: 'EUR', centAmount: 850 } }]);
    const second = await seller.ok(
      `/${P}/quotes`,
      {
        stagedQuote: { typeId: 'staged-quote', id: staged.id },
        stagedQuoteVersion: revising.version,
        stagedQuoteStateToSent: true,
      },
      201,
    );
    expect(second).toMatchObject({ quoteState: 'Pending', totalPrice: { centAmount: 2550 } });
    expect((await seller.read(`/${P}/quotes/${first.id}`)).quoteState).toBe('RenegotiationAddressed');
    expect((await seller.read(`/${P}/staged-quotes/${staged.id}`)).stagedQuoteState).toBe('Sent');

    // The admin associate sees only their own quotes through /me: the buyer's is not theirs to order.
    const notTheirs = await admin.caller.post(`/${P}/me/orders/quotes`, { id: second.id, version: second.version, quoteStateToAccepted: true });
    expect(notTheirs.status, JSON.stringify(notTheirs.body)).toBe(400);
    expect(notTheirs.body.errors[0].code).toBe('ReferencedResourceNotFound');

    // The buyer orders the renegotiated quote, accepting it on the way.
    const order = await buyer.caller.ok(`/${P}/me/orders/quotes`, { id: second.id, version: second.version, quoteStateToAccepted: true }, 201);
    expect(order).toMatchObject({
      orderState: 'Open',
      origin: 'Quote',
      quote: { typeId: 'quote', id: second.id },
      customerId: buyer.id,
      businessUnit: { key: 'acme' },
      totalPrice: { centAmount: 2550 },
    });
    expect((await seller.read(`/${P}/quotes/${second.id}`)).quoteState).toBe('Accepted');

    // The seller fulfils it.
    const confirmed = await seller.update(`/${P}/orders/${order.id}`, order.version, [
      { action: 'setOrderNumber', orderNumber: 'ACME-1' },
      { action: 'changeOrderState', orderState: 'Confirmed' },
      { action: 'changeShipmentState', shipmentState: 'Shipped' },
      { action: 'changePaymentState', paymentState: 'Paid' },
    ]);
    expect(confirmed).toMatchObject({ orderNumber: 'ACME-1', orderState: 'Confirmed', shipmentState: 'Shipped', paymentState: 'Paid' });
    expect((await buyer.caller.read(`/${P}/me/orders/${order.id}`)).orderState).toBe('Confirmed');
    walk = { quoteRequest, staged, first, second, order };
  });

  it('delivers every message of the walk to the SQS subscription, in order per resource', async () => {
    if (walk === undefined) throw new Error('the walk did not finish');
    const { quoteRequest, staged, first, second, order } = walk;
    const expected: Record<string, string[]> = {
      [quoteRequest.id]: ['QuoteRequestCreated', 'QuoteRequestStateChanged'],
      [staged.id]: [
        'StagedQuoteCreated',
        'StagedQuoteSellerCommentSet',
        'StagedQuoteValidToSet',
        'StagedQuoteStateChanged',
        'StagedQuoteStateChanged',
        'StagedQuoteStateChanged',
      ],
      [first.id]: ['QuoteCreated', 'QuoteRenegotiationRequested', 'QuoteStateChanged'],
      [second.id]: ['QuoteCreated', 'QuoteStateChanged'],
      [order.id]: ['OrderCreated', 'OrderStateChanged', 'OrderShipmentStateChanged', 'OrderPaymentStateChanged'],
    };
    const total = Object.values(expected).reduce((sum, types) => sum + types.length, 0);
    const received: Json[] = [];
    await eventually(async () => {
      received.push(...sqsDocuments(await sqs.receiveAll(queueUrl)).map(payloadOf));
      expect(received.filter((payload) => payload.notificationType === 'Message').length).toBeGreaterThanOrEqual(total);
    });
    for (const [resourceId, types] of Object.entries(expected)) {
      const messages = received
        .filter((payload) => payload.resource.id === resourceId)
        .sort((a, b) => (a.sequenceNumber as number) - (b.sequenceNumber as number));
      expect(
        messages.map((message) => message.type),
        resourceId,
      ).toEqual(types);
      expect(messages.map((message) => message.sequenceNumber)).toEqual(types.map((_type, index) => index + 1));
    }
    const states = (id: string) =>
      received.filter((payload) => payload.resource.id === id && payload.type === 'StagedQuoteStateChanged').map((payload) => payload.stagedQuoteState);
    expect(states(staged.id)).toEqual(['Sent', 'InProgress', 'Sent']);
  });
});
