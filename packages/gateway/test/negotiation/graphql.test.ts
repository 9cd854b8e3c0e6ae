import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../carts/commerce.js';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';
import { negotiationParties, type Parties } from './fixtures.js';

const P = 'negotiation-graphql';

/** Issue 27: the staged quote, quote and order queries in GraphQL, with the official SDL's names. */
describe('GraphQL: stagedQuote(s), quote(s), order(s)', { timeout: 180_000 }, () => {
  let gateway: TestGateway;
  let parties: Parties;
  let walk: { staged: Json; quote: Json; order: Json };

  const graphql = async (token: string, query: string): Promise<Json> => {
    const response = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(token), payload: { query } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await negotiationParties(gateway, P, 'acme');
    const { seller, buyer } = parties;
    // The seller makes the buyer's cart: a buyer cannot set an external price (MyLineItemDraft has none).
    const cart = await seller.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        customerId: buyer.id,
        lineItems: [{ sku: 'A', name: { en: 'A' }, quantity: 2, externalPrice: { currencyCode: 'EUR', centAmount: 500 } }],
        shippingAddress: { country: 'DE' },
        businessUnit: { key: 'acme' },
      },
      201,
    );
    const quoteRequest = await buyer.caller.ok(`/${P}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
    const staged = await seller.ok(
      `/${P}/staged-quotes`,
      { key: 'gql-offer', quoteRequest: { id: quoteRequest.id }, quoteRequestVersion: quoteRequest.version, quoteRequestStateToAccepted: true },
      201,
    );
    const quote = await seller.ok(
      `/${P}/quotes`,
      { key: 'gql-quote', stagedQuote: { id: staged.id }, stagedQuoteVersion: staged.version, stagedQuoteStateToSent: true },
      201,
    );
    const order = await seller.ok(
      `/${P}/orders/quotes`,
      { quote: { id: quote.id }, version: quote.version, quoteStateToAccepted: true, orderNumber: 'GQL-1' },
      201,
    );
    walk = { staged, quote, order };
  }, 180_000);
  afterAll(() => gateway?.close());

  it('reads each resource by id, key or order number, and pages of them', async () => {
    const token = await tokenFor(gateway, P, ['view_staged_quotes', 'view_quotes', 'view_orders']);
    const { staged, quote, order } = walk;
    const answer = await graphql(
      token,
      `{
      stagedQuote(key: "gql-offer") { id stagedQuoteState quoteRequestRef { typeId id } quotationCartRef { typeId } businessUnitRef { key } }
      quote(id: "${quote.id}") { key quoteState stagedQuoteRef { id } customerRef { id } totalPrice { type currencyCode centAmount fractionDigits } }
      order(orderNumber: "GQL-1") { id orderState origin quoteRef { id } businessUnitRef { key } totalPrice { centAmount } }
      stagedQuotes(where: "stagedQuoteState = \\"Sent\\"") { total results { id } }
      quotes(sort: ["createdAt desc"], limit: 1) { count exists results { quoteState } }
      orders { total results { orderNumber } }
    }`,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data).toEqual({
      stagedQuote: {
        id: staged.id,
        stagedQuoteState: 'Sent',
        quoteRequestRef: { typeId: 'quote-request', id: staged.quoteRequest.id },
        quotationCartRef: { typeId: 'cart' },
        businessUnitRef: { key: 'acme' },
      },
      quote: {
        key: 'gql-quote',
        quoteState: 'Accepted',
        stagedQuoteRef: { id: staged.id },
        customerRef: { id: parties.buyer.id },
        totalPrice: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 1000, fractionDigits: 2 },
      },
      order: {
        id: order.id,
        orderState: 'Open',
        origin: 'Quote',
        quoteRef: { id: quote.id },
        businessUnitRef: { key: 'acme' },
        totalPrice: { centAmount: 1000 },
      },
      stagedQuotes: { total: 1, results: [{ id: staged.id }] },
      quotes: { count: 1, exists: true, results: [{ quoteState: 'Accepted' }] },
      orders: { total: 1, results: [{ orderNumber: 'GQL-1' }] },
    });
  });

  it('needs the view scope of each resource', async () => {
    const token = await tokenFor(gateway, P, ['view_orders']);
    const answer = await graphql(token, '{ quotes { total } }');
    expect(answer.data).toBeNull();
    expect(JSON.stringify(answer.errors)).toContain('InsufficientScope');
    const missing = await graphql(token, '{ order(id: "no-such-order") { id } }');
    expect(missing.data).toEqual({ order: null });
  });

  it('counts a page of orders, quotes or staged quotes as its limit in the query cost', async () => {
    const token = await tokenFor(gateway, P, ['view_staged_quotes', 'view_quotes', 'view_orders']);
    // 3 × 500 pages with 3 nested objects each: about 6,000 documents, within the 10,000 allowed.
    const within = await graphql(
      token,
      '{ a: orders(limit: 500) { results { quoteRef { id } storeRef { key } businessUnitRef { key } } } b: quotes(limit: 500) { results { id } } c: stagedQuotes(limit: 500) { results { id } } }',
    );
    expect(within.errors, JSON.stringify(within.errors)).toBeUndefined();
    const aliases = Array.from({ length: 25 }, (_unused, index) => `o${index}: orders(limit: 500) { results { id } }`).join(' ');
    const refused = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(token), payload: { query: `{ ${aliases} }` } });
    expect(refused.body).toContain('QueryComplexityExceeded');
  });
});
