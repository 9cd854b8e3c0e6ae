import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freshOrder, messagesOf, orderParties, type OrderParties } from './fixtures.js';

const P = 'order-assignments';

/**
 * Issue 29: the reference's OrderSetStoreAction, OrderSetBusinessUnitAction and
 * OrderSetEstimatedDeliveryAction through HTTP, with their messages (OrderStoreSet,
 * OrderBusinessUnitSet, OrderEstimatedDeliverySet) and their 400s.
 */
describe('orders: setStore, setBusinessUnit, setEstimatedDelivery', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let parties: OrderParties;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await orderParties(gateway, P);
    const admin = await parties.seller.withClient(P, ['manage_stores', 'manage_business_units']);
    for (const key of ['berlin', 'vienna']) await admin.ok(`/${P}/stores`, { key }, 201);
    for (const key of ['acme', 'globex']) await admin.ok(`/${P}/business-units`, { key, name: key, unitType: 'Company' }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  const url = (order: Json) => `/${P}/orders/${order.id as string}`;

  /** The messages an order recorded after its OrderCreated, as `[type, fields…]` of interest. */
  const laterMessages = async (order: Json, fields: string[]): Promise<Json[]> =>
    (await messagesOf(parties.seller, P, order.id)).slice(1).map((message) => Object.fromEntries(['type', ...fields].map((field) => [field, message[field]])));

  const refusal = async (order: Json, action: Json): Promise<Json> => {
    const answer = await parties.seller.post(url(order), { version: order.version, actions: [action] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    return answer.body.errors[0] as Json;
  };

  it('setStore moves the order to another store and out of it; the same store again, or removing none, is a 400', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    expect(await refusal(order, { action: 'setStore' })).toMatchObject({ code: 'InvalidOperation' });
    expect(await refusal(order, { action: 'setStore', store: { key: 'no-such-store' } })).toMatchObject({ code: 'ReferencedResourceNotFound' });

    const inBerlin = await seller.update(url(order), order.version, [{ action: 'setStore', store: { typeId: 'store', key: 'berlin' } }]);
    expect(inBerlin.store).toEqual({ typeId: 'store', key: 'berlin' });
    expect(await refusal(inBerlin, { action: 'setStore', store: { key: 'berlin' } })).toMatchObject({ code: 'InvalidOperation' });

    const inVienna = await seller.update(url(order), inBerlin.version, [{ action: 'setStore', store: { key: 'vienna' } }]);
    const nowhere = await seller.update(url(order), inVienna.version, [{ action: 'setStore' }]);
    expect(nowhere.store).toBeUndefined();
    expect(await laterMessages(order, ['store'])).toEqual([
      { type: 'OrderStoreSet', store: { typeId: 'store', key: 'berlin' } },
      { type: 'OrderStoreSet', store: { typeId: 'store', key: 'vienna' } },
      { type: 'OrderStoreSet', store: undefined },
    ]);
  });

  it('setBusinessUnit assigns, changes and removes the business unit with OrderBusinessUnitSet', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    expect(await refusal(order, { action: 'setBusinessUnit', businessUnit: { key: 'no-such-unit' } })).toMatchObject({ code: 'ReferencedResourceNotFound' });
    expect(await refusal(order, { action: 'setBusinessUnit', businessUnit: { typeId: 'store', key: 'acme' } })).toMatchObject({ code: 'InvalidInput' });

    const acme = await seller.update(url(order), order.version, [{ action: 'setBusinessUnit', businessUnit: { key: 'acme' } }]);
    expect(acme.businessUnit).toEqual({ typeId: 'business-unit', key: 'acme' });
    const globex = await seller.update(url(order), acme.version, [
      { action: 'setBusinessUnit', businessUnit: { typeId: 'business-unit', key: 'globex' } },
      // The same unit again changes nothing.
      { action: 'setBusinessUnit', businessUnit: { key: 'globex' } },
    ]);
    const none = await seller.update(url(order), globex.version, [{ action: 'setBusinessUnit' }]);
    expect(none.businessUnit).toBeUndefined();
    const acmeRef = { typeId: 'business-unit', key: 'acme' };
    const globexRef = { typeId: 'business-unit', key: 'globex' };
    // The reference spells the previous unit `oldbusinessUnit` (OrderBusinessUnitSetMessage.raml).
    expect(await laterMessages(order, ['businessUnit', 'oldbusinessUnit'])).toEqual([
      { type: 'OrderBusinessUnitSet', businessUnit: acmeRef, oldbusinessUnit: undefined },
      { type: 'OrderBusinessUnitSet', businessUnit: globexRef, oldbusinessUnit: acmeRef },
      { type: 'OrderBusinessUnitSet', businessUnit: undefined, oldbusinessUnit: globexRef },
    ]);
  });

  it('setEstimatedDelivery sets and removes the window on the shipping info; refuses shippingKey, a reversed window, and an order without shipping', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const window = { from: '2026-12-01T08:00:00.000Z', until: '2026-12-03T18:00:00.000Z' };
    expect(await refusal(order, { action: 'setEstimatedDelivery', estimatedDelivery: window })).toMatchObject({ code: 'InvalidOperation' });

    const shipped = await seller.update(url(order), order.version, [{ action: 'addDelivery', items: [] }]);
    expect(await refusal(shipped, { action: 'setEstimatedDelivery', shippingKey: 'express', estimatedDelivery: window })).toMatchObject({
      code: 'InvalidOperation',
    });
    const reversed = { from: window.until, until: window.from };
    expect(await refusal(shipped, { action: 'setEstimatedDelivery', estimatedDelivery: reversed })).toMatchObject({
      code: 'InvalidInput',
      field: 'estimatedDelivery.until',
    });
    expect(await refusal(shipped, { action: 'setEstimatedDelivery', estimatedDelivery: { from: 'tomorrow' } })).toMatchObject({
      code: 'InvalidInput',
      field: 'estimatedDelivery.from',
    });

    const estimated = await seller.update(url(order), shipped.version, [{ action: 'setEstimatedDelivery', estimatedDelivery: window }]);
    expect(estimated.shippingInfo.estimatedDelivery).toEqual(window);
    const cleared = await seller.update(url(order), estimated.version, [{ action: 'setEstimatedDelivery' }]);
    expect(cleared.shippingInfo.estimatedDelivery).toBeUndefined();
    expect((await laterMessages(order, ['estimatedDelivery'])).filter((message) => message.type === 'OrderEstimatedDeliverySet')).toEqual([
      { type: 'OrderEstimatedDeliverySet', estimatedDelivery: window },
      { type: 'OrderEstimatedDeliverySet', estimatedDelivery: undefined },
    ]);
  });
});
