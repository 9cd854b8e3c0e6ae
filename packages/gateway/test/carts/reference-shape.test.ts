/**
 * Carts as the reference describes them (types/cart/Cart.raml, LineItem, CustomLineItem,
 * CartUpdateAction, carts.raml and me.raml): required fields in every answer, the update actions on
 * fields Herald keeps, and the active cart endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, anonymousWithToken, callerWith, customerWithToken, eur, lineItem, type Caller, type Customer, type Json } from './commerce.js';

const P = 'cart-reference-shape';

const ENGINE_ARRAYS = { discountedPricePerQuantity: [], taxedPricePortions: [], perMethodTaxRate: [], state: [] };

describe('carts in the reference shape', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let bea: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    bea = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'item-notes',
        name: { en: 'Item notes' },
        resourceTypeIds: ['line-item', 'custom-line-item'],
        fieldDefinitions: [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
  });
  afterAll(() => gateway.close());

  it('answers every required field of Cart, LineItem and CustomLineItem', async () => {
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        lineItems: [lineItem('SKU-1', 100, 2), { productId: 'p-7', name: { en: 'Seven' }, externalPrice: eur(50) }],
        customLineItems: [{ name: { en: 'Fee' }, slug: 'fee', money: eur(10) }],
      },
      201,
    );
    expect(cart).toMatchObject({
      origin: 'Customer',
      cartState: 'Active',
      shippingMode: 'Single',
      shipping: [],
      refusedGifts: [],
      priceRoundingMode: 'HalfEven',
      taxRoundingMode: 'HalfEven',
      taxCalculationMode: 'LineItemLevel',
      inventoryMode: 'None',
      taxMode: 'Platform',
      itemShippingAddresses: [],
      discountCodes: [],
      directDiscounts: [],
      totalLineItemQuantity: 3,
      customLineItems: [{ ...ENGINE_ARRAYS, priceMode: 'Standard' }],
    });
    const [bySku, byProduct] = cart.lineItems as Json[];
    expect(bySku).toMatchObject({
      ...ENGINE_ARRAYS,
      productType: { typeId: 'product-type', id: expect.any(String) },
      variant: { id: 1, sku: 'SKU-1' },
      priceMode: 'ExternalPrice',
      lineItemMode: 'Standard',
      price: { id: expect.any(String) },
    });
    expect(bySku?.productId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(byProduct).toMatchObject({ productId: 'p-7', variant: { id: 1 } });
    // The same SKU is the same product in every cart.
    const other = await admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [lineItem('SKU-1', 100)] }, 201);
    expect(other.lineItems[0].productId).toBe(bySku?.productId);

    const empty = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    expect(empty).not.toHaveProperty('totalLineItemQuantity');
    const emptied = await admin.update(`/${P}/carts/${cart.id}`, 1, [
      { action: 'removeLineItem', lineItemId: bySku?.id },
      { action: 'removeLineItem', lineItemId: byProduct?.id },
    ]);
    expect(emptied).not.toHaveProperty('totalLineItemQuantity');
  });

  it('takes origin, shippingMode, priceRoundingMode, customerEmail, locale and purchaseOrderNumber from the draft', async () => {
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        origin: 'Merchant',
        shippingMode: 'Multiple',
        priceRoundingMode: 'HalfUp',
        inventoryMode: 'ReserveOnCart',
        customerEmail: 'bea@example.com',
        locale: 'de-DE',
        purchaseOrderNumber: 'PO-1',
      },
      201,
    );
    expect(cart).toMatchObject({
      origin: 'Merchant',
      shippingMode: 'Multiple',
      priceRoundingMode: 'HalfUp',
      inventoryMode: 'ReserveOnCart',
      customerEmail: 'bea@example.com',
      locale: 'de-DE',
      purchaseOrderNumber: 'PO-1',
    });
    const bad = await admin.post(`/${P}/carts`, { currency: 'EUR', origin: 'Elsewhere' });
    expect(bad.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'origin' });
  });

  it('item shipping addresses and shipping details', async () => {
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        lineItems: [lineItem('SKU-2', 100, 3, { key: 'two' })],
        customLineItems: [{ key: 'fee', name: { en: 'Fee' }, slug: 'fee', money: eur(10), quantity: 2 }],
      },
      201,
    );
    const url = `/${P}/carts/${cart.id}`;
    let doc = await admin.update(url, 1, [
      { action: 'addItemShippingAddress', address: address('DE', { key: 'home' }) },
      { action: 'addItemShippingAddress', address: address('FR', { key: 'office' }) },
      { action: 'updateItemShippingAddress', address: address('DE', { key: 'home', city: 'Potsdam' }) },
      {
        action: 'setLineItemShippingDetails',
        lineItemKey: 'two',
        shippingDetails: {
          targets: [
            { addressKey: 'home', quantity: 1 },
            { addressKey: 'office', quantity: 2 },
          ],
        },
      },
      { action: 'setCustomLineItemShippingDetails', customLineItemKey: 'fee', shippingDetails: { targets: [{ addressKey: 'home', quantity: 1 }] } },
    ]);
    expect(doc.itemShippingAddresses).toMatchObject([{ key: 'home', city: 'Potsdam' }, { key: 'office' }]);
    expect(doc.lineItems[0].shippingDetails).toEqual({
      targets: [
        { addressKey: 'home', quantity: 1 },
        { addressKey: 'office', quantity: 2 },
      ],
      valid: true,
    });
    expect(doc.customLineItems[0].shippingDetails).toMatchObject({ valid: false });
    doc = await admin.update(url, doc.version, [{ action: 'changeLineItemQuantity', lineItemKey: 'two', quantity: 4 }]);
    expect(doc.lineItems[0].shippingDetails.valid).toBe(false);

    const unknownKey = await admin.post(url, {
      version: doc.version,
      actions: [{ action: 'setLineItemShippingDetails', lineItemKey: 'two', shippingDetails: { targets: [{ addressKey: 'moon', quantity: 1 }] } }],
    });
    expect(unknownKey.body.errors[0]).toMatchObject({ code: 'InvalidItemShippingDetails', subject: 'LineItem', itemId: doc.lineItems[0].id });
    const stillUsed = await admin.post(url, { version: doc.version, actions: [{ action: 'removeItemShippingAddress', addressKey: 'office' }] });
    expect(stillUsed.body.errors[0].code).toBe('InvalidOperation');
    doc = await admin.update(url, doc.version, [
      { action: 'setLineItemShippingDetails', lineItemKey: 'two' },
      { action: 'removeItemShippingAddress', addressKey: 'office' },
    ]);
    expect(doc.itemShippingAddresses.map((entry: Json) => entry.key)).toEqual(['home']);
    expect(doc.lineItems[0]).not.toHaveProperty('shippingDetails');
  });

  it('cart-level and item-level set/change actions', async () => {
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        lineItems: [lineItem('A', 100, 1, { key: 'item-a' }), lineItem('B', 200, 1, { key: 'item-b' })],
        customLineItems: [{ key: 'fee', name: { en: 'Fee' }, slug: 'fee', money: eur(10) }],
      },
      201,
    );
    const url = `/${P}/carts/${cart.id}`;
    const [a, b] = cart.lineItems as Json[];
    const doc = await admin.update(url, 1, [
      { action: 'setKey', key: 'shape-cart' },
      { action: 'setCustomerEmail', email: 'x@example.com' },
      { action: 'setAnonymousId', anonymousId: 'anon-1' },
      { action: 'setLocale', locale: 'fr' },
      { action: 'setPurchaseOrderNumber', purchaseOrderNumber: 'PO-9' },
      { action: 'setShippingRateInput', shippingRateInput: { type: 'Score', score: 3 } },
      { action: 'changeTaxMode', taxMode: 'External' },
      { action: 'changeTaxRoundingMode', taxRoundingMode: 'HalfDown' },
      { action: 'changePriceRoundingMode', priceRoundingMode: 'HalfUp' },
      { action: 'changeTaxCalculationMode', taxCalculationMode: 'UnitPriceLevel' },
      { action: 'changeLineItemsOrder', lineItemOrder: [b?.id, a?.id] },
      { action: 'setLineItemPrice', lineItemKey: 'item-a', externalPrice: eur(150) },
      { action: 'setLineItemInventoryMode', lineItemKey: 'item-a', inventoryMode: 'TrackOnly' },
      { action: 'setLineItemCustomType', lineItemKey: 'item-a', type: { key: 'item-notes' }, fields: { note: 'gift' } },
      { action: 'setLineItemCustomField', lineItemKey: 'item-a', name: 'note', value: 'fragile' },
      { action: 'setCustomLineItemCustomType', customLineItemKey: 'fee', type: { key: 'item-notes' } },
      { action: 'changeCustomLineItemMoney', customLineItemKey: 'fee', money: eur(-20) },
      { action: 'changeCustomLineItemQuantity', customLineItemKey: 'fee', quantity: 2 },
      { action: 'changeCustomLineItemPriceMode', customLineItemKey: 'fee', mode: 'External' },
      { action: 'recalculate' },
    ]);
    expect(doc).toMatchObject({
      key: 'shape-cart',
      customerEmail: 'x@example.com',
      anonymousId: 'anon-1',
      locale: 'fr',
      purchaseOrderNumber: 'PO-9',
      shippingRateInput: { type: 'Score', score: 3 },
      taxMode: 'External',
      taxRoundingMode: 'HalfDown',
      priceRoundingMode: 'HalfUp',
      taxCalculationMode: 'UnitPriceLevel',
      lineItems: [{ id: b?.id }, { id: a?.id, price: { value: { centAmount: 150 } }, inventoryMode: 'TrackOnly', custom: { fields: { note: 'fragile' } } }],
      customLineItems: [{ money: { centAmount: -20 }, quantity: 2, totalPrice: { centAmount: -40 }, priceMode: 'External', custom: { fields: {} } }],
      totalPrice: { centAmount: 200 + 150 - 40 },
    });
    const where = encodeURIComponent(`resource(id = "${cart.id}")`);
    const messages = (await admin.read(`/${P}/messages?where=${where}`)).results as Json[];
    expect(messages).toMatchObject([{ type: 'CartPurchaseOrderNumberSet', purchaseOrderNumber: 'PO-9' }]);
    expect(messages[0]).not.toHaveProperty('oldPurchaseOrderNumber');

    const badOrder = await admin.post(url, { version: doc.version, actions: [{ action: 'changeLineItemsOrder', lineItemOrder: [a?.id] }] });
    expect(badOrder.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'lineItemOrder' });
    const unknown = await admin.post(url, { version: doc.version, actions: [{ action: 'setNoSuchField' }] });
    expect(unknown.body.errors[0]).toMatchObject({ code: 'InvalidInput', action: 'setNoSuchField' });
  });

  it('a buyer cannot use the merchant-only actions on their own cart', async () => {
    const cart = await bea.caller.ok(`/${P}/me/carts`, { currency: 'EUR' }, 201);
    const answer = await bea.caller.post(`/${P}/me/carts/${cart.id}`, { version: 1, actions: [{ action: 'setAnonymousId', anonymousId: 'someone' }] });
    expect(answer.status).toBe(400);
    const mine = await bea.caller.ok(`/${P}/me/carts/${cart.id}`, {
      version: 1,
      actions: [
        { action: 'setLocale', locale: 'en' },
        { action: 'addItemShippingAddress', address: address('DE', { key: 'kk' }) },
      ],
    });
    expect(mine).toMatchObject({ locale: 'en', itemShippingAddresses: [{ key: 'kk' }] });
  });

  describe('the active cart', () => {
    it('GET /carts/customer-id={id} and /carts?customerId= answer the most recently modified active Customer cart; 404 without one', async () => {
      const buyer = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
      expect((await admin.get(`/${P}/carts/customer-id=${buyer.id}`)).body.errors[0].code).toBe('ResourceNotFound');
      expect((await admin.get(`/${P}/carts?customerId=${buyer.id}`)).status).toBe(404);
      const older = await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: buyer.id }, 201);
      const newer = await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: buyer.id }, 201);
      await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: buyer.id, origin: 'Merchant' }, 201);
      expect((await admin.read(`/${P}/carts/customer-id=${buyer.id}`)).id).toBe(newer.id);
      expect((await admin.read(`/${P}/carts?customerId=${buyer.id}`)).id).toBe(newer.id);
      await admin.update(`/${P}/carts/${older.id}`, 1, [{ action: 'setLocale', locale: 'en' }]);
      expect((await admin.read(`/${P}/carts/customer-id=${buyer.id}`)).id).toBe(older.id);
      expect((await buyer.caller.read(`/${P}/me/active-cart`)).id).toBe(older.id);
      // Without customerId the query endpoint still answers a page.
      expect(await admin.read(`/${P}/carts?limit=1`)).toMatchObject({ limit: 1, results: expect.any(Array) });
      const viewer = await callerWith(gateway, P, ['view_orders']);
      expect((await viewer.get(`/${P}/carts/customer-id=${buyer.id}`)).status).toBe(200);
    });

    it("in a store, only the store's carts count", async () => {
      const buyer = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
      const global = await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: buyer.id }, 201);
      expect((await admin.get(`/${P}/in-store/key=berlin/carts/customer-id=${buyer.id}`)).status).toBe(404);
      expect((await buyer.caller.get(`/${P}/in-store/key=berlin/me/active-cart`)).status).toBe(404);
      const inStore = await admin.ok(`/${P}/in-store/key=berlin/carts`, { currency: 'EUR', customerId: buyer.id }, 201);
      expect((await admin.read(`/${P}/in-store/key=berlin/carts/customer-id=${buyer.id}`)).id).toBe(inStore.id);
      expect((await admin.read(`/${P}/in-store/key=berlin/carts?customerId=${buyer.id}`)).id).toBe(inStore.id);
      expect((await buyer.caller.read(`/${P}/in-store/key=berlin/me/active-cart`)).id).toBe(inStore.id);
      expect(global.id).not.toBe(inStore.id);
    });

    it('an anonymous session has its own active cart; a token without a buyer is refused', async () => {
      const anonymous = await anonymousWithToken(gateway, P, ['manage_my_orders']);
      expect((await anonymous.caller.get(`/${P}/me/active-cart`)).status).toBe(404);
      const cart = await anonymous.caller.ok(`/${P}/me/carts`, { currency: 'EUR' }, 201);
      expect((await anonymous.caller.read(`/${P}/me/active-cart`)).id).toBe(cart.id);
      expect((await admin.get(`/${P}/me/active-cart`)).status).toBe(403);
    });
  });

  it('completes carts stored before Herald kept the required fields, in answers', async () => {
    const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
    // The shape Herald stored before (no origin, rounding/shipping modes, line item product fields or engine arrays).
    const legacy = await gateway.gateway.documents.create<{ id: string; version: number; createdAt: string; lastModifiedAt: string } & Json>(
      { projectKey: P },
      'cart',
      {
        cartState: 'Active',
        customerId: bea.id,
        lineItems: [
          {
            id: 'li-1',
            variant: { sku: 'OLD' },
            name: { en: 'Old' },
            quantity: 2,
            price: { id: 'p-1', value: money(100) },
            priceMode: 'ExternalPrice',
            lineItemMode: 'Standard',
            totalPrice: money(200),
          },
        ],
        customLineItems: [],
        totalPrice: money(200),
        itemShippingAddresses: [],
        discountCodes: [],
        directDiscounts: [],
        inventoryMode: 'None',
        taxMode: 'Platform',
        taxRoundingMode: 'HalfEven',
        taxCalculationMode: 'LineItemLevel',
        deleteDaysAfterLastModification: 90,
      },
    );
    const expected = {
      origin: 'Customer',
      priceRoundingMode: 'HalfEven',
      shippingMode: 'Single',
      shipping: [],
      refusedGifts: [],
      totalLineItemQuantity: 2,
      lineItems: [{ ...ENGINE_ARRAYS, productId: expect.any(String), productType: { typeId: 'product-type' }, variant: { id: 1, sku: 'OLD' } }],
    };
    expect(await admin.read(`/${P}/carts/${legacy.id}`)).toMatchObject(expected);
    expect(await admin.read(`/${P}/carts/customer-id=${bea.id}`)).toMatchObject({ id: legacy.id, ...expected });
  });

  // Runs last: it changes the project's cart defaults.
  it("defaults priceRoundingMode and taxRoundingMode to the project's CartsConfiguration, which changeCartsConfiguration keeps", async () => {
    const project = await admin.read(`/${P}`);
    const changed = await admin.update(`/${P}`, project.version, [
      { action: 'changePriceRoundingMode', priceRoundingMode: 'HalfUp' },
      { action: 'changeTaxRoundingMode', taxRoundingMode: 'HalfDown' },
      { action: 'changeCartsConfiguration', cartsConfiguration: { deleteDaysAfterLastModification: 30 } },
    ]);
    expect(changed.carts).toMatchObject({ priceRoundingMode: 'HalfUp', taxRoundingMode: 'HalfDown', deleteDaysAfterLastModification: 30 });
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    expect(cart).toMatchObject({ priceRoundingMode: 'HalfUp', taxRoundingMode: 'HalfDown', deleteDaysAfterLastModification: 30 });
  });
});
