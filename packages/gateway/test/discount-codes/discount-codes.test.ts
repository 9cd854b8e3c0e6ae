/**
 * Issue 29: the DiscountCode resource `/{projectKey}/discount-codes` (reference:
 * resources/discount-codes.raml, types/discount-code): operations by id and key, draft validation
 * with the official codes (`code` unique, 1 to 10 cart discounts, the cart predicate's position),
 * every update action, and DiscountCodeCreated/KeySet/Deleted with the change notifications
 * delivered to an SQS subscription in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'discount-codes';
const discounts = [{ typeId: 'cart-discount', key: 'coded' }];

describe('DiscountCode /{projectKey}/discount-codes', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_discount_codes', 'manage_cart_discounts', 'manage_stores', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_discount_codes']);
    await admin.ok(`/${P}/stores`, { key: 'berlin', name: { en: 'Berlin' } }, 201);
    const base = { value: { type: 'relative', permyriad: 500 }, cartPredicate: '1 = 1', target: { type: 'shipping' }, requiresDiscountCode: true };
    await admin.ok(`/${P}/cart-discounts`, { ...base, key: 'coded', name: { en: 'Coded' }, sortOrder: '0.5', stores: [{ key: 'berlin' }] }, 201);
    await admin.ok(`/${P}/cart-discounts`, { ...base, key: 'other', name: { en: 'Other' }, sortOrder: '0.6' }, 201);
  }, 180_000);
  afterAll(() => setup?.close());

  it('creates a discount code with the reference defaults and stores derived from its cart discounts', async () => {
    const created = await admin.ok(
      `/${P}/discount-codes`,
      { key: 'summer', code: 'SUMMER', cartDiscounts: discounts, cartPredicate: 'customerGroup.id = "g-1"', maxApplications: 100, groups: ['promo', 'promo'] },
      201,
    );
    expect(created).toMatchObject({
      version: 1,
      key: 'summer',
      code: 'SUMMER',
      cartDiscounts: [{ typeId: 'cart-discount' }],
      stores: [{ typeId: 'store', key: 'berlin' }],
      cartPredicate: 'customerGroup.id = "g-1"',
      references: [{ typeId: 'customer-group', id: 'g-1' }],
      isActive: true,
      maxApplications: 100,
      groups: ['promo'],
    });
    expect(await viewer.read(`/${P}/discount-codes/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/discount-codes/key=summer`)).toEqual(created);
    const page = await viewer.read(`/${P}/discount-codes?where=${encodeURIComponent('code = "SUMMER"')}`);
    expect(page.results.map((found: Json) => found.id)).toEqual([created.id]);
    // resources/discount-codes.raml names view_orders as the deprecated scope; still accepted.
    expect((await (await callerWith(gateway, P, ['view_orders'])).read(`/${P}/discount-codes/${created.id}`)).code).toBe('SUMMER');
    expect((await viewer.post(`/${P}/discount-codes`, { code: 'VIEWER', cartDiscounts: discounts })).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/discount-codes`, { key: 'taken', code: 'TAKEN', cartDiscounts: discounts }, 201);
    const eleven = Array.from({ length: 11 }, () => discounts[0]);
    const cases: Array<[string, unknown, string]> = [
      ['draft not an object', [1], 'InvalidInput'],
      ['no code', { cartDiscounts: discounts }, 'RequiredField'],
      ['no cartDiscounts', { code: 'X1' }, 'RequiredField'],
      ['code blank', { code: '  ', cartDiscounts: discounts }, 'InvalidInput'],
      ['code not a string', { code: 5, cartDiscounts: discounts }, 'InvalidInput'],
      ['code of another discount code', { code: 'TAKEN', cartDiscounts: discounts }, 'DuplicateField'],
      ['key of another discount code', { key: 'taken', code: 'X2', cartDiscounts: discounts }, 'DuplicateField'],
      ['cartDiscounts empty', { code: 'X3', cartDiscounts: [] }, 'InvalidInput'],
      ['more than ten cartDiscounts', { code: 'X4', cartDiscounts: eleven }, 'InvalidInput'],
      ['a cart discount that does not exist', { code: 'X5', cartDiscounts: [{ typeId: 'cart-discount', key: 'nope' }] }, 'ReferencedResourceNotFound'],
      ['a reference of another type', { code: 'X6', cartDiscounts: [{ typeId: 'product-discount', key: 'coded' }] }, 'InvalidInput'],
      ['cartPredicate malformed', { code: 'X7', cartDiscounts: discounts, cartPredicate: 'lineItemCount(' }, 'InvalidInput'],
      ['maxApplications negative', { code: 'X8', cartDiscounts: discounts, maxApplications: -1 }, 'InvalidInput'],
      ['maxApplicationsPerCustomer a string', { code: 'X9', cartDiscounts: discounts, maxApplicationsPerCustomer: '2' }, 'InvalidInput'],
      ['groups not strings', { code: 'X10', cartDiscounts: discounts, groups: [1] }, 'InvalidInput'],
      ['isActive not a boolean', { code: 'X11', cartDiscounts: discounts, isActive: 'on' }, 'InvalidInput'],
      [
        'validFrom after validUntil',
        { code: 'X12', cartDiscounts: discounts, validFrom: '2025-02-01T00:00:00Z', validUntil: '2025-01-01T00:00:00Z' },
        'InvalidInput',
      ],
      ['name not localized', { code: 'X13', cartDiscounts: discounts, name: 'Name' }, 'InvalidInput'],
    ];
    for (const [label, body, code] of cases) {
      const answer = await admin.post(`/${P}/discount-codes`, body);
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
    }
    const malformed = await admin.post(`/${P}/discount-codes`, { code: 'X14', cartDiscounts: discounts, cartPredicate: 'lineItemCount(' });
    expect(malformed.body.errors[0]).toMatchObject({ field: 'cartPredicate', position: { offset: 14, line: 1, column: 15 } });
  });

  it('applies every update action', async () => {
    const code = await admin.ok(`/${P}/discount-codes`, { code: 'EDIT', cartDiscounts: discounts }, 201);
    const updated = await admin.update(`/${P}/discount-codes/${code.id}`, 1, [
      { action: 'setName', name: { en: 'Edited' } },
      { action: 'setDescription', description: { en: 'Described' } },
      { action: 'setCartPredicate', cartPredicate: 'customer.id = "c-1"' },
      { action: 'changeCartDiscounts', cartDiscounts: [{ key: 'other' }, { key: 'coded' }] },
      { action: 'changeGroups', groups: ['a', 'b'] },
      { action: 'changeIsActive', isActive: false },
      { action: 'setMaxApplications', maxApplications: 5 },
      { action: 'setMaxApplicationsPerCustomer', maxApplicationsPerCustomer: 1 },
      { action: 'setKey', key: 'edited' },
      { action: 'setValidFrom', validFrom: '2024-01-01T00:00:00.000Z' },
      { action: 'setValidUntil', validUntil: '2030-01-01T00:00:00.000Z' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      code: 'EDIT',
      key: 'edited',
      name: { en: 'Edited' },
      description: { en: 'Described' },
      cartPredicate: 'customer.id = "c-1"',
      references: [{ typeId: 'customer', id: 'c-1' }],
      groups: ['a', 'b'],
      isActive: false,
      maxApplications: 5,
      maxApplicationsPerCustomer: 1,
      stores: [{ typeId: 'store', key: 'berlin' }],
      validFrom: '2024-01-01T00:00:00.000Z',
      validUntil: '2030-01-01T00:00:00.000Z',
    });
    expect(updated.cartDiscounts).toHaveLength(2);
    const cleared = await admin.update(`/${P}/discount-codes/key=edited`, 2, [
      { action: 'setName' },
      { action: 'setDescription' },
      { action: 'setCartPredicate' },
      { action: 'setMaxApplications' },
      { action: 'setMaxApplicationsPerCustomer' },
      { action: 'setValidFromAndUntil' },
      { action: 'changeCartDiscounts', cartDiscounts: [{ key: 'other' }] },
    ]);
    for (const field of ['name', 'description', 'cartPredicate', 'maxApplications', 'maxApplicationsPerCustomer', 'validFrom', 'validUntil'])
      expect(cleared).not.toHaveProperty(field);
    expect(cleared).toMatchObject({ references: [], stores: [] });
    const refusals: Array<[Json, string]> = [
      [{ action: 'changeCartDiscounts', cartDiscounts: [] }, 'InvalidInput'],
      [{ action: 'setCartPredicate', cartPredicate: 'x' }, 'InvalidInput'],
      [{ action: 'changeIsActive' }, 'RequiredField'],
      [{ action: 'setKey', key: 'taken' }, 'DuplicateField'],
      // `code` "cannot be modified after the DiscountCode is created": no action exists for it.
      [{ action: 'changeCode', code: 'OTHER' }, 'InvalidInput'],
    ];
    for (const [action, errorCode] of refusals) {
      const answer = await admin.post(`/${P}/discount-codes/${code.id}`, { version: 3, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(errorCode);
    }
  });

  it('delivers DiscountCodeCreated, DiscountCodeKeySet and DiscountCodeDeleted with the change notifications, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'discount-code');
    const code = await admin.ok(`/${P}/discount-codes`, { key: 'delivered', code: 'DELIVERED', cartDiscounts: discounts }, 201);
    await admin.update(`/${P}/discount-codes/${code.id}`, 1, [{ action: 'setKey', key: 'delivered-too' }]);
    await admin.update(`/${P}/discount-codes/${code.id}`, 2, [{ action: 'setMaxApplications', maxApplications: 3 }]);
    expect((await admin.delete(`/${P}/discount-codes/key=delivered-too?version=3&dataErasure=true`)).status).toBe(200);
    const id = code.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 7);
    expect(labels(documents)).toEqual(
      [
        `discount-code:${id}:Message:DiscountCodeCreated:1`,
        `discount-code:${id}:Message:DiscountCodeKeySet:2`,
        `discount-code:${id}:Message:DiscountCodeDeleted:3`,
        `discount-code:${id}:ResourceCreated:1`,
        `discount-code:${id}:ResourceUpdated:2`,
        `discount-code:${id}:ResourceUpdated:3`,
        `discount-code:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const keySet = documents.map(payloadOf).find((payload) => payload.type === 'DiscountCodeKeySet');
    expect(keySet).toMatchObject({ key: 'delivered-too', oldKey: 'delivered' });
  });
});
