/**
 * Issue 29, order edits (reference: resources/orders.raml `/edits`, types/order-edit): the
 * versioned template under `/order-edits` and the reference's `/orders/edits`, OrderEditDraft
 * validation, every OrderEditUpdateAction, the preview of the staged actions (PreviewSuccess /
 * PreviewFailure) on the order's current version, `apply` with both versions, the order's
 * OrderEditApplied message, and §2.4: changes made through an order edit send the order no change
 * notification (the order-edit's own notifications are delivered).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken, type Caller, type Json } from '../carts/commerce.js';
import { freshOrder, messagesOf, ORDER_SELLER_SCOPES, type OrderParties } from '../orders/fixtures.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'order-edits';

describe('OrderEdit /{projectKey}/order-edits and /orders/edits', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let seller: Caller;
  let viewer: Caller;
  let parties: OrderParties;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [...ORDER_SELLER_SCOPES, 'manage_order_edits', 'manage_subscriptions', 'manage_payments']);
    ({ sqs, gateway, admin: seller } = setup);
    viewer = await callerWith(gateway, P, ['view_order_edits']);
    parties = { seller, buyer: await customerWithToken(gateway, P, seller, ['manage_my_orders']) };
  }, 180_000);
  afterAll(() => setup?.close());

  const emailAction = (email: string) => ({ action: 'setCustomerEmail', email });

  it('creates an edit whose result previews the staged actions on the current order, by id, key and query, under both paths', async () => {
    const order = await freshOrder(P, parties);
    const edit = await seller.ok(
      `/${P}/order-edits`,
      {
        key: 'first-edit',
        resource: { typeId: 'order', id: order.id },
        stagedActions: [emailAction('edited@example.com'), { action: 'changeOrderState', orderState: 'Confirmed' }],
        comment: 'Customer called',
      },
      201,
    );
    expect(edit).toMatchObject({ version: 1, key: 'first-edit', resource: { typeId: 'order', id: order.id }, comment: 'Customer called' });
    expect(edit.result).toMatchObject({
      type: 'PreviewSuccess',
      preview: { id: order.id, version: order.version, customerEmail: 'edited@example.com', orderState: 'Confirmed' },
      messagePayloads: [
        { type: 'OrderCustomerEmailSet', email: 'edited@example.com' },
        { type: 'OrderStateChanged', orderState: 'Confirmed', oldOrderState: 'Open' },
      ],
    });
    // The preview is not applied: the order is as it was.
    expect((await seller.read(`/${P}/orders/${order.id}`)).version).toBe(order.version);

    for (const path of [
      `/${P}/order-edits/${edit.id}`,
      `/${P}/order-edits/key=first-edit`,
      `/${P}/orders/edits/${edit.id}`,
      `/${P}/orders/edits/key=first-edit`,
    ]) {
      expect(await viewer.read(path)).toEqual(edit);
    }
    const where = encodeURIComponent(`resource(id = "${order.id}") and result(type = "NotProcessed")`);
    const page = await viewer.read(`/${P}/orders/edits?where=${where}&sort=createdAt%20asc`);
    expect(page.results.map((found: Json) => found.id)).toEqual([edit.id]);
    const expanded = await seller.read(`/${P}/order-edits/${edit.id}?expand=resource`);
    expect(expanded.resource.obj).toMatchObject({ id: order.id });
    expect((await viewer.post(`/${P}/order-edits`, { resource: { id: order.id } })).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    const order = await freshOrder(P, parties);
    await seller.ok(`/${P}/order-edits`, { key: 'taken-edit', resource: { id: order.id } }, 201);
    const resource = { typeId: 'order', id: order.id };
    const cases: Array<[string, unknown, string]> = [
      ['draft not an object', ['x'], 'InvalidInput'],
      ['no resource', { stagedActions: [] }, 'InvalidInput'],
      ['resource without id or key', { resource: { typeId: 'order' } }, 'InvalidInput'],
      ['resource of another type', { resource: { typeId: 'cart', id: order.id } }, 'InvalidInput'],
      ['resource unknown', { resource: { typeId: 'order', id: 'no-such-order' } }, 'ReferencedResourceNotFound'],
      ['key too short', { resource, key: 'k' }, 'InvalidInput'],
      ['key taken', { resource, key: 'taken-edit' }, 'DuplicateField'],
      ['comment not a string', { resource, comment: 5 }, 'InvalidInput'],
      ['stagedActions not an array', { resource, stagedActions: emailAction('x@example.com') }, 'InvalidInput'],
      ['staged action without a name', { resource, stagedActions: [{ email: 'x@example.com' }] }, 'InvalidInput'],
      ['no StagedOrderUpdateAction', { resource, stagedActions: [{ action: 'changeName' }] }, 'InvalidInput'],
      ['dryRun not a boolean', { resource, dryRun: 'yes' }, 'InvalidInput'],
      ['dryRun', { resource, dryRun: true }, 'InvalidInput'],
      ['custom type unknown', { resource, custom: { type: { key: 'no-such-type' } } }, 'InvalidInput'],
    ];
    for (const [name, body, code] of cases) {
      const answer = await seller.post(`/${P}/order-edits`, body);
      expect({ name, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ name, status: 400, code });
    }
    const refused = await seller.post(`/${P}/order-edits`, { resource, stagedActions: [{ action: 'changeName' }] });
    expect(refused.body.message).toContain("'changeName' is no StagedOrderUpdateAction");
  });

  it('applies every update action, previews failures, and applies once with both versions', async () => {
    await seller.ok(
      `/${P}/types`,
      {
        key: 'edit-fields',
        name: { en: 'Edit fields' },
        resourceTypeIds: ['order-edit'],
        fieldDefinitions: [{ name: 'reason', label: { en: 'Reason' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
    const order = await freshOrder(P, parties);
    const edit = await seller.ok(`/${P}/orders/edits`, { resource: { id: order.id } }, 201);
    expect(edit.result).toMatchObject({ type: 'PreviewSuccess', messagePayloads: [] });
    let current = await seller.update(`/${P}/order-edits/${edit.id}`, 1, [
      { action: 'setKey', key: 'edited' },
      { action: 'setComment', comment: 'first' },
      { action: 'addStagedAction', stagedAction: emailAction('one@example.com') },
      { action: 'setCustomType', type: { key: 'edit-fields' }, fields: { reason: 'typo' } },
      { action: 'setCustomField', name: 'reason', value: 'address typo' },
    ]);
    expect(current).toMatchObject({
      version: 2,
      key: 'edited',
      comment: 'first',
      stagedActions: [emailAction('one@example.com')],
      custom: { fields: { reason: 'address typo' } },
    });
    current = await seller.update(`/${P}/order-edits/key=edited`, 2, [
      { action: 'setStagedActions', stagedActions: [emailAction('two@example.com'), { action: 'changeOrderState', orderState: 'Nope' }] },
      { action: 'setComment' },
      { action: 'setKey' },
    ]);
    expect(current).not.toHaveProperty('comment');
    expect(current).not.toHaveProperty('key');
    expect(current.result).toMatchObject({ type: 'PreviewFailure', errors: [{ code: 'InvalidInput' }] });
    // Applying a failing edit fails with its errors, and writes nothing.
    const failing = await seller.post(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 3, resourceVersion: order.version });
    expect(failing.status).toBe(400);
    expect(failing.body.errors[0].code).toBe('InvalidInput');
    current = await seller.update(`/${P}/order-edits/${edit.id}`, 3, [{ action: 'setStagedActions', stagedActions: [emailAction('two@example.com')] }]);
    expect(current.result).toMatchObject({ type: 'PreviewSuccess', preview: { customerEmail: 'two@example.com' } });
    expect(
      (
        await seller.post(`/${P}/order-edits/${edit.id}`, {
          version: 4,
          actions: [{ action: 'addStagedAction', stagedAction: { action: 'changeName' } }],
        })
      ).status,
    ).toBe(400);
    expect((await seller.post(`/${P}/order-edits/${edit.id}`, { version: 4, actions: [{ action: 'setStagedActions' }] })).status).toBe(400);

    const stale = await seller.post(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 3, resourceVersion: order.version });
    expect(stale).toMatchObject({ status: 409, body: { errors: [{ code: 'ConcurrentModification', currentVersion: 4 }] } });
    const staleOrder = await seller.post(`/${P}/orders/edits/${edit.id}/apply`, { editVersion: 4, resourceVersion: order.version + 5 });
    expect(staleOrder).toMatchObject({ status: 409, body: { errors: [{ code: 'ConcurrentModification', currentVersion: order.version }] } });
    expect((await seller.post(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 4 })).status).toBe(400);
    // An unknown edit is a 404 whatever the body.
    expect((await seller.post(`/${P}/order-edits/no-such-edit/apply`, { version: 1 })).body.errors[0].code).toBe('ResourceNotFound');

    const applied = await seller.ok(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 4, resourceVersion: order.version });
    expect(applied).toMatchObject({
      version: 5,
      result: {
        type: 'Applied',
        appliedAt: expect.any(String),
        excerptBeforeEdit: { version: order.version, totalPrice: order.totalPrice },
        excerptAfterEdit: { version: order.version + 1, totalPrice: order.totalPrice },
      },
    });
    const edited = await seller.read(`/${P}/orders/${order.id}`);
    expect(edited).toMatchObject({ version: order.version + 1, customerEmail: 'two@example.com' });
    const messages = await messagesOf(seller, P, order.id as string);
    expect(messages.slice(-2).map((message) => message.type)).toEqual(['OrderCustomerEmailSet', 'OrderEditApplied']);
    expect(messages.at(-1)).toMatchObject({ resourceVersion: order.version + 1, edit: { id: edit.id, result: { type: 'Applied' } }, result: applied.result });

    expect((await seller.post(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 5, resourceVersion: order.version + 1 })).body.errors[0].code).toBe(
      'InvalidOperation',
    );
    expect(
      (await seller.post(`/${P}/order-edits/${edit.id}`, { version: 5, actions: [{ action: 'addStagedAction', stagedAction: emailAction('x@example.com') }] }))
        .body.errors[0].code,
    ).toBe('InvalidOperation');
    expect(await seller.update(`/${P}/order-edits/${edit.id}`, 5, [{ action: 'setComment', comment: 'done' }])).toMatchObject({
      comment: 'done',
      result: { type: 'Applied' },
    });
    expect((await viewer.read(`/${P}/order-edits?where=${encodeURIComponent('result(type = "Applied")')}`)).results.map((found: Json) => found.id)).toContain(
      edit.id,
    );
    expect((await seller.delete(`/${P}/order-edits/${edit.id}?version=6`)).status).toBe(200);
    expect((await viewer.get(`/${P}/order-edits/${edit.id}`)).status).toBe(404);
  });

  it('sends no order change notification for an applied edit; its messages and the edit’s notifications are delivered', async () => {
    const orderQueue = await subscribedQueue(sqs, seller, P, 'order');
    const editQueue = await subscribedQueue(sqs, seller, P, 'order-edit');
    const order = await freshOrder(P, parties);
    const edit = await seller.ok(`/${P}/order-edits`, { resource: { id: order.id }, stagedActions: [emailAction('delivered@example.com')] }, 201);
    await seller.update(`/${P}/order-edits/${edit.id}`, 1, [{ action: 'setComment', comment: 'why' }]);
    await seller.ok(`/${P}/order-edits/${edit.id}/apply`, { editVersion: 2, resourceVersion: 1 });
    // A direct update afterwards: its change notification does arrive.
    await seller.update(`/${P}/orders/${order.id}`, 2, [{ action: 'setPurchaseOrderNumber', purchaseOrderNumber: 'PO-1' }]);
    await seller.delete(`/${P}/order-edits/${edit.id}?version=3`);

    const id = order.id as string;
    const orderDeliveries = await deliveriesAbout(sqs, orderQueue, id, 6);
    expect(labels(orderDeliveries)).toEqual(
      [
        `order:${id}:Message:OrderCreated:1`,
        `order:${id}:ResourceCreated:1`,
        `order:${id}:Message:OrderCustomerEmailSet:2`,
        `order:${id}:Message:OrderEditApplied:3`,
        `order:${id}:Message:OrderPurchaseOrderNumberSet:4`,
        `order:${id}:ResourceUpdated:3`,
      ].sort(),
    );
    expect(orderDeliveries.map(payloadOf).find((payload) => payload.type === 'OrderEditApplied')).toMatchObject({ resourceVersion: 2, edit: { id: edit.id } });

    const editDeliveries = await deliveriesAbout(sqs, editQueue, edit.id as string, 4);
    expect(labels(editDeliveries)).toEqual(
      [
        `order-edit:${edit.id}:ResourceCreated:1`,
        `order-edit:${edit.id}:ResourceUpdated:2`,
        `order-edit:${edit.id}:ResourceUpdated:3`,
        `order-edit:${edit.id}:ResourceDeleted:3`,
      ].sort(),
    );
  });
});
