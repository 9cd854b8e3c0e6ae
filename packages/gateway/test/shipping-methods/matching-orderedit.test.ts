/**
 * Issue 28: GET /{projectKey}/shipping-methods/matching-orderedit (resources/shipping-methods.raml):
 * the active shipping methods for the Location asked for (`country`, `state`), matched against the
 * order the OrderEdit results in: its currency picks the rate, a method's cart predicate reads the
 * previewed order, the default comes first; an edit whose preview fails is EditPreviewFailed; an
 * applied edit is matched against the order as it is. Scopes: view_orders or view_shipping_methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, callerWith, eur, lineItem, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { seedCatalogue, taxCategoryKey, usd, zoneKey } from './support.js';

const P = 'shipping-orderedit';
const VIP = 'vip@example.com';
const keysOf = (page: Json): string[] => page.results.map((method: Json) => method.key as string);
const method = (key: string, zoneRates: Json[], extra: Json = {}): Json => ({
  key,
  name: key,
  taxCategory: taxCategoryKey,
  zoneRates,
  isDefault: false,
  ...extra,
});
const matchingUrl = (editId: string, location = 'country=DE') => `/${P}/shipping-methods/matching-orderedit?orderEditId=${editId}&${location}`;

describe('GET /{projectKey}/shipping-methods/matching-orderedit', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let order: Json;

  /** An order edit of the order staging `stagedActions`. */
  const editOf = (stagedActions: Json[]): Promise<Json> => admin.ok(`/${P}/order-edits`, { resource: { typeId: 'order', id: order.id }, stagedActions }, 201);

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_shipping_methods', 'manage_tax_categories', 'manage_zones', 'manage_orders', 'manage_order_edits']);
    viewer = await callerWith(gateway, P, ['view_shipping_methods']);
    await seedCatalogue(admin, P);
    for (const draft of [
      method('standard', [
        { zone: zoneKey('europe'), shippingRates: [{ price: eur(500) }, { price: usd(600) }] },
        { zone: zoneKey('us'), shippingRates: [{ price: usd(900) }] },
      ]),
      method('express', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(1500) }] }], { isDefault: true }),
      method('vip', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(0) }] }], { predicate: `customerEmail = "${VIP}"` }),
      method('retired', [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(100) }] }], { active: false }),
      method('dollars', [{ zone: zoneKey('europe'), shippingRates: [{ price: usd(100) }] }]),
      method('californian', [{ zone: zoneKey('california'), shippingRates: [{ price: eur(400) }] }]),
    ]) {
      await admin.ok(`/${P}/shipping-methods`, draft, 201);
    }
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [lineItem('SKU-1', 2000, 2)], shippingAddress: address('DE') }, 201);
    order = await admin.ok(`/${P}/orders`, { cart: { id: cart.id }, version: cart.version }, 201);
  }, 180_000);
  afterAll(() => gateway?.close());

  it("matches the Location asked for in the currency of the edit's resulting order, its predicate read on the preview, the default first", async () => {
    const toVip = await editOf([{ action: 'setCustomerEmail', email: VIP }]);
    const page = await viewer.read(matchingUrl(toVip.id));
    // The preview has the VIP e-mail; inactive methods and those without a EUR rate do not match.
    expect(keysOf(page)).toEqual(['express', 'standard', 'vip']);
    expect(page).toMatchObject({ offset: 0, count: 3, total: 3 });
    const standard = page.results[1];
    expect(standard.zoneRates).toHaveLength(1);
    expect(standard.zoneRates[0].shippingRates).toMatchObject([{ price: { currencyCode: 'EUR', centAmount: 500 }, isMatching: true }]);
    expect(keysOf(await viewer.read(matchingUrl(toVip.id, 'country=AT')))).toEqual(['express', 'standard', 'vip']);

    // The order itself has no e-mail: an edit staging nothing does not satisfy the predicate.
    const unchanged = await editOf([]);
    expect(keysOf(await viewer.read(matchingUrl(unchanged.id)))).toEqual(['express', 'standard']);

    // The Location's Zone decides, not the order's shipping address; the state's own Zone wins.
    expect(keysOf(await viewer.read(matchingUrl(unchanged.id, 'country=US&state=CA')))).toEqual(['californian']);
    expect(keysOf(await viewer.read(matchingUrl(unchanged.id, 'country=US')))).toEqual([]);
    expect(keysOf(await viewer.read(matchingUrl(unchanged.id, 'country=FR')))).toEqual([]);
    const head = (url: string) => gateway.app.inject({ method: 'HEAD', url, headers: { authorization: `Bearer ${viewer.token}` } });
    expect((await head(matchingUrl(unchanged.id, 'country=FR'))).statusCode).toBe(404);
    expect((await head(matchingUrl(unchanged.id))).statusCode).toBe(200);
  });

  it('refuses an edit whose preview fails with EditPreviewFailed, and matches an applied edit against the order as it is', async () => {
    const failing = await editOf([{ action: 'changeOrderState', orderState: 'Nope' }]);
    const refused = await viewer.get(matchingUrl(failing.id));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      statusCode: 400,
      errors: [{ code: 'EditPreviewFailed', result: { type: 'PreviewFailure', errors: [{ code: 'InvalidInput' }] } }],
    });

    const current = await admin.read(`/${P}/orders/${order.id as string}`);
    const toVip = await editOf([{ action: 'setCustomerEmail', email: VIP }]);
    const pending = await editOf([]);
    expect(keysOf(await viewer.read(matchingUrl(pending.id)))).toEqual(['express', 'standard']);
    await admin.ok(`/${P}/order-edits/${toVip.id as string}/apply`, { editVersion: toVip.version, resourceVersion: current.version });
    // Applied: the order now has the e-mail, for the applied edit and for every edit previewed on it.
    expect(keysOf(await viewer.read(matchingUrl(toVip.id)))).toEqual(['express', 'standard', 'vip']);
    expect(keysOf(await viewer.read(matchingUrl(pending.id)))).toEqual(['express', 'standard', 'vip']);
  });

  it('refuses bad queries with 400 and the official error code, and accepts the scopes the reference names', async () => {
    const edit = await editOf([]);
    const cases: Array<[string, string]> = [
      [`country=DE`, 'InvalidInput'],
      [`orderEditId=${edit.id as string}`, 'InvalidInput'],
      [`orderEditId=${edit.id as string}&country=Germany`, 'InvalidInput'],
      [`orderEditId=nope&country=DE`, 'ReferencedResourceNotFound'],
    ];
    for (const [query, code] of cases) {
      const answer = await viewer.get(`/${P}/shipping-methods/matching-orderedit?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    // resources/shipping-methods.raml matching-orderedit: view_orders or view_shipping_methods, not manage_my_orders.
    const orderViewer = await callerWith(gateway, P, ['view_orders']);
    expect(keysOf(await orderViewer.read(matchingUrl(edit.id, 'country=US&state=CA')))).toEqual(['californian']);
    const shopper = await callerWith(gateway, P, ['manage_my_orders']);
    expect((await shopper.get(matchingUrl(edit.id))).status).toBe(403);
  });
});
