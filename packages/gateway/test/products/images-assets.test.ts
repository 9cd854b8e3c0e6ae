/**
 * Issue 28: the images and assets of product variants (reference: types/product/updates/
 * ProductAddExternalImageAction … ProductSetAssetCustomFieldAction, types/common/Image.raml and
 * AssetDraft.raml): validated in ProductVariantDraft and addVariant, every image and asset update
 * action on a variant by id or SKU in the staged data or both, the ProductImageAdded message, and
 * what reaches an SQS subscription (fauxqs) in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'product-media';
const typeRef = { typeId: 'product-type', key: 'posters' };

/** A ProductDraft of the attribute-free `posters` type, keyed and slugged `key`, SKU `<key>-1`. */
function product(key: string, masterVariant: Json = {}, extra: Json = {}): Json {
  return { key, productType: typeRef, name: { en: `Poster ${key}` }, slug: { en: key }, masterVariant: { sku: `${key}-1`, ...masterVariant }, ...extra };
}

/** An Image as the reference has it: url, pixel dimensions, optional label. */
function image(name: string, label?: string): Json {
  return { url: `https://cdn.example/${name}.png`, dimensions: { w: 640, h: 480 }, ...(label === undefined ? {} : { label }) };
}

/** An AssetDraft keyed `key` with one source. */
function asset(key: string, extra: Json = {}): Json {
  return { key, name: { en: `Asset ${key}` }, sources: [{ uri: `https://cdn.example/${key}.pdf`, contentType: 'application/pdf' }], ...extra };
}

const urls = (variant: Json): string[] => (variant.images as Json[]).map((found) => found.url as string);
const assetKeys = (variant: Json): Array<string | undefined> => (variant.assets as Json[]).map((found) => found.key as string | undefined);

