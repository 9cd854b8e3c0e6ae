import { randomUUID } from 'node:crypto';
import type { ApiRequest, ByProjectKeyRequestBuilder, Customer, Message } from '@commercetools/platform-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BOOTSTRAP_CLIENT } from '../support/gateway.js';
import { apiRoot, baseBuilder, serveHerald, type SdkTarget, type ServedHerald } from '../compat/support.js';
import { SELLER_SCOPES } from './fixtures.js';

const P = 'negotiation-sdk';
const UNIT = 'acme';

/** Executes an SDK request that must succeed with `status`; returns the typed body. */
async function body<T>(request: ApiRequest<T>, status = 200): Promise<T> {
  const response = await request.execute();
  expect(response.statusCode, JSON.stringify(response.body)).toBe(status);
  return response.body as T;
}

/**
 * Issue 27, "the same walk through the official TypeScript SDK": Herald on a real socket, driven
 * only through @commercetools/platform-sdk's request builders over @commercetools/ts-client. The
 * seller is an API client; the buyer and admin associates act through the SDK's
 * `asAssociate().withAssociateIdValue().inBusinessUnitKeyWithBusinessUnitKeyValue()` builders.
 */
describe('the B2B negotiation through the official TypeScript SDK', { timeout: 180_000 }, () => {
  let served: ServedHerald;
  let seller: ByProjectKeyRequestBuilder;

  beforeAll(async () => {
    served = await serveHerald(P, {});
    const target: SdkTarget = { url: served.herald.url, projectKey: P };
    const client = baseBuilder(target)
      .withClientCredentialsFlow({
        host: target.url,
        projectKey: P,
        credentials: { clientId: TEST_BOOTSTRAP_CLIENT.id, clientSecret: TEST_BOOTSTRAP_CLIENT.secret },
        scopes: [...SELLER_SCOPES, 'view_messages'].map((scope) => `${scope}:${P}`),
        httpClient: fetch,
      })
      .build();
    seller = apiRoot(client, target);
  }, 180_000);
  afterAll(() => served?.stop());

  const signUp = async (name: string): Promise<Customer> =>
    (await body(seller.customers().post({ body: { email: `${name}-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` } }), 201)).customer;
  const inUnit = (associate: Customer) =>
    seller.asAssociate().withAssociateIdValue({ associateId: associate.id }).inBusinessUnitKeyWithBusinessUnitKeyValue({ businessUnitKey: UNIT });

  async function messageTypes(resourceId: string): Promise<string[]> {
    const page = await body(seller.messages().get({ queryArgs: { where: `resource(id="${resourceId}")`, sort: 'sequenceNumber asc', limit: 100 } }));
    const messages: Message[] = page.results;
    expect(messages.map((message) => message.sequenceNumber)).toEqual(messages.map((_message, index) => index + 1));
    return messages.map((message) => message.type);
  }

  it('walks cart → quote request → staged quote → quote → renegotiation → quote → order with the three parties', async () => {
    const buyer = await signUp('buyer');
    const admin = await signUp('admin');
    await body(
      seller.businessUnits().post({
        body: {
          key: UNIT,
          name: 'ACME',
          unitType: 'Company',
          associates: [
            { customer: { typeId: 'customer', id: buyer.id }, associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'Buyer' } }] },
            { customer: { typeId: 'customer', id: admin.id }, associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'Admin' } }] },
          ],
        },
      }),
      201,
    );

    // The buyer associate's cart in the unit, and their quote request for it.
    const cart = await body(
      inUnit(buyer)
        .carts()
        .post({
          body: {
            currency: 'EUR',
            country: 'DE',
            shippingAddress: { country: 'DE', city: 'Berlin' },
            customLineItems: [{ name: { en: 'Pallet of widgets' }, slug: 'widgets', quantity: 2, money: { currencyCode: 'EUR', centAmount: 15000 } }],
          },
        }),
      201,
    );
    expect(cart).toMatchObject({ customerId: buyer.id, businessUnit: { key: UNIT } });
    const quoteRequest = await body(
      inUnit(buyer)
        .quoteRequests()
        .post({ body: { cart: { typeId: 'cart', id: cart.id }, cartVersion: cart.version, comment: 'Volume price?' } }),
      201,
    );
    expect(quoteRequest).toMatchObject({ quoteRequestState: 'Submitted', customer: { id: buyer.id }, businessUnit: { key: UNIT } });

    // The seller stages and sends an offer.
    const staged = await body(
      seller.stagedQuotes().post({
        body: { quoteRequest: { typeId: 'quote-request', id: quoteRequest.id }, quoteRequestVersion: quoteRequest.version, quoteRequestStateToAccepted: true },
      }),
      201,
    );
    expect(staged.stagedQuoteState).toBe('InProgress');
    const commented = await body(
      seller
        .stagedQuotes()
        .withId({ ID: staged.id })
        .post({
          body: {
            version: staged.version,
            actions: [
              { action: 'setSellerComment', sellerComment: '5% off' },
              { action: 'setValidTo', validTo: '2099-01-01T00:00:00.000Z' },
            ],
          },
        }),
    );
    const first = await body(
      seller.quotes().post({
        body: { stagedQuote: { typeId: 'staged-quote', id: staged.id }, stagedQuoteVersion: commented.version, stagedQuoteStateToSent: true },
      }),
      201,
    );
    expect(first).toMatchObject({ quoteState: 'Pending', sellerComment: '5% off', customer: { id: buyer.id } });

    // One renegotiation round: the buyer asks, the seller revises and sends a new quote.
    const renegotiating = await body(
      inUnit(buyer)
        .quotes()
        .withId({ ID: first.id })
        .post({
          body: { version: first.version, actions: [{ action: 'requestQuoteRenegotiation', buyerComment: '10% please' }] },
        }),
    );
    expect(renegotiating).toMatchObject({ quoteState: 'DeclinedForRenegotiation', buyerComment: '10% please' });
    const sent = await body(seller.stagedQuotes().withId({ ID: staged.id }).get());
    expect(sent.stagedQuoteState).toBe('Sent');
    const revising = await body(
      seller
        .stagedQuotes()
        .withId({ ID: staged.id })
        .post({
          body: {
            version: sent.version,
            actions: [
              { action: 'changeStagedQuoteState', stagedQuoteState: 'InProgress' },
              { action: 'setSellerComment', sellerComment: '10% off' },
            ],
          },
        }),
    );
    const second = await body(
      seller.quotes().post({
        body: { stagedQuote: { typeId: 'staged-quote', id: staged.id }, stagedQuoteVersion: revising.version, stagedQuoteStateToSent: true },
      }),
      201,
    );
    expect(second).toMatchObject({ quoteState: 'Pending', sellerComment: '10% off' });
    expect((await body(seller.quotes().withId({ ID: first.id }).get())).quoteState).toBe('RenegotiationAddressed');

    // The admin associate orders the buyer's quote for the unit (CreateOrdersFromOthersQuotes).
    const order = await body(
      inUnit(admin)
        .orders()
        .orderQuote()
        .post({
          body: { quote: { typeId: 'quote', id: second.id }, version: second.version, quoteStateToAccepted: true },
        }),
      201,
    );
    expect(order).toMatchObject({
      orderState: 'Open',
      origin: 'Quote',
      customerId: buyer.id,
      businessUnit: { key: UNIT },
      createdBy: { associate: { id: admin.id } },
    });
    expect((await body(seller.quotes().withId({ ID: second.id }).get())).quoteState).toBe('Accepted');
    expect((await body(inUnit(buyer).orders().withId({ ID: order.id }).get())).id).toBe(order.id);

    // The seller fulfils it with the reference's order actions.
    const shipped = await body(
      seller
        .orders()
        .withId({ ID: order.id })
        .post({
          body: {
            version: order.version,
            actions: [
              { action: 'setOrderNumber', orderNumber: `SDK-${randomUUID()}` },
              { action: 'changeOrderState', orderState: 'Confirmed' },
              {
                action: 'addDelivery',
                deliveryKey: 'first',
                items: [{ id: order.customLineItems[0]?.id ?? '', quantity: 2 }],
                parcels: [{ key: 'box', trackingData: { trackingId: 'T-1' } }],
              },
              { action: 'changeShipmentState', shipmentState: 'Shipped' },
            ],
          },
        }),
    );
    expect(shipped).toMatchObject({ orderState: 'Confirmed', shipmentState: 'Shipped' });
    expect(shipped.shippingInfo?.deliveries?.[0]?.parcels[0]?.trackingData).toEqual({ trackingId: 'T-1' });

    expect(await messageTypes(quoteRequest.id)).toEqual(['QuoteRequestCreated', 'QuoteRequestStateChanged']);
    expect(await messageTypes(staged.id)).toEqual([
      'StagedQuoteCreated',
      'StagedQuoteSellerCommentSet',
      'StagedQuoteValidToSet',
      'StagedQuoteStateChanged',
      'StagedQuoteStateChanged',
      'StagedQuoteSellerCommentSet',
      'StagedQuoteStateChanged',
    ]);
    expect(await messageTypes(first.id)).toEqual(['QuoteCreated', 'QuoteRenegotiationRequested', 'QuoteStateChanged']);
    expect(await messageTypes(second.id)).toEqual(['QuoteCreated', 'QuoteStateChanged']);
    expect(await messageTypes(order.id)).toEqual(['OrderCreated', 'OrderStateChanged', 'DeliveryAdded', 'ParcelAddedToDelivery', 'OrderShipmentStateChanged']);
  });
});
