/**
 * Issue 29: the ProductDiscount resource `/{projectKey}/product-discounts` (reference:
 * resources/product-discounts.raml, types/product-discount): the template's operations by id and
 * key, draft validation with the official codes (a malformed predicate names its position), every
 * update action, predicates and sort, `POST /matching`, and change notifications delivered to an
 * SQS subscription (the reference has no ProductDiscount messages).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, subscribedQueue } from '../subscriptions/support.js';

const P = 'product-discounts';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const draft = (sortOrder: string, extra: Json = {}): Json => ({
  name: { en: `Discount ${sortOrder}` },
  value: { type: 'relative', permyriad: 1000 },
  predicate: '1 = 1',
  sortOrder,
  isActive: true,
  ...extra,
});

describe('ProductDiscount /{projectKey}/product-discounts', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_product_discounts', 'manage_products', 'manage_product_types', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_product_discounts']);
  }, 180_000);
  afterAll(() => setup?.close());

  it('creates a product discount, reads it by id, key, query and sort, with the references its predicate names', async () => {
    const created = await admin.ok(
      `/${P}/product-discounts`,
      draft('0.9', {
        key: 'summer',
        description: { en: 'Summer' },
        predicate: 'customerGroup.id = "g-1" and sku in ("a", "b")',
        validFrom: '2024-01-01T00:00:00.000Z',
      }),
      201,
    );
    expect(created).toMatchObject({
      version: 1,
      key: 'summer',
      name: { en: 'Discount 0.9' },
      value: { type: 'relative', permyriad: 1000 },
      sortOrder: '0.9',
      isActive: true,
      references: [{ typeId: 'customer-group', id: 'g-1' }],
      validFrom: '2024-01-01T00:00:00.000Z',
    });
    expect(await viewer.read(`/${P}/product-discounts/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/product-discounts/key=summer`)).toEqual(created);
    await admin.ok(
      `/${P}/product-discounts`,
      draft('0.1', { key: 'small', value: { type: 'absolute', money: [eur(100), { currencyCode: 'USD', centAmount: 120 }] } }),
      201,
    );
    const absolute = await viewer.read(`/${P}/product-discounts/key=small`);
    expect(absolute.value.money).toEqual([
      { type: 'centPrecision', currencyCode: 'EUR', centAmount: 100, fractionDigits: 2 },
      { type: 'centPrecision', currencyCode: 'USD', centAmount: 120, fractionDigits: 2 },
    ]);
    const sorted = await viewer.read(`/${P}/product-discounts?${where('isActive = true')}&sort=sortOrder%20asc`);
    expect(sorted.results.map((found: Json) => found.key)).toEqual(['small', 'summer']);
    const byName = await viewer.read(`/${P}/product-discounts?${where('name(en = "Discount 0.9")')}`);
    expect(byName.results.map((found: Json) => found.key)).toEqual(['summer']);
    expect((await viewer.post(`/${P}/product-discounts`, draft('0.3'))).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/product-discounts`, draft('0.5', { key: 'taken' }), 201);
    const { name: _name, ...noName } = draft('0.51');
    const { value: _value, ...noValue } = draft('0.52');
    const { predicate: _predicate, ...noPredicate } = draft('0.53');
    const { sortOrder: _sortOrder, ...noSortOrder } = draft('0.54');
    const { isActive: _isActive, ...noIsActive } = draft('0.55');
    const cases: Array<[string, unknown, string]> = [
      ['draft not an object', [1], 'InvalidInput'],
      ['no name', noName, 'RequiredField'],
      ['no value', noValue, 'RequiredField'],
      ['no predicate', noPredicate, 'RequiredField'],
      ['no sortOrder', noSortOrder, 'RequiredField'],
      ['no isActive', noIsActive, 'RequiredField'],
      ['name not localized', draft('0.56', { name: 'x' }), 'InvalidInput'],
      ['value type unknown', draft('0.56', { value: { type: 'half' } }), 'InvalidInput'],
      ['permyriad over 10000', draft('0.56', { value: { type: 'relative', permyriad: 10_001 } }), 'InvalidInput'],
      ['permyriad a string', draft('0.56', { value: { type: 'relative', permyriad: '10' } }), 'InvalidInput'],
      ['absolute money empty', draft('0.56', { value: { type: 'absolute', money: [] } }), 'InvalidOperation'],
      ['absolute money twice in EUR', draft('0.56', { value: { type: 'absolute', money: [eur(1), eur(2)] } }), 'InvalidOperation'],
      ['absolute money negative', draft('0.56', { value: { type: 'absolute', money: [eur(-1)] } }), 'InvalidInput'],
      ['predicate not a string', draft('0.56', { predicate: 1 }), 'InvalidInput'],
      ['predicate malformed', draft('0.56', { predicate: 'sku = ' }), 'InvalidInput'],
      ['predicate with a cart field', draft('0.56', { predicate: 'lineItemCount(1 = 1) > 1' }), 'InvalidInput'],
      ['sortOrder 1', draft('1'), 'InvalidInput'],
      ['sortOrder 0', draft('0'), 'InvalidInput'],
      ['sortOrder with a trailing zero', draft('0.50'), 'InvalidInput'],
      ['sortOrder a number', draft('0.56', { sortOrder: 0.56 }), 'InvalidInput'],
      ['sortOrder of another discount', draft('0.5'), 'DuplicateField'],
      ['key of another discount', draft('0.57', { key: 'taken' }), 'DuplicateField'],
      ['key too short', draft('0.57', { key: 'k' }), 'InvalidInput'],
      ['isActive not a boolean', draft('0.57', { isActive: 'yes' }), 'InvalidInput'],
      ['validFrom not a DateTime', draft('0.57', { validFrom: 'tomorrow' }), 'InvalidInput'],
      ['validFrom after validUntil', draft('0.57', { validFrom: '2025-01-02T00:00:00Z', validUntil: '2025-01-01T00:00:00Z' }), 'InvalidInput'],
    ];
    for (const [label, body, code] of cases) {
      const answer = await admin.post(`/${P}/product-discounts`, body);
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
    }
    const malformed = await admin.post(`/${P}/product-discounts`, draft('0.58', { predicate: 'sku = "a" and\n  price >> "1.00 EUR"' }));
    expect(malformed.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'predicate', position: { line: 2, column: 10, offset: 23 } });
    expect(malformed.body.message).toMatch(/line 2, column 10/);
  });

  it('applies every update action; a stale version is 409', async () => {
    const discount = await admin.ok(`/${P}/product-discounts`, draft('0.6', { key: 'edit-me' }), 201);
    const updated = await admin.update(`/${P}/product-discounts/${discount.id}`, 1, [
      { action: 'changeName', name: { en: 'Renamed' } },
      { action: 'setDescription', description: { en: 'Described' } },
      { action: 'changeValue', value: { type: 'external' } },
      { action: 'changePredicate', predicate: 'categories.id contains "cat-1"' },
      { action: 'changeSortOrder', sortOrder: '0.61' },
      { action: 'changeIsActive', isActive: false },
      { action: 'setKey', key: 'edited' },
      { action: 'setValidFrom', validFrom: '2024-01-01T00:00:00.000Z' },
      { action: 'setValidUntil', validUntil: '2030-01-01T00:00:00.000Z' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'edited',
      name: { en: 'Renamed' },
      description: { en: 'Described' },
      value: { type: 'external' },
      predicate: 'categories.id contains "cat-1"',
      references: [{ typeId: 'category', id: 'cat-1' }],
      sortOrder: '0.61',
      isActive: false,
      validFrom: '2024-01-01T00:00:00.000Z',
      validUntil: '2030-01-01T00:00:00.000Z',
    });
    const cleared = await admin.update(`/${P}/product-discounts/key=edited`, 2, [
      { action: 'setValidFromAndUntil' },
      { action: 'setDescription' },
      { action: 'setKey' },
      { action: 'setValidFromAndUntil', validFrom: '2024-02-01T00:00:00.000Z' },
      { action: 'setValidFrom' },
    ]);
    expect(cleared.version).toBe(3);
    for (const field of ['validFrom', 'validUntil', 'description', 'key']) expect(cleared).not.toHaveProperty(field);
    const refusals: Array<[Json, string]> = [
      [{ action: 'changeSortOrder', sortOrder: '0.9' }, 'DuplicateField'],
      [{ action: 'changePredicate', predicate: 'sku in ()' }, 'InvalidInput'],
      [{ action: 'changeName' }, 'RequiredField'],
      [{ action: 'changeIsActive', isActive: 1 }, 'InvalidInput'],
      [{ action: 'setValidFromAndUntil', validFrom: '2025-01-02T00:00:00Z', validUntil: '2025-01-01T00:00:00Z' }, 'InvalidInput'],
      [{ action: 'setStores', stores: [] }, 'InvalidInput'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(`/${P}/product-discounts/${discount.id}`, { version: 3, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    const stale = await admin.post(`/${P}/product-discounts/${discount.id}`, { version: 1, actions: [{ action: 'setKey' }] });
    expect(stale.status).toBe(409);
  });

  it('answers POST /matching with the discount that applies to a price, or 404 NoMatchingProductDiscountFound', async () => {
    await admin.ok(`/${P}/product-types`, { key: 'shoes', name: 'Shoes', description: 'Shoes', attributes: [] }, 201);
    const product = await admin.ok(
      `/${P}/products`,
      {
        key: 'runner',
        productType: { typeId: 'product-type', key: 'shoes' },
        name: { en: 'Runner' },
        slug: { en: 'runner' },
        masterVariant: { sku: 'RUN-1', prices: [{ value: eur(5_000) }] },
      },
      201,
    );
    await admin.ok(`/${P}/product-discounts`, draft('0.7', { key: 'runner-sku', predicate: 'sku = "RUN-1" and productType.key = "shoes"' }), 201);
    await admin.ok(`/${P}/product-discounts`, draft('0.8', { key: 'expensive', predicate: 'price > "100.00 EUR"' }), 201);
    const query = (centAmount: number, extra: Json = {}) => ({
      productId: product.id,
      variantId: 1,
      staged: true,
      price: { value: eur(centAmount) },
      ...extra,
    });
    const match = await viewer.ok(`/${P}/product-discounts/matching`, query(5_000));
    expect(match.key).toBe('runner-sku');
    // A higher sortOrder wins when both match ("A Product Discount with a higher value is prioritized").
    expect((await viewer.ok(`/${P}/product-discounts/matching`, query(20_000))).key).toBe('expensive');
    await admin.update(`/${P}/product-discounts/key=expensive`, 1, [{ action: 'changeIsActive', isActive: false }]);
    expect((await viewer.ok(`/${P}/product-discounts/matching`, query(20_000))).key).toBe('runner-sku');
    const none = await viewer.post(
      `/${P}/product-discounts/matching`,
      query(5_000, { price: { value: { currencyCode: 'USD', centAmount: 5_000 } }, variantId: 1 }),
    );
    // 'runner-sku' is relative: any currency; so a USD price still matches it.
    expect(none.status).toBe(200);
    const otherProduct = await viewer.post(`/${P}/product-discounts/matching`, { ...query(10), productId: product.id, staged: false });
    expect(otherProduct.status).toBe(200);
    await admin.update(`/${P}/product-discounts/key=runner-sku`, 1, [{ action: 'changePredicate', predicate: 'sku = "OTHER"' }]);
    // The other discounts of this project match every price: switched off, nothing matches.
    for (const key of ['taken', 'small']) await admin.update(`/${P}/product-discounts/key=${key}`, 1, [{ action: 'changeIsActive', isActive: false }]);
    const missing = await viewer.post(`/${P}/product-discounts/matching`, query(5_000));
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]).toMatchObject({ code: 'NoMatchingProductDiscountFound' });
    const bad = await viewer.post(`/${P}/product-discounts/matching`, { productId: product.id, variantId: 1, staged: true });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('RequiredField');
  });

  it('delivers ResourceCreated, ResourceUpdated and ResourceDeleted to an SQS subscription in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'product-discount');
    const discount = await admin.ok(`/${P}/product-discounts`, draft('0.71', { key: 'delivered' }), 201);
    await admin.update(`/${P}/product-discounts/${discount.id}`, 1, [{ action: 'changeSortOrder', sortOrder: '0.72' }]);
    const deleted = await admin.delete(`/${P}/product-discounts/key=delivered?version=2`);
    expect(deleted.status).toBe(200);
    const id = discount.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 3);
    expect(labels(documents)).toEqual(
      [`product-discount:${id}:ResourceCreated:1`, `product-discount:${id}:ResourceDeleted:2`, `product-discount:${id}:ResourceUpdated:2`].sort(),
    );
  });
});
