/**
 * Issue 27: quote requests as associate (`…/in-business-unit/key={unit}/quote-requests`):
 * CreateMyQuoteRequestsFromMyCarts / CreateQuoteRequestsFromOthersCarts by the cart's customer,
 * View/Update{My,Others}QuoteRequests, a cart of another unit → 400 InvalidOperation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { assignment, associate, expectMissingPermission, inUnit, lineItem, merchantOf, newCustomer, type Client, type Json } from './support.js';

/** Starting a gateway and signing customers up takes long on a busy machine. */
const SETUP_MS = 180_000;
const P = 'as-associate-quote-requests';

describe('quote requests as associate', () => {
  let gateway: TestGateway;
  let merchant: Client;
  let buyer: Client;
  let cartsOnly: Client;
  let admin: Client;

  const cartOf = (who: Client, unit = 'acme'): Promise<Json> =>
    merchant.ok('POST', inUnit(admin, unit, 'carts'), { currency: 'EUR', customerId: who.customerId, lineItems: [lineItem] }, 201);
  const draftFrom = (cart: Json): Json => ({ cart: { typeId: 'cart', id: cart.id }, cartVersion: cart.version, comment: 'Please quote' });

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    merchant = await merchantOf(gateway, P);
    buyer = await newCustomer(gateway, P);
    cartsOnly = await newCustomer(gateway, P);
    admin = await newCustomer(gateway, P);
    await merchant.ok('POST', '/associate-roles', { key: 'carts-only', permissions: ['ViewMyCarts', 'CreateMyCarts', 'UpdateMyCarts'] }, 201);
    const associates = [associate(buyer, assignment('Buyer')), associate(cartsOnly, assignment('carts-only')), associate(admin, assignment('Admin'))];
    await merchant.ok('POST', '/business-units', { key: 'acme', name: 'ACME', unitType: 'Company', associates }, 201);
    await merchant.ok('POST', '/business-units', { key: 'other', name: 'Other', unitType: 'Company', associates }, 201);
  }, SETUP_MS);
  afterAll(() => gateway.close());

  it('creates a quote request from its own cart with CreateMyQuoteRequestsFromMyCarts, and reads it', async () => {
    const cart = await cartOf(buyer);
    const request = await merchant.ok('POST', inUnit(buyer, 'acme', 'quote-requests'), draftFrom(cart), 201);
    expect(request).toMatchObject({ quoteRequestState: 'Submitted', customer: { id: buyer.customerId }, businessUnit: { key: 'acme' } });
    expect((await merchant.ok('GET', inUnit(buyer, 'acme', `quote-requests/${request.id as string}`))).id).toBe(request.id);
    const page = await merchant.ok('GET', inUnit(buyer, 'acme', 'quote-requests'));
    expect(page.results.map((found: Json) => found.id)).toEqual([request.id]);
  });

  it('refuses without the permission, and for another customer’s cart without the Others one', async () => {
    const own = await cartOf(cartsOnly);
    expectMissingPermission(await merchant.rest('POST', inUnit(cartsOnly, 'acme', 'quote-requests'), draftFrom(own)), {
      associate: cartsOnly,
      unit: 'acme',
      permissions: ['CreateMyQuoteRequestsFromMyCarts'],
    });
    expectMissingPermission(await merchant.rest('POST', inUnit(buyer, 'acme', 'quote-requests'), draftFrom(own)), {
      associate: buyer,
      unit: 'acme',
      permissions: ['CreateQuoteRequestsFromOthersCarts'],
      onBehalfOf: cartsOnly,
    });
    const forOther = await merchant.ok('POST', inUnit(admin, 'acme', 'quote-requests'), draftFrom(own), 201);
    expect(forOther.customer.id).toBe(cartsOnly.customerId);
    expectMissingPermission(await merchant.rest('GET', inUnit(cartsOnly, 'acme', `quote-requests/${forOther.id as string}`)), {
      associate: cartsOnly,
      unit: 'acme',
      permissions: ['ViewMyQuoteRequests'],
    });
    expectMissingPermission(await merchant.rest('GET', inUnit(cartsOnly, 'acme', 'quote-requests')), {
      associate: cartsOnly,
      unit: 'acme',
      permissions: ['ViewMyQuoteRequests', 'ViewOthersQuoteRequests'],
    });
  });

  it('refuses a cart of another unit with 400 InvalidOperation', async () => {
    const elsewhere = await cartOf(buyer, 'other');
    const answer = await merchant.rest('POST', inUnit(buyer, 'acme', 'quote-requests'), draftFrom(elsewhere));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
  });

  it('updates with UpdateMyQuoteRequests, another customer’s only with UpdateOthersQuoteRequests', async () => {
    const request = await merchant.ok('POST', inUnit(buyer, 'acme', 'quote-requests'), draftFrom(await cartOf(buyer)), 201);
    const cancel = { version: request.version, actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Cancelled' }] };
    expectMissingPermission(await merchant.rest('POST', inUnit(cartsOnly, 'acme', `quote-requests/${request.id as string}`), cancel), {
      associate: cartsOnly,
      unit: 'acme',
      permissions: ['UpdateOthersQuoteRequests'],
      onBehalfOf: buyer,
    });
    const cancelled = await merchant.ok('POST', inUnit(buyer, 'acme', `quote-requests/${request.id as string}`), cancel);
    expect(cancelled.quoteRequestState).toBe('Cancelled');
  });
});
