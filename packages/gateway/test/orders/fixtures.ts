import { address, callerWith, customerWithToken, lineItem, type Caller, type Customer, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';

/** The seller's API client for order tests: orders, the carts they come from, States, Types, channels, messages. */
export const ORDER_SELLER_SCOPES = ['manage_orders', 'manage_customers', 'manage_states', 'manage_types', 'manage_channels', 'view_messages'] as const;

export interface OrderParties {
  seller: Caller;
  buyer: Customer;
}

export async function orderParties(gateway: TestGateway, projectKey: string): Promise<OrderParties> {
  const seller = await callerWith(gateway, projectKey, ORDER_SELLER_SCOPES);
  const buyer = await customerWithToken(gateway, projectKey, seller, ['manage_my_orders']);
  return { seller, buyer };
}

/**
 * An Open order of the buyer with one line item (3 units) and one custom line item (1 unit). The
 * seller makes the buyer's cart on `/carts` (`customerId`): a buyer cannot set these prices on
 * `/me/carts` (MyCartDraft has no customLineItems, MyLineItemDraft no externalPrice).
 */
export async function freshOrder(projectKey: string, { seller, buyer }: OrderParties, extra: Json = {}): Promise<Json> {
  const cart = await seller.ok(
    `/${projectKey}/carts`,
    {
      currency: 'EUR',
      customerId: buyer.id,
      country: 'DE',
      lineItems: [lineItem('SKU-1', 1000, 3, { key: 'li-1' })],
      customLineItems: [{ name: { en: 'Gift wrap' }, slug: 'gift-wrap', key: 'cli-1', quantity: 1, money: { currencyCode: 'EUR', centAmount: 200 } }],
      shippingAddress: address('DE'),
    },
    201,
  );
  return seller.ok(`/${projectKey}/orders`, { cart: { id: cart.id }, version: cart.version, ...extra }, 201);
}

/** The messages of one resource, oldest first (the Messages API, §6.2). */
export async function messagesOf(seller: Caller, projectKey: string, resourceId: string): Promise<Json[]> {
  const where = encodeURIComponent(`resource(id="${resourceId}")`);
  const page = await seller.read(`/${projectKey}/messages?where=${where}&sort=sequenceNumber%20asc&limit=500`);
  return page.results as Json[];
}
