import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, customerClient, type Client } from './support.js';

const P = 'bu-rest-assoc';
/** A catalogue item (beforeAll): a buyer's line items take the catalogue's price (MyLineItemDraft has no externalPrice). */
const lineItem = { sku: 'sku-1', quantity: 2 };

/** §1.4 over REST: carts and quote requests that reference a business unit check the acting customer. */
describe('business-unit associates on REST carts and quote requests', () => {
  let gateway: TestGateway;
  let merchant: Client;
  let buyer: Client;
  let outsider: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    merchant = await apiClient(gateway, P, ['manage_business_units', 'manage_orders', 'manage_quote_requests', 'manage_products']);
    buyer = await customerClient(gateway, P, ['manage_my_orders', 'manage_my_quote_requests']);
    outsider = await customerClient(gateway, P, ['manage_my_orders', 'manage_my_quote_requests']);
    await merchant.ok(
      'POST',
      '/business-units',
      { key: 'acme', name: 'ACME', unitType: 'Company', associates: [{ roles: ['Buyer'], customer: { id: buyer.customerId } }] },
      201,
    );
    await merchant.ok('POST', '/product-types', { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    await merchant.ok(
      'POST',
      '/products',
      {
        key: 'widget',
        productType: { typeId: 'product-type', key: 'plain' },
        name: { en: 'Widget' },
        slug: { en: 'widget' },
        publish: true,
        masterVariant: { sku: 'sku-1', prices: [{ value: { currencyCode: 'EUR', centAmount: 1000 } }] },
      },
      201,
    );
  });
  afterAll(() => gateway.close());

  it('lets an associate create a cart for the unit, and refuses an outsider with 403 AssociateMissingPermission', async () => {
    const cart = await buyer.ok('POST', '/me/carts', { currency: 'EUR', businessUnit: { key: 'acme' }, lineItems: [lineItem] }, 201);
    expect(cart.businessUnit).toEqual({ typeId: 'business-unit', key: 'acme' });
    const refused = await outsider.rest('POST', '/me/carts', { currency: 'EUR', businessUnit: { key: 'acme' } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('AssociateMissingPermission');
  });

  it('refuses setBusinessUnit on an outsider’s own cart and leaves the cart unchanged', async () => {
    const cart = await outsider.ok('POST', '/me/carts', { currency: 'EUR' }, 201);
    const refused = await outsider.rest('POST', `/me/carts/${cart.id as string}`, {
      version: cart.version,
      actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'acme' } }],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('AssociateMissingPermission');
    expect((await outsider.ok('GET', `/me/carts/${cart.id as string}`)).version).toBe(cart.version);
  });

  it('lets the merchant (an API client) set any cart’s unit; quoting it then needs the buyer to be an associate', async () => {
    const cart = await outsider.ok('POST', '/me/carts', { currency: 'EUR', lineItems: [lineItem] }, 201);
    const updated = await merchant.ok('POST', `/carts/${cart.id as string}`, {
      version: cart.version,
      actions: [{ action: 'setBusinessUnit', businessUnit: { key: 'acme' } }],
    });
    expect(updated.businessUnit).toEqual({ typeId: 'business-unit', key: 'acme' });
    const refused = await outsider.rest('POST', '/me/quote-requests', {
      cart: { typeId: 'cart', id: cart.id },
      cartVersion: updated.version,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('AssociateMissingPermission');

    const own = await buyer.ok('POST', '/me/carts', { currency: 'EUR', businessUnit: { key: 'acme' }, lineItems: [lineItem] }, 201);
    const quote = await buyer.ok('POST', '/me/quote-requests', { cart: { typeId: 'cart', id: own.id }, cartVersion: own.version }, 201);
    expect(quote).toMatchObject({ quoteRequestState: 'Submitted', businessUnit: { typeId: 'business-unit', key: 'acme' } });
  });
});
