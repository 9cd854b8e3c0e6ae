/**
 * Issue 29, carts with the `Multiple` ShippingMode (types/cart/Shipping.raml, CartAddShippingMethodAction,
 * CartAddCustomShippingMethodAction, CartRemoveShippingMethodAction, CartDraft.shipping/customShipping,
 * ItemShippingTarget.shippingMethodKey, MethodTaxRate, MethodTaxedPrice): shippings priced and taxed
 * per address, the cart's totals over all of them, the actions that take a `shippingKey`, an order
 * made from such a cart (with addDelivery by shippingKey), an order edit of it, and the change
 * notification of an update delivered to SQS. Expected amounts are computed here from the rates.
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, payloadOf, REGION, subscribedQueue } from '../subscriptions/support.js';
import { address, callerWith, eur, type Caller, type Json } from './commerce.js';

const P = 'cart-multi-shipping';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
const DE_RATE = 0.19;
const FR_RATE = 0.2;

/** Net and tax of a gross amount whose rate is included in the price (net rounded; no half cents in these amounts). */
function included(gross: number, rate: number): { net: number; tax: number; gross: number } {
  const net = Math.round(gross / (1 + rate));
  return { net, tax: gross - net, gross };
}

function taxed(...parts: Array<{ net: number; tax: number; gross: number }>): Json {
  const net = parts.reduce((total, part) => total + part.net, 0);
  const tax = parts.reduce((total, part) => total + part.tax, 0);
  return { totalNet: money(net), totalGross: money(net + tax), totalTax: money(tax) };
}

