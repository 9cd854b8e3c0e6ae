import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, anonymousWithToken, callerWith, customerWithToken, eur, lineItem, type Caller, type Customer, type Json } from './commerce.js';
import { SCOPES, seedCatalogue } from './catalogue-fixture.js';

const P = 'carts-project';

const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });

describe('Carts', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let bea: Customer;
  let carl: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_orders', 'manage_customers', 'manage_stores']);
    viewer = await callerWith(gateway, P, ['view_orders']);
    bea = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    carl = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    await admin.ok(`/${P}/stores`, { key: 'paris' }, 201);
  });
  afterAll(() => gateway.close());

  describe('/{projectKey}/carts', () => {
    it('creates a cart with every field a quote request copies, and computes the total', async () => {
      const cart = await admin.ok(
        `/${P}/carts`,
        {
          key: 'full-cart',
          currency: 'EUR',
          customerId: bea.id,
          store: { typeId: 'store', key: 'berlin' },
          country: 'DE',
          lineItems: [lineItem('SKU-1', 1250, 2), { productId: 'product-7', variantId: 3, name: { en: 'Seven' }, externalPrice: eur(99) }],
          customLineItems: [{ name: { en: 'Handling' }, slug: 'handling', money: eur(500), quantity: 1 }],
          shippingAddress: address('DE', { unknownField: 'dropped' }),
          billingAddress: address('FR', { company: 'ACME' }),
          itemShippingAddresses: [address('AT', { key: 'vienna' })],
          inventoryMode: 'TrackOnly',
          taxMode: 'External',
          taxRoundingMode: 'HalfUp',
          taxCalculationMode: 'UnitPriceLevel',
          shippingRateInput: { type: 'Classification', key: 'heavy' },
        },
        201,
      );
      expect(cart).toMatchObject({
        version: 1,
        key: 'full-cart',
        cartState: 'Active',
        customerId: bea.id,
        store: { typeId: 'store', key: 'berlin' },
        country: 'DE',
        lineItems: [
          { variant: { sku: 'SKU-1' }, quantity: 2, priceMode: 'ExternalPrice', price: { value: money(1250) }, totalPrice: money(2500) },
          { productId: 'product-7', variant: { id: 3 }, quantity: 1, totalPrice: money(99) },
        ],
        customLineItems: [{ slug: 'handling', money: money(500), totalPrice: money(500) }],
        totalPrice: money(3099),
        billingAddress: { country: 'FR', company: 'ACME' },
        itemShippingAddresses: [{ key: 'vienna', country: 'AT' }],
        discountCodes: [],
        directDiscounts: [],
        inventoryMode: 'TrackOnly',
        taxMode: 'External',
        taxRoundingMode: 'HalfUp',
        taxCalculationMode: 'UnitPriceLevel',
        shippingRateInput: { type: 'Classification', key: 'heavy' },
      });
      expect(cart.shippingAddress).not.toHaveProperty('unknownField');
      expect(cart.lineItems[0].id).toEqual(expect.any(String));
      expect(await viewer.read(`/${P}/carts/key=full-cart`)).toEqual(cart);
    });

    it('uses the defaults of the four modes', async () => {
      const cart = await admin.ok(`/${P}/carts`, { currency: 'JPY' }, 201);
      expect(cart).toMatchObject({
        inventoryMode: 'None',
        taxMode: 'Platform',
        taxRoundingMode: 'HalfEven',
        taxCalculationMode: 'LineItemLevel',
        totalPrice: { currencyCode: 'JPY', centAmount: 0, fractionDigits: 0 },
        lineItems: [],
      });
      expect(cart.customerId).toBeUndefined();
    });

    it('validates drafts', async () => {
      const cases: Array<[string, Json, string]> = [
        ['no currency', {}, 'InvalidInput'],
        ['bad currency', { currency: 'euro' }, 'InvalidInput'],
        [
          'price in another currency',
          { currency: 'EUR', lineItems: [{ sku: 'A', name: { en: 'A' }, externalPrice: { currencyCode: 'USD', centAmount: 1 } }] },
          'InvalidInput',
        ],
        ['no product', { currency: 'EUR', lineItems: [{ name: { en: 'A' }, externalPrice: eur(1) }] }, 'InvalidInput'],
        ['no name', { currency: 'EUR', lineItems: [{ sku: 'A', externalPrice: eur(1) }] }, 'InvalidInput'],
        ['no price', { currency: 'EUR', lineItems: [{ sku: 'A', name: { en: 'A' } }] }, 'InvalidInput'],
        ['negative price', { currency: 'EUR', lineItems: [lineItem('A', -1)] }, 'InvalidInput'],
        ['zero quantity', { currency: 'EUR', lineItems: [lineItem('A', 1, 0)] }, 'InvalidInput'],
        ['fractional cents', { currency: 'EUR', lineItems: [lineItem('A', 1.5)] }, 'InvalidInput'],
        ['bad country', { currency: 'EUR', country: 'Germany' }, 'InvalidInput'],
        ['address without country', { currency: 'EUR', shippingAddress: { city: 'Berlin' } }, 'InvalidInput'],
        ['item address without key', { currency: 'EUR', itemShippingAddresses: [address()] }, 'InvalidInput'],
        ['bad tax mode', { currency: 'EUR', taxMode: 'Sometimes' }, 'InvalidInput'],
        ['bad shipping rate input', { currency: 'EUR', shippingRateInput: { type: 'Score' } }, 'InvalidInput'],
        ['unknown customer', { currency: 'EUR', customerId: 'no-such-customer' }, 'ReferencedResourceNotFound'],
        ['unknown store', { currency: 'EUR', store: { key: 'no-such-store' } }, 'ReferencedResourceNotFound'],
        ['unknown business unit', { currency: 'EUR', businessUnit: { key: 'no-such-unit' } }, 'ReferencedResourceNotFound'],
        ['duplicate item keys', { currency: 'EUR', lineItems: [lineItem('A', 1, 1, { key: 'k1' }), lineItem('B', 1, 1, { key: 'k1' })] }, 'InvalidInput'],
      ];
      for (const [what, draft, code] of cases) {
        const answer = await admin.post(`/${P}/carts`, draft);
        expect(answer.status, what).toBe(400);
        expect(answer.body.errors[0].code, what).toBe(code);
      }
    });

    it('applies the line item actions and keeps the total in step', async () => {
      const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: bea.id }, 201);
      const url = `/${P}/carts/${cart.id}`;
      let current = await admin.update(url, 1, [
        { action: 'addLineItem', ...lineItem('A', 1000, 1) },
        { action: 'addLineItem', ...lineItem('A', 900, 2) },
        { action: 'addLineItem', ...lineItem('B', 100, 5, { key: 'item-b' }) },
        { action: 'addCustomLineItem', name: { en: 'Credit' }, slug: 'credit', money: eur(-300) },
      ]);
      // The same product again increases the quantity (the last external price wins).
      expect(current.lineItems).toHaveLength(2);
      expect(current.lineItems[0]).toMatchObject({ quantity: 3, price: { value: money(900) }, totalPrice: money(2700) });
      expect(current.totalPrice).toEqual(money(2700 + 500 - 300));

      const itemA = current.lineItems[0].id as string;
      current = await admin.update(url, current.version, [
        { action: 'removeLineItem', lineItemId: itemA, quantity: 1 },
        { action: 'changeLineItemQuantity', lineItemKey: 'item-b', quantity: 2, externalPrice: eur(150) },
      ]);
      expect(current.lineItems.map((item: Json) => [item.quantity, item.totalPrice.centAmount])).toEqual([
        [2, 1800],
        [2, 300],
      ]);
      expect(current.totalPrice).toEqual(money(1800 + 300 - 300));

      current = await admin.update(url, current.version, [
        { action: 'changeLineItemQuantity', lineItemKey: 'item-b', quantity: 0 },
        { action: 'removeLineItem', lineItemId: itemA },
      ]);
      expect(current.lineItems).toEqual([]);
      expect(current.totalPrice).toEqual(money(-300));

      const unknownItem = await admin.post(url, { version: current.version, actions: [{ action: 'removeLineItem', lineItemId: 'nope' }] });
      expect(unknownItem.status).toBe(400);
    });

    it('applies the address, country, customer, business unit and discount code actions', async () => {
      const discounts = await callerWith(gateway, P, ['manage_cart_discounts', 'manage_discount_codes']);
      const cartDiscount = await discounts.ok(
        `/${P}/cart-discounts`,
        {
          name: { en: 'Summer' },
          value: { type: 'relative', permyriad: 1000 },
          target: { type: 'totalPrice' },
          cartPredicate: '1 = 1',
          sortOrder: '0.4',
          requiresDiscountCode: true,
        },
        201,
      );
      const summer = await discounts.ok(`/${P}/discount-codes`, { code: 'SUMMER', cartDiscounts: [{ typeId: 'cart-discount', id: cartDiscount.id }] }, 201);
      const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', anonymousId: 'anon-1' }, 201);
      const url = `/${P}/carts/${cart.id}`;
      let current = await admin.update(url, 1, [
        { action: 'setShippingAddress', address: address('DE') },
        { action: 'setBillingAddress', address: address('NL') },
        { action: 'setCountry', country: 'DE' },
        { action: 'setCustomerId', customerId: carl.id },
        { action: 'addDiscountCode', code: 'SUMMER' },
      ]);
      expect(current).toMatchObject({
        version: 2,
        shippingAddress: { country: 'DE' },
        billingAddress: { country: 'NL' },
        country: 'DE',
        customerId: carl.id,
        anonymousId: 'anon-1',
        discountCodes: [{ discountCode: { typeId: 'discount-code', id: summer.id }, state: 'MatchesCart' }],
      });
      current = await admin.update(url, current.version, [
        { action: 'setShippingAddress' },
        { action: 'setBillingAddress' },
        { action: 'setCountry' },
        { action: 'setCustomerId' },
        { action: 'removeDiscountCode', discountCode: { typeId: 'discount-code', id: summer.id } },
      ]);
      for (const field of ['shippingAddress', 'billingAddress', 'country', 'customerId']) expect(current).not.toHaveProperty(field);
      expect(current.discountCodes).toEqual([]);

      const rejected: Array<[Json, string]> = [
        [{ action: 'setCustomerId', customerId: 'no-such-customer' }, 'ReferencedResourceNotFound'],
        [{ action: 'setBusinessUnit', businessUnit: { key: 'no-such-unit' } }, 'ReferencedResourceNotFound'],
        [{ action: 'setBusinessUnit' }, 'InvalidInput'],
        [{ action: 'addDiscountCode' }, 'InvalidInput'],
        [{ action: 'setCountry', country: 'de' }, 'InvalidInput'],
        [{ action: 'noSuchAction' }, 'InvalidInput'],
      ];
      for (const [action, code] of rejected) {
        const answer = await admin.post(url, { version: current.version, actions: [{ action: 'setCountry', country: 'FR' }, action] });
        expect(answer.status, action.action as string).toBe(400);
        expect(answer.body.errors[0].code, action.action as string).toBe(code);
      }
      // All or none: the valid first action of each refused request was not applied.
      expect(await viewer.read(url)).toMatchObject({ version: current.version });
      expect((await viewer.read(url)).country).toBeUndefined();

      const twice = await admin.post(url, {
        version: current.version,
        actions: [
          { action: 'addDiscountCode', code: 'SUMMER' },
          { action: 'addDiscountCode', code: 'SUMMER' },
        ],
      });
      expect(twice.body.errors[0].code).toBe('DuplicateField');
    });

    it('queries with where, var.*, sort, limit, offset and withTotal', async () => {
      const created: string[] = [];
      for (const [index, sku] of ['Q1', 'Q2', 'Q3'].entries()) {
        created.push((await admin.ok(`/${P}/carts`, { currency: 'EUR', key: `query-${sku}`, lineItems: [lineItem(sku, 100 * (index + 1))] }, 201)).id);
      }
      const where = encodeURIComponent('lineItems(variant(sku in :skus))');
      const page = await viewer.read(`/${P}/carts?where=${where}&var.skus=Q1&var.skus=Q3&sort=key%20desc&limit=1&offset=1`);
      expect(page).toMatchObject({ limit: 1, offset: 1, count: 1, total: 2, results: [{ id: created[0] }] });
      // Sorting by a document field (withTotal=false: see the report about the store's count query).
      const byPrice = await viewer.read(`/${P}/carts?where=${where}&var.skus=Q1&var.skus=Q3&sort=totalPrice.centAmount%20desc&withTotal=false`);
      expect(byPrice.results.map((cart: Json) => cart.id)).toEqual([created[2], created[0]]);
      const noTotal = await viewer.read(`/${P}/carts?where=${where}&var.skus=Q2&withTotal=false`);
      expect(noTotal).not.toHaveProperty('total');
      expect(noTotal.results.map((cart: Json) => cart.id)).toEqual([created[1]]);
      expect((await viewer.get(`/${P}/carts?limit=501`)).status).toBe(400);
      expect((await viewer.get(`/${P}/carts?where=${encodeURIComponent('key = ')}`)).status).toBe(400);
    });

    it('deletes with the version and accepts dataErasure', async () => {
      const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', key: 'to-delete', customerId: bea.id, store: { key: 'paris' } }, 201);
      expect((await admin.delete(`/${P}/carts/${cart.id}`)).status).toBe(400);
      expect((await admin.delete(`/${P}/carts/${cart.id}?version=7`)).body.errors[0]).toMatchObject({
        code: 'ConcurrentModification',
        currentVersion: 1,
      });
      const deleted = await admin.delete(`/${P}/carts/key=to-delete?version=1&dataErasure=true`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.id).toBe(cart.id);
      expect((await viewer.get(`/${P}/carts/${cart.id}`)).status).toBe(404);
    });

    it('requires view_orders to read and manage_orders to write', async () => {
      const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
      expect((await viewer.post(`/${P}/carts`, { currency: 'EUR' })).status).toBe(403);
      expect((await viewer.post(`/${P}/carts/${cart.id}`, { version: 1, actions: [] })).status).toBe(403);
      expect((await viewer.delete(`/${P}/carts/${cart.id}?version=1`)).status).toBe(403);
      // A buyer's token is for /me/carts only.
      expect((await bea.caller.get(`/${P}/carts`)).status).toBe(403);
      expect((await bea.caller.post(`/${P}/carts`, { currency: 'EUR' })).status).toBe(403);
    });

    it('emits change notifications (and no messages) through the outbox', async () => {
      const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
      await admin.update(`/${P}/carts/${cart.id}`, 1, [{ action: 'setCountry', country: 'DE' }]);
      await admin.delete(`/${P}/carts/${cart.id}?version=2`);
      const outbox = await gateway.db.query<{ kind: string; payload: Json }>(
        "SELECT kind, payload FROM outbox WHERE resource_type_id = 'cart' AND payload -> 'resource' ->> 'id' = $1 ORDER BY seq",
        [cart.id],
      );
      expect(outbox.rows.map((row) => [row.kind, row.payload.notificationType, row.payload.version])).toEqual([
        ['change', 'ResourceCreated', 1],
        ['change', 'ResourceUpdated', 2],
        ['change', 'ResourceDeleted', 2],
      ]);
    });
  });

  describe('/{projectKey}/me/carts', () => {
    it("creates carts for the token's customer and shows each customer only their own", async () => {
      // A buyer's items come from the catalogue (MyLineItemDraft has no externalPrice): shirt-m at 10.00 EUR, mug-1 at 5.00 EUR.
      await seedCatalogue(await callerWith(gateway, P, SCOPES), P);
      const beas = await bea.caller.ok(`/${P}/me/carts`, { currency: 'EUR', customerId: carl.id, lineItems: [{ sku: 'shirt-m' }] }, 201);
      // The draft cannot choose another customer: the cart is the token's.
      expect(beas.customerId).toBe(bea.id);
      const carls = await carl.caller.ok(`/${P}/me/carts`, { currency: 'EUR', key: 'carls-cart' }, 201);

      expect((await bea.caller.read(`/${P}/me/carts/${beas.id}`)).id).toBe(beas.id);
      expect((await bea.caller.get(`/${P}/me/carts/${carls.id}`)).status).toBe(404);
      expect((await bea.caller.get(`/${P}/me/carts/key=carls-cart`)).status).toBe(404);
      // Neither a stale version nor an update reveals another customer's cart: 404, not 409.
      expect((await bea.caller.post(`/${P}/me/carts/${carls.id}`, { version: 99, actions: [] })).status).toBe(404);
      expect((await bea.caller.delete(`/${P}/me/carts/${carls.id}?version=1`)).status).toBe(404);

      const page = await bea.caller.read(`/${P}/me/carts?sort=createdAt%20asc`);
      expect(page.results.map((cart: Json) => cart.customerId)).toEqual(page.results.map(() => bea.id));
      expect(page.results.map((cart: Json) => cart.id)).toContain(beas.id);
      const all = await viewer.read(`/${P}/carts?limit=500`);
      expect(all.results.map((cart: Json) => cart.id)).toEqual(expect.arrayContaining([beas.id, carls.id]));

      const updated = await bea.caller.update(`/${P}/me/carts/${beas.id}`, 1, [{ action: 'addLineItem', sku: 'mug-1' }]);
      expect(updated.totalPrice.centAmount).toBe(1500);
      // A buyer cannot hand the cart to someone else.
      const handOver = await bea.caller.post(`/${P}/me/carts/${beas.id}`, { version: 2, actions: [{ action: 'setCustomerId', customerId: carl.id }] });
      expect(handOver.status).toBe(400);
      expect((await bea.caller.delete(`/${P}/me/carts/${beas.id}?version=2`)).status).toBe(200);
    });

    it('creates carts for anonymous sessions', async () => {
      const anonymous = await anonymousWithToken(gateway, P, ['manage_my_orders']);
      const cart = await anonymous.caller.ok(`/${P}/me/carts`, { currency: 'EUR' }, 201);
      expect(cart.anonymousId).toBe(anonymous.anonymousId);
      expect(cart.customerId).toBeUndefined();
      expect((await anonymous.caller.read(`/${P}/me/carts`)).results.map((c: Json) => c.id)).toEqual([cart.id]);
      expect((await bea.caller.get(`/${P}/me/carts/${cart.id}`)).status).toBe(404);
    });

    it('needs manage_my_orders and a customer or anonymous token', async () => {
      expect((await admin.get(`/${P}/me/carts`)).status).toBe(403);
      const client = await callerWith(gateway, P, ['manage_my_orders']);
      const noSubject = await client.post(`/${P}/me/carts`, { currency: 'EUR' });
      expect(noSubject.status).toBe(403);
      const profileOnly = await customerWithToken(gateway, P, admin, ['view_orders']);
      expect((await profileOnly.caller.get(`/${P}/me/carts`)).status).toBe(403);
    });
  });

  describe('/{projectKey}/in-store/key={storeKey}/carts', () => {
    it("puts carts into the path's store and shows only that store's carts", async () => {
      const berlin = await admin.ok(`/${P}/in-store/key=berlin/carts`, { currency: 'EUR', key: 'berlin-cart' }, 201);
      expect(berlin.store).toEqual({ typeId: 'store', key: 'berlin' });
      const conflicting = await admin.post(`/${P}/in-store/key=berlin/carts`, { currency: 'EUR', store: { key: 'paris' } });
      expect(conflicting.status).toBe(400);
      const unknownStore = await admin.post(`/${P}/in-store/key=rome/carts`, { currency: 'EUR' });
      expect(unknownStore.status).toBe(400);
      expect(unknownStore.body.errors[0].code).toBe('ReferencedResourceNotFound');

      expect((await viewer.read(`/${P}/in-store/key=berlin/carts/key=berlin-cart`)).id).toBe(berlin.id);
      expect((await viewer.get(`/${P}/in-store/key=paris/carts/${berlin.id}`)).status).toBe(404);
      const parisPage = await viewer.read(`/${P}/in-store/key=paris/carts`);
      expect(parisPage.results.every((cart: Json) => cart.store?.key === 'paris')).toBe(true);
      expect((await viewer.read(`/${P}/in-store/key=berlin/carts`)).results.map((cart: Json) => cart.id)).toContain(berlin.id);

      const updated = await admin.update(`/${P}/in-store/key=berlin/carts/${berlin.id}`, 1, [{ action: 'setCustomerId', customerId: bea.id }]);
      expect(updated.customerId).toBe(bea.id);
      expect((await admin.delete(`/${P}/in-store/key=paris/carts/${berlin.id}?version=2`)).status).toBe(404);
      expect((await admin.delete(`/${P}/in-store/key=berlin/carts/${berlin.id}?version=2`)).status).toBe(200);
    });

    it("in-store /me carts belong to the store and the token's customer", async () => {
      const cart = await bea.caller.ok(`/${P}/in-store/key=paris/me/carts`, { currency: 'EUR' }, 201);
      expect(cart).toMatchObject({ customerId: bea.id, store: { key: 'paris' } });
      expect((await bea.caller.get(`/${P}/in-store/key=berlin/me/carts/${cart.id}`)).status).toBe(404);
      expect((await carl.caller.get(`/${P}/in-store/key=paris/me/carts/${cart.id}`)).status).toBe(404);
      expect((await bea.caller.read(`/${P}/in-store/key=paris/me/carts`)).results.map((c: Json) => c.id)).toEqual([cart.id]);
      expect((await bea.caller.read(`/${P}/me/carts/${cart.id}`)).id).toBe(cart.id);
    });
  });
});
