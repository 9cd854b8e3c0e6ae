/**
 * Issue 28, "quote requests, staged quotes, quotes and orders carry the priced items and taxes":
 * a cart priced from the catalogue for a customer of a group, with a shipping method, becomes a
 * quote request (§2.3: customerGroup and shippingInfo "set automatically"), a staged quote whose
 * quotation cart is a copy of the offer (shipping, taxes and customer group included) and a quote
 * (reference Quote.customerGroup, Quote.shippingInfo). Before, the shipping and the customer group
 * were dropped on the way, and the quote answered a tax-free stand-in for the taxed price; the order
 * made from the quote dropped them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, seedCatalogue, SCOPES, type Catalogue } from '../carts/catalogue-fixture.js';
import { address, callerWith, type Caller } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'priced-offer';

describe('the negotiation carries the cart’s shipping, taxes and customer group', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, SCOPES);
    catalogue = await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(() => gateway?.close());

  it('quote request, quotation cart and quote hold the cart’s shippingInfo, customerGroup and taxed prices', async () => {
    const { customer } = await admin.ok(
      `/${P}/customers`,
      { email: 'vip-buyer@example.com', password: 'secret-123456', customerGroup: { typeId: 'customer-group', key: 'vip' } },
      201,
    );
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        customerId: customer.id,
        shippingAddress: address('DE'),
        shippingMethod: { typeId: 'shipping-method', key: 'standard' },
        lineItems: [{ sku: 'shirt-m', quantity: 2 }],
      },
      201,
    );
    // The group's price (8.00) and the zone's rate (4.90): what the copies must keep.
    expect(cart).toMatchObject({ customerGroup: { id: catalogue.vip.id }, lineItems: [{ price: { value: eur(800) } }], shippingInfo: { price: eur(490) } });
    const taxes = { taxedPrice: cart.taxedPrice, shippingInfo: cart.shippingInfo, customerGroup: cart.customerGroup };

    const request = await admin.ok(`/${P}/quote-requests`, { cart: { typeId: 'cart', id: cart.id }, cartVersion: cart.version }, 201);
    expect(request).toMatchObject({ ...taxes, totalPrice: cart.totalPrice });

    const staged = await admin.ok(
      `/${P}/staged-quotes`,
      { quoteRequest: { typeId: 'quote-request', id: request.id }, quoteRequestVersion: request.version, quoteRequestStateToAccepted: true },
      201,
    );
    const quotationCart = await admin.read(`/${P}/carts/${staged.quotationCart.id}`);
    expect(quotationCart).toMatchObject({ ...taxes, totalPrice: cart.totalPrice, taxedShippingPrice: cart.taxedShippingPrice });

    const quote = await admin.ok(`/${P}/quotes`, { stagedQuote: { typeId: 'staged-quote', id: staged.id }, stagedQuoteVersion: staged.version }, 201);
    expect(quote).toMatchObject({ ...taxes, totalPrice: cart.totalPrice });

    // The order from the quote keeps them too (reference Order.shippingInfo, customerGroup, taxedShippingPrice).
    const order = await admin.ok(`/${P}/orders/quotes`, { quote: { typeId: 'quote', id: quote.id }, version: quote.version, quoteStateToAccepted: true }, 201);
    expect(order).toMatchObject({
      ...taxes,
      shippingInfo: { ...cart.shippingInfo, deliveries: [] },
      taxedShippingPrice: cart.taxedShippingPrice,
      totalPrice: cart.totalPrice,
    });
  });
});
