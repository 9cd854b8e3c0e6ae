import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, changeState, submitQuoteRequest } from './fixtures.js';

const P = 'negotiation-project';
const STATES = ['Submitted', 'Accepted', 'Closed', 'Rejected', 'Cancelled'] as const;
type QuoteRequestState = (typeof STATES)[number];

/**
 * §3.1 and the negotiation rules, as a table: what each party may do from each state. The buyer
 * only cancels a Submitted request (§3.1); the seller sets any state the reference allows it
 * (including Cancelled) except back to Submitted, into Closed from anything but Accepted, and out
 * of Closed (§2.3's meanings). Everything else, including "changing" to the current state, is a
 * 400 InvalidOperation.
 */
const ALLOWED = {
  buyer: new Set(['Submitted>Cancelled']),
  seller: new Set([
    'Submitted>Accepted',
    'Submitted>Rejected',
    'Submitted>Cancelled',
    'Accepted>Rejected',
    'Accepted>Cancelled',
    'Accepted>Closed',
    'Rejected>Accepted',
    'Rejected>Cancelled',
    'Cancelled>Accepted',
    'Cancelled>Rejected',
  ]),
};

/** The buyer can ask on `/me/quote-requests` or, with a manage scope, on `/quote-requests`. */
const PARTIES = ['buyer on /me', 'buyer on /quote-requests', 'seller'] as const;
type PartyName = (typeof PARTIES)[number];

describe('changeQuoteRequestState: every state × every target × buyer and seller', () => {
  let gateway: TestGateway;
  let seller: Caller;
  let buyer: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    seller = await callerWith(gateway, P, ['manage_quote_requests']);
    const admin = await callerWith(gateway, P, ['manage_customers']);
    buyer = await customerWithToken(gateway, P, admin, [...BUYER_SCOPES, 'manage_quote_requests']);
  });
  afterAll(() => gateway.close());

  /** A quote request of `buyer`, brought to `state` by the moves the rules allow. */
  async function quoteRequestIn(state: QuoteRequestState): Promise<Json> {
    let quoteRequest = await submitQuoteRequest(P, buyer);
    const path: Record<QuoteRequestState, Array<[Caller, QuoteRequestState]>> = {
      Submitted: [],
      Accepted: [[seller, 'Accepted']],
      Closed: [
        [seller, 'Accepted'],
        [seller, 'Closed'],
      ],
      Rejected: [[seller, 'Rejected']],
      Cancelled: [[buyer.caller, 'Cancelled']],
    };
    for (const [caller, next] of path[state]) {
      const moved = await changeState(caller, `/${P}/quote-requests/${quoteRequest.id}`, quoteRequest.version, next);
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      quoteRequest = moved.body;
    }
    expect(quoteRequest.quoteRequestState).toBe(state);
    return quoteRequest;
  }

  function request(party: PartyName, quoteRequest: Json, target: QuoteRequestState) {
    switch (party) {
      case 'buyer on /me':
        return buyer.caller.post(`/${P}/me/quote-requests/${quoteRequest.id}`, {
          version: quoteRequest.version,
          actions: [{ action: 'changeMyQuoteRequestState', quoteRequestState: target }],
        });
      case 'buyer on /quote-requests':
        return changeState(buyer.caller, `/${P}/quote-requests/${quoteRequest.id}`, quoteRequest.version, target);
      case 'seller':
        return changeState(seller, `/${P}/quote-requests/${quoteRequest.id}`, quoteRequest.version, target);
    }
  }

  const cases = PARTIES.flatMap((party) => STATES.flatMap((from) => STATES.map((to) => [party, from, to] as const)));

  it.each(cases)('%s: %s → %s', async (party, from, to) => {
    const quoteRequest = await quoteRequestIn(from);
    const allowed = ALLOWED[party === 'seller' ? 'seller' : 'buyer'].has(`${from}>${to}`);
    const answer = await request(party, quoteRequest, to);
    const current = await seller.read(`/${P}/quote-requests/${quoteRequest.id}`);
    if (allowed) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ quoteRequestState: to, version: quoteRequest.version + 1 });
      expect(current.quoteRequestState).toBe(to);
    } else {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.errors[0].code).toBe('InvalidOperation');
      expect(current).toMatchObject({ quoteRequestState: from, version: quoteRequest.version });
    }
  });

  it('refuses an unknown state as InvalidInput', async () => {
    const quoteRequest = await quoteRequestIn('Submitted');
    const answer = await changeState(seller, `/${P}/quote-requests/${quoteRequest.id}`, 1, 'Negotiating');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].code).toBe('InvalidInput');
  });

  it("does not let a buyer cancel another customer's quote request on /quote-requests", async () => {
    const admin = await callerWith(gateway, P, ['manage_customers']);
    const other = await customerWithToken(gateway, P, admin, [...BUYER_SCOPES]);
    const quoteRequest = await submitQuoteRequest(P, other);
    const answer = await changeState(buyer.caller, `/${P}/quote-requests/${quoteRequest.id}`, 1, 'Cancelled');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].code).toBe('InvalidOperation');
  });
});
