import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { eur, SCOPES, seedCatalogue } from './catalogue-fixture.js';
import { anonymousWithToken, callerWith, customerWithToken, type Answer, type Caller, type Json } from './commerce.js';

const P = 'buyer-prices';

const customLineItem = (slug: string): Json => ({ name: { en: 'Discount' }, slug, money: eur(-5000), quantity: 1 });
const externalTotal = { price: eur(1), totalPrice: eur(1) };
const taxRate = { name: 'zero', amount: 0, country: 'DE' };

/**
 * A buyer cannot choose what they pay (reference types/me/): MyCartDraft has no `customLineItems`
 * or `customerGroup`, MyLineItemDraft and the My Cart line item actions have no `externalPrice` or
 * `externalTotalPrice`, and MyCartUpdateAction has no custom line item actions. The merchant (an
 * API client with manage_orders) still may, on `/carts` and `/in-store/key=…/carts`.
 */
describe("a buyer's own cart takes the catalogue's prices", () => {
  let gateway: TestGateway;
  let merchant: Caller;
  let customerId: string;
  let buyers: Array<{ name: string; caller: Caller; owner: Json }>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    const admin = await callerWith(gateway, P, SCOPES);
    await seedCatalogue(admin, P);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    merchant = await callerWith(gateway, P, ['manage_orders']);
    const bea = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    const anonymous = await anonymousWithToken(gateway, P, ['manage_my_orders']);
    customerId = bea.id;
    buyers = [
      { name: 'customer', caller: bea.caller, owner: { customerId: bea.id } },
      { name: 'anonymous session', caller: anonymous.caller, owner: { anonymousId: anonymous.anonymousId } },
    ];
  });
  afterAll(() => gateway.close());

  /** `/me/carts` and `/in-store/key=berlin/me/carts`, for each buyer; `store` for the merchant's carts of the route. */
  const buyerRoutes = () =>
    buyers.flatMap((buyer) => [
      { ...buyer, label: `${buyer.name} on /me/carts`, path: `/${P}/me/carts`, store: {} },
      { ...buyer, label: `${buyer.name} on /in-store/key=berlin/me/carts`, path: `/${P}/in-store/key=berlin/me/carts`, store: { store: { key: 'berlin' } } },
    ]);

  function expectRefused(answer: Answer, label: string, error: Json): void {
    expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(400);
    expect(answer.body.errors[0], label).toMatchObject({ code: 'InvalidInput', ...error });
  }

  it('refuses a MyCartDraft with custom line items, a customer group or external line item prices, and creates no cart', async () => {
    const drafts: Array<[string, Json]> = [
      ['customLineItems', { customLineItems: [customLineItem('discount')] }],
      ['customerGroup', { customerGroup: { typeId: 'customer-group', key: 'vip' } }],
      ['lineItems[0].externalPrice', { lineItems: [{ sku: 'shirt-m', externalPrice: eur(1) }] }],
      ['lineItems[1].externalTotalPrice', { lineItems: [{ sku: 'mug-1' }, { sku: 'shirt-m', externalTotalPrice: externalTotal }] }],
      ['lineItems[0].externalTaxRate', { lineItems: [{ sku: 'shirt-m', externalTaxRate: taxRate }] }],
    ];
    for (const { label, caller, path } of buyerRoutes()) {
      const before = (await caller.read(path)).results.length as number;
      for (const [field, draft] of drafts) {
        expectRefused(await caller.post(path, { currency: 'EUR', ...draft }), `${label}, ${field}`, { field });
      }
      expect((await caller.read(path)).results.length, label).toBe(before);
      // The catalogue's price is the buyer's: shirt-m at 10.00 EUR (no country, no customer group).
      const cart = await caller.ok(path, { currency: 'EUR', lineItems: [{ sku: 'shirt-m', quantity: 2 }] }, 201);
      expect(cart.lineItems[0], label).toMatchObject({ priceMode: 'Platform', price: { value: { centAmount: 1000 } } });
      expect(cart.totalPrice.centAmount, label).toBe(2000);
    }
  });

  it('answers the custom line item actions as unknown, and line item actions with a price as InvalidInput; the cart is unchanged', async () => {
    for (const { label, caller, path, owner, store } of buyerRoutes()) {
      // The merchant's cart for the buyer, with a custom line item the buyer could not have added.
      const made = await merchant.ok(
        `/${P}/carts`,
        {
          currency: 'EUR',
          ...owner,
          ...store,
          lineItems: [{ sku: 'shirt-m', quantity: 3, key: 'shirt' }],
          customLineItems: [{ ...customLineItem('service'), money: eur(500), key: 'service' }],
          itemShippingAddresses: [{ key: 'home', country: 'DE' }],
        },
        201,
      );
      const cart = await caller.read(`${path}/${made.id as string}`);
      expect(cart.version, label).toBe(made.version);
      const refusals: Array<[Json, Json]> = [
        [{ action: 'addCustomLineItem', ...customLineItem('discount') }, { action: 'addCustomLineItem' }],
        [{ action: 'removeCustomLineItem', customLineItemKey: 'service' }, { action: 'removeCustomLineItem' }],
        [
          { action: 'setCustomLineItemShippingDetails', customLineItemKey: 'service', shippingDetails: { targets: [{ addressKey: 'home', quantity: 1 }] } },
          { action: 'setCustomLineItemShippingDetails' },
        ],
        [{ action: 'addLineItem', sku: 'mug-1', externalPrice: eur(1) }, { field: 'externalPrice' }],
        [{ action: 'addLineItem', sku: 'mug-1', externalTotalPrice: externalTotal }, { field: 'externalTotalPrice' }],
        [{ action: 'addLineItem', sku: 'mug-1', externalTaxRate: taxRate }, { field: 'externalTaxRate' }],
        [{ action: 'changeLineItemQuantity', lineItemKey: 'shirt', quantity: 5, externalPrice: eur(1) }, { field: 'externalPrice' }],
        [{ action: 'changeLineItemQuantity', lineItemKey: 'shirt', quantity: 5, externalTotalPrice: externalTotal }, { field: 'externalTotalPrice' }],
        [{ action: 'removeLineItem', lineItemKey: 'shirt', quantity: 1, externalPrice: eur(1) }, { field: 'externalPrice' }],
        [{ action: 'removeLineItem', lineItemKey: 'shirt', quantity: 1, externalTotalPrice: externalTotal }, { field: 'externalTotalPrice' }],
      ];
      for (const [action, error] of refusals) {
        const what = `${label}, ${action.action as string}`;
        expectRefused(await caller.post(`${path}/${cart.id as string}`, { version: cart.version, actions: [action] }), what, error);
      }
      expect(await caller.read(`${path}/${cart.id as string}`), label).toEqual(cart);
      // Without a price, the line item actions are the buyer's.
      const changed = await caller.update(`${path}/${cart.id as string}`, cart.version, [
        { action: 'changeLineItemQuantity', lineItemKey: 'shirt', quantity: 5 },
        { action: 'removeLineItem', lineItemKey: 'shirt', quantity: 1 },
        { action: 'addLineItem', sku: 'mug-1' },
      ]);
      expect(
        changed.lineItems.map((item: Json) => [item.variant.sku, item.quantity, item.priceMode]),
        label,
      ).toEqual([
        ['shirt-m', 4, 'Platform'],
        ['mug-1', 1, 'Platform'],
      ]);
      expect(changed.totalPrice.centAmount, label).toBe(4 * 1000 + 500 + 500);
    }
  });

  it('lets a buyer re-price, with the quantity, only an item the merchant priced externally (MyCartChangeLineItemQuantityAction)', async () => {
    for (const { label, caller, path, owner, store } of buyerRoutes()) {
      const made = await merchant.ok(
        `/${P}/carts`,
        {
          currency: 'EUR',
          ...owner,
          ...store,
          lineItems: [
            { sku: 'shirt-m', quantity: 2, key: 'external', externalPrice: eur(700) },
            { sku: 'mug-1', quantity: 2, key: 'total', externalTotalPrice: { price: eur(300), totalPrice: eur(600) } },
          ],
        },
        201,
      );
      const changed = await caller.update(`${path}/${made.id as string}`, made.version, [
        { action: 'changeLineItemQuantity', lineItemKey: 'external', quantity: 3, externalPrice: eur(650) },
        { action: 'removeLineItem', lineItemKey: 'total', quantity: 1, externalTotalPrice: { price: eur(250), totalPrice: eur(250) } },
      ]);
      expect(
        changed.lineItems.map((item: Json) => [item.quantity, item.priceMode, item.totalPrice.centAmount]),
        label,
      ).toEqual([
        [3, 'ExternalPrice', 1950],
        [1, 'ExternalTotal', 250],
      ]);
      // The other mode's field is still refused: a buyer cannot move an item to a price of their own.
      expectRefused(
        await caller.post(`${path}/${made.id as string}`, {
          version: changed.version,
          actions: [{ action: 'changeLineItemQuantity', lineItemKey: 'external', quantity: 1, externalTotalPrice: externalTotal }],
        }),
        label,
        { field: 'externalTotalPrice' },
      );
    }
  });

  it('has no custom line item or line item price in the GraphQL My Cart update', async () => {
    const [bea] = buyers;
    if (bea === undefined) throw new Error('no buyer');
    const cart = await bea.caller.ok(`/${P}/me/carts`, { currency: 'EUR', lineItems: [{ sku: 'shirt-m' }] }, 201);
    const mutations = [
      `mutation { updateMyCart(id: "${cart.id as string}", version: ${cart.version as number}, actions: [{ addCustomLineItem: { name: [{ locale: "en", value: "Discount" }], slug: "discount", money: { currencyCode: "EUR", centAmount: -5000 } } }]) { id version } }`,
      `mutation { updateMyCart(id: "${cart.id as string}", version: ${cart.version as number}, actions: [{ addLineItem: { sku: "mug-1", externalPrice: { currencyCode: "EUR", centAmount: 1 } } }]) { id version } }`,
    ];
    for (const query of mutations) {
      const response = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(bea.caller.token), payload: { query } });
      const body = response.json() as Json;
      expect(body.errors?.length, response.body).toBeGreaterThan(0);
      expect(body.data?.updateMyCart ?? null, response.body).toBeNull();
    }
    expect(await bea.caller.read(`/${P}/me/carts/${cart.id as string}`)).toEqual(cart);
  });

  it('lets the merchant set prices on /carts and /in-store/key=berlin/carts', async () => {
    for (const [label, path, store] of [
      ['/carts', `/${P}/carts`, {}],
      ['/in-store/key=berlin/carts', `/${P}/in-store/key=berlin/carts`, { store: { key: 'berlin' } }],
    ] as const) {
      const cart = await merchant.ok(
        path,
        {
          currency: 'EUR',
          customerId,
          ...store,
          customerGroup: { typeId: 'customer-group', key: 'vip' },
          lineItems: [
            { sku: 'shirt-m', quantity: 3, key: 'shirt', externalPrice: eur(100) },
            { sku: 'mug-1', key: 'mug', externalTotalPrice: externalTotal },
          ],
          customLineItems: [{ ...customLineItem('service'), money: eur(500), key: 'service' }],
          itemShippingAddresses: [{ key: 'home', country: 'DE' }],
        },
        201,
      );
      expect(cart.customerGroup?.id, label).toEqual(expect.any(String));
      expect(
        cart.lineItems.map((item: Json) => [item.priceMode, item.totalPrice.centAmount]),
        label,
      ).toEqual([
        ['ExternalPrice', 300],
        ['ExternalTotal', 1],
      ]);
      const updated = await merchant.update(`${path}/${cart.id as string}`, cart.version, [
        { action: 'addCustomLineItem', ...customLineItem('discount'), money: eur(-50), key: 'discount' },
        { action: 'setCustomLineItemShippingDetails', customLineItemKey: 'service', shippingDetails: { targets: [{ addressKey: 'home', quantity: 1 }] } },
        { action: 'removeCustomLineItem', customLineItemKey: 'discount' },
        { action: 'addLineItem', sku: 'shirt-l', externalPrice: eur(200) },
        { action: 'changeLineItemQuantity', lineItemKey: 'shirt', quantity: 4, externalTotalPrice: { price: eur(90), totalPrice: eur(360) } },
        { action: 'removeLineItem', lineItemKey: 'shirt', quantity: 1, externalPrice: eur(80) },
      ]);
      expect(
        updated.customLineItems.map((item: Json) => item.key),
        label,
      ).toEqual(['service']);
      expect(updated.customLineItems[0].shippingDetails, label).toMatchObject({ targets: [{ addressKey: 'home', quantity: 1 }], valid: true });
      expect(
        updated.lineItems.map((item: Json) => [item.variant.sku, item.quantity, item.priceMode, item.totalPrice.centAmount]),
        label,
      ).toEqual([
        ['shirt-m', 3, 'ExternalPrice', 240],
        ['mug-1', 1, 'ExternalTotal', 1],
        ['shirt-l', 1, 'ExternalPrice', 200],
      ]);
    }
  });
});
