/**
 * Issue 29, carts: setCustomShippingMethod (priced by its ShippingRateDraft, taxed by taxCategory or
 * externalTaxRate), setEstimatedDelivery (CartEstimatedDeliverySet, delivered to SQS),
 * applyDeltaToLineItemShippingDetailsTargets (also on /me/carts) and
 * applyDeltaToCustomLineItemShippingDetailsTargets, setReservationExpirationInMinutes and
 * setLineItemRecurrenceInfo / setCustomLineItemRecurrenceInfo, through HTTP.
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, payloadOf, REGION, subscribedQueue } from '../subscriptions/support.js';
import { address, callerWith, customerWithToken, eur, type Caller, type Json } from './commerce.js';

const P = 'cart-shipping-actions';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });

describe('cart shipping actions', { timeout: 60_000 }, () => {
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
    await admin.ok(`/${P}/tax-categories`, { key: 'vat', name: 'VAT', rates: [{ name: 'DE VAT', amount: 0.19, includedInPrice: true, country: 'DE' }] }, 201);
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
  const cartWith = (draft: Json) => admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [{ sku: 'lamp-1', quantity: 3 }], ...draft }, 201);
  const customMethod = (extra: Json = {}): Json => ({
    action: 'setCustomShippingMethod',
    shippingMethodName: 'Courier',
    shippingRate: { price: eur(700), freeAbove: eur(5000) },
    ...extra,
  });

  describe('setCustomShippingMethod', () => {
    it('prices the cart with the rate, taxes it by the taxCategory, and the rate follows the cart (freeAbove)', async () => {
      const cart = await cartWith({ shippingAddress: address('DE') });
      const shipped = await update(cart, [customMethod({ taxCategory: { typeId: 'tax-category', key: 'vat' } })]);
      expect(shipped.shippingInfo).toMatchObject({
        shippingMethodName: 'Courier',
        price: money(700),
        shippingRate: { price: money(700), freeAbove: money(5000) },
        shippingMethodState: 'MatchesCart',
        taxRate: { amount: 0.19, includedInPrice: true, country: 'DE' },
      });
      expect(shipped.shippingInfo).not.toHaveProperty('shippingMethod');
      expect(shipped.totalPrice).toEqual(money(3700));
      expect(shipped.taxedPrice.totalGross).toEqual(money(3700));

      const more = await update(shipped, [{ action: 'changeLineItemQuantity', lineItemId: shipped.lineItems[0].id, quantity: 5 }]);
      expect(more.shippingInfo.price).toEqual(money(0));
      expect(more.totalPrice).toEqual(money(5000));

      const removed = await update(more, [{ action: 'setShippingMethod' }]);
      expect(removed).not.toHaveProperty('shippingInfo');
    });

    it('takes an external tax rate in the External tax mode, refused in the others', async () => {
      const external = await cartWith({ shippingAddress: address('DE'), taxMode: 'External' });
      const rate = { name: 'Ext', amount: 0.1, country: 'DE' };
      const shipped = await update(external, [customMethod({ externalTaxRate: rate })]);
      expect(shipped.shippingInfo.taxRate).toMatchObject({ name: 'Ext', amount: 0.1, includedInPrice: false });
      const platform = await cartWith({ shippingAddress: address('DE') });
      expect((await refused(platform, customMethod({ externalTaxRate: rate }))).code).toBe('InvalidOperation');
    });

    it('refuses a cart without a shipping address, and a missing name or rate, or a rate in another currency', async () => {
      expect((await refused(await cartWith({}), customMethod())).code).toBe('InvalidOperation');
      const cart = await cartWith({ shippingAddress: address('DE') });
      expect(await refused(cart, customMethod({ shippingMethodName: undefined }))).toMatchObject({ code: 'RequiredField', field: 'shippingMethodName' });
      expect(await refused(cart, customMethod({ shippingRate: undefined }))).toMatchObject({ code: 'RequiredField', field: 'shippingRate' });
      expect(await refused(cart, customMethod({ shippingRate: { price: { currencyCode: 'USD', centAmount: 1 } } }))).toMatchObject({
        code: 'InvalidInput',
        field: 'shippingRate.price',
      });
      expect(await refused(cart, customMethod({ taxCategory: { typeId: 'tax-category', key: 'nope' } }))).toMatchObject({ code: 'ReferencedResourceNotFound' });
    });
  });

  describe('setEstimatedDelivery', () => {
    it('sets and removes the window of the ShippingInfo, with CartEstimatedDeliverySet messages', async () => {
      const queue = await subscribedQueue(sqs, admin, P, 'cart');
      const cart = await cartWith({ shippingAddress: address('DE') });
      const window = { from: '2030-01-02T08:00:00.000Z', until: '2030-01-03T18:00:00.000Z' };
      const shipped = await update(cart, [customMethod(), { action: 'setEstimatedDelivery', estimatedDelivery: window }]);
      expect(shipped.shippingInfo.estimatedDelivery).toEqual(window);
      const cleared = await update(shipped, [{ action: 'setEstimatedDelivery' }]);
      expect(cleared.shippingInfo).not.toHaveProperty('estimatedDelivery');

      const documents = await deliveriesAbout(sqs, queue, cart.id as string, 5);
      const messages = documents
        .map(payloadOf)
        .filter((payload) => payload.notificationType === 'Message')
        .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
      expect(messages.map((payload) => [payload.type, payload.estimatedDelivery])).toEqual([
        ['CartEstimatedDeliverySet', window],
        ['CartEstimatedDeliverySet', undefined],
      ]);
    });

    it('refuses a cart without shipping, a shippingKey on a Single cart, and until before from', async () => {
      const cart = await cartWith({ shippingAddress: address('DE') });
      expect((await refused(cart, { action: 'setEstimatedDelivery', estimatedDelivery: {} })).code).toBe('InvalidOperation');
      const shipped = await update(cart, [customMethod()]);
      expect((await refused(shipped, { action: 'setEstimatedDelivery', shippingKey: 'a' })).code).toBe('InvalidOperation');
      const backwards = { from: '2030-01-03T00:00:00.000Z', until: '2030-01-02T00:00:00.000Z' };
      expect(await refused(shipped, { action: 'setEstimatedDelivery', estimatedDelivery: backwards })).toMatchObject({
        code: 'InvalidInput',
        field: 'estimatedDelivery.until',
      });
    });
  });

  describe('applyDelta…ShippingDetailsTargets', () => {
    const addresses = [address('DE', { key: 'home' }), address('AT', { key: 'office' })];

    it('adds to and takes from the targets per address; a target at 0 goes; valid follows the quantity', async () => {
      const cart = await cartWith({ itemShippingAddresses: addresses });
      const item = cart.lineItems[0];
      const split = await update(cart, [
        {
          action: 'applyDeltaToLineItemShippingDetailsTargets',
          lineItemId: item.id,
          targetsDelta: [
            { addressKey: 'home', quantity: 2 },
            { addressKey: 'office', quantity: 1 },
          ],
        },
      ]);
      expect(split.lineItems[0].shippingDetails).toEqual({
        targets: [
          { addressKey: 'home', quantity: 2 },
          { addressKey: 'office', quantity: 1 },
        ],
        valid: true,
      });
      const moved = await update(split, [
        {
          action: 'applyDeltaToLineItemShippingDetailsTargets',
          lineItemId: item.id,
          targetsDelta: [{ addressKey: 'office', quantity: -1 }],
        },
      ]);
      expect(moved.lineItems[0].shippingDetails).toEqual({ targets: [{ addressKey: 'home', quantity: 2 }], valid: false });
    });

    it('works on custom line items, and refuses an unknown address, a target below 0 and a non-integer delta', async () => {
      const cart = await admin.ok(
        `/${P}/carts`,
        { currency: 'EUR', itemShippingAddresses: addresses, customLineItems: [{ name: { en: 'Fee' }, slug: 'fee', money: eur(100), quantity: 2 }] },
        201,
      );
      const custom = cart.customLineItems[0];
      const delta = (targetsDelta: Json[]) => ({ action: 'applyDeltaToCustomLineItemShippingDetailsTargets', customLineItemId: custom.id, targetsDelta });
      const split = await update(cart, [delta([{ addressKey: 'home', quantity: 2 }])]);
      expect(split.customLineItems[0].shippingDetails).toEqual({ targets: [{ addressKey: 'home', quantity: 2 }], valid: true });
      expect(await refused(split, delta([{ addressKey: 'moon', quantity: 1 }]))).toMatchObject({ code: 'InvalidItemShippingDetails', itemId: custom.id });
      expect((await refused(split, delta([{ addressKey: 'home', quantity: -3 }]))).code).toBe('InvalidItemShippingDetails');
      expect(await refused(split, delta([{ addressKey: 'home', quantity: 1.5 }]))).toMatchObject({ code: 'InvalidInput', field: 'targetsDelta[0].quantity' });
      expect(await refused(split, { action: 'applyDeltaToCustomLineItemShippingDetailsTargets', customLineItemId: custom.id })).toMatchObject({
        field: 'targetsDelta',
      });
    });

    it('a buyer applies deltas to line items of their own cart, not to custom line items', async () => {
      const bea = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
      const mine = await bea.caller.ok(`/${P}/me/carts`, { currency: 'EUR', itemShippingAddresses: addresses, lineItems: [{ sku: 'lamp-1' }] }, 201);
      const updated = await bea.caller.update(`/${P}/me/carts/${mine.id}`, mine.version, [
        { action: 'applyDeltaToLineItemShippingDetailsTargets', lineItemId: mine.lineItems[0].id, targetsDelta: [{ addressKey: 'home', quantity: 1 }] },
      ]);
      expect(updated.lineItems[0].shippingDetails).toEqual({ targets: [{ addressKey: 'home', quantity: 1 }], valid: true });
      const merchantOnly = await bea.caller.post(`/${P}/me/carts/${mine.id}`, {
        version: updated.version,
        actions: [{ action: 'applyDeltaToCustomLineItemShippingDetailsTargets', customLineItemId: 'x', targetsDelta: [] }],
      });
      expect(merchantOnly.status).toBe(400);
    });
  });

  describe('setReservationExpirationInMinutes and recurrence info', () => {
    it('checks the minutes (1 to 44640); Herald holds no reservations to move', async () => {
      const cart = await cartWith({ inventoryMode: 'ReserveOnCart' });
      const updated = await update(cart, [{ action: 'setReservationExpirationInMinutes', reservationExpirationInMinutes: 60 }]);
      // Nothing changes (no reservation to move): the update is a no-op, the version stays.
      expect(updated.version).toBe(cart.version);
      for (const minutes of [0, 44641, 1.5, 'soon']) {
        expect(await refused(updated, { action: 'setReservationExpirationInMinutes', reservationExpirationInMinutes: minutes })).toMatchObject({
          code: 'InvalidInput',
          field: 'reservationExpirationInMinutes',
        });
      }
      expect(await refused(updated, { action: 'setReservationExpirationInMinutes' })).toMatchObject({ code: 'RequiredField' });
    });

    it('refuses a recurrence policy Herald does not have, checks the draft, and removes recurrence info', async () => {
      const cart = await admin.ok(
        `/${P}/carts`,
        { currency: 'EUR', lineItems: [{ sku: 'lamp-1' }], customLineItems: [{ name: { en: 'Fee' }, slug: 'fee', money: eur(100) }] },
        201,
      );
      const info = { recurrencePolicy: { typeId: 'recurrence-policy', key: 'monthly' }, priceSelectionMode: 'Fixed' };
      const line = { action: 'setLineItemRecurrenceInfo', lineItemId: cart.lineItems[0].id };
      const custom = { action: 'setCustomLineItemRecurrenceInfo', customLineItemId: cart.customLineItems[0].id };
      expect(await refused(cart, { ...line, recurrenceInfo: info })).toMatchObject({ code: 'ReferencedResourceNotFound', typeId: 'recurrence-policy' });
      expect((await refused(cart, { ...custom, recurrenceInfo: info })).code).toBe('ReferencedResourceNotFound');
      expect(await refused(cart, { ...line, recurrenceInfo: { ...info, priceSelectionMode: 'Sometimes' } })).toMatchObject({
        field: 'recurrenceInfo.priceSelectionMode',
      });
      expect(await refused(cart, { ...line, recurrenceInfo: { priceSelectionMode: 'Fixed' } })).toMatchObject({
        code: 'RequiredField',
        field: 'recurrenceInfo.recurrencePolicy',
      });
      const removed = await update(cart, [line, custom]);
      expect(removed.lineItems[0]).not.toHaveProperty('recurrenceInfo');
    });
  });
});
