/**
 * Issue 28: the matching endpoints of shipping methods (resources/shipping-methods.raml
 * matching-location and matching-cart, resources/in-store/shipping-methods-in-store.raml
 * matching-cart): the Zone of the location or of the cart's shipping address, active methods
 * without a predicate, only the rates in the currency flagged `isMatching`, the cart's tier
 * flagged, the default method first, Store restrictions, and who may ask about which cart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, anonymousWithToken, callerWith, eur, lineItem, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { seedCatalogue, taxCategoryKey, usd, zoneKey } from './support.js';

const P = 'shipping-matching';
const keysOf = (page: Json): string[] => page.results.map((method: Json) => method.key as string);
const method = (key: string, zoneRates: Json[], extra: Json = {}): Json => ({
  key,
  name: key,
  taxCategory: taxCategoryKey,
  zoneRates,
  isDefault: false,
  ...extra,
});

describe('GET /{projectKey}/shipping-methods/matching-*', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let catalogue: Awaited<ReturnType<typeof seedCatalogue>>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_shipping_methods', 'manage_tax_categories', 'manage_zones', 'manage_orders', 'manage_stores']);
    viewer = await callerWith(gateway, P, ['view_shipping_methods']);
    catalogue = await seedCatalogue(admin, P);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    const tiers = [
      { type: 'CartValue', minimumCentAmount: 1000, price: eur(300) },
      { type: 'CartValue', minimumCentAmount: 5000, price: eur(100) },
    ];
    for (const draft of [
      method('standard', [
        { zone: zoneKey('europe'), shippingRates: [{ price: eur(500), tiers }, { price: usd(600) }] },
        { zone: zoneKey('us'), shippingRates: [{ price: usd(900) }] },
      ]),
      method('express', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(1500) }] }], { isDefault: true }),
      method('retired', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(100) }] }], { active: false }),
      method('conditional', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(100) }] }], { predicate: 'customer.email is defined' }),
      method('berlin-only', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(200) }] }], { stores: [{ typeId: 'store', key: 'berlin' }] }),
      method('californian', [{ zone: zoneKey('california'), shippingRates: [{ price: usd(400) }] }]),
    ]) {
      await admin.ok(`/${P}/shipping-methods`, draft, 201);
    }
  }, 180_000);
  afterAll(() => gateway?.close());

  it("matches a location: its Zone, active methods without a predicate, the default first, the currency's rate only", async () => {
    const germany = await viewer.read(`/${P}/shipping-methods/matching-location?country=DE`);
    // Inactive and predicate methods are disqualified; Store-restricted ones are not (no cart to restrict).
    expect(keysOf(germany)).toEqual(['express', 'standard', 'berlin-only']);
    const standard = germany.results[1];
    expect(standard.zoneRates).toHaveLength(1);
    expect(standard.zoneRates[0].zone.id).toBe(catalogue.europe.id);
    expect(standard.zoneRates[0].shippingRates.map((rate: Json) => [rate.price.currencyCode, rate.isMatching])).toEqual([
      ['EUR', true],
      ['USD', true],
    ]);

    const inDollars = await viewer.read(`/${P}/shipping-methods/matching-location?country=AT&currency=USD`);
    expect(keysOf(inDollars)).toEqual(['standard']);
    expect(inDollars.results[0].zoneRates[0].shippingRates).toEqual([
      { price: { type: 'centPrecision', currencyCode: 'USD', centAmount: 600, fractionDigits: 2 }, tiers: [], isMatching: true },
    ]);
    // The state's own Zone wins over the country's (zoneForAddress).
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-location?country=US&state=CA`))).toEqual(['californian']);
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-location?country=US&state=NY`))).toEqual(['standard']);
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-location?country=FR`))).toEqual([]);

    const expanded = await viewer.read(`/${P}/shipping-methods/matching-location?country=DE&currency=EUR&expand=zoneRates[*].zone`);
    expect(expanded.results[0].zoneRates[0].zone.obj).toBeUndefined(); // view_shipping_methods alone does not see Zones
    const withZones = await admin.read(`/${P}/shipping-methods/matching-location?country=DE&currency=EUR&expand=zoneRates[*].zone`);
    expect(withZones.results[0].zoneRates[0].zone.obj).toMatchObject({ key: 'europe' });

    for (const query of ['', '?country=Germany', '?country=DE&currency=euro']) {
      const answer = await viewer.get(`/${P}/shipping-methods/matching-location${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].code, query).toBe('InvalidInput');
    }
    const head = await gateway.app.inject({
      method: 'HEAD',
      url: `/${P}/shipping-methods/matching-location?country=FR`,
      headers: { authorization: `Bearer ${viewer.token}` },
    });
    expect(head.statusCode).toBe(404);
  });

  it('matches a cart: its shipping address and currency, its CartValue tier flagged, Store restrictions applied', async () => {
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [lineItem('SKU-1', 2000, 2)], shippingAddress: address('DE') }, 201);
    const page = await viewer.read(`/${P}/shipping-methods/matching-cart?cartId=${cart.id as string}`);
    expect(keysOf(page)).toEqual(['express', 'standard']);
    const [rate] = page.results[1].zoneRates[0].shippingRates;
    expect(page.results[1].zoneRates[0].shippingRates).toHaveLength(1);
    // A total of 40.00 EUR reaches the 10.00 tier, not the 50.00 one.
    expect(rate).toMatchObject({ isMatching: true, price: { currencyCode: 'EUR', centAmount: 500 } });
    expect(rate.tiers.map((tier: Json) => [tier.minimumCentAmount, tier.isMatching])).toEqual([
      [1000, true],
      [5000, false],
    ]);

    const inStore = await admin.ok(
      `/${P}/carts`,
      { currency: 'EUR', store: { typeId: 'store', key: 'berlin' }, lineItems: [lineItem('SKU-2', 100)], shippingAddress: address('AT') },
      201,
    );
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-cart?cartId=${inStore.id as string}`))).toEqual(['express', 'standard', 'berlin-only']);
    expect(keysOf(await viewer.read(`/${P}/in-store/key=berlin/shipping-methods/matching-cart?cartId=${inStore.id as string}`))).toEqual([
      'express',
      'standard',
      'berlin-only',
    ]);
    const otherStore = await viewer.get(`/${P}/in-store/key=vienna/shipping-methods/matching-cart?cartId=${inStore.id as string}`);
    expect(otherStore.status).toBe(400);

    const noAddress = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    const refused = await viewer.get(`/${P}/shipping-methods/matching-cart?cartId=${noAddress.id as string}`);
    expect(refused.body.errors[0].code).toBe('InvalidOperation');
    const unknown = await viewer.get(`/${P}/shipping-methods/matching-cart?cartId=nope`);
    expect(unknown.body.errors[0].code).toBe('ReferencedResourceNotFound');
    expect((await viewer.get(`/${P}/shipping-methods/matching-cart`)).body.errors[0].code).toBe('InvalidInput');
  });

  it('answers a manage_my_orders token about its own carts only', async () => {
    const buyer = await anonymousWithToken(gateway, P, ['manage_my_orders']);
    const own = await buyer.caller.ok(`/${P}/me/carts`, { currency: 'EUR', shippingAddress: address('DE') }, 201);
    expect(keysOf(await buyer.caller.read(`/${P}/shipping-methods/matching-cart?cartId=${own.id as string}`))).toEqual(['express', 'standard']);
    const others = await admin.ok(`/${P}/carts`, { currency: 'EUR', shippingAddress: address('DE') }, 201);
    const hidden = await buyer.caller.get(`/${P}/shipping-methods/matching-cart?cartId=${others.id as string}`);
    expect(hidden.body.errors[0].code).toBe('ReferencedResourceNotFound');
  });
  it('lists a method with a cart predicate only for carts that satisfy it (matching-cart), and never for a location', async () => {
    const usRate = (centAmount: number): Json[] => [{ zone: zoneKey('us'), shippingRates: [{ price: usd(centAmount) }] }];
    await admin.ok(`/${P}/shipping-methods`, method('us-big', usRate(100), { predicate: 'lineItemCount(sku = "BIG-1") > 0' }), 201);
    await admin.ok(
      `/${P}/shipping-methods`,
      method('us-vip', usRate(200), { predicate: 'customerEmail = "vip@example.com" and totalPrice > "10.00 USD"' }),
      201,
    );
    // Stored before predicates were compiled when written: text that is no cart predicate matches no cart.
    const unreadable = await admin.ok(`/${P}/shipping-methods`, method('us-unreadable', usRate(300), { predicate: '1 = 1' }), 201);
    await gateway.db.query(`UPDATE resources SET doc = jsonb_set(doc, '{predicate}', '"not a (( predicate"') WHERE id = $1`, [unreadable.id]);
    const usItem = (sku: string, centAmount: number): Json => lineItem(sku, centAmount, 1, { externalPrice: usd(centAmount) });
    const matches = await admin.ok(
      `/${P}/carts`,
      { currency: 'USD', customerEmail: 'vip@example.com', lineItems: [usItem('BIG-1', 1500)], shippingAddress: address('US') },
      201,
    );
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-cart?cartId=${matches.id as string}`))).toEqual(['standard', 'us-big', 'us-vip']);
    const cheap = await admin.ok(
      `/${P}/carts`,
      { currency: 'USD', customerEmail: 'vip@example.com', lineItems: [usItem('SMALL-1', 500)], shippingAddress: address('US') },
      201,
    );
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-cart?cartId=${cheap.id as string}`))).toEqual(['standard']);
    expect(keysOf(await viewer.read(`/${P}/shipping-methods/matching-location?country=US`))).toEqual(['standard']);
  });
});