describe('Product variant images and assets', { timeout: 120_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let admin: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_products', 'manage_subscriptions', 'manage_product_types', 'manage_types']);
    ({ sqs, admin } = setup);
    await admin.ok(`/${P}/product-types`, { key: 'posters', name: 'Posters', description: 'Posters', attributes: [] }, 201);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'asset-credits',
        name: { en: 'Asset credits' },
        resourceTypeIds: ['asset'],
        fieldDefinitions: [{ name: 'credit', label: { en: 'Credit' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
      },
      201,
    );
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('keeps the images and assets of variant drafts, and refuses bad ones with 400 and the official error code', async () => {
    const created = await admin.ok(
      `/${P}/products`,
      product(
        'gallery',
        { images: [image('front', 'Front'), image('back')], assets: [asset('manual', { tags: ['docs'] })] },
        { variants: [{ sku: 'gallery-2', assets: [asset('manual')] }] },
      ),
      201,
    );
    const master = created.masterData.staged.masterVariant;
    expect(master.images).toEqual([image('front', 'Front'), image('back')]);
    expect(master.assets).toEqual([{ id: expect.any(String), ...asset('manual', { tags: ['docs'] }) }]);
    // Asset keys are unique per variant, not per product.
    expect(assetKeys(created.masterData.staged.variants[0])).toEqual(['manual']);
    expect(created.masterData.current).toEqual(created.masterData.staged);
    const where = encodeURIComponent(`masterData(staged(masterVariant(images(url = "${image('back').url}"))))`);
    expect((await admin.read(`/${P}/products?where=${where}`)).results.map((found: Json) => found.key)).toEqual(['gallery']);

    const cases: Array<[string, Json, string]> = [
      ['image without url', { images: [{ dimensions: { w: 1, h: 1 } }] }, 'InvalidInput'],
      ['image url not a string', { images: [{ url: 7, dimensions: { w: 1, h: 1 } }] }, 'InvalidInput'],
      ['image without dimensions', { images: [{ url: 'https://cdn.example/x.png' }] }, 'InvalidInput'],
      ['image dimensions not pixels', { images: [{ url: 'https://cdn.example/x.png', dimensions: { w: '1', h: 1 } }] }, 'InvalidInput'],
      ['image label not a string', { images: [{ ...image('x'), label: 5 }] }, 'InvalidInput'],
      ['images not an array', { images: image('x') }, 'InvalidInput'],
      ['the same image url twice', { images: [image('twice'), image('twice', 'again')] }, 'DuplicateField'],
      ['asset without sources', { assets: [{ name: { en: 'x' } }] }, 'InvalidInput'],
      ['asset with no source', { assets: [asset('a1', { sources: [] })] }, 'InvalidInput'],
      ['asset source without uri', { assets: [asset('a2', { sources: [{ key: 'large' }] })] }, 'InvalidInput'],
      ['asset source dimensions not pixels', { assets: [asset('a3', { sources: [{ uri: 'https://x/y', dimensions: { w: -1, h: 1 } }] })] }, 'InvalidInput'],
      ['asset source key malformed', { assets: [asset('a4', { sources: [{ uri: 'https://x/y', key: 'a b' }] })] }, 'InvalidInput'],
      [
        'asset source key twice',
        {
          assets: [
            asset('a5', {
              sources: [
                { uri: 'https://x/1', key: 'large' },
                { uri: 'https://x/2', key: 'large' },
              ],
            }),
          ],
        },
        'DuplicateField',
      ],
      ['asset without name', { assets: [{ sources: [{ uri: 'https://x/y' }] }] }, 'RequiredField'],
      ['asset name without a locale', { assets: [asset('a6', { name: {} })] }, 'InvalidInput'],
      ['asset name not localized', { assets: [asset('a7', { name: 'Manual' })] }, 'InvalidInput'],
      ['asset description not localized', { assets: [asset('a8', { description: 'About' })] }, 'InvalidInput'],
      ['asset tags not strings', { assets: [asset('a9', { tags: [1] })] }, 'InvalidInput'],
      ['asset key malformed', { assets: [asset('b1', { key: 'x' })] }, 'InvalidInput'],
      ['asset key twice in a variant', { assets: [asset('b2'), asset('b2')] }, 'DuplicateField'],
      // Herald's custom-field helper answers an unknown Type with InvalidInput, for every resource alike.
      ['asset custom type unknown', { assets: [asset('b3', { custom: { type: { key: 'nope' } } })] }, 'InvalidInput'],
      ['asset custom field undefined', { assets: [asset('b4', { custom: { type: { key: 'asset-credits' }, fields: { nope: 1 } } })] }, 'InvalidInput'],
    ];
    for (const [index, [what, variant, code]] of cases.entries()) {
      const answer = await admin.post(`/${P}/products`, product(`bad-${index}`, variant));
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    // addVariant reads the same ProductVariantDraft.
    const answer = await admin.post(`/${P}/products/${created.id}`, {
      version: created.version,
      actions: [{ action: 'addVariant', sku: 'gallery-3', images: [image('same'), image('same')] }],
    });
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'DuplicateField', field: 'variant.images.url' }] });
  });

  it('adds, moves, labels and removes images on the variant of variantId or sku, staged by default or in both data versions', async () => {
    const created = await admin.ok(`/${P}/products`, product('prints', { images: [image('one')] }, { variants: [{ sku: 'prints-2' }] }), 201);
    const url = `/${P}/products/${created.id}`;
    const staged = await admin.update(url, 1, [
      { action: 'addExternalImage', variantId: 1, image: image('two') },
      { action: 'addExternalImage', sku: 'prints-1', image: image('three', 'Three') },
      { action: 'moveImageToPosition', variantId: 1, imageUrl: image('three').url, position: 0 },
      { action: 'setImageLabel', sku: 'prints-1', imageUrl: image('one').url, label: 'One' },
      { action: 'setImageLabel', variantId: 1, imageUrl: image('three').url },
      { action: 'removeImage', variantId: 1, imageUrl: image('two').url },
    ]);
    expect(staged.masterData.staged.masterVariant.images).toEqual([image('three'), image('one', 'One')]);
    expect(staged.masterData.current.masterVariant.images).toEqual([image('one')]);
    expect(staged.masterData.hasStagedChanges).toBe(true);

    const both = await admin.update(url, 2, [
      { action: 'addExternalImage', variantId: 2, image: image('side'), staged: false },
      { action: 'addExternalImage', variantId: 2, image: image('top'), staged: false },
      { action: 'moveImageToPosition', sku: 'prints-2', imageUrl: image('top').url, position: 0, staged: false },
      { action: 'setImageLabel', variantId: 2, imageUrl: image('side').url, label: 'Side', staged: false },
    ]);
    const [current, stagedData] = [both.masterData.current, both.masterData.staged];
    expect(current.variants[0].images).toEqual([image('top'), image('side', 'Side')]);
    expect(stagedData.variants[0].images).toEqual(current.variants[0].images);
    await admin.update(url, 3, [{ action: 'removeImage', sku: 'prints-2', imageUrl: image('top').url, staged: false }]);
    const read = await admin.read(url);
    expect(urls(read.masterData.current.variants[0])).toEqual([image('side').url]);
    expect(urls(read.masterData.staged.variants[0])).toEqual([image('side').url]);

    const cases: Array<[string, Json, string]> = [
      ['image url already on the variant', { action: 'addExternalImage', variantId: 1, image: image('one') }, 'DuplicateField'],
      ['image without dimensions', { action: 'addExternalImage', variantId: 1, image: { url: 'https://cdn.example/x.png' } }, 'InvalidInput'],
      ['no image', { action: 'addExternalImage', variantId: 1 }, 'InvalidInput'],
      ['no variant named', { action: 'addExternalImage', image: image('x') }, 'InvalidInput'],
      ['unknown variant', { action: 'addExternalImage', variantId: 9, image: image('x') }, 'InvalidOperation'],
      ['unknown sku', { action: 'removeImage', sku: 'nope', imageUrl: image('one').url }, 'InvalidOperation'],
      ['staged not a boolean', { action: 'addExternalImage', variantId: 1, image: image('x'), staged: 'no' }, 'InvalidInput'],
      ['image not on the variant', { action: 'removeImage', variantId: 1, imageUrl: image('two').url }, 'InvalidInput'],
      ['no imageUrl', { action: 'setImageLabel', variantId: 1, label: 'x' }, 'InvalidInput'],
      ['label not a string', { action: 'setImageLabel', variantId: 1, imageUrl: image('one').url, label: 3 }, 'InvalidInput'],
      ['position past the last image', { action: 'moveImageToPosition', variantId: 1, imageUrl: image('one').url, position: 2 }, 'InvalidInput'],
      ['negative position', { action: 'moveImageToPosition', variantId: 1, imageUrl: image('one').url, position: -1 }, 'InvalidInput'],
      // With staged: false the image must be in the current data too: 'three' is staged only.
      ['image only staged, staged false', { action: 'removeImage', variantId: 1, imageUrl: image('three').url, staged: false }, 'InvalidInput'],
    ];
    for (const [what, action, code] of cases) {
      const answer = await admin.post(url, { version: 4, actions: [action] });
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    expect((await admin.read(url)).version).toBe(4);
  });

  it('applies every asset action on the variant of variantId or sku, one asset id in both data versions with staged false', async () => {
    const created = await admin.ok(`/${P}/products`, product('kits', { assets: [asset('guide')] }, { variants: [{ sku: 'kits-2' }] }), 201);
    const url = `/${P}/products/${created.id}`;
    const guideId = created.masterData.staged.masterVariant.assets[0].id as string;
    const both = await admin.update(url, 1, [
      { action: 'addAsset', variantId: 2, asset: asset('video'), staged: false },
      { action: 'addAsset', sku: 'kits-2', asset: asset('photo'), position: 0, staged: false },
    ]);
    const [video, photo] = [both.masterData.staged.variants[0].assets[1], both.masterData.staged.variants[0].assets[0]];
    expect([photo.key, video.key]).toEqual(['photo', 'video']);
    expect(both.masterData.current.variants[0].assets).toEqual(both.masterData.staged.variants[0].assets);
    expect(both.masterData.hasStagedChanges).toBe(false);

    const source = { uri: 'https://cdn.example/guide-large.pdf', key: 'large', dimensions: { w: 800, h: 600 }, contentType: 'application/pdf' };
    const updated = await admin.update(url, 2, [
      { action: 'changeAssetName', variantId: 1, assetId: guideId, name: { en: 'Guide, renamed' } },
      { action: 'setAssetDescription', sku: 'kits-1', assetKey: 'guide', description: { en: 'How to' } },
      { action: 'setAssetTags', variantId: 1, assetKey: 'guide', tags: ['a', 'b'] },
      { action: 'setAssetSources', variantId: 1, assetId: guideId, sources: [source] },
      { action: 'setAssetCustomType', variantId: 1, assetKey: 'guide', type: { typeId: 'type', key: 'asset-credits' }, fields: { credit: 'Ada' } },
      { action: 'setAssetCustomField', variantId: 1, assetKey: 'guide', name: 'credit', value: 'Grace' },
      { action: 'setAssetKey', variantId: 1, assetId: guideId, assetKey: 'guide-2' },
      { action: 'changeAssetOrder', variantId: 2, assetOrder: [video.id, photo.id], staged: false },
      { action: 'removeAsset', variantId: 2, assetKey: 'photo' },
    ]);
    const { staged, current } = updated.masterData;
    expect(staged.masterVariant.assets).toEqual([
      {
        id: guideId,
        key: 'guide-2',
        name: { en: 'Guide, renamed' },
        description: { en: 'How to' },
        tags: ['a', 'b'],
        sources: [source],
        custom: { type: { typeId: 'type', id: expect.any(String) }, fields: { credit: 'Grace' } },
      },
    ]);
    // Staged by default: the current data keeps the guide as created.
    expect(current.masterVariant.assets).toEqual(created.masterData.current.masterVariant.assets);
    expect(staged.variants[0].assets.map((found: Json) => found.id)).toEqual([video.id]);
    expect(current.variants[0].assets.map((found: Json) => found.id)).toEqual([video.id, photo.id]);
    expect(updated.masterData.hasStagedChanges).toBe(true);

    const cleared = await admin.update(url, 3, [
      { action: 'setAssetDescription', variantId: 1, assetKey: 'guide-2' },
      { action: 'setAssetTags', variantId: 1, assetKey: 'guide-2' },
      { action: 'setAssetCustomType', variantId: 1, assetKey: 'guide-2' },
      { action: 'setAssetKey', variantId: 1, assetId: guideId },
    ]);
    expect(cleared.masterData.staged.masterVariant.assets).toEqual([{ id: guideId, name: { en: 'Guide, renamed' }, sources: [source] }]);

    const cases: Array<[string, Json, string]> = [
      ['no asset', { action: 'addAsset', variantId: 2 }, 'InvalidInput'],
      ['asset without name', { action: 'addAsset', variantId: 2, asset: { sources: [{ uri: 'https://x/y' }] } }, 'RequiredField'],
      ['asset key on the variant', { action: 'addAsset', variantId: 2, asset: asset('video') }, 'DuplicateField'],
      ['position past the end', { action: 'addAsset', variantId: 2, asset: asset('late'), position: 5 }, 'InvalidInput'],
      ['no variant named', { action: 'removeAsset', assetKey: 'video' }, 'InvalidInput'],
      ['unknown variant', { action: 'removeAsset', variantId: 7, assetKey: 'video' }, 'InvalidOperation'],
      ['no asset named', { action: 'removeAsset', variantId: 2 }, 'InvalidInput'],
      ['unknown asset', { action: 'removeAsset', variantId: 2, assetKey: 'nope' }, 'InvalidInput'],
      ['asset only current, staged', { action: 'removeAsset', variantId: 2, assetId: photo.id }, 'InvalidInput'],
      ['an asset id missing from the order', { action: 'changeAssetOrder', variantId: 2, assetOrder: [] }, 'InvalidInput'],
      ['empty asset name', { action: 'changeAssetName', variantId: 2, assetKey: 'video', name: {} }, 'InvalidInput'],
      ['no sources', { action: 'setAssetSources', variantId: 2, assetKey: 'video', sources: [] }, 'InvalidInput'],
      ['tags not strings', { action: 'setAssetTags', variantId: 2, assetKey: 'video', tags: 'x' }, 'InvalidInput'],
      ['setAssetKey by key', { action: 'setAssetKey', variantId: 2, assetKey: 'other' }, 'InvalidInput'],
      ['setAssetKey malformed', { action: 'setAssetKey', variantId: 2, assetId: video.id, assetKey: 'a b' }, 'InvalidInput'],
      ['unknown custom type', { action: 'setAssetCustomType', variantId: 2, assetKey: 'video', type: { key: 'nope' } }, 'InvalidInput'],
      ['custom field without a type', { action: 'setAssetCustomField', variantId: 2, assetKey: 'video', name: 'credit', value: 'x' }, 'InvalidInput'],
    ];
    for (const [what, action, code] of cases) {
      const answer = await admin.post(url, { version: 4, actions: [action] });
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    const taken = await admin.post(url, {
      version: 4,
      actions: [
        { action: 'addAsset', variantId: 1, asset: asset('spare') },
        { action: 'setAssetKey', variantId: 1, assetId: guideId, assetKey: 'spare' },
      ],
    });
    expect(taken.body).toMatchObject({ statusCode: 400, errors: [{ code: 'DuplicateField' }] });
  });

  it('delivers ProductImageAdded in order with the change notifications to an SQS subscription; ProductDeleted lists the removed images', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'product');
    const created = await admin.ok(`/${P}/products`, product('murals', { images: [image('wall')] }), 201);
    const id = created.id as string;
    const url = `/${P}/products/${id}`;
    await admin.update(url, 1, [
      { action: 'addExternalImage', variantId: 1, image: image('first', 'First') },
      { action: 'setImageLabel', variantId: 1, imageUrl: image('first').url, label: 'Renamed' },
      { action: 'addAsset', variantId: 1, asset: asset('leaflet') },
      { action: 'addExternalImage', sku: 'murals-1', image: image('second'), staged: false },
    ]);
    await admin.update(url, 2, [
      { action: 'removeImage', variantId: 1, imageUrl: image('wall').url, staged: false },
      { action: 'removeAsset', variantId: 1, assetKey: 'leaflet' },
    ]);
    await admin.delete(`${url}?version=3`);

    const messages = ['ProductCreated', 'ProductImageAdded', 'ProductImageAdded', 'ProductDeleted'];
    const documents = await deliveriesAbout(sqs, queue, id, messages.length + 4);
    expect(labels(documents)).toEqual(
      [
        ...messages.map((type, index) => `product:${id}:Message:${type}:${index + 1}`),
        `product:${id}:ResourceCreated:1`,
        `product:${id}:ResourceUpdated:2`,
        `product:${id}:ResourceUpdated:3`,
        `product:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const payloads = documents
      .map(payloadOf)
      .filter((payload) => payload.notificationType === 'Message')
      .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    expect(payloads.map((payload) => [payload.type, payload.resourceVersion])).toEqual([
      ['ProductCreated', 1],
      ['ProductImageAdded', 2],
      ['ProductImageAdded', 2],
      ['ProductDeleted', 3],
    ]);
    expect(payloads[1]).toMatchObject({ variantId: 1, image: image('first', 'First'), staged: true });
    expect(payloads[2]).toMatchObject({ variantId: 1, image: image('second'), staged: false });
    // Every image either data version held when the product was deleted.
    expect([...(payloads[3]?.removedImageUrls as string[])].sort()).toEqual([image('first').url, image('second').url].sort());
  });
});
