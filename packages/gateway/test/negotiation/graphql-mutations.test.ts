import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineItem, type Json } from '../carts/commerce.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { negotiationParties, orderableCart, type Parties } from './fixtures.js';

const P = 'negotiation-graphql-mutations';
const UNIT = 'acme';

/**
 * Issue 27: the negotiation's mutations in GraphQL, in the official SDL's names and argument forms
 * (createMyQuoteRequest, createStagedQuote, updateStagedQuote, createQuote, updateQuote with
 * asAssociate, createOrderFromQuote with asAssociate, updateOrder by orderNumber, …), with REST's
 * rules and errors: permissions as associate, state rules, versions.
 */
describe('GraphQL: the negotiation mutations', { timeout: 180_000 }, () => {
  let gateway: TestGateway;
  let parties: Parties;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await negotiationParties(gateway, P, UNIT);
  }, 180_000);
  afterAll(() => gateway?.close());

  const graphql = async (token: string, query: string, variables: Json = {}): Promise<Json> => {
    const response = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(token), payload: { query, variables } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  /** The field's data, which must have come without errors. */
  const ok = async (token: string, query: string, variables: Json = {}): Promise<Json> => {
    const answer = await graphql(token, query, variables);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return Object.values(answer.data as Json)[0] as Json;
  };
  const errorOf = async (token: string, query: string, variables: Json = {}): Promise<Json> => {
    const answer = await graphql(token, query, variables);
    expect(answer.errors, JSON.stringify(answer)).toHaveLength(1);
    return answer.errors[0].extensions as Json;
  };
  const asBuyer = () => ({ associateId: parties.buyer.id, businessUnitKey: UNIT });

  const QUOTE = 'id version quoteState buyerComment lastModifiedBy { associateRef { id } }';

  it('walks cart → quote request → staged quote → quote → renegotiation → quote → order', async () => {
    const { seller, buyer } = parties;
    const cart = await orderableCart(P, buyer, { businessUnit: { key: UNIT }, lineItems: [lineItem('SKU-1', 1000, 3, { key: 'pallets' })] });
    const quoteRequest = await ok(
      buyer.caller.token,
      `mutation ($draft: MyQuoteRequestDraft!) {
      createMyQuoteRequest(draft: $draft) { id version quoteRequestState comment customerRef { id } businessUnitRef { key } }
    }`,
      { draft: { cartId: cart.id, cartVersion: cart.version, comment: 'Need 3' } },
    );
    expect(quoteRequest).toMatchObject({ quoteRequestState: 'Submitted', comment: 'Need 3', customerRef: { id: buyer.id }, businessUnitRef: { key: UNIT } });

    const staged = await ok(seller.token, `mutation ($draft: StagedQuoteDraft!) { createStagedQuote(draft: $draft) { id version stagedQuoteState } }`, {
      draft: { key: 'gql-offer', quoteRequest: { id: quoteRequest.id }, quoteRequestVersion: quoteRequest.version, quoteRequestStateToAccepted: true },
    });
    expect(staged.stagedQuoteState).toBe('InProgress');
    const commented = await ok(
      seller.token,
      `mutation ($version: Long!) {
      updateStagedQuote(key: "gql-offer", version: $version, actions: [{ setSellerComment: { sellerComment: "5% off" } }, { setValidTo: { validTo: "2099-01-01T00:00:00.000Z" } }]) { version sellerComment validTo }
    }`,
      { version: staged.version },
    );
    expect(commented).toMatchObject({ sellerComment: '5% off', validTo: '2099-01-01T00:00:00.000Z' });

    const createQuote = `mutation ($draft: QuoteDraft!) { createQuote(draft: $draft) { ${QUOTE} } }`;
    const first = await ok(seller.token, createQuote, {
      draft: { stagedQuote: { id: staged.id }, stagedQuoteVersion: commented.version, stagedQuoteStateToSent: true },
    });
    expect(first.quoteState).toBe('Pending');

    // The buyer, through the seller's client acting as the associate, asks for a better price.
    const renegotiated = await ok(
      seller.token,
      `mutation ($id: String!, $version: Long!, $asAssociate: AsAssociateArgument!) {
      updateQuote(id: $id, version: $version, asAssociate: $asAssociate, actions: [{ requestQuoteRenegotiation: { buyerComment: "10% please" } }]) { ${QUOTE} }
    }`,
      { id: first.id, version: first.version, asAssociate: asBuyer() },
    );
    expect(renegotiated).toMatchObject({
      quoteState: 'DeclinedForRenegotiation',
      buyerComment: '10% please',
      lastModifiedBy: { associateRef: { id: buyer.id } },
    });

    const revising = await ok(
      seller.token,
      `mutation ($id: String!, $version: Long!) {
      updateStagedQuote(id: $id, version: $version, actions: [{ changeStagedQuoteState: { stagedQuoteState: InProgress } }]) { version stagedQuoteState }
    }`,
      { id: staged.id, version: commented.version + 1 },
    );
    expect(revising.stagedQuoteState).toBe('InProgress');
    const second = await ok(seller.token, createQuote, {
      draft: { stagedQuote: { key: 'gql-offer' }, stagedQuoteVersion: revising.version, stagedQuoteStateToSent: true },
    });
    const firstNow = await ok(seller.token, `{ quote(id: "${first.id as string}") { quoteState } }`);
    expect(firstNow.quoteState).toBe('RenegotiationAddressed');

    const order = await ok(
      seller.token,
      `mutation ($draft: OrderQuoteCommand!, $asAssociate: AsAssociateArgument!) {
      createOrderFromQuote(draft: $draft, asAssociate: $asAssociate) { id version orderState origin customerId quoteRef { id } businessUnitRef { key } createdBy { associateRef { id } } }
    }`,
      { draft: { quote: { id: second.id }, version: second.version, quoteStateToAccepted: true }, asAssociate: asBuyer() },
    );
    expect(order).toMatchObject({
      orderState: 'Open',
      origin: 'Quote',
      customerId: buyer.id,
      quoteRef: { id: second.id },
      businessUnitRef: { key: UNIT },
      createdBy: { associateRef: { id: buyer.id } },
    });

    await seller.ok(`/${P}/channels`, { key: 'gql-erp', roles: ['OrderExport'] }, 201);
    const numbered = await ok(
      seller.token,
      `mutation ($id: String!, $version: Long!) {
      updateOrder(id: $id, version: $version, actions: [{ setOrderNumber: { orderNumber: "GQL-ACME-1" } }]) { version orderNumber }
    }`,
      { id: order.id, version: order.version },
    );
    const confirmed = await ok(
      seller.token,
      `mutation ($version: Long!) {
      updateOrder(orderNumber: "GQL-ACME-1", version: $version, actions: [
        { changeOrderState: { orderState: Confirmed } },
        { addDelivery: { deliveryKey: "d-1", parcels: [{ key: "p-1", trackingData: { trackingId: "T-9" } }] } },
        { setParcelMeasurements: { parcelKey: "p-1", measurements: { weightInGram: 800 } } },
        { updateSyncInfo: { channel: { key: "gql-erp" }, externalId: "ERP-1" } },
        { addItemShippingAddress: { address: { key: "depot", country: "DE" } } },
        { setLineItemShippingDetails: { lineItemKey: "pallets", shippingDetails: { targets: [{ addressKey: "depot", quantity: 3 }] } } }
      ]) { version orderState }
    }`,
      { version: numbered.version },
    );
    expect(confirmed.orderState).toBe('Confirmed');
    const stored = await seller.read(`/${P}/orders/${order.id as string}`);
    expect(stored.lineItems[0].shippingDetails).toEqual({ targets: [{ addressKey: 'depot', quantity: 3 }], valid: true });
    expect(stored.syncInfo).toMatchObject([{ channel: { typeId: 'channel' }, externalId: 'ERP-1' }]);
    expect(stored.shippingInfo.deliveries[0].parcels[0]).toMatchObject({
      key: 'p-1',
      trackingData: { trackingId: 'T-9', isReturn: false },
      measurements: { weightInGram: 800 },
    });
    expect((await ok(seller.token, `{ quote(id: "${second.id as string}") { quoteState } }`)).quoteState).toBe('Accepted');
  });

  it("checks the associate's permission in the unit, the unit, the state rules and the version, with REST's codes", async () => {
    const { seller, buyer, admin } = parties;
    // A quote of the Admin: the Buyer may not answer or order it (Others' quotes).
    const adminsCart = await orderableCart(P, admin, { businessUnit: { key: UNIT } });
    const request = await admin.caller.ok(`/${P}/me/quote-requests`, { cart: { id: adminsCart.id }, cartVersion: adminsCart.version }, 201);
    const staged = await seller.ok(
      `/${P}/staged-quotes`,
      { quoteRequest: { id: request.id }, quoteRequestVersion: request.version, quoteRequestStateToAccepted: true },
      201,
    );
    const quote = await seller.ok(`/${P}/quotes`, { stagedQuote: { id: staged.id }, stagedQuoteVersion: staged.version, stagedQuoteStateToSent: true }, 201);
    const accept = `mutation ($version: Long!, $asAssociate: AsAssociateArgument) {
      updateQuote(id: "${quote.id as string}", version: $version, asAssociate: $asAssociate, actions: [{ changeQuoteState: { quoteState: Accepted } }]) { quoteState }
    }`;
    expect(await errorOf(seller.token, accept, { version: quote.version, asAssociate: asBuyer() })).toMatchObject({
      code: 'AssociateMissingPermission',
      statusCode: 403,
    });
    expect(
      await errorOf(
        seller.token,
        `mutation ($draft: OrderQuoteCommand!, $asAssociate: AsAssociateArgument!) { createOrderFromQuote(draft: $draft, asAssociate: $asAssociate) { id } }`,
        {
          draft: { quote: { id: quote.id }, version: quote.version },
          asAssociate: asBuyer(),
        },
      ),
    ).toMatchObject({ code: 'AssociateMissingPermission' });
    // Another unit's name in the argument: the quote is not of that unit.
    await seller.ok(
      `/${P}/business-units`,
      { key: 'other-unit', name: 'Other', unitType: 'Company', associates: [{ roles: ['Admin'], customer: { typeId: 'customer', id: admin.id } }] },
      201,
    );
    expect(
      await errorOf(seller.token, accept, { version: quote.version, asAssociate: { associateId: admin.id, businessUnitKey: 'other-unit' } }),
    ).toMatchObject({ code: 'InvalidOperation' });
    // The seller's rules: DeclinedForRenegotiation only through requestQuoteRenegotiation; a stale version is a 409.
    const declineForRenegotiation = `mutation { updateQuote(id: "${quote.id as string}", version: ${quote.version as number}, actions: [{ changeQuoteState: { quoteState: DeclinedForRenegotiation } }]) { quoteState } }`;
    expect(await errorOf(seller.token, declineForRenegotiation)).toMatchObject({ code: 'InvalidOperation', statusCode: 400 });
    expect(await errorOf(seller.token, accept, { version: quote.version + 5, asAssociate: { associateId: admin.id, businessUnitKey: UNIT } })).toMatchObject({
      code: 'ConcurrentModification',
      currentVersion: quote.version,
    });
    // The Admin may accept anyone's quote in the unit; nothing above changed it.
    const accepted = await ok(seller.token, accept, { version: quote.version, asAssociate: { associateId: admin.id, businessUnitKey: UNIT } });
    expect(accepted.quoteState).toBe('Accepted');
    // A buyer token cannot use the seller's mutations.
    expect(await errorOf(buyer.caller.token, `mutation { deleteQuote(id: "${quote.id as string}", version: 1) { id } }`)).toMatchObject({
      code: 'InsufficientScope',
    });
  });

  it('the buyer answers and orders only their own documents; the seller deletes with the Deleted messages', async () => {
    const { seller, buyer, admin } = parties;
    const cart = await orderableCart(P, buyer, { businessUnit: { key: UNIT } });
    const request = await buyer.caller.ok(`/${P}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
    const notTheirs = await errorOf(
      admin.caller.token,
      `mutation { updateMyQuoteRequest(id: "${request.id as string}", version: ${request.version as number}, actions: [{ cancelQuoteRequest: {} }]) { id } }`,
    );
    expect(notTheirs.code).toBe('ResourceNotFound');
    const cancelled = await ok(
      buyer.caller.token,
      `mutation { updateMyQuoteRequest(id: "${request.id as string}", version: ${request.version as number}, actions: [{ cancelQuoteRequest: {} }]) { quoteRequestState } }`,
    );
    expect(cancelled.quoteRequestState).toBe('Cancelled');

    const ownCart = await orderableCart(P, buyer, { businessUnit: { key: UNIT } });
    const order = await ok(
      buyer.caller.token,
      `mutation ($draft: OrderMyCartCommand!) { createMyOrderFromCart(draft: $draft) { id version customerId cartRef { id } } }`,
      { draft: { id: ownCart.id, version: ownCart.version } },
    );
    expect(order).toMatchObject({ customerId: buyer.id, cartRef: { id: ownCart.id } });
    const deleted = await ok(seller.token, `mutation ($id: String!, $version: Long!) { deleteOrder(id: $id, version: $version) { id } }`, {
      id: order.id,
      version: order.version,
    });
    expect(deleted.id).toBe(order.id);
    expect((await seller.get(`/${P}/orders/${order.id as string}`)).status).toBe(404);
    const deletedRequest = await ok(
      seller.token,
      `mutation { deleteQuoteRequest(id: "${request.id as string}", version: ${(request.version as number) + 1}) { id } }`,
    );
    expect(deletedRequest.id).toBe(request.id);
  });
});
