/**
 * Issue 29: the DiscountGroup resource `/{projectKey}/discount-groups` (reference:
 * resources/discount-groups.raml, types/discount-group): operations by id and key, the draft's
 * rules (key required with its pattern, sortOrder unique among groups and cart discounts, isActive
 * default true), the five update actions with their messages, MaxDiscountGroupsReached, the delete
 * refused while a cart discount is in the group, and delivery to an SQS subscription.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'discount-groups';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const group = (key: string, sortOrder: string, extra: Json = {}): Json => ({ key, sortOrder, ...extra });
const cartDiscount = (sortOrder: string, extra: Json = {}): Json => ({
  name: { en: `Cart discount ${sortOrder}` },
  value: { type: 'relative', permyriad: 1000 },
  cartPredicate: '1 = 1',
  target: { type: 'lineItems', predicate: 'true' },
  sortOrder,
  ...extra,
});

describe('DiscountGroup /{projectKey}/discount-groups', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_cart_discounts', 'manage_subscriptions', 'view_messages']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_cart_discounts']);
  }, 180_000);
  afterAll(() => setup?.close());

  const refused = async (url: string, body: unknown, code: string, field?: string): Promise<Json> => {
    const answer = await admin.post(url, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code, ...(field === undefined ? {} : { field }) });
    return answer.body;
  };

  it('creates a group with isActive defaulting to true and reads it by id, key, query, sort and HEAD', async () => {
    const created = await admin.ok(`/${P}/discount-groups`, group('summer', '0.81', { name: { en: 'Summer' }, description: { en: 'Best of summer' } }), 201);
    expect(created).toMatchObject({
      version: 1,
      key: 'summer',
      sortOrder: '0.81',
      isActive: true,
      name: { en: 'Summer' },
      description: { en: 'Best of summer' },
    });
    await admin.ok(`/${P}/discount-groups`, group('winter', '0.82', { isActive: false }), 201);

    expect(await viewer.read(`/${P}/discount-groups/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/discount-groups/key=summer`)).toEqual(created);
    const query = await viewer.read(`/${P}/discount-groups?${where('isActive = false')}`);
    expect(query.results.map((each: Json) => each.key)).toEqual(['winter']);
    const sorted = await viewer.read(`/${P}/discount-groups?sort=${encodeURIComponent('sortOrder desc')}&${where('key in ("summer", "winter")')}`);
    expect(sorted.results.map((each: Json) => each.key)).toEqual(['winter', 'summer']);
    const head = await gateway.app.inject({ method: 'HEAD', url: `/${P}/discount-groups/key=summer`, headers: { authorization: `Bearer ${viewer.token}` } });
    expect(head.statusCode).toBe(200);
    // view_cart_discounts reads but does not write.
    expect((await viewer.post(`/${P}/discount-groups`, group('nope', '0.83'))).status).toBe(403);
  });

  it.each([
    ['no key', { sortOrder: '0.71' }, 'RequiredField', 'key'],
    ['a key too short', group('k', '0.71'), 'InvalidInput', 'key'],
    ['a key with a space', group('a key', '0.71'), 'InvalidInput', 'key'],
    ['no sortOrder', { key: 'no-sort' }, 'RequiredField', 'sortOrder'],
    ['a sortOrder of 1', group('one', '1'), 'InvalidInput', 'sortOrder'],
    ['a sortOrder with a trailing zero', group('trailing', '0.710'), 'InvalidInput', 'sortOrder'],
    ['a non-boolean isActive', group('active', '0.71', { isActive: 'yes' }), 'InvalidInput', 'isActive'],
    ['a name that is not a LocalizedString', group('named', '0.71', { name: 'Summer' }), 'InvalidInput', 'name'],
  ])('refuses a draft with %s (400 %s)', async (_case, body, code, field) => {
    await refused(`/${P}/discount-groups`, body, code, field);
  });

  it('keeps key and sortOrder unique: DuplicateField against groups and cart discounts both ways', async () => {
    await admin.ok(`/${P}/discount-groups`, group('unique', '0.61'), 201);
    await refused(`/${P}/discount-groups`, group('unique', '0.62'), 'DuplicateField', 'key');
    await refused(`/${P}/discount-groups`, group('other', '0.61'), 'DuplicateField', 'sortOrder');
    // A group's sortOrder is taken for cart discounts, and a cart discount's for groups.
    await refused(`/${P}/cart-discounts`, cartDiscount('0.61'), 'DuplicateField', 'sortOrder');
    await admin.ok(`/${P}/cart-discounts`, cartDiscount('0.63'), 201);
    await refused(`/${P}/discount-groups`, group('taken', '0.63'), 'DuplicateField', 'sortOrder');
    const unique = await admin.read(`/${P}/discount-groups/key=unique`);
    await refused(
      `/${P}/discount-groups/${unique.id}`,
      { version: unique.version, actions: [{ action: 'setSortOrder', sortOrder: '0.63' }] },
      'DuplicateField',
      'sortOrder',
    );
  });

  it('applies every update action with its official messages', async () => {
    const created = await admin.ok(`/${P}/discount-groups`, group('actions', '0.51'), 201);
    const url = `/${P}/discount-groups/${created.id}`;
    const updated = await admin.update(url, 1, [
      { action: 'setName', name: { en: 'Named' } },
      { action: 'setDescription', description: { en: 'Described' } },
      { action: 'setKey', key: 'actions-2' },
      { action: 'setSortOrder', sortOrder: '0.52' },
      { action: 'setIsActive', isActive: false },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'actions-2',
      sortOrder: '0.52',
      isActive: false,
      name: { en: 'Named' },
      description: { en: 'Described' },
    });
    const cleared = await admin.update(url, 2, [{ action: 'setName' }, { action: 'setDescription' }]);
    expect(cleared).not.toHaveProperty('name');
    expect(cleared).not.toHaveProperty('description');

    const messages = await admin.read(`/${P}/messages?${where(`resource(id = "${created.id}")`)}&sort=sequenceNumber`);
    expect(messages.results.map((message: Json) => message.type)).toEqual([
      'DiscountGroupCreated',
      'DiscountGroupKeySet',
      'DiscountGroupSortOrderSet',
      'DiscountGroupIsActiveSet',
    ]);
    expect(messages.results[1]).toMatchObject({ key: 'actions-2', oldKey: 'actions' });
    expect(messages.results[2]).toMatchObject({ sortOrder: '0.52', oldSortOrder: '0.51' });
    expect(messages.results[3]).toMatchObject({ isActive: false, oldIsActive: true });

    for (const [action, code, field] of [
      [{ action: 'setKey' }, 'RequiredField', 'key'],
      [{ action: 'setKey', key: 'x' }, 'InvalidInput', 'key'],
      [{ action: 'setSortOrder', sortOrder: 0.5 }, 'InvalidInput', 'sortOrder'],
      [{ action: 'setIsActive' }, 'RequiredField', 'isActive'],
      [{ action: 'setName', name: 7 }, 'InvalidInput', 'name'],
    ] as const) {
      await refused(url, { version: 3, actions: [action] }, code, field);
    }
  });

  it('refuses deleting a group a cart discount is in (400 ReferenceExists), deletes it once the discount left', async () => {
    const doomed = await admin.ok(`/${P}/discount-groups`, group('doomed', '0.41'), 201);
    const member = await admin.ok(`/${P}/cart-discounts`, cartDiscount('0.42', { discountGroup: { typeId: 'discount-group', key: 'doomed' } }), 201);
    const answer = await admin.delete(`/${P}/discount-groups/${doomed.id}?version=1`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'cart-discount' });
    await admin.update(`/${P}/cart-discounts/${member.id}`, member.version, [{ action: 'setDiscountGroup', sortOrder: '0.43' }]);
    const deleted = await admin.delete(`/${P}/discount-groups/key=doomed?version=1`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await viewer.get(`/${P}/discount-groups/${doomed.id}`)).status).toBe(404);
  });

  it('expands a cart discount’s discountGroup', async () => {
    const expanded = await admin.ok(`/${P}/discount-groups`, group('expanded', '0.31'), 201);
    const member = await admin.ok(`/${P}/cart-discounts`, cartDiscount('0.32', { discountGroup: { typeId: 'discount-group', id: expanded.id } }), 201);
    const read = await viewer.read(`/${P}/cart-discounts/${member.id}?expand=discountGroup`);
    expect(read.discountGroup).toMatchObject({ typeId: 'discount-group', id: expanded.id, obj: { key: 'expanded', sortOrder: '0.31' } });
  });

  it('delivers messages and change notifications of a group to an SQS subscription', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'discount-group');
    const created = await admin.ok(`/${P}/discount-groups`, group('delivered', '0.21'), 201);
    await admin.update(`/${P}/discount-groups/${created.id}`, 1, [{ action: 'setName', name: { en: 'Delivered' } }]);
    await admin.update(`/${P}/discount-groups/${created.id}`, 2, [{ action: 'setIsActive', isActive: false }]);
    expect((await admin.delete(`/${P}/discount-groups/${created.id}?version=3`)).status).toBe(200);

    const id = created.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 7);
    const messages = documents.map(payloadOf).filter((payload) => payload.notificationType === 'Message');
    expect(labels(documents).filter((each) => !each.includes(':Message:'))).toEqual(
      [
        `discount-group:${id}:ResourceCreated:1`,
        `discount-group:${id}:ResourceUpdated:2`,
        `discount-group:${id}:ResourceUpdated:3`,
        `discount-group:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    // setName has no message in the reference: a change notification only.
    expect(messages.map((message) => message.type).sort()).toEqual(['DiscountGroupCreated', 'DiscountGroupDeleted', 'DiscountGroupIsActiveSet']);
  });
});

describe('DiscountGroup limit', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: ['dg-limit'] });
    admin = await callerWith(gateway, 'dg-limit', ['manage_cart_discounts']);
    for (let index = 1; index <= 100; index += 1) await admin.ok(`/dg-limit/discount-groups`, group(`g-${index}`, `0.${index}1`), 201);
  }, 300_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('refuses the 101st active group and activating another (400 MaxDiscountGroupsReached), not an inactive one', async () => {
    const answer = await admin.post(`/dg-limit/discount-groups`, group('one-more', '0.999'));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual({ code: 'MaxDiscountGroupsReached', message: 'Maximum number of active discount groups reached (100).' });
    const inactive = await admin.ok(`/dg-limit/discount-groups`, group('inactive', '0.998', { isActive: false }), 201);
    const activate = await admin.post(`/dg-limit/discount-groups/${inactive.id}`, { version: 1, actions: [{ action: 'setIsActive', isActive: true }] });
    expect(activate.status).toBe(400);
    expect(activate.body.errors[0].code).toBe('MaxDiscountGroupsReached');
    // Deactivating one makes room.
    const first = await admin.read(`/dg-limit/discount-groups/key=g-1`);
    await admin.update(`/dg-limit/discount-groups/${first.id}`, first.version, [{ action: 'setIsActive', isActive: false }]);
    await admin.update(`/dg-limit/discount-groups/${inactive.id}`, 1, [{ action: 'setIsActive', isActive: true }]);
  });
});