describe('carts with the Multiple shipping mode', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [P],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
    admin = await callerWith(gateway, P, ['manage_project']);
    const vatRates = [
      { name: 'DE VAT', amount: DE_RATE, includedInPrice: true, country: 'DE' },
      { name: 'FR VAT', amount: FR_RATE, includedInPrice: true, country: 'FR' },
    ];
    await admin.ok(`/${P}/tax-categories`, { key: 'vat', name: 'VAT', rates: vatRates }, 201);
    await admin.ok(`/${P}/zones`, { key: 'de', name: 'Germany', locations: [{ country: 'DE' }] }, 201);
    await admin.ok(`/${P}/zones`, { key: 'fr', name: 'France', locations: [{ country: 'FR' }] }, 201);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    await admin.ok(
      `/${P}/products`,
      {
        key: 'lamp',
        productType: { typeId: 'product-type', key: 'plain' },
        taxCategory: { typeId: 'tax-category', key: 'vat' },
        name: { en: 'Lamp' },
        slug: { en: 'lamp' },
        publish: true,
        masterVariant: { sku: 'lamp-1', prices: [{ value: eur(1000) }] },
      },
      201,
    );
    await admin.ok(
      `/${P}/shipping-methods`,
      {
        key: 'standard',
        name: 'Standard',
        taxCategory: { typeId: 'tax-category', key: 'vat' },
        isDefault: false,
        zoneRates: [
          { zone: { typeId: 'zone', key: 'de' }, shippingRates: [{ price: eur(490) }] },
          { zone: { typeId: 'zone', key: 'fr' }, shippingRates: [{ price: eur(990) }] },
        ],
      },
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  const url = (cart: Json) => `/${P}/carts/${cart.id}`;
  const update = (cart: Json, actions: Json[]) => admin.update(url(cart), cart.version, actions);
  const refused = async (cart: Json, action: Json) => {
    const answer = await admin.post(url(cart), { version: cart.version, actions: [action] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    return answer.body.errors[0] as Json;
  };
  const standard = { typeId: 'shipping-method', key: 'standard' };
  const vat = { typeId: 'tax-category', key: 'vat' };
  const itemAddresses = [address('DE', { key: 'berlin' }), address('FR', { key: 'paris' })];
  const draft = (extra: Json = {}): Json => ({
    currency: 'EUR',
    shippingMode: 'Multiple',
    itemShippingAddresses: itemAddresses,
    lineItems: [{ sku: 'lamp-1', quantity: 3 }],
    shipping: [{ key: 'home', shippingMethod: standard, shippingAddress: address('DE') }],
    customShipping: [{ key: 'office', shippingMethodName: 'Courier', shippingRate: { price: eur(700) }, shippingAddress: address('FR'), taxCategory: vat }],
    ...extra,
  });
  /** Two lamps with the `home` shipping, one with `office`. */
  const distribute = (cart: Json) =>
    update(cart, [
      {
        action: 'setLineItemShippingDetails',
        lineItemId: cart.lineItems[0].id,
        shippingDetails: {
          targets: [
            { addressKey: 'berlin', quantity: 2, shippingMethodKey: 'home' },
            { addressKey: 'paris', quantity: 1, shippingMethodKey: 'office' },
          ],
        },
      },
    ]);

  describe('CartDraft shipping and customShipping', () => {
    it('prices and taxes each shipping for its address; the totals include every shipping', async () => {
      const cart = await admin.ok(`/${P}/carts`, draft(), 201);
      expect(cart.shippingMode).toBe('Multiple');
      expect(cart).not.toHaveProperty('shippingInfo');
      expect(cart.shipping.map((entry: Json) => entry.shippingKey)).toEqual(['home', 'office']);
      const [home, office] = cart.shipping as Json[];
      expect(home?.shippingAddress).toMatchObject({ country: 'DE' });
      expect(home?.shippingInfo).toMatchObject({
        shippingMethodName: 'Standard',
        price: money(490),
        shippingMethod: { typeId: 'shipping-method' },
        shippingMethodState: 'MatchesCart',
        taxRate: { amount: DE_RATE, country: 'DE' },
        deliveries: [],
      });
      expect(office?.shippingInfo).toMatchObject({ shippingMethodName: 'Courier', price: money(700), taxRate: { amount: FR_RATE, country: 'FR' } });
      expect(office?.shippingInfo).not.toHaveProperty('shippingMethod');
      expect(cart.totalPrice).toEqual(money(3 * 1000 + 490 + 700));
      const homeTax = included(490, DE_RATE);
      const officeTax = included(700, FR_RATE);
      expect(cart.taxedShippingPrice).toMatchObject(taxed(homeTax, officeTax));
      expect(home?.shippingInfo.taxedPrice).toMatchObject(taxed(homeTax));
      // The lamps are not distributed to the shippings yet: "taxedPrice is not automatically set".
      expect(cart).not.toHaveProperty('taxedPrice');
      expect(cart.lineItems[0].perMethodTaxRate).toEqual([
        { shippingMethodKey: 'home', taxRate: expect.objectContaining({ amount: DE_RATE, country: 'DE' }) },
        { shippingMethodKey: 'office', taxRate: expect.objectContaining({ amount: FR_RATE, country: 'FR' }) },
      ]);
    });

    it('taxes the units each shipping takes (shippingMethodKey) at its rate, and then the cart', async () => {
      const cart = await distribute(await admin.ok(`/${P}/carts`, draft(), 201));
      const item = cart.lineItems[0];
      const homeUnits = included(2000, DE_RATE);
      const officeUnits = included(1000, FR_RATE);
      expect(item.taxedPricePortions).toEqual([
        { shippingMethodKey: 'home', taxedPrice: expect.objectContaining(taxed(homeUnits)) },
        { shippingMethodKey: 'office', taxedPrice: expect.objectContaining(taxed(officeUnits)) },
      ]);
      expect(item.taxedPrice).toMatchObject(taxed(homeUnits, officeUnits));
      expect(cart.taxedPrice).toMatchObject(taxed(homeUnits, officeUnits, included(490, DE_RATE), included(700, FR_RATE)));
      expect(cart.taxedPrice.totalGross).toEqual(cart.totalPrice);

      // The Disabled tax mode takes every per-shipping tax away.
      const disabled = await update(cart, [{ action: 'changeTaxMode', taxMode: 'Disabled' }]);
      expect(disabled).not.toHaveProperty('taxedPrice');
      expect(disabled).not.toHaveProperty('taxedShippingPrice');
      expect(disabled.shipping.map((entry: Json) => [entry.shippingInfo.taxRate, entry.shippingInfo.taxedPrice])).toEqual([
        [undefined, undefined],
        [undefined, undefined],
      ]);
      expect(disabled.lineItems[0]).toMatchObject({ perMethodTaxRate: [], taxedPricePortions: [] });
    });

    it('refuses shippings on a Single cart, a duplicate key, a missing address and a method without a rate there', async () => {
      const create = (body: Json) => admin.post(`/${P}/carts`, body);
      const single = await create(draft({ shippingMode: 'Single' }));
      expect(single.status).toBe(400);
      expect(single.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'shipping' });
      const twice = await create(draft({ shipping: [{ key: 'office', shippingMethod: standard, shippingAddress: address('DE') }] }));
      expect(twice.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'customShipping[0].key', duplicateValue: 'office' });
      const nowhere = await create(draft({ shipping: [{ key: 'home', shippingMethod: standard }] }));
      expect(nowhere.body.errors[0]).toMatchObject({ code: 'RequiredField', field: 'shipping[0].shippingAddress' });
      const abroad = await create(draft({ shipping: [{ key: 'home', shippingMethod: standard, shippingAddress: address('US') }] }));
      expect(abroad.body.errors[0]).toMatchObject({ code: 'ShippingMethodDoesNotMatchCart' });
    });
  });

  describe('addShippingMethod, addCustomShippingMethod, removeShippingMethod', () => {
    it('add and remove shippings; the total follows and the change notification is delivered', async () => {
      const queue = await subscribedQueue(sqs, admin, P, 'cart');
      const cart = await admin.ok(`/${P}/carts`, draft({ shipping: [], customShipping: [] }), 201);
      expect(cart.shipping).toEqual([]);
      // Empty and without a Shipping: no address to tax for, as a Single cart without shippingAddress.
      const empty = await admin.ok(`/${P}/carts`, draft({ shipping: [], customShipping: [], lineItems: [] }), 201);
      expect(empty).not.toHaveProperty('taxedPrice');
      expect(empty).not.toHaveProperty('taxedShippingPrice');
      const window = { from: '2030-01-02T08:00:00.000Z', until: '2030-01-03T18:00:00.000Z' };
      const added = await update(cart, [
        { action: 'addShippingMethod', shippingKey: 'home', shippingMethod: standard, shippingAddress: address('FR'), estimatedDelivery: window },
        {
          action: 'addCustomShippingMethod',
          shippingKey: 'pickup',
          shippingMethodName: 'Pickup',
          shippingRate: { price: eur(0) },
          shippingAddress: address('DE'),
        },
      ]);
      expect(added.shipping.map((entry: Json) => [entry.shippingKey, entry.shippingInfo.price.centAmount])).toEqual([
        ['home', 990],
        ['pickup', 0],
      ]);
      expect(added.shipping[0].shippingInfo.estimatedDelivery).toEqual(window);
      expect(added.totalPrice).toEqual(money(3000 + 990));

      const removed = await update(added, [{ action: 'removeShippingMethod', shippingKey: 'home' }]);
      expect(removed.shipping.map((entry: Json) => entry.shippingKey)).toEqual(['pickup']);
      expect(removed.totalPrice).toEqual(money(3000));

      const documents = await deliveriesAbout(sqs, queue, cart.id as string, 3);
      const changes = documents.map(payloadOf).filter((payload) => payload.notificationType === 'ResourceUpdated');
      expect(changes.map((payload) => payload.version as number).sort((a, b) => a - b)).toEqual([added.version, removed.version]);
      // The reference defines no messages for these actions: only change notifications arrive.
      expect(documents.map(payloadOf).filter((payload) => payload.notificationType === 'Message')).toEqual([]);
    });

    it('refuses them on a Single cart, a duplicate or unknown key, an unknown shippingMethodKey and an external rate on a Platform cart', async () => {
      const single = await admin.ok(`/${P}/carts`, { currency: 'EUR', shippingAddress: address('DE') }, 201);
      const addHome = { action: 'addShippingMethod', shippingKey: 'home', shippingMethod: standard, shippingAddress: address('DE') };
      expect((await refused(single, addHome)).code).toBe('InvalidOperation');
      expect((await refused(single, { action: 'removeShippingMethod', shippingKey: 'home' })).code).toBe('InvalidOperation');

      const cart = await admin.ok(`/${P}/carts`, draft(), 201);
      expect(await refused(cart, addHome)).toMatchObject({ code: 'DuplicateField', field: 'shippingKey', duplicateValue: 'home' });
      expect(await refused(cart, { ...addHome, shippingKey: undefined })).toMatchObject({ code: 'RequiredField', field: 'shippingKey' });
      expect(await refused(cart, { ...addHome, shippingKey: 'other', shippingAddress: address('US') })).toMatchObject({
        code: 'ShippingMethodDoesNotMatchCart',
      });
      const external = { ...addHome, shippingKey: 'other', externalTaxRate: { name: 'x', amount: 0.1, country: 'DE' } };
      expect((await refused(cart, external)).code).toBe('InvalidOperation');
      expect(await refused(cart, { action: 'removeShippingMethod', shippingKey: 'nope' })).toMatchObject({ code: 'InvalidInput', field: 'shippingKey' });
      const targets = { targets: [{ addressKey: 'berlin', quantity: 3, shippingMethodKey: 'nope' }] };
      const details = { action: 'setLineItemShippingDetails', lineItemId: cart.lineItems[0].id, shippingDetails: targets };
      expect((await refused(cart, details)).code).toBe('InvalidItemShippingDetails');
    });

    it('removing a shipping takes its units out of the distribution, so the cart has no taxedPrice', async () => {
      const cart = await distribute(await admin.ok(`/${P}/carts`, draft(), 201));
      expect(cart).toHaveProperty('taxedPrice');
      const removed = await update(cart, [{ action: 'removeShippingMethod', shippingKey: 'office' }]);
      expect(removed.lineItems[0].shippingDetails.targets[1]).toEqual({ addressKey: 'paris', quantity: 1 });
      expect(removed.lineItems[0].taxedPricePortions.map((portion: Json) => portion.shippingMethodKey)).toEqual(['home']);
      expect(removed).not.toHaveProperty('taxedPrice');
      expect(removed.totalPrice).toEqual(money(3000 + 490));
    });
  });

  describe('deliveries of a shipping', () => {
    it("a shipping takes DeliveryDrafts of the cart's items, validated as an order's; the order keeps them", async () => {
      const cart = await admin.ok(`/${P}/carts`, draft({ shipping: [], customShipping: [] }), 201);
      const lamp = cart.lineItems[0].id as string;
      const delivery = { key: 'first', items: [{ id: lamp, quantity: 2 }], parcels: [{ key: 'box', items: [{ id: lamp, quantity: 2 }] }] };
      const add = { action: 'addShippingMethod', shippingKey: 'home', shippingMethod: standard, shippingAddress: address('DE'), deliveries: [delivery] };
      const shipped = await update(cart, [add]);
      expect(shipped.shipping[0].shippingInfo.deliveries).toEqual([
        expect.objectContaining({ key: 'first', items: [{ id: lamp, quantity: 2 }], parcels: [expect.objectContaining({ key: 'box' })] }),
      ]);
      const unknownItem = { ...add, shippingKey: 'other', deliveries: [{ items: [{ id: 'nope', quantity: 1 }] }] };
      expect(await refused(shipped, unknownItem)).toMatchObject({ code: 'InvalidInput', field: 'deliveries[0].items[0].id' });
      const takenKey = { ...add, shippingKey: 'other', deliveries: [{ key: 'first', items: [] }] };
      expect((await refused(shipped, takenKey)).field).toBe('deliveries[0].key');

      const order = await admin.ok(`/${P}/orders`, { cart: { typeId: 'cart', id: cart.id }, version: shipped.version }, 201);
      expect(order.shipping[0].shippingInfo.deliveries).toEqual(shipped.shipping[0].shippingInfo.deliveries);
      const removed = await admin.update(`/${P}/orders/${order.id}`, order.version, [{ action: 'removeDelivery', deliveryKey: 'first' }]);
      expect(removed.shipping[0].shippingInfo.deliveries).toEqual([]);
    });
  });

  describe('actions that name a shipping by shippingKey', () => {
    it('setEstimatedDelivery sets the window of that shipping (CartEstimatedDeliverySet with the shippingKey)', async () => {
      const cart = await admin.ok(`/${P}/carts`, draft(), 201);
      const window = { from: '2030-01-02T08:00:00.000Z' };
      const set = await update(cart, [{ action: 'setEstimatedDelivery', shippingKey: 'office', estimatedDelivery: window }]);
      expect(set.shipping[1].shippingInfo.estimatedDelivery).toEqual(window);
      expect(set.shipping[0].shippingInfo).not.toHaveProperty('estimatedDelivery');
      const messages = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id="${cart.id}")`)}`);
      expect(messages.results.map((message: Json) => [message.type, message.shippingKey])).toEqual([['CartEstimatedDeliverySet', 'office']]);
      expect((await refused(set, { action: 'setEstimatedDelivery', estimatedDelivery: window })).code).toBe('InvalidOperation');
    });

    it('External tax mode: external rates per shipping (the add actions, setShippingMethodTaxRate) and the items’ own rate', async () => {
      const rate = (amount: number, country: string) => ({ name: `${country} ext`, amount, includedInPrice: true, country });
      const cart = await admin.ok(
        `/${P}/carts`,
        draft({ taxMode: 'External', lineItems: [{ sku: 'lamp-1', quantity: 3, externalTaxRate: rate(0.1, 'DE') }], shipping: [], customShipping: [] }),
        201,
      );
      const shipped = await update(cart, [
        { action: 'addShippingMethod', shippingKey: 'home', shippingMethod: standard, shippingAddress: address('DE'), externalTaxRate: rate(0.1, 'DE') },
        {
          action: 'setLineItemShippingDetails',
          lineItemId: cart.lineItems[0].id,
          shippingDetails: { targets: [{ addressKey: 'berlin', quantity: 3, shippingMethodKey: 'home' }] },
        },
      ]);
      expect(shipped.taxedPrice).toMatchObject(taxed(included(3000, 0.1), included(490, 0.1)));
      const changed = await update(shipped, [{ action: 'setShippingMethodTaxRate', shippingKey: 'home', externalTaxRate: rate(0.05, 'DE') }]);
      expect(changed.shipping[0].shippingInfo.taxRate).toMatchObject({ amount: 0.05 });
      expect(changed.taxedShippingPrice).toMatchObject(taxed(included(490, 0.05)));
      expect((await refused(changed, { action: 'setShippingMethodTaxRate', externalTaxRate: rate(0.05, 'DE') })).code).toBe('InvalidOperation');

      // setLineItemTaxRate with a shippingKey sets the item's MethodTaxRate for that shipping, which taxes its units there.
      const perMethod = await update(changed, [
        { action: 'setLineItemTaxRate', lineItemId: cart.lineItems[0].id, shippingKey: 'home', externalTaxRate: rate(0.25, 'DE') },
      ]);
      expect(perMethod.lineItems[0].perMethodTaxRate).toEqual([{ shippingMethodKey: 'home', taxRate: expect.objectContaining({ amount: 0.25 }) }]);
      expect(perMethod.lineItems[0].taxedPrice).toMatchObject(taxed(included(3000, 0.25)));
      const unkeyed = { action: 'setLineItemTaxRate', lineItemId: cart.lineItems[0].id, externalTaxRate: rate(0.25, 'DE') };
      expect((await refused(perMethod, unkeyed)).code).toBe('InvalidOperation');
      expect(await refused(perMethod, { ...unkeyed, shippingKey: 'nope' })).toMatchObject({ code: 'InvalidInput', field: 'shippingKey' });
    });
  });

  describe('ExternalAmount tax mode', () => {
    it('setLineItemTaxAmount with a shippingKey sets the amount of the units sent with that shipping; the item sums them', async () => {
      const cart = await distribute(await admin.ok(`/${P}/carts`, draft({ taxMode: 'ExternalAmount' }), 201));
      const lineItemId = cart.lineItems[0].id as string;
      const amount = (shippingKey: string, totalGross: number) => ({
        action: 'setLineItemTaxAmount',
        lineItemId,
        shippingKey,
        externalTaxAmount: { totalGross: eur(totalGross), taxRate: { name: 'ext', amount: 0.19, country: 'DE' } },
      });
      const home = await update(cart, [amount('home', 2380)]);
      // Two of the three lamps go with `home`: their net is 2 × 10.00.
      expect(home.lineItems[0].taxedPricePortions).toEqual([
        { shippingMethodKey: 'home', taxedPrice: expect.objectContaining({ totalNet: money(2000), totalGross: money(2380), totalTax: money(380) }) },
      ]);
      expect(home.lineItems[0].perMethodTaxRate).toEqual([{ shippingMethodKey: 'home', taxRate: expect.objectContaining({ amount: 0.19 }) }]);
      expect(home.lineItems[0]).not.toHaveProperty('taxedPrice');
      const both = await update(home, [amount('office', 1200)]);
      expect(both.lineItems[0].taxedPricePortions.map((portion: Json) => portion.shippingMethodKey)).toEqual(['home', 'office']);
      expect(both.lineItems[0].taxedPrice).toMatchObject({ totalNet: money(3000), totalGross: money(3580), totalTax: money(580) });

      const unkeyed = { ...amount('home', 1), shippingKey: undefined };
      expect((await refused(both, unkeyed)).code).toBe('InvalidOperation');
      // A price change drops the amounts, which "must be set again" (TaxMode.raml ExternalAmount).
      const changed = await update(both, [{ action: 'changeLineItemQuantity', lineItemId, quantity: 4 }]);
      expect(changed.lineItems[0].taxedPricePortions).toEqual([]);
      expect(changed.lineItems[0]).not.toHaveProperty('taxedPrice');
    });
  });

  describe('cart discounts and freezing', () => {
    it('a cart discount on shipping discounts each shipping; the totals and taxes use the discounted prices', async () => {
      const email = 'multi-discount@example.com';
      const discount = await admin.ok(
        `/${P}/cart-discounts`,
        {
          name: { en: 'Shipping 2 off' },
          value: { type: 'absolute', money: [eur(200)] },
          target: { type: 'shipping' },
          cartPredicate: `customerEmail = "${email}"`,
          sortOrder: '0.5',
        },
        201,
      );
      const cart = await distribute(await admin.ok(`/${P}/carts`, draft({ customerEmail: email }), 201));
      const portion = (centAmount: number) => ({ discount: { typeId: 'cart-discount', id: discount.id }, discountedAmount: money(centAmount) });
      expect(cart.shipping.map((entry: Json) => entry.shippingInfo.discountedPrice)).toEqual([
        { value: money(290), includedDiscounts: [portion(200)] },
        { value: money(500), includedDiscounts: [portion(200)] },
      ]);
      expect(cart.totalPrice).toEqual(money(3000 + 290 + 500));
      expect(cart.taxedShippingPrice).toMatchObject(taxed(included(290, DE_RATE), included(500, FR_RATE)));
      expect(cart.taxedPrice.totalGross).toEqual(cart.totalPrice);
    });

    it('a HardFreeze cart refuses adding and removing shipping methods', async () => {
      const frozen = await update(await admin.ok(`/${P}/carts`, draft(), 201), [{ action: 'freezeCart', strategy: 'HardFreeze' }]);
      const add = {
        action: 'addCustomShippingMethod',
        shippingKey: 'x',
        shippingMethodName: 'X',
        shippingRate: { price: eur(1) },
        shippingAddress: address('DE'),
      };
      expect((await refused(frozen, add)).code).toBe('InvalidOperation');
      expect((await refused(frozen, { action: 'removeShippingMethod', shippingKey: 'home' })).code).toBe('InvalidOperation');
    });
  });

  describe('an order from a Multiple cart', () => {
    it('carries the shippings; addDelivery takes a shippingKey; an order edit re-prices with them', async () => {
      const cart = await distribute(await admin.ok(`/${P}/carts`, draft(), 201));
      const order = await admin.ok(`/${P}/orders`, { cart: { typeId: 'cart', id: cart.id }, version: cart.version }, 201);
      expect(order.shippingMode).toBe('Multiple');
      expect(order.shipping.map((entry: Json) => [entry.shippingKey, entry.shippingInfo.price.centAmount, entry.shippingInfo.deliveries])).toEqual([
        ['home', 490, []],
        ['office', 700, []],
      ]);
      expect(order.totalPrice).toEqual(cart.totalPrice);
      expect(order.taxedShippingPrice).toEqual(cart.taxedShippingPrice);

      const orderUrl = `/${P}/orders/${order.id}`;
      const items = [{ id: order.lineItems[0].id, quantity: 1 }];
      const unkeyed = await admin.post(orderUrl, { version: order.version, actions: [{ action: 'addDelivery', items }] });
      expect(unkeyed.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'shippingKey' });
      const delivered = await admin.update(orderUrl, order.version, [{ action: 'addDelivery', shippingKey: 'office', deliveryKey: 'd1', items }]);
      expect(delivered.shipping[1].shippingInfo.deliveries).toEqual([expect.objectContaining({ key: 'd1', items })]);
      expect(delivered.shipping[0].shippingInfo.deliveries).toEqual([]);
      const messages = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id="${order.id}") and type="DeliveryAdded"`)}`);
      expect(messages.results[0]).toMatchObject({ shippingKey: 'office', delivery: { key: 'd1' } });

      // StagedOrderChangeLineItemQuantityAction runs the carts' handler on a view that carries `shipping`.
      const stagedActions = [{ action: 'changeLineItemQuantity', lineItemId: order.lineItems[0].id, quantity: 4 }];
      const edit = await admin.ok(`/${P}/order-edits`, { resource: { typeId: 'order', id: order.id }, stagedActions }, 201);
      const applied = await admin.ok(`/${P}/order-edits/${edit.id}/apply`, { editVersion: edit.version, resourceVersion: delivered.version });
      const edited = await admin.read(orderUrl);
      expect(applied.result.type).toBe('Applied');
      expect(edited.totalPrice).toEqual(money(4000 + 490 + 700));
      expect(edited.shipping[1].shippingInfo.deliveries).toEqual([expect.objectContaining({ key: 'd1' })]);
      // The fourth lamp goes with no shipping: the order is no longer fully distributed.
      expect(edited).not.toHaveProperty('taxedPrice');
    });
  });
});
