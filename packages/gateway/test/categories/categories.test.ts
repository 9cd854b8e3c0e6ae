/**
 * Issue 28: the Category resource `/{projectKey}/categories` (reference: resources/categories.raml,
 * types/category): the versioned template's operations by id and key with the reference's scopes,
 * the draft's validation, every update action, `expand` of parent and ancestors, predicates and
 * sort, and the messages (CategoryCreated, CategorySlugChanged) and change notifications delivered
 * to an SQS subscription in sequence. The tree itself (moves, cycles, deletes) is in tree.test.ts.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';
import { category, ORDER_HINT } from './support.js';

const SETUP_MS = 180_000;
const P = 'categories';
const OTHER = 'categories-other';
const url = (path = '') => `/${P}/categories${path}`;
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;

describe('Category /{projectKey}/categories', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_categories', 'manage_subscriptions', 'manage_types'], { projects: [P, OTHER] });
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_categories']);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'category-extras',
        name: { en: 'Category extras' },
        resourceTypeIds: ['category'],
        fieldDefinitions: [{ name: 'banner', label: { en: 'Banner' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
    await admin.ok(
      `/${P}/types`,
      {
        key: 'asset-extras',
        name: { en: 'Asset extras' },
        resourceTypeIds: ['asset'],
        fieldDefinitions: [{ name: 'credit', label: { en: 'Credit' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates with the reference defaults and reads by id, by key and by query', async () => {
    const created = await admin.ok(url(), { key: 'hats', name: { en: 'Hats', de: 'Hüte' }, slug: { en: 'hats', de: 'huete' } }, 201);
    // A random orderHint when none is sent (CategoryDraft.orderHint); a root has no ancestors.
    expect(created).toMatchObject({ version: 1, key: 'hats', name: { en: 'Hats' }, ancestors: [], assets: [] });
    expect(created.orderHint).toMatch(ORDER_HINT);
    expect(created.parent).toBeUndefined();
    expect(await viewer.read(url(`/${created.id}`))).toEqual(created);
    expect(await viewer.read(url('/key=hats'))).toEqual(created);
    const page = await viewer.read(`${url()}?${where('slug(de = "huete")')}`);
    expect(page.results).toEqual([created]);
  });

  it('accepts the products scopes as the reference does, and refuses writes with a view scope', async () => {
    const products = await callerWith(gateway, P, ['manage_products']);
    const made = await products.ok(url(), category('by-products'), 201);
    const productViewer = await callerWith(gateway, P, ['view_products']);
    expect((await productViewer.read(url(`/${made.id}`))).id).toBe(made.id);
    expect((await viewer.post(url(), category('by-viewer'))).status).toBe(403);
    expect((await productViewer.post(url(), category('by-viewer'))).status).toBe(403);
  });

  it('refuses bad drafts with 400 and the official error code', async () => {
    await admin.ok(url(), category('taken', { slug: { en: 'taken-slug', de: 'vergeben' } }), 201);
    const missingTypeId = { typeId: 'category', id: '00000000-0000-4000-8000-000000000000' };
    const cases: Array<[string, Json, string]> = [
      ['no name', { slug: { en: 'no-name' } }, 'RequiredField'],
      ['no slug', { name: { en: 'No slug' } }, 'RequiredField'],
      ['name not a LocalizedString', category('bad-name', { name: 'Plain' }), 'InvalidInput'],
      ['empty name', category('empty-name', { name: {} }), 'InvalidInput'],
      ['slug not a LocalizedString', category('bad-slug', { slug: 'plain' }), 'InvalidInput'],
      ['empty slug', category('empty-slug', { slug: {} }), 'InvalidInput'],
      ['slug off its pattern', category('pattern', { slug: { en: 'has space' } }), 'InvalidInput'],
      ['slug too short', category('short', { slug: { en: 'x' } }), 'InvalidInput'],
      ['slug under a bad locale', category('locale', { slug: { 'not a locale': 'fine-slug' } }), 'InvalidInput'],
      ['orderHint 1', category('hint-one', { orderHint: '1' }), 'InvalidInput'],
      ['orderHint ending in 0', category('hint-zero', { orderHint: '0.10' }), 'InvalidInput'],
      ['orderHint a number', category('hint-number', { orderHint: 0.5 }), 'InvalidInput'],
      ['key off its pattern', category('key', { key: 'a b' }), 'InvalidInput'],
      ['key too short', category('key-short', { key: 'k' }), 'InvalidInput'],
      ['externalId a number', category('external', { externalId: 7 }), 'InvalidInput'],
      ['description a string', category('description', { description: 'text' }), 'InvalidInput'],
      ['metaTitle a string', category('meta-title', { metaTitle: 'text' }), 'InvalidInput'],
      ['metaDescription an array', category('meta-description', { metaDescription: ['text'] }), 'InvalidInput'],
      ['metaKeywords a number', category('meta-keywords', { metaKeywords: 3 }), 'InvalidInput'],
      ['parent not an identifier', category('parent-string', { parent: 'hats' }), 'InvalidInput'],
      ['parent of another type', category('parent-type', { parent: { typeId: 'store', key: 'hats' } }), 'InvalidInput'],
      ['parent missing', category('parent-missing', { parent: missingTypeId }), 'ReferencedResourceNotFound'],
      ['parent key missing', category('parent-key', { parent: { typeId: 'category', key: 'nope' } }), 'ReferencedResourceNotFound'],
      ['assets not an array', category('assets', { assets: {} }), 'InvalidInput'],
      ['asset without sources', category('asset-sources', { assets: [{ name: { en: 'A' }, sources: [] }] }), 'InvalidInput'],
      ['asset without name', category('asset-name', { assets: [{ sources: [{ uri: 'https://x.example/a.png' }] }] }), 'RequiredField'],
      ['asset source without uri', category('asset-uri', { assets: [{ name: { en: 'A' }, sources: [{ key: 'no-uri' }] }] }), 'InvalidInput'],
      [
        'asset dimensions not numbers',
        category('asset-dims', { assets: [asset('d', { sources: [{ uri: 'u', dimensions: { w: 'x', h: 1 } }] })] }),
        'InvalidInput',
      ],
      ['asset keys twice', category('asset-keys', { assets: [asset('same'), asset('same')] }), 'DuplicateField'],
      [
        'asset source keys twice',
        category('source-keys', {
          assets: [
            asset('s', {
              sources: [
                { uri: 'a', key: 'k1' },
                { uri: 'b', key: 'k1' },
              ],
            }),
          ],
        }),
        'DuplicateField',
      ],
      ['custom type missing', category('custom', { custom: { type: { key: 'no-such-type' } } }), 'InvalidInput'],
      ['custom type for other resources', category('custom-asset', { custom: { type: { key: 'asset-extras' } } }), 'InvalidInput'],
      ['custom field unknown', category('custom-field', { custom: { type: { key: 'category-extras' }, fields: { nope: 1 } } }), 'InvalidInput'],
      ['slug taken in one locale', category('slug-taken', { slug: { fr: 'libre', de: 'vergeben' } }), 'DuplicateField'],
      ['key taken', category('other-slug', { key: 'taken' }), 'DuplicateField'],
    ];
    for (const [name, draft, code] of cases) {
      const answer = await admin.post(url(), draft);
      expect(answer.status, name).toBe(400);
      expect(answer.body, name).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    const duplicateSlug = await admin.post(url(), category('dup', { slug: { de: 'vergeben' } }));
    expect(duplicateSlug.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'slug.de', duplicateValue: 'vergeben' });
    // The same slug in another locale is fine ("the same slug for different Locales").
    await admin.ok(url(), category('other-locale', { slug: { fr: 'vergeben' } }), 201);
  });

  it('applies every official update action', async () => {
    const parent = await admin.ok(url(), category('actions-parent'), 201);
    const made = await admin.ok(url(), category('actions', { assets: [asset('first'), asset('second')] }), 201);
    const [first, second] = made.assets as Json[];
    const updated = await admin.update(url(`/${made.id}`), 1, [
      { action: 'changeName', name: { en: 'Renamed' } },
      { action: 'changeSlug', slug: { en: 'renamed-slug' } },
      { action: 'setDescription', description: { en: 'About' } },
      { action: 'changeParent', parent: { typeId: 'category', key: 'actions-parent' } },
      { action: 'changeOrderHint', orderHint: '0.25' },
      { action: 'setExternalId', externalId: 'erp-7' },
      { action: 'setMetaTitle', metaTitle: { en: 'Title' } },
      { action: 'setMetaDescription', metaDescription: { en: 'Meta' } },
      { action: 'setMetaKeywords', metaKeywords: { en: 'a, b' } },
      { action: 'setKey', key: 'actions-renamed' },
      { action: 'setCustomType', type: { key: 'category-extras' }, fields: { banner: 'red' } },
      { action: 'setCustomField', name: 'banner', value: 'blue' },
      { action: 'addAsset', asset: asset('third'), position: 0 },
      { action: 'changeAssetName', assetId: first?.id, name: { en: 'First, renamed' } },
      { action: 'setAssetDescription', assetKey: 'second', description: { en: 'Second asset' } },
      { action: 'setAssetTags', assetKey: 'second', tags: ['x', 'y'] },
      {
        action: 'setAssetSources',
        assetId: second?.id,
        sources: [{ uri: 'https://cdn.example/2.jpg', key: 'large', dimensions: { w: 800, h: 600 }, contentType: 'image/jpeg' }],
      },
      { action: 'setAssetKey', assetId: second?.id, assetKey: 'second-renamed' },
      { action: 'setAssetCustomType', assetKey: 'first', type: { key: 'asset-extras' }, fields: { credit: 'Ada' } },
      { action: 'setAssetCustomField', assetKey: 'first', name: 'credit', value: 'Grace' },
      { action: 'removeAsset', assetKey: 'third' },
      { action: 'changeAssetOrder', assetOrder: [second?.id, first?.id] },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'actions-renamed',
      name: { en: 'Renamed' },
      slug: { en: 'renamed-slug' },
      description: { en: 'About' },
      parent: { typeId: 'category', id: parent.id },
      ancestors: [{ typeId: 'category', id: parent.id }],
      orderHint: '0.25',
      externalId: 'erp-7',
      metaTitle: { en: 'Title' },
      metaDescription: { en: 'Meta' },
      metaKeywords: { en: 'a, b' },
      custom: { fields: { banner: 'blue' } },
    });
    expect(updated.assets).toMatchObject([
      {
        id: second?.id,
        key: 'second-renamed',
        description: { en: 'Second asset' },
        tags: ['x', 'y'],
        sources: [{ uri: 'https://cdn.example/2.jpg', key: 'large', dimensions: { w: 800, h: 600 } }],
      },
      { id: first?.id, key: 'first', name: { en: 'First, renamed' }, custom: { fields: { credit: 'Grace' } } },
    ]);

    const removed = await admin.update(url(`/${made.id}`), 2, [
      { action: 'setDescription' },
      { action: 'setExternalId' },
      { action: 'setMetaTitle' },
      { action: 'setMetaDescription' },
      { action: 'setMetaKeywords' },
      { action: 'setKey' },
      { action: 'setCustomType' },
      { action: 'setAssetKey', assetId: second?.id },
      { action: 'setAssetTags', assetId: second?.id },
      { action: 'setAssetDescription', assetId: second?.id },
      { action: 'setAssetCustomType', assetId: first?.id },
    ]);
    for (const field of ['description', 'externalId', 'metaTitle', 'metaDescription', 'metaKeywords', 'key', 'custom']) {
      expect(removed[field], field).toBeUndefined();
    }
    expect(removed.assets[0]).not.toHaveProperty('key');
    expect(removed.assets[0]).not.toHaveProperty('tags');
    expect(removed.assets[0]).not.toHaveProperty('description');
    expect(removed.assets[1]).not.toHaveProperty('custom');

    // The same values again change nothing: no new version.
    const same = await admin.update(url(`/${made.id}`), 3, [
      { action: 'changeSlug', slug: { en: 'renamed-slug' } },
      { action: 'changeOrderHint', orderHint: '0.25' },
    ]);
    expect(same.version).toBe(3);
  });

  it('refuses bad update actions with 400 and the official error code', async () => {
    const made = await admin.ok(url(), category('bad-actions', { assets: [asset('only')] }), 201);
    await admin.ok(url(), category('bad-actions-other', { slug: { en: 'occupied' } }), 201);
    const cases: Array<[Json, string]> = [
      [{ action: 'changeName', name: {} }, 'InvalidInput'],
      [{ action: 'changeName' }, 'RequiredField'],
      [{ action: 'changeSlug', slug: { en: 'no spaces allowed' } }, 'InvalidInput'],
      [{ action: 'changeSlug', slug: { en: 'occupied' } }, 'DuplicateField'],
      [{ action: 'changeParent' }, 'InvalidInput'],
      [{ action: 'changeParent', parent: { typeId: 'category', key: 'nowhere' } }, 'ReferencedResourceNotFound'],
      [{ action: 'changeParent', parent: { typeId: 'category', id: made.id } }, 'InvalidInput'],
      [{ action: 'changeOrderHint', orderHint: '2' }, 'InvalidInput'],
      [{ action: 'changeOrderHint' }, 'InvalidInput'],
      [{ action: 'setKey', key: 'bad key' }, 'InvalidInput'],
      [{ action: 'setKey', key: 'bad-actions-other' }, 'DuplicateField'],
      [{ action: 'setExternalId', externalId: false }, 'InvalidInput'],
      [{ action: 'setCustomField', name: 'banner', value: 'x' }, 'InvalidInput'],
      [{ action: 'addAsset', asset: asset('only') }, 'DuplicateField'],
      [{ action: 'addAsset', asset: asset('late'), position: 5 }, 'InvalidInput'],
      [{ action: 'removeAsset' }, 'InvalidInput'],
      [{ action: 'removeAsset', assetKey: 'nope' }, 'InvalidInput'],
      [{ action: 'changeAssetOrder', assetOrder: [] }, 'InvalidInput'],
      [{ action: 'setAssetSources', assetKey: 'only', sources: [] }, 'InvalidInput'],
      [{ action: 'setAssetKey', assetKey: 'new-key' }, 'InvalidInput'],
      [{ action: 'changeAssetName', assetKey: 'only', name: {} }, 'InvalidInput'],
      [{ action: 'setAssetCustomType', assetKey: 'only', type: { key: 'category-extras' } }, 'InvalidInput'],
      [{ action: 'noSuchAction' }, 'InvalidInput'],
    ];
    for (const [action, code] of cases) {
      const answer = await admin.post(url(`/${made.id}`), { version: 1, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    const stale = await admin.post(url(`/${made.id}`), { version: 7, actions: [{ action: 'changeName', name: { en: 'x' } }] });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 1 });
    expect((await viewer.read(url(`/${made.id}`))).version).toBe(1);
  });

  it("keeps projects apart: another project's category is no parent, and its slugs and keys are free", async () => {
    const mine = await admin.ok(url(), category('project-local'), 201);
    const other = await callerWith(gateway, OTHER, ['manage_categories']);
    const byId = await other.post(`/${OTHER}/categories`, category('foreign-child', { parent: { typeId: 'category', id: mine.id } }));
    expect(byId.status).toBe(400);
    expect(byId.body.errors[0]).toMatchObject({ code: 'ReferencedResourceNotFound', typeId: 'category', id: mine.id });
    const twin = await other.ok(`/${OTHER}/categories`, category('project-local'), 201);
    const moved = await other.post(`/${OTHER}/categories/${twin.id as string}`, {
      version: 1,
      actions: [{ action: 'changeParent', parent: { typeId: 'category', id: mine.id } }],
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors[0].code).toBe('ReferencedResourceNotFound');
    expect((await other.get(`/${OTHER}/categories/${mine.id as string}`)).status).toBe(404);
  });

  it('queries and sorts on its fields and expands parent and ancestors', async () => {
    const top = await admin.ok(url(), category('q-top', { name: { en: 'Zebra' }, orderHint: '0.9' }), 201);
    const middle = await admin.ok(url(), category('q-middle', { name: { en: 'Apple' }, orderHint: '0.2', parent: { typeId: 'category', id: top.id } }), 201);
    const leaf = await admin.ok(
      url(),
      category('q-leaf', { name: { en: 'Mango' }, orderHint: '0.5', externalId: 'ext-leaf', parent: { key: 'q-middle' } }),
      201,
    );
    expect(leaf.ancestors).toEqual([
      { typeId: 'category', id: top.id },
      { typeId: 'category', id: middle.id },
    ]);

    const below = await viewer.read(`${url()}?${where(`ancestors(id = "${top.id as string}")`)}&sort=${encodeURIComponent('name.en asc')}`);
    expect(below.results.map((found: Json) => found.key)).toEqual(['q-middle', 'q-leaf']);
    const byHint = await viewer.read(`${url()}?${where('key in ("q-top", "q-middle", "q-leaf")')}&sort=${encodeURIComponent('orderHint desc')}`);
    expect(byHint.results.map((found: Json) => found.key)).toEqual(['q-top', 'q-leaf', 'q-middle']);
    const children = await viewer.read(`${url()}?${where(`parent(id = "${middle.id as string}")`)}`);
    expect(children.results.map((found: Json) => found.key)).toEqual(['q-leaf']);
    const external = await viewer.read(`${url()}?${where('externalId = "ext-leaf" and name(en = "Mango")')}`);
    expect(external.results.map((found: Json) => found.key)).toEqual(['q-leaf']);

    const expanded = await viewer.read(url(`/${leaf.id}?expand=parent&expand=${encodeURIComponent('ancestors[*]')}`));
    expect(expanded.parent.obj).toMatchObject({ id: middle.id, key: 'q-middle' });
    expect(expanded.ancestors.map((ancestor: Json) => ancestor.obj?.key)).toEqual(['q-top', 'q-middle']);
    // Expansion needs the categories view scope; without it the references stay as they are.
    const other = await callerWith(gateway, P, ['view_products']);
    expect((await other.read(url(`/${leaf.id}?expand=parent`))).parent.obj).toBeUndefined();
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'category');

    const made = await admin.ok(url(), category('delivered', { slug: { en: 'delivered-1' } }), 201);
    await admin.update(url(`/${made.id}`), 1, [
      { action: 'changeSlug', slug: { en: 'delivered-2' } },
      { action: 'changeName', name: { en: 'Delivered' } },
      { action: 'changeSlug', slug: { en: 'delivered-3' } },
    ]);
    await admin.update(url('/key=delivered'), 2, [{ action: 'setDescription', description: { en: 'no message' } }]);
    expect((await admin.delete(url(`/${made.id}?version=3`))).status).toBe(200);

    // 3 messages (the reference has no CategoryDeleted) and 4 change notifications.
    const documents = await deliveriesAbout(sqs, queue, made.id as string, 7);
    const id = made.id as string;
    expect(labels(documents)).toEqual(
      [
        `category:${id}:Message:CategoryCreated:1`,
        `category:${id}:Message:CategorySlugChanged:2`,
        `category:${id}:Message:CategorySlugChanged:3`,
        `category:${id}:ResourceCreated:1`,
        `category:${id}:ResourceUpdated:2`,
        `category:${id}:ResourceUpdated:3`,
        `category:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const messages = documents.map(payloadOf).filter((payload) => payload.notificationType === 'Message');
    messages.sort((a, b) => (a.sequenceNumber as number) - (b.sequenceNumber as number));
    expect(messages[0]).toMatchObject({
      type: 'CategoryCreated',
      category: { id, slug: { en: 'delivered-1' } },
      resourceUserProvidedIdentifiers: { key: 'delivered' },
    });
    expect(messages[1]).toMatchObject({ type: 'CategorySlugChanged', slug: { en: 'delivered-2' }, oldSlug: { en: 'delivered-1' }, resourceVersion: 2 });
    expect(messages[2]).toMatchObject({ type: 'CategorySlugChanged', slug: { en: 'delivered-3' }, oldSlug: { en: 'delivered-2' }, resourceVersion: 2 });
  });
});

function asset(key: string, extra: Json = {}): Json {
  return { key, name: { en: `Asset ${key}` }, sources: [{ uri: `https://cdn.example/${key}.png`, key: 'original' }], ...extra };
}
