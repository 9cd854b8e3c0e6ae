/**
 * Issue 29, carts: freezeCart / unfreezeCart (CartState `Frozen`, FreezeStrategy) and lockCart /
 * unlockCart (CartLock, scope `manage_locked_carts`), through HTTP: what a frozen or locked cart
 * refuses, prices kept while frozen and selected again on unfreezing, and the CartFrozen,
 * CartUnfrozen, CartLocked and CartUnlocked messages delivered to an SQS subscription.
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, labels, payloadOf, REGION, subscribedQueue } from '../subscriptions/support.js';
import { callerWith, eur, type Caller, type Json } from './commerce.js';

const P = 'frozen-carts';

describe('frozen and locked carts', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let product: Json;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [P],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    product = await admin.ok(
      `/${P}/products`,
      {
        key: 'lamp',
        productType: { typeId: 'product-type', key: 'plain' },
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
  const update = (cart: Json, actions: Json[], caller = admin) => caller.update(url(cart), cart.version, actions);
  const refusal = async (cart: Json, actions: Json[], caller = admin) => caller.post(url(cart), { version: cart.version, actions });
  const lampCart = () => admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [{ sku: 'lamp-1', quantity: 2 }] }, 201);

  /** The lamp's embedded price changed in the published data (products' changePrice). */
  async function repriceLamp(centAmount: number): Promise<void> {
    const current = await admin.read(`/${P}/products/${product.id}`);
    const price = current.masterData.current.masterVariant.prices[0];
    const changed = await admin.update(`/${P}/products/${product.id}`, current.version, [
      { action: 'changePrice', priceId: price.id, price: { value: eur(centAmount) }, staged: false },
    ]);
    product = changed;
  }

  describe('freezeCart / unfreezeCart', () => {
    it('freezes with SoftFreeze by default and keeps the prices; unfreezing selects them again', async () => {
      const cart = await lampCart();
      const frozen = await update(cart, [{ action: 'freezeCart' }]);
      expect(frozen).toMatchObject({ cartState: 'Frozen', freezeStrategy: 'SoftFreeze' });

      await repriceLamp(1200);
      const recalculated = await update(frozen, [{ action: 'recalculate', updateProductData: true }]);
      expect(recalculated.lineItems[0].price.value.centAmount).toBe(1000);
      expect(recalculated.totalPrice.centAmount).toBe(2000);

      const unfrozen = await update(recalculated, [{ action: 'unfreezeCart' }]);
      expect(unfrozen.cartState).toBe('Active');
      expect(unfrozen).not.toHaveProperty('freezeStrategy');
      expect(unfrozen.lineItems[0].price.value.centAmount).toBe(1200);
      expect(unfrozen.totalPrice.centAmount).toBe(2400);
      await repriceLamp(1000);
    });

    it('refuses actions that change item prices while frozen, and allows the others', async () => {
      const frozen = await update(await lampCart(), [{ action: 'freezeCart', strategy: 'SoftFreeze' }]);
      const item = frozen.lineItems[0];
      for (const action of [
        { action: 'addLineItem', sku: 'lamp-1' },
        { action: 'changeLineItemQuantity', lineItemId: item.id, quantity: 5 },
        { action: 'removeLineItem', lineItemId: item.id },
        { action: 'changeTaxMode', taxMode: 'Disabled' },
        { action: 'addCustomLineItem', name: { en: 'Fee' }, slug: 'fee', money: eur(100) },
      ]) {
        const answer = await refusal(frozen, [action]);
        expect(answer.status, action.action).toBe(400);
        expect(answer.body.errors[0].code).toBe('InvalidOperation');
      }
      const emailed = await update(frozen, [{ action: 'setCustomerEmail', email: 'frozen@example.com' }]);
      expect(emailed).toMatchObject({ cartState: 'Frozen', customerEmail: 'frozen@example.com' });
    });

    it('with HardFreeze also refuses shipping methods and discount codes', async () => {
      const frozen = await update(await lampCart(), [{ action: 'freezeCart', strategy: 'HardFreeze' }]);
      expect(frozen.freezeStrategy).toBe('HardFreeze');
      for (const action of [
        { action: 'setShippingMethod', shippingMethod: { typeId: 'shipping-method', key: 'none' } },
        { action: 'addDiscountCode', code: 'NONE' },
      ]) {
        const answer = await refusal(frozen, [action]);
        expect(answer.status, action.action).toBe(400);
        expect(answer.body.errors[0].code).toBe('InvalidOperation');
      }
    });

    it('refuses to freeze an empty or frozen cart, to unfreeze an active one, and an unknown strategy', async () => {
      const empty = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
      expect((await refusal(empty, [{ action: 'freezeCart' }])).body.errors[0].code).toBe('InvalidOperation');
      expect((await refusal(empty, [{ action: 'unfreezeCart' }])).body.errors[0].code).toBe('InvalidOperation');
      const cart = await lampCart();
      const wrong = await refusal(cart, [{ action: 'freezeCart', strategy: 'Icy' }]);
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'strategy' });
      const frozen = await update(cart, [{ action: 'freezeCart' }]);
      expect((await refusal(frozen, [{ action: 'freezeCart' }])).body.errors[0].code).toBe('InvalidOperation');
    });
  });

  describe('lockCart / unlockCart', () => {
    it('locks with the API Client and time; without manage_locked_carts nobody changes, locks or unlocks it', async () => {
      const orders = await callerWith(gateway, P, ['manage_orders']);
      const cart = await lampCart();
      const notAllowed = await refusal(cart, [{ action: 'lockCart' }], orders);
      expect(notAllowed.status).toBe(403);

      const locker = await callerWith(gateway, P, ['manage_orders', 'manage_locked_carts']);
      const locked = await update(cart, [{ action: 'lockCart' }], locker);
      expect(locked.lock).toEqual({ createdAt: expect.any(String), clientId: expect.any(String) });
      expect(Number.isNaN(Date.parse(locked.lock.createdAt))).toBe(false);

      expect((await refusal(locked, [{ action: 'setCustomerEmail', email: 'x@example.com' }], orders)).status).toBe(403);
      expect((await refusal(locked, [{ action: 'unlockCart' }], orders)).status).toBe(403);
      expect((await refusal(locked, [{ action: 'lockCart' }], locker)).body.errors[0].code).toBe('InvalidOperation');

      const changed = await update(locked, [{ action: 'setCustomerEmail', email: 'locked@example.com' }], locker);
      const unlocked = await update(changed, [{ action: 'unlockCart' }], locker);
      expect(unlocked).not.toHaveProperty('lock');
      expect((await update(unlocked, [{ action: 'setCustomerEmail', email: 'open@example.com' }], orders)).customerEmail).toBe('open@example.com');
    });
  });

  it('delivers CartFrozen, CartUnfrozen, CartLocked and CartUnlocked messages', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'cart');
    const cart = await lampCart();
    await update(cart, [{ action: 'freezeCart' }, { action: 'unfreezeCart' }, { action: 'lockCart' }, { action: 'unlockCart' }]);
    const documents = await deliveriesAbout(sqs, queue, cart.id as string, 6);
    const messages = documents
      .map(payloadOf)
      .filter((payload) => payload.notificationType === 'Message')
      .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    expect(messages.map((payload) => payload.type)).toEqual(['CartFrozen', 'CartUnfrozen', 'CartLocked', 'CartUnlocked']);
    expect(labels(documents)).toContain(`cart:${cart.id}:ResourceUpdated:2`);
  });
});
