/**
 * Quote requests as the official reference defines them where §2.3 is silent: the required
 * `priceRoundingMode` (and the optional `cart`) in answers and in QuoteRequestCreated, the
 * seller's changeQuoteRequestState to Cancelled, and the changeCustomer action with its
 * QuoteRequestCustomerChanged message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteContext } from '@herald/store';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, buyerCart, changeState, submitQuoteRequest } from './fixtures.js';

const P = 'quote-official';

describe("quote requests: the reference's required fields and actions", () => {
  let gateway: TestGateway;
  let seller: Caller;
  let buyer: Customer;
  let other: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    seller = await callerWith(gateway, P, ['manage_project']);
    buyer = await customerWithToken(gateway, P, seller, BUYER_SCOPES);
    other = await customerWithToken(gateway, P, seller, BUYER_SCOPES);
  });
  afterAll(() => gateway.close());

  const messagesOf = async (id: string): Promise<Json[]> =>
    (await seller.read(`/${P}/messages?where=${encodeURIComponent(`resource(id = "${id}")`)}&sort=sequenceNumber%20asc`)).results as Json[];

  it('answers priceRoundingMode and the cart, in the response, on reads and in QuoteRequestCreated', async () => {
    const cart = await buyerCart(P, buyer);
    const created = await seller.ok(`/${P}/quote-requests`, { cart: { typeId: 'cart', id: cart.id }, cartVersion: cart.version }, 201);
    expect(created).toMatchObject({ priceRoundingMode: 'HalfEven', cart: { typeId: 'cart', id: cart.id } });
    expect(await seller.read(`/${P}/quote-requests/${created.id}`)).toMatchObject({ priceRoundingMode: 'HalfEven' });
    const [message] = await messagesOf(created.id);
    expect(message).toMatchObject({ type: 'QuoteRequestCreated', quoteRequest: { id: created.id, priceRoundingMode: 'HalfEven', taxMode: cart.taxMode } });
  });

  it("copies the cart's priceRoundingMode", async () => {
    const cart = await buyerCart(P, buyer, { priceRoundingMode: 'HalfUp' });
    const created = await buyer.caller.ok(`/${P}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
    expect(created.priceRoundingMode).toBe('HalfUp');
  });

  it('answers a quote request stored before priceRoundingMode existed with the default', async () => {
    const write: WriteContext = { projectKey: P };
    const stored = (await gateway.gateway.documents.create(write, 'quote-request', {
      quoteRequestState: 'Submitted',
      customer: { typeId: 'customer', id: buyer.id },
      lineItems: [],
      customLineItems: [],
      totalPrice: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 0, fractionDigits: 2 },
      taxMode: 'Platform',
      taxRoundingMode: 'HalfEven',
      taxCalculationMode: 'LineItemLevel',
      itemShippingAddresses: [],
      directDiscounts: [],
    } as never)) as { id: string };
    expect(await seller.read(`/${P}/quote-requests/${stored.id}`)).toMatchObject({ priceRoundingMode: 'HalfEven' });
  });

  it('lets the seller cancel a Submitted and an Accepted quote request; the buyer still cancels only a Submitted one', async () => {
    const submitted = await submitQuoteRequest(P, buyer);
    const cancelled = await changeState(seller, `/${P}/quote-requests/${submitted.id}`, submitted.version, 'Cancelled');
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.quoteRequestState).toBe('Cancelled');

    const accepted = await submitQuoteRequest(P, buyer);
    const moved = await changeState(seller, `/${P}/quote-requests/${accepted.id}`, accepted.version, 'Accepted');
    const buyerCancel = await buyer.caller.post(`/${P}/me/quote-requests/${accepted.id}`, {
      version: moved.body.version,
      actions: [{ action: 'changeMyQuoteRequestState', quoteRequestState: 'Cancelled' }],
    });
    expect(buyerCancel.status).toBe(400);
    expect(buyerCancel.body.errors[0].code).toBe('InvalidOperation');
    const sellerCancel = await changeState(seller, `/${P}/quote-requests/${accepted.id}`, moved.body.version, 'Cancelled');
    expect(sellerCancel.body.quoteRequestState).toBe('Cancelled');
    const changes = (await messagesOf(accepted.id)).filter((message) => message.type === 'QuoteRequestStateChanged');
    expect(changes.at(-1)).toMatchObject({ quoteRequestState: 'Cancelled', oldQuoteRequestState: 'Accepted' });
  });

  it('changes the owner with changeCustomer and records QuoteRequestCustomerChanged', async () => {
    const quoteRequest = await submitQuoteRequest(P, buyer);
    const changed = await seller.update(`/${P}/quote-requests/${quoteRequest.id}`, quoteRequest.version, [
      { action: 'changeCustomer', customer: { typeId: 'customer', id: other.id } },
    ]);
    expect(changed.customer).toEqual({ typeId: 'customer', id: other.id });
    const message = (await messagesOf(quoteRequest.id)).at(-1);
    expect(message).toMatchObject({
      type: 'QuoteRequestCustomerChanged',
      customer: { typeId: 'customer', id: other.id },
      previousCustomer: { typeId: 'customer', id: buyer.id },
    });
    const missing = await seller.post(`/${P}/quote-requests/${quoteRequest.id}`, {
      version: changed.version,
      actions: [{ action: 'changeCustomer', customer: { typeId: 'customer', id: 'no-such-customer' } }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].code).toBe('ReferencedResourceNotFound');
    // A buyer cannot hand a request to someone else on /me.
    const onMe = await other.caller.post(`/${P}/me/quote-requests/${quoteRequest.id}`, {
      version: changed.version,
      actions: [{ action: 'changeCustomer', customer: { typeId: 'customer', id: buyer.id } }],
    });
    expect(onMe.status).toBe(400);
  });
});
