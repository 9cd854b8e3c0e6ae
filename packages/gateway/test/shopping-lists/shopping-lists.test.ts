/**
 * Issue 29: the ShoppingList resource (reference: resources/shopping-lists.raml, me.raml,
 * in-store/*.raml, types/shopping-list): drafts with line items resolved against products, every
 * update action, `expand`, the in-store and `/me` forms, and the messages and change notifications
 * delivered to an SQS subscription (fauxqs).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousWithToken, callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'shopping-lists';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const name = (text: string) => ({ en: text });

describe('ShoppingList /{projectKey}/shopping-lists', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let bea: Customer;
  let chair: Json;
  let customerId: string;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_shopping_lists',
      'manage_products',
      'manage_product_types',
      'manage_customers',
      'manage_subscriptions',
      'manage_stores',
      'manage_types',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_shopping_lists']);
    await admin.ok(`/${P}/product-types`, { key: 'furniture', name: 'Furniture', description: 'Furniture', attributes: [] }, 201);
    chair = await admin.ok(
      `/${P}/products`,
      {
        key: 'chair',
        productType: { typeId: 'product-type', key: 'furniture' },
        name: name('Chair'),
        slug: name('chair'),
        masterVariant: { sku: 'chair-oak' },
        variants: [{ sku: 'chair-pine' }],
      },
      201,
    );
    await admin.ok(`/${P}/stores`, { key: 'berlin', name: name('Berlin') }, 201);
    await admin.ok(`/${P}/stores`, { key: 'paris', name: name('Paris') }, 201);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'item-notes',
        name: name('Item notes'),
        resourceTypeIds: ['line-item', 'shopping-list-text-line-item', 'shopping-list'],
        fieldDefinitions: [{ name: 'note', type: { name: 'String' }, required: false, label: name('Note') }],
      },
      201,
    );
    bea = await customerWithToken(gateway, P, admin, ['manage_my_shopping_lists']);
    customerId = bea.id;
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a list whose line items come from the product by id, by id and variant, and by SKU; reads it by id, key and query', async () => {
    const list = await admin.ok(
      `/${P}/shopping-lists`,
      {
        key: 'wishes',
        name: name('Wishes'),
        slug: name('wishes'),
        customer: { typeId: 'customer', id: customerId },
        lineItems: [{ productId: chair.id }, { productId: chair.id, variantId: 2, quantity: 2 }, { sku: 'chair-oak', key: 'oak' }],
        textLineItems: [{ name: name('Cushion'), description: name('A soft one'), quantity: 3 }],
      },
      201,
    );
    const copied = { productId: chair.id, productType: { typeId: 'product-type', id: chair.productType.id }, name: name('Chair'), published: false };
    expect(list).toMatchObject({
      version: 1,
      key: 'wishes',
      customer: { typeId: 'customer', id: customerId },
      // The project default of ShoppingListsConfiguration (360) when the draft names none.
      deleteDaysAfterLastModification: 360,
      lineItems: [
        { ...copied, quantity: 1 },
        { ...copied, variantId: 2, quantity: 2 },
        { ...copied, variantId: 1, quantity: 1, key: 'oak' },
      ],
      textLineItems: [{ name: name('Cushion'), description: name('A soft one'), quantity: 3 }],
    });
    // Without variantId the item follows the master variant: it is not the same item as variantId 1.
    expect(list.lineItems[0].variantId).toBeUndefined();
    expect(Date.parse(list.lineItems[0].addedAt)).toBeLessThanOrEqual(Date.parse(list.createdAt));

    expect(await viewer.read(`/${P}/shopping-lists/${list.id}`)).toEqual(list);
    expect(await viewer.read(`/${P}/shopping-lists/key=wishes`)).toEqual(list);
    const page = await viewer.read(`/${P}/shopping-lists?${where(`customer(id = "${customerId}")`)}&sort=createdAt%20desc`);
    expect(page.results.map((found: Json) => found.id)).toEqual([list.id]);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/shopping-lists`, { key: 'taken', name: name('Taken'), slug: name('taken-slug') }, 201);
    const cases: Array<[Json, string, string?]> = [
      [{}, 'RequiredField', 'name'],
      [{ name: 'Wishes' }, 'InvalidInput', 'name'],
      [{ name: name('x'), key: 'a' }, 'InvalidInput', 'key'],
      [{ name: name('x'), key: 'taken' }, 'DuplicateField', 'key'],
      [{ name: name('x'), slug: name('no spaces') }, 'InvalidInput', 'slug'],
      [{ name: name('x'), slug: name('taken-slug') }, 'DuplicateField', 'slug'],
      [{ name: name('x'), description: 'plain' }, 'InvalidInput', 'description'],
      [{ name: name('x'), customer: { typeId: 'customer', id: 'nobody' } }, 'ReferencedResourceNotFound'],
      [{ name: name('x'), store: { typeId: 'store', key: 'nowhere' } }, 'ReferencedResourceNotFound'],
      [{ name: name('x'), anonymousId: 7 }, 'InvalidInput', 'anonymousId'],
      [{ name: name('x'), deleteDaysAfterLastModification: 0 }, 'InvalidInput', 'deleteDaysAfterLastModification'],
      [{ name: name('x'), deleteDaysAfterLastModification: 365_251 }, 'InvalidInput', 'deleteDaysAfterLastModification'],
      [{ name: name('x'), lineItems: {} }, 'InvalidInput', 'lineItems'],
      [{ name: name('x'), lineItems: [{ quantity: 1 }] }, 'InvalidInput', 'productId'],
      [{ name: name('x'), lineItems: [{ productId: 'no-such-product' }] }, 'ReferencedResourceNotFound'],
      [{ name: name('x'), lineItems: [{ sku: 'no-such-sku' }] }, 'InvalidInput', 'sku'],
      [{ name: name('x'), lineItems: [{ productId: chair.id, variantId: 9 }] }, 'InvalidInput', 'variantId'],
      [{ name: name('x'), lineItems: [{ sku: 'chair-oak', quantity: 0 }] }, 'InvalidInput', 'quantity'],
      [{ name: name('x'), lineItems: [{ sku: 'chair-oak', addedAt: 'yesterday' }] }, 'InvalidInput', 'addedAt'],
      [{ name: name('x'), textLineItems: [{ quantity: 1 }] }, 'InvalidInput', 'name'],
      [
        {
          name: name('x'),
          textLineItems: [
            { name: name('a'), key: 'k1' },
            { name: name('b'), key: 'k1' },
          ],
        },
        'DuplicateField',
      ],
      [{ name: name('x'), custom: { type: { typeId: 'type', key: 'no-such-type' } } }, 'InvalidInput'],
    ];
    for (const [draft, code, field] of cases) {
      const answer = await admin.post(`/${P}/shopping-lists`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code, ...(field === undefined ? {} : { field }) }] });
    }
    const forbidden = await viewer.post(`/${P}/shopping-lists`, { name: name('Viewer') });
    expect(forbidden.status).toBe(403);
  });

  it('applies every update action of the reference', async () => {
    const list = await admin.ok(`/${P}/shopping-lists`, { key: 'actions', name: name('Actions'), lineItems: [{ sku: 'chair-oak' }] }, 201);
    const oak = list.lineItems[0].id as string;
    const typeRef = { typeId: 'type', key: 'item-notes' };
    const updated = await admin.update(`/${P}/shopping-lists/${list.id}`, list.version, [
      { action: 'changeName', name: name('Renamed') },
      { action: 'setKey', key: 'actions-2' },
      { action: 'setSlug', slug: name('renamed') },
      { action: 'setDescription', description: name('All of them') },
      { action: 'setCustomer', customer: { typeId: 'customer', id: customerId } },
      { action: 'setStore', store: { typeId: 'store', key: 'berlin' } },
      { action: 'setDeleteDaysAfterLastModification', deleteDaysAfterLastModification: 30 },
      { action: 'setCustomType', type: typeRef, fields: { note: 'list' } },
      { action: 'setCustomField', name: 'note', value: 'the list' },
      // The same variant with the same custom fields: only the quantity grows.
      { action: 'addLineItem', sku: 'chair-oak', quantity: 2 },
      { action: 'addLineItem', productId: chair.id, variantId: 2, key: 'pine' },
      { action: 'changeLineItemQuantity', lineItemKey: 'pine', quantity: 4 },
      { action: 'setLineItemCustomType', lineItemId: oak, type: typeRef },
      { action: 'setLineItemCustomField', lineItemId: oak, name: 'note', value: 'oak' },
      { action: 'addTextLineItem', name: name('Lamp'), key: 'lamp' },
      { action: 'addTextLineItem', name: name('Rug'), quantity: 2 },
      { action: 'changeTextLineItemName', textLineItemKey: 'lamp', name: name('Desk lamp') },
      { action: 'changeTextLineItemQuantity', textLineItemKey: 'lamp', quantity: 5 },
      { action: 'setTextLineItemDescription', textLineItemKey: 'lamp', description: name('Bright') },
      { action: 'setTextLineItemCustomType', textLineItemKey: 'lamp', type: typeRef },
      { action: 'setTextLineItemCustomField', textLineItemKey: 'lamp', name: 'note', value: 'lamp' },
      { action: 'removeLineItem', lineItemKey: 'pine', quantity: 1 },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'actions-2',
      name: name('Renamed'),
      slug: name('renamed'),
      description: name('All of them'),
      customer: { typeId: 'customer', id: customerId },
      store: { typeId: 'store', key: 'berlin' },
      deleteDaysAfterLastModification: 30,
      custom: { fields: { note: 'the list' } },
      lineItems: [
        { id: oak, variantId: 1, quantity: 3, custom: { fields: { note: 'oak' } } },
        { key: 'pine', variantId: 2, quantity: 3 },
      ],
      textLineItems: [
        { key: 'lamp', name: name('Desk lamp'), quantity: 5, description: name('Bright'), custom: { fields: { note: 'lamp' } } },
        { name: name('Rug'), quantity: 2 },
      ],
    });
    const [pine, rug] = [updated.lineItems[1].id as string, updated.textLineItems[1].id as string];
    const reordered = await admin.update(`/${P}/shopping-lists/key=actions-2`, updated.version, [
      { action: 'changeLineItemsOrder', lineItemOrder: [pine, oak] },
      { action: 'changeTextLineItemsOrder', textLineItemOrder: [rug, updated.textLineItems[0].id] },
      { action: 'removeTextLineItem', textLineItemKey: 'lamp', quantity: 5 },
      { action: 'changeTextLineItemQuantity', textLineItemId: rug, quantity: 0 },
      { action: 'removeLineItem', lineItemId: oak },
      { action: 'setCustomer' },
      { action: 'setAnonymousId', anonymousId: 'anon-1' },
      { action: 'setStore' },
      { action: 'setSlug' },
      { action: 'setKey' },
      { action: 'setDescription' },
      { action: 'setDeleteDaysAfterLastModification' },
      { action: 'setCustomType' },
    ]);
    expect(reordered.lineItems.map((item: Json) => item.id)).toEqual([pine]);
    expect(reordered.textLineItems).toEqual([]);
    expect(reordered).toMatchObject({ anonymousId: 'anon-1', deleteDaysAfterLastModification: 360 });
    for (const absent of ['customer', 'store', 'slug', 'key', 'description', 'custom']) expect(reordered[absent], absent).toBeUndefined();

    const refusals: Array<[Json, string]> = [
      [{ action: 'changeName' }, 'InvalidInput'],
      [{ action: 'changeLineItemsOrder', lineItemOrder: [] }, 'InvalidInput'],
      [{ action: 'changeLineItemQuantity', lineItemId: 'nope', quantity: 1 }, 'InvalidInput'],
      [{ action: 'changeLineItemQuantity', quantity: 1 }, 'InvalidInput'],
      [{ action: 'removeLineItem', lineItemId: pine, quantity: 0 }, 'InvalidInput'],
      [{ action: 'setBusinessUnit', businessUnit: { typeId: 'business-unit', key: 'x' } }, 'InvalidOperation'],
      [{ action: 'addLineItem', productId: 'missing' }, 'ReferencedResourceNotFound'],
      [{ action: 'setCustomer', customer: { typeId: 'customer', id: 'nobody' } }, 'ReferencedResourceNotFound'],
      [{ action: 'fly' }, 'InvalidInput'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(`/${P}/shopping-lists/${list.id}`, { version: reordered.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    // setAnonymousId: "If the Shopping List is already associated with a Customer, an InvalidOperation error is returned."
    const owned = await admin.update(`/${P}/shopping-lists/${list.id}`, reordered.version, [{ action: 'setCustomer', customer: { id: customerId } }]);
    const refused = await admin.post(`/${P}/shopping-lists/${list.id}`, { version: owned.version, actions: [{ action: 'setAnonymousId', anonymousId: 'a' }] });
    expect(refused.body.errors[0].code).toBe('InvalidOperation');
    const stale = await admin.post(`/${P}/shopping-lists/${list.id}`, { version: 1, actions: [{ action: 'setKey' }] });
    expect(stale.status).toBe(409);
  });

  it('expands the customer, the product type and, from the product, the variant and the slug of every line item', async () => {
    const list = await admin.ok(
      `/${P}/shopping-lists`,
      { name: name('Expanded'), customer: { id: customerId }, lineItems: [{ productId: chair.id }, { sku: 'chair-pine' }] },
      201,
    );
    const plain = await admin.read(`/${P}/shopping-lists/${list.id}`);
    expect(plain.lineItems[0].variant).toBeUndefined();
    expect(plain.lineItems[0].productSlug).toBeUndefined();
    const paths = ['customer', 'lineItems[*].productType', 'lineItems[*].variant', 'lineItems[*].productSlug'];
    const expanded = await admin.read(`/${P}/shopping-lists/${list.id}?${paths.map((path) => `expand=${encodeURIComponent(path)}`).join('&')}`);
    expect(expanded.customer.obj).toMatchObject({ id: customerId });
    expect(expanded.lineItems[0]).toMatchObject({
      productSlug: name('chair'),
      variant: { id: 1, sku: 'chair-oak' },
      productType: { obj: { key: 'furniture' } },
    });
    expect(expanded.lineItems[1]).toMatchObject({ productSlug: name('chair'), variant: { id: 2, sku: 'chair-pine' } });
    const page = await admin.read(`/${P}/shopping-lists?${where(`id = "${list.id}"`)}&expand=${encodeURIComponent('lineItems[*].variant')}`);
    expect(page.results[0].lineItems[1].variant).toMatchObject({ sku: 'chair-pine' });
    expect(page.results[0].lineItems[1].productSlug).toBeUndefined();
  });

  it('serves a store’s lists under /in-store/key={storeKey}: the store is the path’s, others’ lists are not found', async () => {
    const berlin = await admin.ok(`/${P}/in-store/key=berlin/shopping-lists`, { name: name('Berlin'), store: { key: 'paris' } }, 201);
    expect(berlin.store).toEqual({ typeId: 'store', key: 'berlin' });
    expect((await admin.get(`/${P}/in-store/key=paris/shopping-lists/${berlin.id}`)).status).toBe(404);
    const updated = await admin.update(`/${P}/in-store/key=berlin/shopping-lists/${berlin.id}`, 1, [{ action: 'addTextLineItem', name: name('Map') }]);
    expect(updated.textLineItems).toHaveLength(1);
    const page = await admin.read(`/${P}/in-store/key=berlin/shopping-lists`);
    expect(page.results.every((list: Json) => list.store?.key === 'berlin')).toBe(true);
    expect((await admin.delete(`/${P}/in-store/key=berlin/shopping-lists/${berlin.id}?version=2`)).status).toBe(200);
  });

  it('serves a customer’s and an anonymous session’s own lists under /me/shopping-lists', async () => {
    // A customer of their own: the lists of the other tests name Bea.
    const dora = await customerWithToken(gateway, P, admin, ['manage_my_shopping_lists']);
    const mine = await dora.caller.ok(`/${P}/me/shopping-lists`, { name: name('Mine'), lineItems: [{ sku: 'chair-oak' }] }, 201);
    expect(mine.customer).toEqual({ typeId: 'customer', id: dora.id });
    // MyShoppingListDraft: "The key and slug fields can not be set"; the owner comes from the token.
    for (const field of ['key', 'slug', 'customer']) {
      const value = field === 'key' ? 'my-key' : field === 'slug' ? name('my-slug') : { id: dora.id };
      const refused = await dora.caller.post(`/${P}/me/shopping-lists`, { name: name('Mine'), [field]: value });
      expect(refused.status, field).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'InvalidInput', field });
    }
    const anonymous = await anonymousWithToken(gateway, P, ['manage_my_shopping_lists']);
    const theirs = await anonymous.caller.ok(`/${P}/me/shopping-lists`, { name: name('Theirs') }, 201);
    expect(theirs.anonymousId).toBe(anonymous.anonymousId);

    const page = await dora.caller.read(`/${P}/me/shopping-lists`);
    expect(page.results.map((list: Json) => list.id)).toEqual([mine.id]);
    expect((await dora.caller.get(`/${P}/me/shopping-lists/${theirs.id}`)).status).toBe(404);
    expect((await anonymous.caller.get(`/${P}/me/shopping-lists/${mine.id}`)).status).toBe(404);

    const changed = await dora.caller.update(`/${P}/me/shopping-lists/${mine.id}`, 1, [
      { action: 'changeName', name: name('Still mine') },
      { action: 'changeLineItemQuantity', lineItemId: mine.lineItems[0].id, quantity: 3 },
    ]);
    expect(changed).toMatchObject({ version: 2, name: name('Still mine'), lineItems: [{ quantity: 3 }] });
    // Actions on the owner, key and store are not MyShoppingListUpdateActions.
    const setCustomer = await dora.caller.post(`/${P}/me/shopping-lists/${mine.id}`, { version: 2, actions: [{ action: 'setCustomer' }] });
    expect(setCustomer.status).toBe(400);
    const inStore = await dora.caller.ok(`/${P}/in-store/key=berlin/me/shopping-lists`, { name: name('Berlin list') }, 201);
    expect(inStore).toMatchObject({ store: { key: 'berlin' }, customer: { id: dora.id } });
    expect((await dora.caller.delete(`/${P}/me/shopping-lists/${mine.id}?version=2`)).status).toBe(200);
    // A customer token has no business with the project-wide routes.
    expect((await dora.caller.get(`/${P}/shopping-lists`)).status).toBe(403);
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'shopping-list');
    const list = await admin.ok(`/${P}/shopping-lists`, { name: name('Delivered'), lineItems: [{ sku: 'chair-oak' }] }, 201);
    const updated = await admin.update(`/${P}/shopping-lists/${list.id}`, 1, [
      { action: 'addLineItem', sku: 'chair-pine', quantity: 2 },
      { action: 'removeLineItem', lineItemId: list.lineItems[0].id },
      { action: 'changeName', name: name('Delivered too') },
    ]);
    await admin.delete(`/${P}/shopping-lists/${list.id}?version=${updated.version}`);

    const id = list.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 5);
    expect(labels(documents)).toEqual(
      [
        `shopping-list:${id}:Message:ShoppingListLineItemAdded:1`,
        `shopping-list:${id}:Message:ShoppingListLineItemRemoved:2`,
        `shopping-list:${id}:ResourceCreated:1`,
        `shopping-list:${id}:ResourceUpdated:2`,
        `shopping-list:${id}:ResourceDeleted:2`,
      ].sort(),
    );
    const messages = documents.map(payloadOf).filter((payload) => payload.notificationType === 'Message');
    messages.sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    expect(messages[0]).toMatchObject({ resourceVersion: 2, lineItem: { variantId: 2, quantity: 2, name: name('Chair') } });
    expect(messages[1]).toMatchObject({ resourceVersion: 2, lineItem: { id: list.lineItems[0].id, variantId: 1 } });
  });
});
