/**
 * Issue 28: the ProductSelection resource `/{projectKey}/product-selections` (reference:
 * resources/product-selections.raml, types/product-selection, types/message/ProductSelection*):
 * the versioned template's operations, draft validation, every update action with its messages and
 * errors, the assignment endpoints (a selection's products, a product's selections), deletion while
 * a Store uses it, and delivery of messages and change notifications to an SQS subscription.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';
import { createProduct, createProductType, enableMessages, productRef } from './support.js';

const SETUP_MS = 180_000;
const P = 'product-selections';
const where = (predicate: string): string => `where=${encodeURIComponent(predicate)}`;

describe('ProductSelection /{projectKey}/product-selections', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let shirt: Json;
  let cap: Json;
  let sock: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_product_selections',
      'manage_products',
      'manage_stores',
      'manage_types',
      'manage_subscriptions',
      'view_messages',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_product_selections']);
    await enableMessages(gateway, P);
    await createProductType(admin, P);
    shirt = await createProduct(admin, P, 'shirt');
    cap = await createProduct(admin, P, 'cap');
    sock = await createProduct(admin, P, 'sock');
  }, SETUP_MS);
  afterAll(() => setup?.close());

  const selectionUrl = (selection: Json): string => `/${P}/product-selections/${selection.id}`;

  it('creates a selection with the reference defaults and reads it by id, by key and by query', async () => {
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'summer', name: { en: 'Summer' } }, 201);
    expect(selection).toMatchObject({ version: 1, key: 'summer', name: { en: 'Summer' }, mode: 'Individual', productCount: 0 });
    // Assignments are served by `/products`, not as a field of the selection.
    expect(selection).not.toHaveProperty('assignments');
    expect(await viewer.read(selectionUrl(selection))).toEqual(selection);
    expect(await viewer.read(`/${P}/product-selections/key=summer`)).toEqual(selection);
    // The deprecated draft field `type` names the mode too.
    const excluding = await admin.ok(`/${P}/product-selections`, { key: 'winter', name: { en: 'Winter' }, type: 'individualExclusion' }, 201);
    expect(excluding.mode).toBe('IndividualExclusion');
    const page = await viewer.read(`/${P}/product-selections?${where('mode = "IndividualExclusion"')}`);
    expect(page.results.map((found: Json) => found.key)).toEqual(['winter']);
    const sorted = await viewer.read(`/${P}/product-selections?sort=${encodeURIComponent('name.en desc')}&${where('key in ("summer", "winter")')}`);
    expect(sorted.results.map((found: Json) => found.key)).toEqual(['winter', 'summer']);
  });

  it('refuses bad drafts with 400s in the error shape, and writes with a view scope', async () => {
    const cases: Array<[string, Json, string]> = [
      ['name missing', { key: 'no-name' }, 'RequiredField'],
      ['name not localized', { name: 'Plain' }, 'InvalidInput'],
      ['key too short', { key: 'x', name: { en: 'X' } }, 'InvalidInput'],
      ['key not a string', { key: 42, name: { en: 'X' } }, 'InvalidInput'],
      ['mode unknown', { name: { en: 'X' }, mode: 'Everything' }, 'InvalidInput'],
      ['mode not a string', { name: { en: 'X' }, mode: true }, 'InvalidInput'],
      ['type unknown', { name: { en: 'X' }, type: 'all' }, 'InvalidInput'],
      ['type contradicts mode', { name: { en: 'X' }, type: 'individual', mode: 'IndividualExclusion' }, 'InvalidInput'],
      // Custom fields answer as for every resource (shared/custom-fields.ts).
      ['custom type missing', { name: { en: 'X' }, custom: { type: { key: 'no-such-type' } } }, 'InvalidInput'],
      ['not an object', ['name'], 'InvalidInput'],
    ];
    for (const [what, draft, code] of cases) {
      const answer = await admin.post(`/${P}/product-selections`, draft);
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    await admin.ok(`/${P}/product-selections`, { key: 'dup', name: { en: 'Dup' } }, 201);
    const duplicate = await admin.post(`/${P}/product-selections`, { key: 'dup', name: { en: 'Dup again' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'key' });
    expect((await viewer.post(`/${P}/product-selections`, { name: { en: 'Viewer' } })).status).toBe(403);
  });

  it('changes name and key and sets custom fields, without messages', async () => {
    await admin.ok(
      `/${P}/types`,
      {
        key: 'selection-fields',
        name: { en: 'Selection fields' },
        resourceTypeIds: ['product-selection'],
        fieldDefinitions: [{ name: 'season', label: { en: 'Season' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'renamed', name: { en: 'Old' } }, 201);
    const updated = await admin.update(selectionUrl(selection), 1, [
      { action: 'changeName', name: { en: 'New', de: 'Neu' } },
      { action: 'setKey', key: 'renamed-2' },
      { action: 'setCustomType', type: { key: 'selection-fields' }, fields: { season: 'spring' } },
      { action: 'setCustomField', name: 'season', value: 'autumn' },
    ]);
    expect(updated).toMatchObject({ version: 2, key: 'renamed-2', name: { en: 'New', de: 'Neu' }, custom: { fields: { season: 'autumn' } } });
    const unkeyed = await admin.update(selectionUrl(selection), 2, [{ action: 'setKey' }, { action: 'setCustomType' }]);
    expect(unkeyed).not.toHaveProperty('key');
    expect(unkeyed).not.toHaveProperty('custom');
    const noName = await admin.post(selectionUrl(selection), { version: 3, actions: [{ action: 'changeName' }] });
    expect(noName.status).toBe(400);
    expect(noName.body.errors[0].code).toBe('RequiredField');
    const messages = await admin.read(`/${P}/messages?${where(`resource(id = "${selection.id}")`)}`);
    expect(messages.results.map((message: Json) => message.type)).toEqual(['ProductSelectionCreated']);
  });

  it('adds, re-selects and removes products of an Individual selection, with their messages and errors', async () => {
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'individual', name: { en: 'Individual' } }, 201);
    const url = selectionUrl(selection);
    const onlyTwo = { type: 'includeOnly', skus: ['shirt-1', 'shirt-2'] };
    const added = await admin.update(url, 1, [
      { action: 'addProduct', product: { key: 'shirt' }, variantSelection: onlyTwo },
      { action: 'addProduct', product: productRef(cap) },
    ]);
    expect(added).toMatchObject({ version: 2, productCount: 2 });
    // The same product with the same variants again: no effect, no new version.
    expect((await admin.update(url, 2, [{ action: 'addProduct', product: productRef(cap) }])).version).toBe(2);

    const different = await admin.post(url, { version: 2, actions: [{ action: 'addProduct', product: productRef(shirt) }] });
    expect(different.status).toBe(400);
    expect(different.body.errors[0]).toMatchObject({
      code: 'ProductPresentWithDifferentVariantSelection',
      product: productRef(shirt),
      existingVariantSelection: onlyTwo,
    });
    const missing = await admin.post(url, { version: 2, actions: [{ action: 'setVariantSelection', product: productRef(sock) }] });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ code: 'ProductAssignmentMissing', product: productRef(sock) });

    const refusals: Array<[string, Json, string]> = [
      ['unknown product', { action: 'addProduct', product: { typeId: 'product', id: 'no-such-product' } }, 'ReferencedResourceNotFound'],
      ['product without identifier', { action: 'addProduct', product: {} }, 'InvalidInput'],
      [
        'sku of another product',
        { action: 'addProduct', product: productRef(sock), variantSelection: { type: 'includeOnly', skus: ['cap-1'] } },
        'InvalidInput',
      ],
      ['empty skus', { action: 'addProduct', product: productRef(sock), variantSelection: { type: 'includeOnly', skus: [] } }, 'InvalidInput'],
      ['unknown selection type', { action: 'addProduct', product: productRef(sock), variantSelection: { type: 'some', skus: ['sock-1'] } }, 'InvalidInput'],
      ['exclusion action on an Individual selection', { action: 'excludeProduct', product: productRef(sock) }, 'InvalidOperation'],
      ['variant exclusion on an Individual selection', { action: 'setVariantExclusion', product: productRef(cap) }, 'InvalidOperation'],
    ];
    for (const [what, action, code] of refusals) {
      const answer = await admin.post(url, { version: 2, actions: [action] });
      expect(answer.status, what).toBe(400);
      expect(answer.body.errors[0].code, what).toBe(code);
    }

    const allButOne = { type: 'includeAllExcept', skus: ['shirt-3'] };
    const changed = await admin.update(url, 2, [
      { action: 'setVariantSelection', product: productRef(shirt), variantSelection: allButOne },
      { action: 'setVariantSelection', product: productRef(cap), variantSelection: { type: 'includeOnly', skus: ['cap-2'] } },
      { action: 'setVariantSelection', product: productRef(cap) },
      { action: 'removeProduct', product: { key: 'cap' } },
      // Not assigned (any more): no effect.
      { action: 'removeProduct', product: productRef(cap) },
    ]);
    expect(changed).toMatchObject({ version: 3, productCount: 1 });

    const messages = await admin.read(`/${P}/messages?${where(`resource(id = "${selection.id}")`)}&sort=sequenceNumber`);
    expect(messages.results.map((message: Json) => [message.type, message.resourceVersion])).toEqual([
      ['ProductSelectionCreated', 1],
      ['ProductSelectionProductAdded', 2],
      ['ProductSelectionProductAdded', 2],
      ['ProductSelectionVariantSelectionChanged', 3],
      ['ProductSelectionVariantSelectionChanged', 3],
      ['ProductSelectionVariantSelectionChanged', 3],
      ['ProductSelectionProductRemoved', 3],
    ]);
    const [created, addedShirt, , shirtChanged, , capUnset] = messages.results as Json[];
    expect(created?.productSelection).toMatchObject({ id: selection.id, key: 'individual', mode: 'Individual', productCount: 0 });
    expect(created?.productSelection).not.toHaveProperty('assignments');
    expect(addedShirt).toMatchObject({ product: productRef(shirt), variantSelection: onlyTwo });
    expect(shirtChanged).toMatchObject({ product: productRef(shirt), oldVariantSelection: onlyTwo, newVariantSelection: allButOne });
    expect(capUnset).toMatchObject({ oldVariantSelection: { type: 'includeOnly', skus: ['cap-2'] } });
    expect(capUnset).not.toHaveProperty('newVariantSelection');
  });

  it('excludes products from an IndividualExclusion selection and changes their variant exclusion', async () => {
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'excluding', name: { en: 'Excluding' }, mode: 'IndividualExclusion' }, 201);
    const url = selectionUrl(selection);
    const excluded = await admin.update(url, 1, [
      { action: 'excludeProduct', product: productRef(shirt) },
      { action: 'excludeProduct', product: productRef(cap), variantExclusion: { skus: ['cap-3'] } },
    ]);
    expect(excluded.productCount).toBe(2);
    const different = await admin.post(url, { version: 2, actions: [{ action: 'excludeProduct', product: productRef(cap) }] });
    expect(different.body.errors[0]).toMatchObject({ code: 'ProductPresentWithDifferentVariantSelection', existingVariantSelection: { skus: ['cap-3'] } });
    const missing = await admin.post(url, {
      version: 2,
      actions: [{ action: 'setVariantExclusion', product: productRef(sock), variantExclusion: { skus: ['sock-1'] } }],
    });
    expect(missing.body.errors[0]).toMatchObject({ code: 'ProductAssignmentMissing', product: productRef(sock) });
    expect(missing.body.errors[0].message).toContain('Individual Exclusion');
    const wrongMode = await admin.post(url, { version: 2, actions: [{ action: 'addProduct', product: productRef(sock) }] });
    expect(wrongMode.body.errors[0].code).toBe('InvalidOperation');

    await admin.update(url, 2, [
      { action: 'setVariantExclusion', product: productRef(shirt), variantExclusion: { skus: ['shirt-2'] } },
      { action: 'removeProduct', product: productRef(cap) },
    ]);
    const messages = await admin.read(`/${P}/messages?${where(`resource(id = "${selection.id}")`)}&sort=sequenceNumber`);
    expect(messages.results.map((message: Json) => message.type)).toEqual([
      'ProductSelectionCreated',
      'ProductSelectionProductExcluded',
      'ProductSelectionProductExcluded',
      'ProductSelectionVariantExclusionChanged',
      'ProductSelectionProductRemoved',
    ]);
    expect(messages.results[2]).toMatchObject({ product: productRef(cap), variantExclusion: { skus: ['cap-3'] } });
    expect(messages.results[3]).toMatchObject({ product: productRef(shirt), newVariantExclusion: { skus: ['shirt-2'] } });
    expect(messages.results[3]).not.toHaveProperty('oldVariantExclusion');
  });

  it("pages a selection's products and a product's selections, with where, sort, withTotal and expand", async () => {
    const first = await admin.ok(`/${P}/product-selections`, { key: 'paged-1', name: { en: 'Paged 1' } }, 201);
    const second = await admin.ok(`/${P}/product-selections`, { key: 'paged-2', name: { en: 'Paged 2' } }, 201);
    await admin.update(selectionUrl(first), 1, [
      { action: 'addProduct', product: productRef(sock) },
      { action: 'addProduct', product: productRef(shirt), variantSelection: { type: 'includeOnly', skus: ['shirt-2'] } },
      { action: 'addProduct', product: productRef(cap) },
    ]);
    await admin.update(selectionUrl(second), 1, [{ action: 'addProduct', product: productRef(sock) }]);

    const all = await viewer.read(`${selectionUrl(first)}/products`);
    // In the order they were added; AssignedProductReference has no createdAt; total only on request.
    expect(all).toMatchObject({ limit: 20, offset: 0, count: 3 });
    expect(all).not.toHaveProperty('total');
    expect(all.results).toEqual([
      { product: productRef(sock) },
      { product: productRef(shirt), variantSelection: { type: 'includeOnly', skus: ['shirt-2'] } },
      { product: productRef(cap) },
    ]);
    const paged = await viewer.read(`/${P}/product-selections/key=paged-1/products?limit=1&offset=1&withTotal=true`);
    expect(paged).toMatchObject({ limit: 1, offset: 1, count: 1, total: 3, results: [{ product: productRef(shirt) }] });
    const filtered = await viewer.read(`${selectionUrl(first)}/products?${where(`product(id = "${cap.id}")`)}`);
    expect(filtered.results).toEqual([{ product: productRef(cap) }]);
    const withSelection = await viewer.read(`${selectionUrl(first)}/products?${where('variantSelection is defined')}`);
    expect(withSelection.results.map((found: Json) => found.product.id)).toEqual([shirt.id]);
    const sorted = await viewer.read(`${selectionUrl(first)}/products?sort=${encodeURIComponent('product.id desc')}`);
    expect(sorted.results.map((found: Json) => found.product.id)).toEqual([sock.id, shirt.id, cap.id].sort().reverse());

    // `expand` shows the Product only to a token that may view products.
    const productViewer = await callerWith(gateway, P, ['view_product_selections', 'view_products']);
    const expanded = await productViewer.read(`${selectionUrl(first)}/products?expand=product&limit=1`);
    expect(expanded.results[0].product.obj).toMatchObject({ id: sock.id, key: 'sock' });
    const unexpanded = await viewer.read(`${selectionUrl(first)}/products?expand=product&limit=1`);
    expect(unexpanded.results[0].product).not.toHaveProperty('obj');

    const ofSock = await viewer.read(`/${P}/products/${sock.id}/product-selections?withTotal=true&expand=productSelection`);
    expect(ofSock).toMatchObject({ total: 2, count: 2 });
    const bySelection = new Map((ofSock.results as Json[]).map((found) => [found.productSelection.id, found]));
    expect(bySelection.get(first.id)).toMatchObject({ productSelection: { typeId: 'product-selection', id: first.id, obj: { key: 'paged-1' } } });
    expect(typeof bySelection.get(second.id)?.createdAt).toBe('string');
    expect(bySelection.get(first.id)?.productSelection.obj).not.toHaveProperty('assignments');
    const ofShirtByKey = await viewer.read(`/${P}/products/key=shirt/product-selections?${where('productSelection(id = "' + first.id + '")')}`);
    expect(ofShirtByKey.results).toEqual([
      {
        productSelection: { typeId: 'product-selection', id: first.id },
        variantSelection: { type: 'includeOnly', skus: ['shirt-2'] },
        createdAt: expect.any(String),
      },
    ]);

    expect((await viewer.get(`/${P}/product-selections/no-such-id/products`)).status).toBe(404);
    expect((await viewer.get(`/${P}/products/key=no-such-product/product-selections`)).status).toBe(404);
    const badWhere = await viewer.get(`${selectionUrl(first)}/products?${where('product(id = ')}`);
    expect(badWhere.status).toBe(400);
    expect(badWhere.body.errors[0].code).toBe('InvalidInput');
    const noScope = await callerWith(gateway, P, ['view_products']);
    expect((await noScope.get(`${selectionUrl(first)}/products`)).status).toBe(403);
  });

  it('does not list a deleted product, and removes its assignment by id', async () => {
    const doomed = await createProduct(admin, P, 'doomed');
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'with-doomed', name: { en: 'With doomed' } }, 201);
    await admin.update(selectionUrl(selection), 1, [
      { action: 'addProduct', product: productRef(doomed) },
      { action: 'addProduct', product: productRef(cap) },
    ]);
    const unpublished = await admin.update(`/${P}/products/${doomed.id}`, doomed.version, [{ action: 'unpublish' }]);
    expect((await admin.delete(`/${P}/products/${doomed.id}?version=${unpublished.version}`)).status).toBe(200);
    const listed = await viewer.read(`${selectionUrl(selection)}/products?withTotal=true`);
    expect(listed).toMatchObject({ total: 1, results: [{ product: productRef(cap) }] });
    const removed = await admin.update(selectionUrl(selection), 2, [{ action: 'removeProduct', product: productRef(doomed) }]);
    expect(removed).toMatchObject({ version: 3, productCount: 1 });
    // Neither deleted nor assigned: the product is not found.
    const again = await admin.post(selectionUrl(selection), { version: 3, actions: [{ action: 'removeProduct', product: productRef(doomed) }] });
    expect(again.body.errors[0].code).toBe('ReferencedResourceNotFound');
  });

  it('refuses to delete a selection a Store uses (400 ReferenceExists), deletes it once removed there', async () => {
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'in-use', name: { en: 'In use' } }, 201);
    const store = await admin.ok(`/${P}/stores`, { key: 'using-store', productSelections: [{ productSelection: { key: 'in-use' }, active: true }] }, 201);
    const refused = await admin.delete(`${selectionUrl(selection)}?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'store' });
    await admin.update(`/${P}/stores/${store.id}`, store.version, [{ action: 'removeProductSelection', productSelection: { key: 'in-use' } }]);
    const deleted = await admin.delete(`/${P}/product-selections/key=in-use?version=1`);
    expect(deleted.status).toBe(200);
    expect((await viewer.get(selectionUrl(selection))).status).toBe(404);
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'product-selection');
    const selection = await admin.ok(`/${P}/product-selections`, { key: 'delivered', name: { en: 'Delivered' } }, 201);
    const id = selection.id as string;
    await admin.update(selectionUrl(selection), 1, [
      { action: 'addProduct', product: productRef(shirt) },
      { action: 'setVariantSelection', product: productRef(shirt), variantSelection: { type: 'includeOnly', skus: ['shirt-1'] } },
      { action: 'removeProduct', product: productRef(shirt) },
    ]);
    await admin.delete(`${selectionUrl(selection)}?version=2`);

    const documents = await deliveriesAbout(sqs, queue, id, 8);
    expect(labels(documents)).toEqual(
      [
        `product-selection:${id}:Message:ProductSelectionCreated:1`,
        `product-selection:${id}:Message:ProductSelectionProductAdded:2`,
        `product-selection:${id}:Message:ProductSelectionVariantSelectionChanged:3`,
        `product-selection:${id}:Message:ProductSelectionProductRemoved:4`,
        `product-selection:${id}:Message:ProductSelectionDeleted:5`,
        `product-selection:${id}:ResourceCreated:1`,
        `product-selection:${id}:ResourceUpdated:2`,
        `product-selection:${id}:ResourceDeleted:2`,
      ].sort(),
    );
    const messages = documents.map(payloadOf).filter((payload) => payload.notificationType === 'Message');
    expect(messages.map((payload) => payload.sequenceNumber)).toEqual([1, 2, 3, 4, 5]);
    // deliveriesAbout drops what is about other resources: the exclusion flow comes after.
    const excluding = await admin.ok(`/${P}/product-selections`, { key: 'delivered-x', name: { en: 'X' }, mode: 'IndividualExclusion' }, 201);
    await admin.update(selectionUrl(excluding), 1, [
      { action: 'excludeProduct', product: productRef(cap) },
      { action: 'setVariantExclusion', product: productRef(cap), variantExclusion: { skus: ['cap-1'] } },
    ]);
    const x = excluding.id as string;
    expect(labels(await deliveriesAbout(sqs, queue, x, 5))).toEqual(
      [
        `product-selection:${x}:Message:ProductSelectionCreated:1`,
        `product-selection:${x}:Message:ProductSelectionProductExcluded:2`,
        `product-selection:${x}:Message:ProductSelectionVariantExclusionChanged:3`,
        `product-selection:${x}:ResourceCreated:1`,
        `product-selection:${x}:ResourceUpdated:2`,
      ].sort(),
    );
  });
});
