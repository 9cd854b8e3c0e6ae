import { address, callerWith, customerWithToken, lineItem, type Caller, type Customer, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';

/** What a buyer's password-flow token carries in these tests. */
export const BUYER_SCOPES = ['manage_my_orders', 'manage_my_quote_requests', 'manage_my_quotes'] as const;

/** The seller's API client: every resource of the negotiation, and the fixtures it needs. */
export const SELLER_SCOPES = [
  'manage_orders',
  'manage_quote_requests',
  'manage_staged_quotes',
  'manage_quotes',
  'manage_customers',
  'manage_business_units',
  'manage_associate_roles',
  'manage_states',
  'manage_types',
  'manage_subscriptions',
  'manage_channels',
] as const;

export interface Parties {
  seller: Caller;
  buyer: Customer;
  admin: Customer;
}

/**
 * The three parties of issue 27's walk: the seller (an API client), and two associates of the
 * business unit `unitKey` with the spec's roles (§2.2 `roles: [Admin, Buyer]`).
 */
export async function negotiationParties(gateway: TestGateway, projectKey: string, unitKey: string): Promise<Parties> {
  const seller = await callerWith(gateway, projectKey, SELLER_SCOPES);
  const buyer = await customerWithToken(gateway, projectKey, seller, BUYER_SCOPES);
  const admin = await customerWithToken(gateway, projectKey, seller, BUYER_SCOPES);
  await seller.ok(
    `/${projectKey}/business-units`,
    {
      key: unitKey,
      name: 'ACME',
      unitType: 'Company',
      associates: [
        { roles: ['Buyer'], customer: { typeId: 'customer', id: buyer.id } },
        { roles: ['Admin'], customer: { typeId: 'customer', id: admin.id } },
      ],
    },
    201,
  );
  return { seller, buyer, admin };
}

/**
 * A buyer's cart with a shipping address (orders need one), optionally of a business unit. Its
 * item has an external price, which a buyer cannot set (MyLineItemDraft has no externalPrice):
 * the merchant (an API client with manage_orders) makes the cart on `/carts` for the customer.
 */
export async function orderableCart(projectKey: string, buyer: Customer, extra: Json = {}): Promise<Json> {
  const merchant = await buyer.caller.withClient(projectKey, ['manage_orders']);
  return merchant.ok(
    `/${projectKey}/carts`,
    {
      currency: 'EUR',
      customerId: buyer.id,
      country: 'DE',
      lineItems: [lineItem('SKU-1', 1000, 3)],
      shippingAddress: address('DE'),
      ...extra,
    },
    201,
  );
}

/** A quote request of `buyer` made from a fresh cart, Submitted. */
export async function submittedQuoteRequest(projectKey: string, buyer: Customer, extra: Json = {}): Promise<Json> {
  const cart = await orderableCart(projectKey, buyer, extra);
  return buyer.caller.ok(`/${projectKey}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
}

/** A staged quote made by the seller from a fresh quote request (accepted on the way). */
export async function stagedQuoteFor(projectKey: string, parties: Pick<Parties, 'seller' | 'buyer'>, extra: Json = {}): Promise<Json> {
  const quoteRequest = await submittedQuoteRequest(projectKey, parties.buyer);
  return parties.seller.ok(
    `/${projectKey}/staged-quotes`,
    {
      quoteRequest: { typeId: 'quote-request', id: quoteRequest.id },
      quoteRequestVersion: quoteRequest.version,
      quoteRequestStateToAccepted: true,
      ...extra,
    },
    201,
  );
}

/** A Pending quote sent by the seller from a fresh staged quote. */
export async function pendingQuoteFor(projectKey: string, parties: Pick<Parties, 'seller' | 'buyer'>, extra: Json = {}): Promise<Json> {
  const stagedQuote = await stagedQuoteFor(projectKey, parties);
  return parties.seller.ok(
    `/${projectKey}/quotes`,
    {
      stagedQuote: { typeId: 'staged-quote', id: stagedQuote.id },
      stagedQuoteVersion: stagedQuote.version,
      stagedQuoteStateToSent: true,
      ...extra,
    },
    201,
  );
}
