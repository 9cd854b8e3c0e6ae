import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freshOrder, messagesOf, orderParties, type OrderParties } from './fixtures.js';

const P = 'order-items';

/**
 * Issue 27: the reference's item state, return, customer and item shipping update actions of
 * orders, through HTTP, with their official messages (LineItemStateTransition, ReturnInfoAdded,
 * OrderReturnShipmentStateChanged, OrderCustomerSet, …).
 */
describe('orders: item states, returns, customer, item shipping', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let parties: OrderParties;
  const states = {} as Record<'picked' | 'shipped' | 'initial' | 'orderState', Json>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await orderParties(gateway, P);
    const { seller } = parties;
    states.picked = await seller.ok(`/${P}/states`, { key: 'picked', type: 'LineItemState', initial: false }, 201);
    states.shipped = await seller.ok(`/${P}/states`, { key: 'shipped', type: 'LineItemState', initial: false }, 201);
    // `Initial` may go to `picked` only; `picked` to anything.
    states.initial = await seller.ok(
      `/${P}/states`,
      { key: 'Initial', type: 'LineItemState', initial: true, transitions: [{ typeId: 'state', id: states.picked.id }] },
      201,
    );
    states.orderState = await seller.ok(`/${P}/states`, { key: 'order-open', type: 'OrderState', initial: true }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  const url = (order: Json) => `/${P}/orders/${order.id as string}`;
  const ref = (state: Json) => ({ typeId: 'state', id: state.id as string });

  it("a new order's items start in the initial LineItemState; transitions move units between States", async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    expect(order.lineItems[0].state).toEqual([{ quantity: 3, state: ref(states.initial) }]);
    expect(order.customLineItems[0].state).toEqual([{ quantity: 1, state: ref(states.initial) }]);

    const updated = await seller.update(url(order), order.version, [
      {
        action: 'transitionLineItemState',
        lineItemKey: 'li-1',
        quantity: 2,
        fromState: { key: 'Initial' },
        toState: { key: 'picked' },
        actualTransitionDate: '2026-01-02T03:04:05.000Z',
      },
      { action: 'transitionLineItemState', lineItemId: order.lineItems[0].id, quantity: 1, fromState: { key: 'picked' }, toState: { key: 'shipped' } },
      { action: 'transitionCustomLineItemState', customLineItemKey: 'cli-1', quantity: 1, fromState: { key: 'Initial' }, toState: { key: 'picked' } },
    ]);
    expect(updated.lineItems[0].state).toEqual([
      { quantity: 1, state: ref(states.initial) },
      { quantity: 1, state: ref(states.picked) },
      { quantity: 1, state: ref(states.shipped) },
    ]);
    expect(updated.customLineItems[0].state).toEqual([{ quantity: 1, state: ref(states.picked) }]);

    const messages = (await messagesOf(seller, P, order.id)).slice(1);
    expect(messages.map((message) => message.type)).toEqual(['LineItemStateTransition', 'LineItemStateTransition', 'CustomLineItemStateTransition']);
    expect(messages[0]).toMatchObject({
      lineItemId: order.lineItems[0].id,
      lineItemKey: 'li-1',
      transitionDate: '2026-01-02T03:04:05.000Z',
      quantity: 2,
      fromState: ref(states.initial),
      toState: ref(states.picked),
    });
    expect(typeof messages[1]?.transitionDate).toBe('string');
    expect(messages[2]).toMatchObject({ customLineItemId: order.customLineItems[0].id, customLineItemKey: 'cli-1', quantity: 1 });
  });

  it('refuses more units than the State holds, a transition the State forbids, and a State of another type', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const refusals: Array<[Json, string]> = [
      [{ action: 'transitionLineItemState', lineItemKey: 'li-1', quantity: 4, fromState: { key: 'Initial' }, toState: { key: 'picked' } }, 'InvalidOperation'],
      [{ action: 'transitionLineItemState', lineItemKey: 'li-1', quantity: 1, fromState: { key: 'Initial' }, toState: { key: 'shipped' } }, 'InvalidOperation'],
      [{ action: 'transitionLineItemState', lineItemKey: 'li-1', quantity: 1, fromState: { key: 'picked' }, toState: { key: 'shipped' } }, 'InvalidOperation'],
      [{ action: 'transitionLineItemState', lineItemKey: 'li-1', quantity: 1, fromState: { key: 'Initial' }, toState: { key: 'order-open' } }, 'InvalidInput'],
      [
        { action: 'transitionLineItemState', lineItemKey: 'no-such-item', quantity: 1, fromState: { key: 'Initial' }, toState: { key: 'picked' } },
        'InvalidInput',
      ],
      [{ action: 'transitionLineItemState', lineItemKey: 'li-1', quantity: 0, fromState: { key: 'Initial' }, toState: { key: 'picked' } }, 'InvalidInput'],
      [{ action: 'importLineItemState', lineItemKey: 'li-1', state: [{ quantity: 1, state: { key: 'no-such-state' } }] }, 'ReferencedResourceNotFound'],
    ];
    for (const [action, code] of refusals) {
      const answer = await seller.post(url(order), { version: order.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(answer.body)).toBe(code);
    }
  });

  it("importLineItemState replaces the item's states without a message", async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const updated = await seller.update(url(order), order.version, [
      {
        action: 'importLineItemState',
        lineItemKey: 'li-1',
        state: [
          { quantity: 2, state: { key: 'shipped' } },
          { quantity: 1, state: { typeId: 'state', id: states.picked.id } },
        ],
      },
      { action: 'importCustomLineItemState', customLineItemKey: 'cli-1', state: [] },
    ]);
    expect(updated.lineItems[0].state).toEqual([
      { quantity: 2, state: ref(states.shipped) },
      { quantity: 1, state: ref(states.picked) },
    ]);
    expect(updated.customLineItems[0].state).toEqual([]);
    expect((await messagesOf(seller, P, order.id)).map((message) => message.type)).toEqual(['OrderCreated']);
  });

  it("adds return info and moves its items through the reference's return states", async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    let current = await seller.update(url(order), order.version, [
      {
        action: 'addReturnInfo',
        returnTrackingId: 'R-1',
        returnDate: '2026-02-01T00:00:00.000Z',
        items: [
          { key: 'ret-li', quantity: 1, lineItemId: order.lineItems[0].id, shipmentState: 'Returned', comment: 'too big' },
          { key: 'ret-cli', quantity: 1, customLineItemId: order.customLineItems[0].id, shipmentState: 'Advised' },
        ],
      },
    ]);
    expect(current.returnInfo).toHaveLength(1);
    expect(current.returnInfo[0]).toMatchObject({ returnTrackingId: 'R-1', returnDate: '2026-02-01T00:00:00.000Z' });
    expect(current.returnInfo[0].items).toMatchObject([
      { type: 'LineItemReturnItem', key: 'ret-li', lineItemId: order.lineItems[0].id, shipmentState: 'Returned', paymentState: 'Initial', comment: 'too big' },
      {
        type: 'CustomLineItemReturnItem',
        key: 'ret-cli',
        customLineItemId: order.customLineItems[0].id,
        shipmentState: 'Advised',
        paymentState: 'NonRefundable',
      },
    ]);

    current = await seller.update(url(order), current.version, [
      { action: 'setReturnShipmentState', returnItemKey: 'ret-li', shipmentState: 'BackInStock' },
      { action: 'setReturnPaymentState', returnItemKey: 'ret-li', paymentState: 'Refunded' },
    ]);
    expect(current.returnInfo[0].items[0]).toMatchObject({ shipmentState: 'BackInStock', paymentState: 'Refunded' });
    const returnItemId = current.returnInfo[0].items[0].id as string;

    // The reference: only Returned → BackInStock | Unusable.
    for (const [key, shipmentState] of [
      ['ret-cli', 'Returned'],
      ['ret-li', 'Unusable'],
    ]) {
      const refused = await seller.post(url(order), {
        version: current.version,
        actions: [{ action: 'setReturnShipmentState', returnItemKey: key, shipmentState }],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].code).toBe('InvalidOperation');
    }
    const bothItems = await seller.post(url(order), {
      version: current.version,
      actions: [
        {
          action: 'addReturnInfo',
          items: [{ quantity: 1, lineItemId: order.lineItems[0].id, customLineItemId: order.customLineItems[0].id, shipmentState: 'Advised' }],
        },
      ],
    });
    expect(bothItems.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'items[0]' });

    current = await seller.update(url(order), current.version, [{ action: 'setReturnInfo', items: [] }]);
    expect(current.returnInfo).toEqual([]);

    const messages = (await messagesOf(seller, P, order.id)).slice(1);
    expect(messages.map((message) => message.type)).toEqual(['ReturnInfoAdded', 'OrderReturnShipmentStateChanged', 'ReturnInfoSet']);
    expect(messages[0]?.returnInfo.items).toHaveLength(2);
    expect(messages[1]).toMatchObject({ returnItemId, returnShipmentState: 'BackInStock' });
    expect(messages[2]).toMatchObject({ returnInfo: [] });
  });

  it('setCustomerId names an existing customer (OrderCustomerSet); item shipping addresses and details work as on carts', async () => {
    const { seller, buyer } = parties;
    const order = await freshOrder(P, parties);
    const missing = await seller.post(url(order), { version: order.version, actions: [{ action: 'setCustomerId', customerId: 'no-such-customer' }] });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].code).toBe('ReferencedResourceNotFound');

    const other = await seller.ok(`/${P}/customers`, { email: `other-${order.id as string}@example.com`, password: 'secret-123456' }, 201);
    const otherId = (other.customer ?? other).id as string;
    let current = await seller.update(url(order), order.version, [
      { action: 'setCustomerId', customerId: otherId },
      { action: 'addItemShippingAddress', address: { key: 'warehouse', country: 'DE' } },
      { action: 'setLineItemShippingDetails', lineItemKey: 'li-1', shippingDetails: { targets: [{ addressKey: 'warehouse', quantity: 3 }] } },
    ]);
    expect(current.customerId).toBe(otherId);
    expect(current.lineItems[0].shippingDetails).toEqual({ targets: [{ addressKey: 'warehouse', quantity: 3 }], valid: true });
    const inUse = await seller.post(url(order), { version: current.version, actions: [{ action: 'removeItemShippingAddress', addressKey: 'warehouse' }] });
    expect(inUse.body.errors[0].code).toBe('InvalidOperation');
    current = await seller.update(url(order), current.version, [{ action: 'setCustomerId' }]);
    expect(current.customerId).toBeUndefined();

    const messages = (await messagesOf(seller, P, order.id)).slice(1);
    expect(messages.map((message) => [message.type, message.customer?.id, message.oldCustomer?.id])).toEqual([
      ['OrderCustomerSet', otherId, buyer.id],
      ['OrderCustomerSet', undefined, otherId],
    ]);
  });

  it('updateSyncInfo records an export through an OrderExport channel, and refuses other channels', async () => {
    const { seller } = parties;
    const order = await freshOrder(P, parties);
    const exporter = await seller.ok(`/${P}/channels`, { key: `erp-${order.id as string}`, roles: ['OrderExport'] }, 201);
    const supplier = await seller.ok(`/${P}/channels`, { key: `stock-${order.id as string}`, roles: ['InventorySupply'] }, 201);
    const synced = await seller.update(url(order), order.version, [
      { action: 'updateSyncInfo', channel: { typeId: 'channel', key: exporter.key }, externalId: 'ERP-42', syncedAt: '2026-03-01T10:00:00.000Z' },
      { action: 'updateSyncInfo', channel: { id: exporter.id } },
    ]);
    expect(synced.syncInfo[0]).toEqual({ channel: { typeId: 'channel', id: exporter.id }, externalId: 'ERP-42', syncedAt: '2026-03-01T10:00:00.000Z' });
    expect(synced.syncInfo[1]).toMatchObject({ channel: { id: exporter.id } });
    expect(typeof synced.syncInfo[1].syncedAt).toBe('string');
    const refused = await seller.post(url(order), { version: synced.version, actions: [{ action: 'updateSyncInfo', channel: { id: supplier.id } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'channel' });
    const missing = await seller.post(url(order), { version: synced.version, actions: [{ action: 'updateSyncInfo', channel: { id: 'no-such-channel' } }] });
    expect(missing.body.errors[0].code).toBe('ReferencedResourceNotFound');
  });

  it('an order of a project without an initial LineItemState has items without states', async () => {
    const { seller } = parties;
    await seller.update(`/${P}/states/key=Initial`, states.initial.version, [{ action: 'changeInitial', initial: false }]);
    const order = await freshOrder(P, parties);
    expect(order.lineItems[0].state).toEqual([]);
  });
});
