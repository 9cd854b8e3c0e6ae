import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer, Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { negotiationParties, orderableCart, pendingQuoteFor, stagedQuoteFor, submittedQuoteRequest, type Parties } from './fixtures.js';

const P = 'negotiation-rules';

function expectError(answer: Answer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ statusCode: status, errors: [{ code }] });
}

/**
 * Issue 27: every transition the reference forbids is a 400 with the official code, a stale
 * version a 409, and nothing of a refused request is half-applied.
 */
describe('Staged quotes, quotes and orders refuse what the reference forbids', { timeout: 180_000 }, () => {
  let gateway: TestGateway;
  let parties: Parties;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await negotiationParties(gateway, P, 'acme');
  }, 180_000);
  afterAll(() => gateway?.close());

  const staging = (quoteRequest: Json, extra: Json = {}) =>
    parties.seller.post(`/${P}/staged-quotes`, {
      quoteRequest: { typeId: 'quote-request', id: quoteRequest.id },
      quoteRequestVersion: quoteRequest.version,
      ...extra,
    });

  it('stages only an Accepted quote request; a stale version is a 409; one staged quote per request', async () => {
    const quoteRequest = await submittedQuoteRequest(P, parties.buyer);
    expectError(await staging(quoteRequest), 400, 'InvalidOperation');
    expectError(await staging({ ...quoteRequest, version: quoteRequest.version + 1 }, { quoteRequestStateToAccepted: true }), 409, 'ConcurrentModification');
    // Neither refusal touched the quote request.
    expect(await parties.seller.read(`/${P}/quote-requests/${quoteRequest.id}`)).toMatchObject({
      version: quoteRequest.version,
      quoteRequestState: 'Submitted',
    });
    const staged = await staging(quoteRequest, { quoteRequestStateToAccepted: true });
    expect(staged.status).toBe(201);
    const accepted = await parties.seller.read(`/${P}/quote-requests/${quoteRequest.id}`);
    expectError(await staging(accepted), 400, 'InvalidOperation');
  });

  it('keeps a Closed staged quote closed and sends no quote from it', async () => {
    const staged = await stagedQuoteFor(P, parties);
    const url = `/${P}/staged-quotes/${staged.id}`;
    const closed = await parties.seller.update(url, staged.version, [{ action: 'changeStagedQuoteState', stagedQuoteState: 'Closed' }]);
    expectError(
      await parties.seller.post(url, { version: closed.version, actions: [{ action: 'changeStagedQuoteState', stagedQuoteState: 'InProgress' }] }),
      400,
      'InvalidOperation',
    );
    expectError(await parties.seller.post(url, { version: closed.version, actions: [{ action: 'setValidTo', validTo: 'tomorrow' }] }), 400, 'InvalidInput');
    expectError(await parties.seller.post(`/${P}/quotes`, { stagedQuote: { id: staged.id }, stagedQuoteVersion: closed.version }), 400, 'InvalidOperation');
  });

  it("applies the quote's state rules to the seller and the buyer", async () => {
    const quote = await pendingQuoteFor(P, parties);
    const seller = `/${P}/quotes/${quote.id}`;
    const mine = `/${P}/me/quotes/${quote.id}`;
    const change = (quoteState: string) => [{ action: 'changeQuoteState', quoteState }];
    expectError(await parties.seller.post(seller, { version: quote.version, actions: change('DeclinedForRenegotiation') }), 400, 'InvalidOperation');
    expectError(await parties.seller.post(seller, { version: quote.version, actions: change('RenegotiationAddressed') }), 400, 'InvalidOperation');
    expectError(
      await parties.buyer.caller.post(mine, { version: quote.version, actions: [{ action: 'changeMyQuoteState', quoteState: 'Withdrawn' }] }),
      400,
      'InvalidInput',
    );
    // Another customer's quote is not theirs to see.
    expect((await parties.admin.caller.get(mine)).status).toBe(404);
    const declined = await parties.buyer.caller.update(mine, quote.version, [{ action: 'changeMyQuoteState', quoteState: 'Declined' }]);
    expect(declined.quoteState).toBe('Declined');
    expectError(
      await parties.buyer.caller.post(mine, { version: declined.version, actions: [{ action: 'requestQuoteRenegotiation' }] }),
      400,
      'InvalidOperation',
    );
    expectError(await parties.seller.post(seller, { version: declined.version, actions: change('Withdrawn') }), 400, 'InvalidOperation');
    expectError(await parties.seller.post(seller, { version: quote.version, actions: change('Withdrawn') }), 409, 'ConcurrentModification');
  });

  it('orders a quote only while Pending and valid, and only once', async () => {
    const expired = await pendingQuoteFor(P, parties);
    const staged = await parties.seller.read(`/${P}/staged-quotes/${expired.stagedQuote.id}`);
    // A quote carries the staged quote's validTo: one in the past cannot be ordered.
    const withdrawn = await parties.seller.update(`/${P}/quotes/${expired.id}`, expired.version, [{ action: 'changeQuoteState', quoteState: 'Withdrawn' }]);
    const past = await parties.seller.update(`/${P}/staged-quotes/${staged.id}`, staged.version, [
      { action: 'changeStagedQuoteState', stagedQuoteState: 'InProgress' },
      { action: 'setValidTo', validTo: '2001-01-01T00:00:00Z' },
    ]);
    expectError(await parties.seller.post(`/${P}/orders/quotes`, { quote: { id: expired.id }, version: withdrawn.version }), 400, 'InvalidOperation');
    const outdated = await parties.seller.ok(`/${P}/quotes`, { stagedQuote: { id: staged.id }, stagedQuoteVersion: past.version }, 201);
    expectError(await parties.seller.post(`/${P}/orders/quotes`, { quote: { id: outdated.id }, version: outdated.version }), 400, 'InvalidOperation');

    const quote = await pendingQuoteFor(P, parties);
    const first = await parties.seller.post(`/${P}/orders/quotes`, { quote: { id: quote.id }, version: quote.version, orderNumber: 'Q-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expectError(await parties.seller.post(`/${P}/orders/quotes`, { quote: { id: quote.id }, version: quote.version }), 400, 'InvalidOperation');
  });

  it('expands the references between them with the view scope of each', async () => {
    const quote = await pendingQuoteFor(P, parties);
    const order = await parties.seller.ok(`/${P}/orders/quotes`, { quote: { id: quote.id }, version: quote.version }, 201);
    const expanded = await parties.seller.read(`/${P}/orders/${order.id}?expand=quote.stagedQuote.quotationCart`);
    expect(expanded.quote.obj).toMatchObject({ id: quote.id, stagedQuote: { obj: { id: quote.stagedQuote.id, quotationCart: { obj: { origin: 'Quote' } } } } });
  });

  it('orders an Active cart with a shipping address once; the cart becomes Ordered', async () => {
    const cart = await orderableCart(P, parties.buyer);
    expectError(await parties.seller.post(`/${P}/orders`, { cart: { typeId: 'cart', id: cart.id }, version: cart.version + 1 }), 409, 'ConcurrentModification');
    const order = await parties.seller.ok(
      `/${P}/orders`,
      { cart: { typeId: 'cart', id: cart.id }, version: cart.version, orderNumber: 'C-1', paymentState: 'Pending' },
      201,
    );
    expect(order).toMatchObject({
      orderState: 'Open',
      paymentState: 'Pending',
      orderNumber: 'C-1',
      cart: { id: cart.id },
      customerId: parties.buyer.id,
      totalPrice: cart.totalPrice,
    });
    const ordered = await parties.seller.read(`/${P}/carts/${cart.id}`);
    expect(ordered.cartState).toBe('Ordered');
    expectError(await parties.seller.post(`/${P}/orders`, { cart: { id: cart.id }, version: ordered.version }), 400, 'InvalidOperation');
    expectError(
      await parties.buyer.caller.post(`/${P}/me/carts/${cart.id}`, { version: ordered.version, actions: [{ action: 'setCountry', country: 'AT' }] }),
      400,
      'InvalidOperation',
    );

    const unshipped = await parties.buyer.caller.ok(`/${P}/me/carts`, { currency: 'EUR' }, 201);
    expectError(await parties.buyer.caller.post(`/${P}/me/orders`, { id: unshipped.id, version: unshipped.version }), 400, 'InvalidOperation');
  });

  it('keeps order numbers unique and set once, and rolls a refused order back whole', async () => {
    const cart = await orderableCart(P, parties.buyer);
    // C-1 is taken (previous test): the order is refused and the cart stays Active.
    expectError(await parties.seller.post(`/${P}/orders`, { cart: { id: cart.id }, version: cart.version, orderNumber: 'C-1' }), 400, 'DuplicateField');
    expect(await parties.seller.read(`/${P}/carts/${cart.id}`)).toMatchObject({ cartState: 'Active', version: cart.version });
    const order = await parties.buyer.caller.ok(`/${P}/me/orders`, { id: cart.id, version: cart.version }, 201);
    const url = `/${P}/orders/${order.id}`;
    expectError(await parties.seller.post(url, { version: order.version, actions: [{ action: 'setOrderNumber', orderNumber: 'C-1' }] }), 400, 'DuplicateField');
    const numbered = await parties.seller.update(url, order.version, [{ action: 'setOrderNumber', orderNumber: 'C-2' }]);
    expectError(
      await parties.seller.post(url, { version: numbered.version, actions: [{ action: 'setOrderNumber', orderNumber: 'C-3' }] }),
      400,
      'InvalidOperation',
    );
    expectError(
      await parties.seller.post(url, { version: numbered.version, actions: [{ action: 'changeOrderState', orderState: 'Shipped' }] }),
      400,
      'InvalidInput',
    );
    expect((await parties.buyer.caller.get(`/${P}/me/orders/${order.id}`)).status).toBe(200);
    expect((await parties.admin.caller.get(`/${P}/me/orders/${order.id}`)).status).toBe(404);
  });
});
