import { expect } from 'vitest';
import { address, lineItem, type Caller, type Customer, type Json } from '../carts/commerce.js';

/** Scopes of a buyer's password-flow token in these tests. */
export const BUYER_SCOPES = ['manage_my_orders', 'manage_my_quote_requests'] as const;

/**
 * A cart of `buyer`, ready to be quoted (no discount codes), with prices the buyer could not set
 * (external line item prices, a custom line item: not in MyCartDraft). As a real project makes
 * it: the merchant (an API client with manage_orders) creates it on `/carts` for the customer,
 * who then uses it through `/me/carts/{id}`.
 */
export async function buyerCart(projectKey: string, buyer: Customer, extra: Json = {}): Promise<Json> {
  const merchant = await buyer.caller.withClient(projectKey, ['manage_orders']);
  return merchant.ok(
    `/${projectKey}/carts`,
    {
      currency: 'EUR',
      customerId: buyer.id,
      country: 'DE',
      lineItems: [lineItem('SKU-1', 1000, 3), lineItem('SKU-2', 250, 2)],
      customLineItems: [{ name: { en: 'Setup' }, slug: 'setup', money: { currencyCode: 'EUR', centAmount: 700 } }],
      billingAddress: address('DE', { company: 'ACME' }),
      ...extra,
    },
    201,
  );
}

/** A quote request the buyer submits for their cart through `/me/quote-requests`. */
export async function submitQuoteRequest(projectKey: string, buyer: Customer, extra: Json = {}): Promise<Json> {
  const cart = await buyerCart(projectKey, buyer);
  const created = await buyer.caller.post(`/${projectKey}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.quoteRequestState).toBe('Submitted');
  return created.body;
}

export async function changeState(caller: Caller, url: string, version: number, quoteRequestState: string) {
  return caller.post(url, { version, actions: [{ action: 'changeQuoteRequestState', quoteRequestState }] });
}
