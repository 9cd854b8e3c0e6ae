/**
 * The Extension hook on a write that runs inside a caller's transaction (`within(tx)`: an order
 * made from a cart updates the cart in the order's transaction) reads the project's Extensions in
 * that transaction. On PGlite a read outside it waits for the transaction to end, which waits for
 * the read: the order create hung whenever the cached list of Extensions had expired (5 s of the
 * gateway's clock). A manual clock makes the cache expire between the cart and the order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, callerWith, lineItem, type Caller } from '../carts/commerce.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startExtensionEndpoint, type ExtensionEndpoint } from './support.js';

const P = 'extension-in-transaction';

describe('an Extension hook inside a transaction', { timeout: 60_000 }, () => {
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  let endpoint: ExtensionEndpoint;
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    endpoint = await startExtensionEndpoint();
    gateway = await startTestGateway({ projects: [P], clock });
    admin = await callerWith(gateway, P, ['manage_extensions', 'manage_orders']);
    await admin.ok(
      `/${P}/extensions`,
      { destination: { type: 'HTTP', url: `${endpoint.url}/orders` }, triggers: [{ resourceTypeId: 'order', actions: ['Create'] }] },
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await endpoint?.stop();
  });

  it('creates an order from a cart after the cached Extensions expired, calling the order Extension', async () => {
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', country: 'DE', shippingAddress: address('DE'), lineItems: [lineItem('SKU-1', 1000)] }, 201);
    clock.advance(60_000);
    const order = await admin.ok(`/${P}/orders`, { cart: { id: cart.id }, version: cart.version }, 201);
    expect(order).toMatchObject({ orderState: 'Open', lineItems: [{ variant: { sku: 'SKU-1' } }] });
    expect((await admin.read(`/${P}/carts/${cart.id}`)).cartState).toBe('Ordered');
    expect(endpoint.at('/orders').map((request) => request.body.action)).toEqual(['Create']);
  });
});
