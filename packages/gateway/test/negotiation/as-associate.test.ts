import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerWithToken, type Answer, type Customer, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { BUYER_SCOPES, negotiationParties, orderableCart, type Parties } from './fixtures.js';

const P = 'negotiation-associates';
const UNIT = 'acme';

function expectMissingPermission(answer: Answer, associate: Customer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(answer.body.errors[0]).toMatchObject({ code: 'AssociateMissingPermission', associate: { typeId: 'customer', id: associate.id } });
}

/**
 * Issue 27: the as-associate forms of quotes and orders check the acting associate's permissions
 * in the unit (My vs Others by the resource's customer): with the spec's roles, a Buyer answers and
 * orders their own quotes only, an Admin also the others'.
 */
describe('Quotes and orders as an associate', { timeout: 180_000 }, () => {
  let gateway: TestGateway;
  let parties: Parties;
  const base = (associate: Customer) => `/${P}/as-associate/${associate.id}/in-business-unit/key=${UNIT}`;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await negotiationParties(gateway, P, UNIT);
  }, 180_000);
  afterAll(() => gateway?.close());

  /** A Pending quote of `owner` in the unit. */
  async function unitQuote(owner: Customer): Promise<Json> {
    const cart = await orderableCart(P, owner, { businessUnit: { key: UNIT } });
    const quoteRequest = await owner.caller.ok(`/${P}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
    const staged = await parties.seller.ok(
      `/${P}/staged-quotes`,
      { quoteRequest: { id: quoteRequest.id }, quoteRequestVersion: quoteRequest.version, quoteRequestStateToAccepted: true },
      201,
    );
    return parties.seller.ok(`/${P}/quotes`, { stagedQuote: { id: staged.id }, stagedQuoteVersion: staged.version, stagedQuoteStateToSent: true }, 201);
  }

  it("lets a Buyer answer their own quote but not an Admin's; the Admin answers anyone's", async () => {
    const { seller, buyer, admin } = parties;
    const adminsQuote = await unitQuote(admin);
    const renegotiate = [{ action: 'requestQuoteRenegotiation', buyerComment: 'cheaper' }];
    expectMissingPermission(await seller.post(`${base(buyer)}/quotes/${adminsQuote.id}`, { version: adminsQuote.version, actions: renegotiate }), buyer);
    expectMissingPermission(await seller.get(`${base(buyer)}/quotes/${adminsQuote.id}`), buyer);

    const buyersQuote = await unitQuote(buyer);
    const declined = await seller.ok(`${base(buyer)}/quotes/${buyersQuote.id}`, {
      version: buyersQuote.version,
      actions: [{ action: 'changeMyQuoteState', quoteState: 'Declined' }],
    });
    expect(declined).toMatchObject({ quoteState: 'Declined', lastModifiedBy: { associate: { id: buyer.id } } });
    const renegotiated = await seller.ok(`${base(admin)}/quotes/${adminsQuote.id}`, { version: adminsQuote.version, actions: renegotiate });
    expect(renegotiated.quoteState).toBe('DeclinedForRenegotiation');
    const page = await seller.read(`${base(buyer)}/quotes`);
    expect(page.results.map((quote: Json) => quote.id)).toEqual([buyersQuote.id]);
  });

  it("lets a Buyer order their own quote and cart, and the Admin a Buyer's", async () => {
    const { seller, buyer, admin } = parties;
    const adminsQuote = await unitQuote(admin);
    expectMissingPermission(await seller.post(`${base(buyer)}/orders/quotes`, { quote: { id: adminsQuote.id }, version: adminsQuote.version }), buyer);
    expect((await seller.read(`/${P}/quotes/${adminsQuote.id}`)).quoteState).toBe('Pending');

    const buyersQuote = await unitQuote(buyer);
    const byAdmin = await seller.ok(
      `${base(admin)}/orders/quotes`,
      { quote: { id: buyersQuote.id }, version: buyersQuote.version, quoteStateToAccepted: true },
      201,
    );
    expect(byAdmin).toMatchObject({ customerId: buyer.id, businessUnit: { key: UNIT }, createdBy: { associate: { id: admin.id } } });

    const adminsCart = await orderableCart(P, admin, { businessUnit: { key: UNIT } });
    expectMissingPermission(await seller.post(`${base(buyer)}/orders`, { cart: { id: adminsCart.id }, version: adminsCart.version }), buyer);
    const buyersCart = await orderableCart(P, buyer, { businessUnit: { key: UNIT } });
    const own = await seller.ok(`${base(buyer)}/orders`, { cart: { id: buyersCart.id }, version: buyersCart.version }, 201);
    expect(own.customerId).toBe(buyer.id);
    const outside = await orderableCart(P, buyer);
    const refused = await seller.post(`${base(buyer)}/orders`, { cart: { id: outside.id }, version: outside.version });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.errors[0].code).toBe('InvalidOperation');

    expect((await seller.read(`${base(buyer)}/orders/${own.id}`)).id).toBe(own.id);
    const adminsOrder = await seller.ok(`${base(admin)}/orders`, { cart: { id: adminsCart.id }, version: adminsCart.version }, 201);
    expectMissingPermission(await seller.get(`${base(buyer)}/orders/${adminsOrder.id}`), buyer);
  });

  it("holds a customer on /me to the permissions of their role in the quote's or cart's unit", async () => {
    const { seller } = parties;
    // A role that may ask for quotes but neither answer them nor order.
    await seller.ok(
      `/${P}/associate-roles`,
      {
        key: 'requester',
        permissions: ['CreateMyCarts', 'ViewMyCarts', 'UpdateMyCarts', 'CreateMyQuoteRequestsFromMyCarts', 'ViewMyQuoteRequests', 'ViewMyQuotes'],
      },
      201,
    );
    const requester = await customerWithToken(gateway, P, seller, BUYER_SCOPES);
    const unit = await seller.read(`/${P}/business-units/key=${UNIT}`);
    await seller.update(`/${P}/business-units/key=${UNIT}`, unit.version, [
      {
        action: 'addAssociate',
        associate: { associateRoleAssignments: [{ associateRole: { key: 'requester' } }], customer: { typeId: 'customer', id: requester.id } },
      },
    ]);
    const quote = await unitQuote(requester);
    const mine = `/${P}/me/quotes/${quote.id}`;
    expectMissingPermission(
      await requester.caller.post(mine, { version: quote.version, actions: [{ action: 'changeMyQuoteState', quoteState: 'Accepted' }] }),
      requester,
    );
    expectMissingPermission(await requester.caller.post(mine, { version: quote.version, actions: [{ action: 'requestQuoteRenegotiation' }] }), requester);
    expectMissingPermission(await requester.caller.post(`/${P}/me/orders/quotes`, { id: quote.id, version: quote.version }), requester);
    const cart = await orderableCart(P, requester, { businessUnit: { key: UNIT } });
    expectMissingPermission(await requester.caller.post(`/${P}/me/orders`, { id: cart.id, version: cart.version }), requester);
    expect(await seller.read(`/${P}/quotes/${quote.id}`)).toMatchObject({ quoteState: 'Pending', version: quote.version });

    // The Buyer role has them.
    const buyersQuote = await unitQuote(parties.buyer);
    const accepted = await parties.buyer.caller.ok(`/${P}/me/quotes/${buyersQuote.id}`, {
      version: buyersQuote.version,
      actions: [{ action: 'changeMyQuoteState', quoteState: 'Accepted' }],
    });
    expect(accepted.quoteState).toBe('Accepted');
  });
});
