import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, anonymousWithToken, callerWith, customerWithToken, lineItem, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, buyerCart, changeState, submitQuoteRequest } from './fixtures.js';

const P = 'quotes-project';

describe('Quote requests /{projectKey}/quote-requests (§4.1)', () => {
  let gateway: TestGateway;
  let seller: Caller;
  let viewer: Caller;
  let carts: Caller;
  let bea: Customer;
  let carl: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    // Expanding `customer` and `state` needs their view scopes too (§4.4.7 below).
    seller = await callerWith(gateway, P, ['manage_quote_requests', 'view_customers', 'view_states']);
    viewer = await callerWith(gateway, P, ['view_quote_requests', 'view_customers']);
    carts = await callerWith(gateway, P, ['manage_orders', 'manage_customers', 'manage_stores', 'manage_states', 'manage_types']);
    bea = await customerWithToken(gateway, P, carts, BUYER_SCOPES);
    carl = await customerWithToken(gateway, P, carts, BUYER_SCOPES);
    await carts.ok(`/${P}/stores`, { key: 'b2b-store' }, 201);
  });
  afterAll(() => gateway.close());

  describe('create from a cart', () => {
    it("copies the cart's fields, is Submitted and belongs to the cart's customer", async () => {
      const cart = await carts.ok(
        `/${P}/carts`,
        {
          currency: 'EUR',
          customerId: bea.id,
          store: { key: 'b2b-store' },
          country: 'DE',
          lineItems: [lineItem('SKU-1', 1000, 3)],
          customLineItems: [{ name: { en: 'Setup' }, slug: 'setup', money: { currencyCode: 'EUR', centAmount: 700 } }],
          billingAddress: address('DE', { company: 'ACME' }),
          itemShippingAddresses: [address('AT', { key: 'vienna' })],
          inventoryMode: 'ReserveOnOrder',
          taxMode: 'Disabled',
          taxRoundingMode: 'HalfDown',
          taxCalculationMode: 'UnitPriceLevel',
          shippingRateInput: { type: 'Score', score: 2 },
        },
        201,
      );
      const quoteRequest = await seller.ok(
        `/${P}/quote-requests`,
        { key: 'qr-copy', cart: { typeId: 'cart', id: cart.id }, cartVersion: 1, comment: 'Please quote 3' },
        201,
      );
      const copied = [
        'store',
        'country',
        'lineItems',
        'customLineItems',
        'totalPrice',
        'billingAddress',
        'itemShippingAddresses',
        'directDiscounts',
        'inventoryMode',
        'taxMode',
        'taxRoundingMode',
        'taxCalculationMode',
        'shippingRateInput',
      ];
      for (const field of copied) expect(quoteRequest[field], field).toEqual(cart[field]);
      expect(quoteRequest).toMatchObject({
        version: 1,
        key: 'qr-copy',
        quoteRequestState: 'Submitted',
        comment: 'Please quote 3',
        customer: { typeId: 'customer', id: bea.id },
        totalPrice: { currencyCode: 'EUR', centAmount: 3700 },
      });
      // §2.3: no taxedPrice until the shipping address is set.
      expect(quoteRequest).not.toHaveProperty('taxedPrice');
      expect(quoteRequest).not.toHaveProperty('shippingAddress');
      expect(quoteRequest).not.toHaveProperty('state');
    });

    it('has a taxedPrice (net = gross = total, no tax engine) once the cart has a shipping address', async () => {
      const cart = await buyerCart(P, bea, { shippingAddress: address('DE') });
      const quoteRequest = await seller.ok(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
      expect(quoteRequest.shippingAddress).toEqual(cart.shippingAddress);
      expect(quoteRequest.taxedPrice).toEqual({
        totalNet: cart.totalPrice,
        totalGross: cart.totalPrice,
        totalTax: { ...cart.totalPrice, centAmount: 0 },
        taxPortions: [],
      });
    });

    it('needs the current cart version (409 ConcurrentModification otherwise)', async () => {
      const cart = await buyerCart(P, bea);
      await bea.caller.update(`/${P}/me/carts/${cart.id}`, 1, [{ action: 'setCountry', country: 'AT' }]);
      const stale = await seller.post(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: 1 });
      expect(stale.status).toBe(409);
      expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 2 });
      const byKey = await bea.caller.update(`/${P}/me/carts/${cart.id}`, 2, [{ action: 'setCountry', country: 'DE' }]);
      expect(byKey.version).toBe(3);
      expect((await seller.post(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: 3 })).status).toBe(201);
    });

    it('refuses anonymous carts and carts with discount codes with a clear message', async () => {
      const anonymous = await anonymousWithToken(gateway, P, ['manage_my_orders']);
      // An anonymous session's cart with a priced item: the merchant makes it for the session (a buyer cannot set a price).
      const anonymousCart = await carts.ok(`/${P}/carts`, { currency: 'EUR', anonymousId: anonymous.anonymousId, lineItems: [lineItem('A', 100)] }, 201);
      expect((await anonymous.caller.read(`/${P}/me/carts/${anonymousCart.id}`)).anonymousId).toBe(anonymous.anonymousId);
      const refusedAnonymous = await seller.post(`/${P}/quote-requests`, { cart: { id: anonymousCart.id }, cartVersion: 1 });
      expect(refusedAnonymous.status).toBe(400);
      expect(refusedAnonymous.body.errors[0].code).toBe('InvalidOperation');
      expect(refusedAnonymous.body.message).toContain('anonymous');

      const noOwner = await carts.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
      expect((await seller.post(`/${P}/quote-requests`, { cart: { id: noOwner.id }, cartVersion: 1 })).body.message).toContain('anonymous');

      // Discount codes are looked up by their text (CartDraft.discountCodes); the cart holds DiscountCodeInfo references.
      const discounts = await callerWith(gateway, P, ['manage_cart_discounts', 'manage_discount_codes']);
      const spring = await discounts.ok(
        `/${P}/discount-codes`,
        {
          code: 'SPRING',
          cartDiscounts: [
            await discounts.ok(
              `/${P}/cart-discounts`,
              {
                name: { en: 'Spring' },
                value: { type: 'relative', permyriad: 1000 },
                target: { type: 'totalPrice' },
                cartPredicate: '1 = 1',
                sortOrder: '0.3',
                requiresDiscountCode: true,
              },
              201,
            ),
          ].map(({ id }) => ({ typeId: 'cart-discount', id })),
        },
        201,
      );
      const discounted = await buyerCart(P, bea, { discountCodes: ['SPRING'] });
      const refusedDiscount = await seller.post(`/${P}/quote-requests`, { cart: { id: discounted.id }, cartVersion: 1 });
      expect(refusedDiscount.status).toBe(400);
      expect(refusedDiscount.body.errors[0].code).toBe('InvalidOperation');
      expect(refusedDiscount.body.message).toContain(`discount codes (${spring.id})`);
      const withoutCode = await bea.caller.update(`/${P}/me/carts/${discounted.id}`, 1, [
        { action: 'removeDiscountCode', discountCode: { typeId: 'discount-code', id: spring.id } },
      ]);
      expect((await seller.post(`/${P}/quote-requests`, { cart: { id: discounted.id }, cartVersion: withoutCode.version })).status).toBe(201);
    });

    it('validates the draft: cart, cartVersion, key (§2.3), state and custom fields', async () => {
      const cart = await buyerCart(P, bea);
      await carts.ok(`/${P}/states`, { key: 'order-state', type: 'OrderState' }, 201);
      const cases: Array<[string, Json, number, string]> = [
        ['no cart', { cartVersion: 1 }, 400, 'RequiredField'],
        ['no cartVersion', { cart: { id: cart.id } }, 400, 'RequiredField'],
        ['unknown cart', { cart: { id: 'nope' }, cartVersion: 1 }, 400, 'ReferencedResourceNotFound'],
        ['wrong typeId', { cart: { typeId: 'order', id: cart.id }, cartVersion: 1 }, 400, 'InvalidInput'],
        ['key too short', { cart: { id: cart.id }, cartVersion: 1, key: 'a' }, 400, 'InvalidInput'],
        ['key too long', { cart: { id: cart.id }, cartVersion: 1, key: 'a'.repeat(257) }, 400, 'InvalidInput'],
        ['key with a dot', { cart: { id: cart.id }, cartVersion: 1, key: 'a.b' }, 400, 'InvalidInput'],
        ['key with a space', { cart: { id: cart.id }, cartVersion: 1, key: 'a b' }, 400, 'InvalidInput'],
        ['unknown state', { cart: { id: cart.id }, cartVersion: 1, state: { key: 'nope' } }, 400, 'ReferencedResourceNotFound'],
        ['state of orders', { cart: { id: cart.id }, cartVersion: 1, state: { key: 'order-state' } }, 400, 'InvalidInput'],
        ['unknown custom type', { cart: { id: cart.id }, cartVersion: 1, custom: { type: { key: 'nope' }, fields: {} } }, 400, 'InvalidInput'],
      ];
      for (const [what, draft, status, code] of cases) {
        const answer = await seller.post(`/${P}/quote-requests`, draft);
        expect(answer.status, what).toBe(status);
        expect(answer.body.errors[0].code, what).toBe(code);
      }
      const shortest = await seller.ok(`/${P}/quote-requests`, { cart: { key: undefined, id: cart.id }, cartVersion: 1, key: 'ab' }, 201);
      expect(shortest.key).toBe('ab');
      const longest = 'A-_9'.repeat(64);
      expect((await seller.ok(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: 1, key: longest }, 201)).key).toBe(longest);
      const duplicate = await seller.post(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: 1, key: 'ab' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.errors[0].code).toBe('DuplicateField');
    });

    it('takes a workflow State and custom fields', async () => {
      await carts.ok(`/${P}/states`, { key: 'review', type: 'QuoteRequestState', initial: true }, 201);
      await carts.ok(
        `/${P}/types`,
        {
          key: 'qr-fields',
          name: { en: 'Quote request fields' },
          resourceTypeIds: ['quote-request'],
          fieldDefinitions: [{ name: 'urgency', label: { en: 'Urgency' }, required: true, type: { name: 'Number' } }],
        },
        201,
      );
      const cart = await buyerCart(P, bea);
      const draft = { cart: { id: cart.id }, cartVersion: 1, state: { typeId: 'state', key: 'review' } };
      const missing = await seller.post(`/${P}/quote-requests`, { ...draft, custom: { type: { key: 'qr-fields' }, fields: {} } });
      expect(missing.status).toBe(400);
      const created = await seller.ok(`/${P}/quote-requests?expand=state`, { ...draft, custom: { type: { key: 'qr-fields' }, fields: { urgency: 3 } } }, 201);
      expect(created.state).toMatchObject({ typeId: 'state', obj: { key: 'review' } });
      expect(created.custom.fields).toEqual({ urgency: 3 });
    });
  });

  describe('the eight operations', () => {
    it('gets, updates and deletes by id and by key, with expand', async () => {
      const created = await submitQuoteRequest(P, bea, { key: 'qr-ops' });
      expect(await viewer.read(`/${P}/quote-requests/${created.id}`)).toEqual(created);
      expect(await viewer.read(`/${P}/quote-requests/key=qr-ops`)).toEqual(created);
      const expanded = await viewer.read(`/${P}/quote-requests/key=qr-ops?expand=customer`);
      expect(expanded.customer).toMatchObject({ typeId: 'customer', id: bea.id, obj: { id: bea.id, email: bea.email } });

      const accepted = await seller.ok(`/${P}/quote-requests/key=qr-ops?expand=customer`, {
        version: 1,
        actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' }],
      });
      expect(accepted).toMatchObject({ version: 2, quoteRequestState: 'Accepted', customer: { obj: { id: bea.id } } });
      const closed = await seller.update(`/${P}/quote-requests/${created.id}`, 2, [{ action: 'changeQuoteRequestState', quoteRequestState: 'Closed' }]);
      expect(closed.version).toBe(3);

      expect((await seller.post(`/${P}/quote-requests/${created.id}`, { version: 2, actions: [] })).status).toBe(409);
      expect((await seller.get(`/${P}/quote-requests/nope`)).status).toBe(404);
      expect((await seller.delete(`/${P}/quote-requests/key=qr-ops?version=2`)).body.errors[0]).toMatchObject({
        code: 'ConcurrentModification',
        currentVersion: 3,
      });
      const deleted = await seller.delete(`/${P}/quote-requests/key=qr-ops?version=3&expand=customer`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ id: created.id, version: 3, customer: { obj: { id: bea.id } } });
      expect((await viewer.get(`/${P}/quote-requests/${created.id}`)).status).toBe(404);

      const other = await submitQuoteRequest(P, bea);
      expect((await seller.delete(`/${P}/quote-requests/${other.id}?version=1&dataErasure=true`)).status).toBe(200);
      expect((await seller.delete(`/${P}/quote-requests/${other.id}?version=1`)).status).toBe(404);
    });

    it('queries with where, var.*, sort, limit, offset, withTotal and expand', async () => {
      const first = await submitQuoteRequest(P, carl, { key: 'carl-1', comment: 'first' });
      const second = await submitQuoteRequest(P, carl, { key: 'carl-2', comment: 'second' });
      await changeState(seller, `/${P}/quote-requests/${second.id}`, 1, 'Rejected');
      const customerWhere = encodeURIComponent('customer(id = :customer)');
      const base = `/${P}/quote-requests?where=${customerWhere}&var.customer=${carl.id}`;

      const all = await viewer.read(`${base}&sort=key%20desc`);
      expect(all).toMatchObject({ offset: 0, limit: 20, count: 2, total: 2 });
      expect(all.results.map((q: Json) => q.key)).toEqual(['carl-2', 'carl-1']);

      const paged = await viewer.read(`${base}&sort=key%20asc&limit=1&offset=1&withTotal=false`);
      expect(paged).toMatchObject({ offset: 1, limit: 1, count: 1, results: [{ id: second.id }] });
      expect(paged).not.toHaveProperty('total');

      const submitted = await viewer.read(`${base}&where=${encodeURIComponent('quoteRequestState = "Submitted"')}&expand=customer`);
      expect(submitted.results.map((q: Json) => q.id)).toEqual([first.id]);
      expect(submitted.results[0].customer.obj.id).toBe(carl.id);

      expect((await viewer.get(`/${P}/quote-requests?where=${encodeURIComponent('quoteRequestState = ')}`)).status).toBe(400);
      expect((await viewer.get(`/${P}/quote-requests?offset=10001`)).status).toBe(400);
    });

    it('expands the customer only for a token that may view customers (no error otherwise, §7)', async () => {
      const quoteRequest = await submitQuoteRequest(P, bea);
      const quotesOnly = await callerWith(gateway, P, ['view_quote_requests']);
      const one = await quotesOnly.read(`/${P}/quote-requests/${quoteRequest.id}?expand=customer`);
      expect(one.customer).toEqual({ typeId: 'customer', id: bea.id });
      const page = await quotesOnly.read(`/${P}/quote-requests?expand=customer&expand=cart&expand=state`);
      expect(page.count).toBeGreaterThan(0);
      for (const result of page.results as Json[]) {
        expect(result.customer.obj).toBeUndefined();
        expect(result.cart?.obj).toBeUndefined();
      }
      expect((await viewer.read(`/${P}/quote-requests/${quoteRequest.id}?expand=customer`)).customer.obj).toMatchObject({ id: bea.id, email: bea.email });
    });

    it('enforces view_quote_requests and manage_quote_requests', async () => {
      const quoteRequest = await submitQuoteRequest(P, bea);
      const cart = await buyerCart(P, bea);
      expect((await viewer.get(`/${P}/quote-requests/${quoteRequest.id}`)).status).toBe(200);
      expect((await viewer.post(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: 1 })).status).toBe(403);
      expect((await changeState(viewer, `/${P}/quote-requests/${quoteRequest.id}`, 1, 'Accepted')).status).toBe(403);
      expect((await viewer.delete(`/${P}/quote-requests/${quoteRequest.id}?version=1`)).status).toBe(403);
      const outsider = await callerWith(gateway, P, ['view_orders']);
      expect((await outsider.get(`/${P}/quote-requests`)).status).toBe(403);
      const project = await callerWith(gateway, P, ['manage_project']);
      expect((await project.get(`/${P}/quote-requests/${quoteRequest.id}`)).status).toBe(200);
      // A buyer's token has no access to the seller's endpoint.
      expect((await bea.caller.get(`/${P}/quote-requests/${quoteRequest.id}`)).status).toBe(403);
    });

    it('sets and removes custom fields', async () => {
      await carts.ok(
        `/${P}/types`,
        {
          key: 'qr-notes',
          name: { en: 'Notes' },
          resourceTypeIds: ['quote-request'],
          fieldDefinitions: [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }],
        },
        201,
      );
      const quoteRequest = await submitQuoteRequest(P, bea);
      const url = `/${P}/quote-requests/${quoteRequest.id}`;
      const typed = await seller.update(url, 1, [
        { action: 'setCustomType', type: { key: 'qr-notes' }, fields: { note: 'call first' } },
        { action: 'setCustomField', name: 'note', value: 'call twice' },
      ]);
      expect(typed.custom.fields).toEqual({ note: 'call twice' });
      const invalid = await seller.post(url, { version: 2, actions: [{ action: 'setCustomField', name: 'note', value: 42 }] });
      expect(invalid.status).toBe(400);
      const unset = await seller.update(url, 2, [{ action: 'setCustomField', name: 'note' }]);
      expect(unset.custom.fields).toEqual({});
      const removed = await seller.update(url, 3, [{ action: 'setCustomType' }]);
      expect(removed).not.toHaveProperty('custom');
    });
  });

  describe('/{projectKey}/me/quote-requests', () => {
    it('creates from the buyer’s own cart only, and shows the buyer only their own', async () => {
      const beasCart = await buyerCart(P, bea);
      const carlsCart = await buyerCart(P, carl);
      const notMine = await bea.caller.post(`/${P}/me/quote-requests`, { cart: { id: carlsCart.id }, cartVersion: 1 });
      expect(notMine.status).toBe(400);
      expect(notMine.body.errors[0].code).toBe('ReferencedResourceNotFound');
      const withState = await bea.caller.post(`/${P}/me/quote-requests`, { cart: { id: beasCart.id }, cartVersion: 1, state: { key: 'review' } });
      expect(withState.status).toBe(400);

      // The platform's MyQuoteRequestDraft names the cart by `cartId`.
      const mine = await bea.caller.ok(`/${P}/me/quote-requests`, { cartId: beasCart.id, cartVersion: 1, key: 'bea-mine' }, 201);
      expect(mine.customer.id).toBe(bea.id);
      const carls = await submitQuoteRequest(P, carl);

      expect((await bea.caller.read(`/${P}/me/quote-requests/${mine.id}`)).id).toBe(mine.id);
      expect((await bea.caller.read(`/${P}/me/quote-requests/key=bea-mine`)).id).toBe(mine.id);
      // Her own customer expands without view_customers.
      expect((await bea.caller.read(`/${P}/me/quote-requests/${mine.id}?expand=customer`)).customer.obj).toMatchObject({ id: bea.id });
      expect((await bea.caller.get(`/${P}/me/quote-requests/${carls.id}`)).status).toBe(404);
      const listed = await bea.caller.read(`/${P}/me/quote-requests?limit=500`);
      expect(listed.results.length).toBeGreaterThan(0);
      expect(listed.results.every((q: Json) => q.customer.id === bea.id)).toBe(true);
      expect(listed.total).toBe(listed.results.length);
    });

    it('lets the buyer cancel, and nothing else', async () => {
      const quoteRequest = await submitQuoteRequest(P, bea);
      const url = `/${P}/me/quote-requests/${quoteRequest.id}`;
      const accept = await changeState(bea.caller, url, 1, 'Accepted');
      expect(accept.status).toBe(400);
      expect(accept.body.errors[0].code).toBe('InvalidOperation');
      const setCustom = await bea.caller.post(url, { version: 1, actions: [{ action: 'setCustomType' }] });
      expect(setCustom.status).toBe(400);
      expect((await carl.caller.post(url, { version: 1, actions: [{ action: 'changeMyQuoteRequestState', quoteRequestState: 'Cancelled' }] })).status).toBe(
        404,
      );

      const cancelled = await bea.caller.update(url, 1, [{ action: 'changeMyQuoteRequestState', quoteRequestState: 'Cancelled' }]);
      expect(cancelled).toMatchObject({ version: 2, quoteRequestState: 'Cancelled' });
      // Buyers do not delete quote requests.
      expect((await bea.caller.delete(`${url}?version=2`)).status).toBe(404);
    });

    it('needs a customer token with manage_my_quote_requests', async () => {
      expect((await seller.get(`/${P}/me/quote-requests`)).status).toBe(403);
      const anonymous = await anonymousWithToken(gateway, P, ['manage_my_quote_requests']);
      expect((await anonymous.caller.get(`/${P}/me/quote-requests`)).status).toBe(403);
      const ordersOnly = await customerWithToken(gateway, P, carts, ['manage_my_orders']);
      expect((await ordersOnly.caller.get(`/${P}/me/quote-requests`)).status).toBe(403);
    });
  });
});
