/**
 * Issue 29: the CartDiscount resource `/{projectKey}/cart-discounts` (reference:
 * resources/cart-discounts.raml, types/cart-discount): operations by id and key, draft validation
 * with the official codes (values, targets and their fit, predicates with positions, sortOrder
 * unique), every update action, the store messages, the delete refused while a discount code uses
 * the discount, and messages with change notifications delivered to an SQS subscription.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'cart-discounts';
const relative = { type: 'relative', permyriad: 1000 };
const lineItems = { type: 'lineItems', predicate: 'sku = "A"' };
const draft = (sortOrder: string, extra: Json = {}): Json => ({
  name: { en: `Cart discount ${sortOrder}` },
  value: relative,
  cartPredicate: '1 = 1',
  target: lineItems,
  sortOrder,
  ...extra,
});

describe('CartDiscount /{projectKey}/cart-discounts', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_cart_discounts',
      'manage_discount_codes',
      'manage_stores',
      'manage_products',
      'manage_product_types',
      'manage_channels',
      'manage_types',
      'manage_subscriptions',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_cart_discounts']);
    for (const key of ['berlin', 'paris']) await admin.ok(`/${P}/stores`, { key, name: { en: key } }, 201);
  }, 180_000);
  afterAll(() => setup?.close());

  it('creates a cart discount with the reference defaults and reads it by id, key, query and sort', async () => {
    const created = await admin.ok(
      `/${P}/cart-discounts`,
      draft('0.9', { key: 'tenth', cartPredicate: 'customerGroup.id = "g-1" and lineItemCount(1 = 1) > 1', stores: [{ typeId: 'store', key: 'berlin' }] }),
      201,
    );
    expect(created).toMatchObject({
      version: 1,
      key: 'tenth',
      value: relative,
      target: lineItems,
      sortOrder: '0.9',
      stores: [{ typeId: 'store', key: 'berlin' }],
      isActive: true,
      requiresDiscountCode: false,
      stackingMode: 'Stacking',
      references: [{ typeId: 'customer-group', id: 'g-1' }],
      recurringOrderScope: { type: 'NonRecurringOrdersOnly' },
    });
    expect(await viewer.read(`/${P}/cart-discounts/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/cart-discounts/key=tenth`)).toEqual(created);
    await admin.ok(
      `/${P}/cart-discounts`,
      draft('0.2', { key: 'shipping', value: { type: 'absolute', money: [eur(500)] }, target: { type: 'shipping' } }),
      201,
    );
    const page = await viewer.read(`/${P}/cart-discounts?where=${encodeURIComponent('isActive = true')}&sort=sortOrder%20asc`);
    expect(page.results.map((found: Json) => found.key)).toEqual(['shipping', 'tenth']);
    // resources/cart-discounts.raml: view_orders reads them too.
    const orders = await callerWith(gateway, P, ['view_orders']);
    expect((await orders.read(`/${P}/cart-discounts/key=shipping`)).target).toEqual({ type: 'shipping' });
    expect((await viewer.post(`/${P}/cart-discounts`, draft('0.3'))).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/cart-discounts`, draft('0.5', { key: 'taken' }), 201);
    await admin.ok(`/${P}/product-types`, { key: 'gifts', name: 'Gifts', description: 'Gifts', attributes: [] }, 201);
    await admin.ok(`/${P}/products`, { key: 'mug', productType: { typeId: 'product-type', key: 'gifts' }, name: { en: 'Mug' }, slug: { en: 'mug' } }, 201);
    await admin.ok(`/${P}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
    const gift = { type: 'giftLineItem', product: { typeId: 'product', key: 'mug' }, variantId: 1 };
    const without = (field: string) => Object.fromEntries(Object.entries(draft('0.51')).filter(([name]) => name !== field));
    const cases: Array<[string, unknown, string]> = [
      ['draft not an object', [1], 'InvalidInput'],
      ['no name', without('name'), 'RequiredField'],
      ['no value', without('value'), 'RequiredField'],
      ['no cartPredicate', without('cartPredicate'), 'RequiredField'],
      ['no sortOrder', without('sortOrder'), 'RequiredField'],
      ['no target for a relative value', without('target'), 'RequiredField'],
      ['value type unknown', draft('0.52', { value: { type: 'free' } }), 'InvalidInput'],
      ['permyriad negative', draft('0.52', { value: { type: 'relative', permyriad: -1 } }), 'InvalidInput'],
      ['applicationMode unknown', draft('0.52', { value: { ...relative, applicationMode: 'Sometimes' } }), 'InvalidInput'],
      ['relative distributed without a pattern', draft('0.52', { value: { ...relative, applicationMode: 'EvenDistribution' } }), 'InvalidOperation'],
      ['absolute money empty', draft('0.52', { value: { type: 'absolute', money: [] } }), 'InvalidOperation'],
      ['fixed money twice in EUR', draft('0.52', { value: { type: 'fixed', money: [eur(1), eur(2)] } }), 'InvalidOperation'],
      ['fixed on the total price', draft('0.52', { value: { type: 'fixed', money: [eur(1)] }, target: { type: 'totalPrice' } }), 'InvalidInput'],
      [
        'absolute on a multi-buy target',
        draft('0.52', {
          value: { type: 'absolute', money: [eur(1)] },
          target: { type: 'multiBuyLineItems', predicate: '1 = 1', triggerQuantity: 3, discountedQuantity: 1, selectionMode: 'Cheapest' },
        }),
        'InvalidInput',
      ],
      ['gift with a target', draft('0.52', { value: gift }), 'InvalidInput'],
      [
        'gift of a product that does not exist',
        { ...without('target'), value: { ...gift, product: { typeId: 'product', key: 'nope' } } },
        'ReferencedResourceNotFound',
      ],
      ['gift of a variant that does not exist', { ...without('target'), value: { ...gift, variantId: 7 } }, 'InvalidInput'],
      [
        'gift from a channel without the role',
        { ...without('target'), value: { ...gift, distributionChannel: { typeId: 'channel', key: 'warehouse' } } },
        'InvalidInput',
      ],
      ['target type unknown', draft('0.52', { target: { type: 'everything' } }), 'InvalidInput'],
      ['target predicate malformed', draft('0.52', { target: { type: 'lineItems', predicate: 'sku = ' } }), 'InvalidInput'],
      ['target predicate with a cart function', draft('0.52', { target: { type: 'lineItems', predicate: 'lineItemCount(1 = 1) > 1' } }), 'InvalidInput'],
      ['cartPredicate malformed', draft('0.52', { cartPredicate: 'country = "DE" and' }), 'InvalidInput'],
      ['cartPredicate not a string', draft('0.52', { cartPredicate: true }), 'InvalidInput'],
      [
        'multi-buy triggerQuantity below 2',
        draft('0.52', { target: { type: 'multiBuyLineItems', predicate: '1 = 1', triggerQuantity: 1, discountedQuantity: 1, selectionMode: 'Cheapest' } }),
        'InvalidInput',
      ],
      [
        'multi-buy discounting more than it triggers on',
        draft('0.52', { target: { type: 'multiBuyLineItems', predicate: '1 = 1', triggerQuantity: 2, discountedQuantity: 3, selectionMode: 'Cheapest' } }),
        'InvalidInput',
      ],
      [
        'multi-buy without selectionMode',
        draft('0.52', { target: { type: 'multiBuyCustomLineItems', predicate: '1 = 1', triggerQuantity: 2, discountedQuantity: 1 } }),
        'RequiredField',
      ],
      [
        'pattern with an empty targetPattern',
        draft('0.52', { target: { type: 'pattern', triggerPattern: [], targetPattern: [], selectionMode: 'Cheapest' } }),
        'InvalidInput',
      ],
      [
        'pattern component maxCount below minCount',
        draft('0.52', {
          target: {
            type: 'pattern',
            triggerPattern: [],
            targetPattern: [{ type: 'CountOnLineItemUnits', predicate: '1 = 1', minCount: 3, maxCount: 2 }],
            selectionMode: 'Cheapest',
          },
        }),
        'InvalidInput',
      ],
      ['sortOrder of another cart discount', draft('0.5'), 'DuplicateField'],
      ['sortOrder out of range', draft('1.5'), 'InvalidInput'],
      ['key of another cart discount', draft('0.53', { key: 'taken' }), 'DuplicateField'],
      ['store that does not exist', draft('0.53', { stores: [{ typeId: 'store', key: 'rome' }] }), 'ReferencedResourceNotFound'],
      ['stores not an array', draft('0.53', { stores: { key: 'berlin' } }), 'InvalidInput'],
      ['stackingMode unknown', draft('0.53', { stackingMode: 'Sometimes' }), 'InvalidInput'],
      ['requiresDiscountCode not a boolean', draft('0.53', { requiresDiscountCode: 'no' }), 'InvalidInput'],
      ['a discount group Herald does not have', draft('0.53', { discountGroup: { typeId: 'discount-group', key: 'g' } }), 'ReferencedResourceNotFound'],
      ['recurringOrderScope type unknown', draft('0.53', { recurringOrderScope: { type: 'Sometimes' } }), 'InvalidInput'],
      ['validUntil before validFrom', draft('0.53', { validFrom: '2025-01-02T00:00:00Z', validUntil: '2025-01-01T00:00:00Z' }), 'InvalidInput'],
      ['custom type that does not exist', draft('0.53', { custom: { type: { key: 'nope' } } }), 'InvalidInput'],
    ];
    for (const [label, body, code] of cases) {
      const answer = await admin.post(`/${P}/cart-discounts`, body);
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
    }
    const malformed = await admin.post(`/${P}/cart-discounts`, draft('0.54', { cartPredicate: 'totalPrice > "10.00 EUR" and (' }));
    expect(malformed.body.errors[0]).toMatchObject({ field: 'cartPredicate', position: { line: 1, column: 31, offset: 30 } });
    // A gift without a target, a distributed relative value on a pattern, a multi-buy: all accepted.
    const giftDiscount = await admin.ok(
      `/${P}/cart-discounts`,
      { ...without('target'), sortOrder: '0.55', value: { ...gift, supplyChannel: { typeId: 'channel', key: 'warehouse' } } },
      201,
    );
    expect(giftDiscount.value).toMatchObject({ type: 'giftLineItem', variantId: 1, product: { typeId: 'product' }, supplyChannel: { typeId: 'channel' } });
    expect(giftDiscount).not.toHaveProperty('target');
    const pattern = {
      type: 'pattern',
      triggerPattern: [{ type: 'CountOnLineItemUnits', predicate: 'sku = "A"', minCount: 2 }],
      targetPattern: [{ type: 'CountOnCustomLineItemUnits', predicate: 'slug = "wrap"', maxCount: 1 }],
      maxOccurrence: 2,
      selectionMode: 'MostExpensive',
    };
    const patterned = await admin.ok(
      `/${P}/cart-discounts`,
      draft('0.56', { value: { ...relative, applicationMode: 'ProportionateDistribution' }, target: pattern }),
      201,
    );
    expect(patterned.target).toEqual(pattern);
  });

  it('applies every update action, with the store messages', async () => {
    await admin.ok(
      `/${P}/types`,
      {
        key: 'discount-fields',
        name: { en: 'F' },
        resourceTypeIds: ['cart-discount'],
        fieldDefinitions: [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
    const discount = await admin.ok(`/${P}/cart-discounts`, draft('0.6', { key: 'edit-me' }), 201);
    const updated = await admin.update(`/${P}/cart-discounts/${discount.id}`, 1, [
      { action: 'changeName', name: { en: 'Renamed' } },
      { action: 'setDescription', description: { en: 'Described' } },
      { action: 'changeValue', value: { type: 'fixed', money: [{ type: 'highPrecision', currencyCode: 'EUR', preciseAmount: 12345, fractionDigits: 3 }] } },
      { action: 'changeCartPredicate', cartPredicate: 'customer.id = "c-1"' },
      { action: 'changeTarget', target: { type: 'customLineItems', predicate: 'taxCategory.id = "t-1"' } },
      { action: 'changeSortOrder', sortOrder: '0.61' },
      { action: 'changeIsActive', isActive: false },
      { action: 'changeRequiresDiscountCode', requiresDiscountCode: true },
      { action: 'changeStackingMode', stackingMode: 'StopAfterThisDiscount' },
      { action: 'setKey', key: 'edited' },
      { action: 'setValidFrom', validFrom: '2024-01-01T00:00:00.000Z' },
      { action: 'setValidUntil', validUntil: '2030-01-01T00:00:00.000Z' },
      { action: 'setValidFromAndUntil', validFrom: '2024-02-01T00:00:00.000Z', validUntil: '2031-01-01T00:00:00.000Z' },
      { action: 'addStore', store: { typeId: 'store', key: 'berlin' } },
      { action: 'addStore', store: { typeId: 'store', key: 'paris' } },
      { action: 'removeStore', store: { typeId: 'store', key: 'berlin' } },
      { action: 'setStores', stores: [{ typeId: 'store', key: 'berlin' }, { key: 'paris' }] },
      { action: 'setCustomType', type: { key: 'discount-fields' }, fields: { note: 'hi' } },
      { action: 'setCustomField', name: 'note', value: 'there' },
      { action: 'setRecurringOrderScope', recurringOrderScope: { type: 'AnyOrder' } },
      { action: 'setDiscountGroup', sortOrder: '0.62' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'edited',
      name: { en: 'Renamed' },
      description: { en: 'Described' },
      value: { type: 'fixed', money: [{ type: 'highPrecision', currencyCode: 'EUR', centAmount: 1234, preciseAmount: 12345, fractionDigits: 3 }] },
      cartPredicate: 'customer.id = "c-1"',
      target: { type: 'customLineItems', predicate: 'taxCategory.id = "t-1"' },
      references: [
        { typeId: 'customer', id: 'c-1' },
        { typeId: 'tax-category', id: 't-1' },
      ],
      sortOrder: '0.62',
      isActive: false,
      requiresDiscountCode: true,
      stackingMode: 'StopAfterThisDiscount',
      validFrom: '2024-02-01T00:00:00.000Z',
      validUntil: '2031-01-01T00:00:00.000Z',
      stores: [
        { typeId: 'store', key: 'berlin' },
        { typeId: 'store', key: 'paris' },
      ],
      custom: { fields: { note: 'there' } },
      recurringOrderScope: { type: 'AnyOrder' },
    });
    const refusals: Array<[Json, string]> = [
      [{ action: 'changeValue', value: { type: 'giftLineItem', product: { key: 'mug' }, variantId: 1 } }, 'InvalidInput'],
      [{ action: 'changeTarget', target: { type: 'lineItems', predicate: 'sku in' } }, 'InvalidInput'],
      [{ action: 'changeTarget' }, 'RequiredField'],
      [{ action: 'changeSortOrder', sortOrder: '0.9' }, 'DuplicateField'],
      [{ action: 'changeCartPredicate', cartPredicate: 'nope = 1' }, 'InvalidInput'],
      [{ action: 'removeStore', store: { key: 'rome' } }, 'ReferencedResourceNotFound'],
      [{ action: 'changeStackingMode', stackingMode: 'Never' }, 'InvalidInput'],
      [{ action: 'setDiscountGroup' }, 'RequiredField'],
      [{ action: 'setPredicate', predicate: '1 = 1' }, 'InvalidInput'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(`/${P}/cart-discounts/${discount.id}`, { version: 2, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    const removed = await admin.update(`/${P}/cart-discounts/key=edited`, 2, [
      { action: 'removeStore', store: { key: 'paris' } },
      { action: 'setValidFromAndUntil' },
    ]);
    expect(removed.stores).toEqual([{ typeId: 'store', key: 'berlin' }]);
    expect(removed).not.toHaveProperty('validFrom');
  });

  it('refuses to delete a cart discount a discount code uses (400 ReferenceExists), deletes it once unused', async () => {
    const discount = await admin.ok(`/${P}/cart-discounts`, draft('0.7', { key: 'coded', requiresDiscountCode: true }), 201);
    const code = await admin.ok(`/${P}/discount-codes`, { code: 'SAVE10', cartDiscounts: [{ typeId: 'cart-discount', key: 'coded' }] }, 201);
    const refused = await admin.delete(`/${P}/cart-discounts/${discount.id}?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'discount-code' });
    await admin.update(`/${P}/discount-codes/${code.id}`, 1, [{ action: 'changeCartDiscounts', cartDiscounts: [{ key: 'tenth' }] }]);
    expect((await admin.delete(`/${P}/cart-discounts/key=coded?version=1`)).status).toBe(200);
    expect((await viewer.get(`/${P}/cart-discounts/${discount.id}`)).status).toBe(404);
    // Discount codes expand their cart discounts.
    const expanded = await admin.read(`/${P}/discount-codes/${code.id}?expand=cartDiscounts[*]`);
    expect(expanded.cartDiscounts[0].obj).toMatchObject({ key: 'tenth' });
  });

  it('delivers its messages and change notifications to an SQS subscription in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'cart-discount');
    const discount = await admin.ok(`/${P}/cart-discounts`, draft('0.8', { key: 'delivered' }), 201);
    await admin.update(`/${P}/cart-discounts/${discount.id}`, 1, [
      { action: 'addStore', store: { key: 'berlin' } },
      { action: 'removeStore', store: { key: 'berlin' } },
      { action: 'setStores', stores: [{ key: 'paris' }] },
    ]);
    await admin.update(`/${P}/cart-discounts/${discount.id}`, 2, [{ action: 'changeIsActive', isActive: false }]);
    expect((await admin.delete(`/${P}/cart-discounts/key=delivered?version=3`)).status).toBe(200);
    const id = discount.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 9);
    expect(labels(documents)).toEqual(
      [
        `cart-discount:${id}:Message:CartDiscountCreated:1`,
        `cart-discount:${id}:Message:CartDiscountStoreAdded:2`,
        `cart-discount:${id}:Message:CartDiscountStoreRemoved:3`,
        `cart-discount:${id}:Message:CartDiscountStoresSet:4`,
        `cart-discount:${id}:Message:CartDiscountDeleted:5`,
        `cart-discount:${id}:ResourceCreated:1`,
        `cart-discount:${id}:ResourceUpdated:2`,
        `cart-discount:${id}:ResourceUpdated:3`,
        `cart-discount:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const messages = documents.map(payloadOf).filter((payload) => payload.notificationType === 'Message');
    const bySequence = (n: number) => messages.find((message) => message.sequenceNumber === n);
    expect(bySequence(1)).toMatchObject({ cartDiscount: { id, key: 'delivered' } });
    expect(bySequence(2)).toMatchObject({ store: { typeId: 'store', key: 'berlin' }, resourceVersion: 2 });
    expect(bySequence(4)).toMatchObject({ stores: [{ typeId: 'store', key: 'paris' }] });
  });
});
