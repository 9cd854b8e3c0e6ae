/**
 * Issue 28: the Product resource `/{projectKey}/products` (reference: resources/products.raml,
 * types/product): drafts, current and staged data with publishing, the update actions, messages
 * and change notifications delivered to an SQS subscription (fauxqs).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import { attribute } from '../product-types/drafts.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'products';
const typeRef = { typeId: 'product-type', key: 'chairs' };

/** A ProductDraft of the `chairs` type keyed `key`, with a slug and SKU of the same text. */
function product(key: string, extra: Json = {}): Json {
  return {
    key,
    productType: typeRef,
    name: { en: `Chair ${key}` },
    slug: { en: key },
    masterVariant: { sku: `${key}-1`, attributes: [{ name: 'legs', value: 4 }] },
    ...extra,
  };
}

/** An Image draft named `name`. */
function image(name: string): { url: string; dimensions: { w: number; h: number } } {
  return { url: `https://example.com/${name}.png`, dimensions: { w: 640, h: 480 } };
}

describe('Product /{projectKey}/products', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let categoryId: string;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_products',
      'manage_subscriptions',
      'manage_states',
      'manage_customer_groups',
      'manage_channels',
      'manage_tax_categories',
      'manage_product_types',
      'view_categories',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_products']);
    await admin.ok(
      `/${P}/product-types`,
      {
        key: 'chairs',
        name: 'Chairs',
        description: 'Chairs',
        attributes: [
          attribute('legs', { name: 'number' }, { isRequired: true }),
          attribute('colour', { name: 'text' }),
          attribute('brand', { name: 'text' }, { level: 'Product' }),
        ],
      },
      201,
    );
    categoryId = (await admin.ok(`/${P}/categories`, { key: 'seating', name: { en: 'Seating' }, slug: { en: 'seating' } }, 201)).id;
    await admin.ok(`/${P}/tax-categories`, { key: 'standard', name: 'Standard', rates: [] }, 201);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a product with equal current and staged data, variant ids 1..n, and reads it by id, key and query', async () => {
    const created = await admin.ok(
      `/${P}/products`,
      product('oak', {
        variants: [{ sku: 'oak-2', prices: [{ value: eur(1000), country: 'DE' }], attributes: [{ name: 'legs', value: 3 }] }],
        categories: [{ typeId: 'category', key: 'seating' }],
        taxCategory: { typeId: 'tax-category', key: 'standard' },
        attributes: [{ name: 'brand', value: 'Acme' }],
      }),
      201,
    );
    const { masterData } = created;
    expect(masterData).toMatchObject({ published: false, hasStagedChanges: false });
    expect(masterData.current).toEqual(masterData.staged);
    expect(masterData.staged.masterVariant).toMatchObject({ id: 1, sku: 'oak-1', prices: [], images: [], assets: [] });
    expect(masterData.staged.variants[0]).toMatchObject({
      id: 2,
      sku: 'oak-2',
      prices: [{ value: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 1000, fractionDigits: 2 }, country: 'DE' }],
    });
    expect(masterData.staged.categories).toEqual([{ typeId: 'category', id: categoryId }]);
    expect(created.priceMode).toBe('Embedded');
    // AttributeDefinition.level Product: the product's own attributes, not a variant's.
    expect(masterData.staged.attributes).toEqual([{ name: 'brand', value: 'Acme' }]);
    expect(await viewer.read(`/${P}/products/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/products/key=oak`)).toEqual(created);
    const page = await viewer.read(`/${P}/products?where=${encodeURIComponent('masterData(staged(masterVariant(sku = "oak-1")))')}`);
    expect(page.results.map((found: Json) => found.key)).toEqual(['oak']);
    await admin.ok(`/${P}/products`, product('alder'), 201);
    const sorted = await viewer.read(
      `/${P}/products?sort=${encodeURIComponent('masterData.staged.slug.en desc')}&where=${encodeURIComponent('key in ("oak", "alder")')}`,
    );
    expect(sorted.results.map((found: Json) => found.key)).toEqual(['oak', 'alder']);
    const ascending = await viewer.read(
      `/${P}/products?sort=${encodeURIComponent('masterData.staged.slug.en asc')}&where=${encodeURIComponent('key in ("oak", "alder")')}`,
    );
    expect(ascending.results.map((found: Json) => found.key)).toEqual(['alder', 'oak']);
    const expanded = await admin.read(`/${P}/products/${created.id}?expand=productType`);
    expect(expanded.productType.obj.key).toBe('chairs');
    const withCategories = await admin.read(`/${P}/products/${created.id}?expand=${encodeURIComponent('masterData.staged.categories[*]')}`);
    expect(withCategories.masterData.staged.categories[0].obj.key).toBe('seating');
    const published = await admin.ok(`/${P}/products`, product('pine', { publish: true }), 201);
    expect(published.masterData).toMatchObject({ published: true, hasStagedChanges: false });
  });

  it('refuses bad drafts with 400s and the reference error codes', async () => {
    await admin.ok(`/${P}/products`, product('taken'), 201);
    const cases: Array<[string, Json, string]> = [
      ['no productType', { name: { en: 'x' }, slug: { en: 'x1' } }, 'RequiredField'],
      ['no name', { productType: typeRef, slug: { en: 'x2' } }, 'RequiredField'],
      ['no slug', { productType: typeRef, name: { en: 'x' } }, 'RequiredField'],
      ['unknown productType', product('a1', { productType: { typeId: 'product-type', key: 'nope' } }), 'ReferencedResourceNotFound'],
      ['name not localized', product('a2', { name: 'Chair' }), 'InvalidInput'],
      ['bad slug', product('a3', { slug: { en: 'a b' } }), 'InvalidInput'],
      ['slug taken', product('a4', { slug: { en: 'taken' } }), 'DuplicateField'],
      ['sku taken', product('a5', { masterVariant: { sku: 'taken-1', attributes: [{ name: 'legs', value: 4 }] } }), 'DuplicateField'],
      ['key taken', product('taken', { slug: { en: 'other-slug' }, masterVariant: { attributes: [{ name: 'legs', value: 4 }] } }), 'DuplicateField'],
      ['required attribute missing', product('a6', { masterVariant: { sku: 'a6-1' } }), 'InvalidInput'],
      ['attribute of the wrong type', product('a7', { masterVariant: { sku: 'a7-1', attributes: [{ name: 'legs', value: 'four' }] } }), 'InvalidInput'],
      [
        'undefined attribute',
        product('a8', {
          masterVariant: {
            sku: 'a8-1',
            attributes: [
              { name: 'legs', value: 4 },
              { name: 'size', value: 1 },
            ],
          },
        }),
        'InvalidInput',
      ],
      ['unknown category', product('a9', { categories: [{ typeId: 'category', key: 'nope' }] }), 'ReferencedResourceNotFound'],
      ['unknown taxCategory', product('b1', { taxCategory: { typeId: 'tax-category', key: 'nope' } }), 'ReferencedResourceNotFound'],
      ['unknown state', product('b2', { state: { typeId: 'state', key: 'nope' } }), 'ReferencedResourceNotFound'],
      [
        'price without value',
        product('b3', { masterVariant: { sku: 'b3-1', attributes: [{ name: 'legs', value: 4 }], prices: [{ country: 'DE' }] } }),
        'RequiredField',
      ],
      [
        'negative price',
        product('b4', { masterVariant: { sku: 'b4-1', attributes: [{ name: 'legs', value: 4 }], prices: [{ value: eur(-1) }] } }),
        'InvalidInput',
      ],
      [
        'bad country',
        product('b5', { masterVariant: { sku: 'b5-1', attributes: [{ name: 'legs', value: 4 }], prices: [{ value: eur(1), country: 'Germany' }] } }),
        'InvalidInput',
      ],
      [
        'unknown customerGroup',
        product('b6', {
          masterVariant: { sku: 'b6-1', attributes: [{ name: 'legs', value: 4 }], prices: [{ value: eur(1), customerGroup: { key: 'nope' } }] },
        }),
        'ReferencedResourceNotFound',
      ],
      [
        'validUntil before validFrom',
        product('b7', {
          masterVariant: {
            sku: 'b7-1',
            attributes: [{ name: 'legs', value: 4 }],
            prices: [{ value: eur(1), validFrom: '2026-02-01T00:00:00Z', validUntil: '2026-01-01T00:00:00Z' }],
          },
        }),
        'InvalidInput',
      ],
      [
        'duplicate price key',
        product('b8', {
          masterVariant: {
            sku: 'b8-1',
            attributes: [{ name: 'legs', value: 4 }],
            prices: [
              { key: 'pk', value: eur(1) },
              { key: 'pk', value: eur(2) },
            ],
          },
        }),
        'DuplicatePriceKey',
      ],
      ['same sku twice', product('b9', { variants: [{ sku: 'b9-1', attributes: [{ name: 'legs', value: 4 }] }] }), 'InvalidInput'],
      [
        'image without dimensions',
        product('c1', { masterVariant: { sku: 'c1-1', attributes: [{ name: 'legs', value: 4 }], images: [{ url: 'https://x/y.png' }] } }),
        'InvalidInput',
      ],
      ['publish not boolean', product('c2', { publish: 'yes' }), 'InvalidInput'],
      [
        'product-level attribute on a variant',
        product('c5', {
          masterVariant: {
            sku: 'c5-1',
            attributes: [
              { name: 'legs', value: 4 },
              { name: 'brand', value: 'x' },
            ],
          },
        }),
        'InvalidInput',
      ],
      ['variant attribute on the product', product('c6', { attributes: [{ name: 'legs', value: 4 }] }), 'InvalidInput'],
      ['bad priceMode', product('c3', { priceMode: 'Free' }), 'InvalidInput'],
      ['too many variants', product('c4', { variants: Array.from({ length: 101 }, () => ({ attributes: [{ name: 'legs', value: 4 }] })) }), 'InvalidInput'],
    ];
    for (const [what, draft, code] of cases) {
      const answer = await admin.post(`/${P}/products`, draft);
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    const forbidden = await viewer.post(`/${P}/products`, product('viewer-made'));
    expect(forbidden.status).toBe(403);
  });

  it('keeps staged changes apart from the current data until published, and reverts them', async () => {
    const created = await admin.ok(`/${P}/products`, product('birch', { publish: true }), 201);
    const url = `/${P}/products/${created.id}`;
    let updated = await admin.update(url, 1, [{ action: 'changeName', name: { en: 'Staged name' } }]);
    expect(updated.masterData).toMatchObject({ hasStagedChanges: true, current: { name: { en: 'Chair birch' } }, staged: { name: { en: 'Staged name' } } });
    updated = await admin.update(url, updated.version, [{ action: 'setDescription', description: { en: 'Both' }, staged: false }]);
    expect(updated.masterData.current.description).toEqual({ en: 'Both' });
    expect(updated.masterData.staged.description).toEqual({ en: 'Both' });
    // staged: false changes both data versions: prices and variants as well as texts.
    updated = await admin.update(url, updated.version, [
      { action: 'addPrice', variantId: 1, price: { value: eur(700) }, staged: false },
      { action: 'addVariant', sku: 'birch-2', attributes: [{ name: 'legs', value: 4 }], staged: false },
    ]);
    expect(updated.masterData.current.masterVariant.prices).toEqual(updated.masterData.staged.masterVariant.prices);
    expect(updated.masterData.current.variants).toEqual(updated.masterData.staged.variants);
    expect(updated.masterData.current.variants).toMatchObject([{ id: 2, sku: 'birch-2' }]);
    updated = await admin.update(url, updated.version, [{ action: 'revertStagedChanges' }]);
    expect(updated.masterData).toMatchObject({ hasStagedChanges: false, staged: { name: { en: 'Chair birch' }, description: { en: 'Both' } } });
    updated = await admin.update(url, updated.version, [{ action: 'changeName', name: { en: 'Published name' } }, { action: 'publish' }]);
    expect(updated.masterData).toMatchObject({ published: true, hasStagedChanges: false, current: { name: { en: 'Published name' } } });
    updated = await admin.update(url, updated.version, [{ action: 'unpublish' }]);
    expect(updated.masterData.published).toBe(false);
    const again = await admin.post(url, { version: updated.version, actions: [{ action: 'unpublish' }] });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].code).toBe('InvalidOperation');
  });

  it('applies the slug, key, variant, attribute, price, category, tax and master variant actions', async () => {
    const created = await admin.ok(`/${P}/products`, product('ash'), 201);
    const url = `/${P}/products/${created.id}`;
    let updated = await admin.update(url, 1, [
      { action: 'changeSlug', slug: { en: 'ash-new' } },
      { action: 'setKey', key: 'ash-key' },
      { action: 'addVariant', sku: 'ash-2', key: 'ash-v2', attributes: [{ name: 'legs', value: 3 }], prices: [{ value: eur(500) }] },
      { action: 'setSku', variantId: 1, sku: 'ash-master' },
      { action: 'setAttribute', sku: 'ash-2', name: 'colour', value: 'grey' },
      { action: 'setAttributeInAllVariants', name: 'legs', value: 5 },
      { action: 'addPrice', variantId: 1, price: { key: 'base', value: eur(900) } },
      { action: 'addToCategory', category: { typeId: 'category', id: categoryId }, orderHint: '0.5' },
      { action: 'setTaxCategory', taxCategory: { typeId: 'tax-category', key: 'standard' } },
    ]);
    const staged = updated.masterData.staged;
    expect(updated.key).toBe('ash-key');
    expect(staged.slug).toEqual({ en: 'ash-new' });
    expect(staged.masterVariant).toMatchObject({ id: 1, sku: 'ash-master', attributes: [{ name: 'legs', value: 5 }], prices: [{ key: 'base' }] });
    expect(staged.variants[0]).toMatchObject({
      id: 2,
      sku: 'ash-2',
      key: 'ash-v2',
      attributes: [
        { name: 'legs', value: 5 },
        { name: 'colour', value: 'grey' },
      ],
    });
    expect(staged.categories).toEqual([{ typeId: 'category', id: categoryId }]);
    expect(staged.categoryOrderHints).toEqual({ [categoryId]: '0.5' });
    expect(updated.taxCategory).toMatchObject({ typeId: 'tax-category' });
    expect(updated.masterData.current.masterVariant.sku).toBe('ash-1');

    const priceId = staged.masterVariant.prices[0].id as string;
    updated = await admin.update(url, updated.version, [
      { action: 'changePrice', priceId, price: { key: 'base', value: eur(800) } },
      { action: 'setPrices', variantId: 2, prices: [{ value: eur(400) }, { value: eur(450), country: 'AT' }] },
      { action: 'removePrice', priceId },
      { action: 'changeMasterVariant', variantId: 2 },
      { action: 'removeFromCategory', category: { typeId: 'category', key: 'seating' } },
      { action: 'setTaxCategory' },
      { action: 'setAttribute', variantId: 2, name: 'colour' },
    ]);
    const after = updated.masterData.staged;
    expect(after.masterVariant).toMatchObject({ id: 2, prices: [{ value: { centAmount: 400 } }, { country: 'AT' }], attributes: [{ name: 'legs', value: 5 }] });
    expect(after.variants.map((variant: Json) => variant.id)).toEqual([1]);
    expect(after.variants[0].prices).toEqual([]);
    expect(after.categories).toEqual([]);
    expect(updated.taxCategory).toBeUndefined();

    updated = await admin.update(url, updated.version, [{ action: 'removeVariant', id: 1 }]);
    expect(updated.masterData.staged.variants).toEqual([]);
    const refusals: Array<[Json, string]> = [
      [{ action: 'removeVariant', id: 2 }, 'InvalidOperation'],
      [{ action: 'setSku', variantId: 2, sku: 'taken-1' }, 'DuplicateField'],
      [{ action: 'changeSlug', slug: { en: 'oak' } }, 'DuplicateField'],
      [{ action: 'setAttribute', variantId: 2, name: 'legs', value: 'x' }, 'InvalidInput'],
      [{ action: 'setAttribute', variantId: 2, name: 'legs' }, 'InvalidInput'],
      [{ action: 'removePrice', priceId: 'nope' }, 'InvalidOperation'],
      [{ action: 'addToCategory', category: { typeId: 'category', key: 'nope' } }, 'ReferencedResourceNotFound'],
      [{ action: 'addPrice', variantId: 9, price: { value: eur(1) } }, 'InvalidOperation'],
      [{ action: 'changeName', name: { en: 'x' }, staged: 'no' }, 'InvalidInput'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(url, { version: updated.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
  });

  it('keeps its product type from being deleted while it uses it (400 ReferenceExists), and is deleted at any version given', async () => {
    await admin.ok(`/${P}/product-types`, { key: 'stools', name: 'Stools', description: 'Stools', attributes: [] }, 201);
    const stool = await admin.ok(`/${P}/products`, { key: 'stool', productType: { key: 'stools' }, name: { en: 'Stool' }, slug: { en: 'stool' } }, 201);
    const refused = await admin.delete(`/${P}/product-types/key=stools?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'product' });
    const stale = await admin.delete(`/${P}/products/key=stool?version=9`);
    expect(stale.status).toBe(409);
    expect((await admin.delete(`/${P}/products/${stool.id}?version=1`)).status).toBe(200);
    expect((await viewer.get(`/${P}/products/${stool.id}`)).status).toBe(404);
    expect((await admin.delete(`/${P}/product-types/key=stools?version=1`)).status).toBe(200);
  });

  it('holds the product type attribute constraints Unique, SameForAll and CombinationUnique across variants', async () => {
    await admin.ok(
      `/${P}/product-types`,
      {
        key: 'benches',
        name: 'Benches',
        description: 'Benches',
        attributes: [
          attribute('code', { name: 'text' }, { attributeConstraint: 'Unique' }),
          attribute('material', { name: 'text' }, { attributeConstraint: 'SameForAll' }),
          attribute('width', { name: 'number' }, { attributeConstraint: 'CombinationUnique' }),
          attribute('depth', { name: 'number' }, { attributeConstraint: 'CombinationUnique' }),
        ],
      },
      201,
    );
    const variant = (code: string, material: string, width: number, depth: number): Json => ({
      attributes: [
        { name: 'code', value: code },
        { name: 'material', value: material },
        { name: 'width', value: width },
        { name: 'depth', value: depth },
      ],
    });
    const bench = (key: string, variants: Json[]): Json => ({
      key,
      productType: { key: 'benches' },
      name: { en: key },
      slug: { en: key },
      masterVariant: variants[0],
      variants: variants.slice(1),
    });
    const drafts: Array<[string, Json, string]> = [
      ['same Unique value', bench('bench-a', [variant('a', 'oak', 1, 1), variant('a', 'oak', 2, 2)]), 'DuplicateAttributeValue'],
      ['different SameForAll values', bench('bench-b', [variant('a', 'oak', 1, 1), variant('b', 'ash', 2, 2)]), 'InvalidOperation'],
      ['same CombinationUnique values', bench('bench-c', [variant('a', 'oak', 1, 1), variant('b', 'oak', 1, 1)]), 'DuplicateAttributeValues'],
    ];
    for (const [what, draft, code] of drafts) {
      const answer = await admin.post(`/${P}/products`, draft);
      expect(answer.status, what).toBe(400);
      expect(answer.body.errors[0].code, what).toBe(code);
    }
    const created = await admin.ok(`/${P}/products`, bench('bench', [variant('a', 'oak', 1, 1), variant('b', 'oak', 1, 2)]), 201);
    const url = `/${P}/products/${created.id}`;
    const updated = await admin.update(url, 1, [{ action: 'setAttributeInAllVariants', name: 'material', value: 'ash' }]);
    expect(updated.masterData.staged.variants[0].attributes).toContainEqual({ name: 'material', value: 'ash' });
    const refusals: Array<[Json, string]> = [
      [{ action: 'setAttribute', variantId: 2, name: 'code', value: 'a' }, 'DuplicateAttributeValue'],
      [{ action: 'setAttribute', variantId: 2, name: 'material', value: 'oak' }, 'InvalidOperation'],
      [{ action: 'addVariant', ...variant('c', 'ash', 1, 2) }, 'DuplicateAttributeValues'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(url, { version: 2, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
  });

  it('transitions its state to ProductStates only, respecting transitions unless forced', async () => {
    const done = await admin.ok(`/${P}/states`, { key: 'product-done', type: 'ProductState', initial: false }, 201);
    await admin.ok(`/${P}/states`, { key: 'product-new', type: 'ProductState', initial: true, transitions: [{ typeId: 'state', id: done.id }] }, 201);
    await admin.ok(`/${P}/states`, { key: 'product-other', type: 'ProductState', initial: false }, 201);
    await admin.ok(`/${P}/states`, { key: 'order-open', type: 'OrderState' }, 201);
    const created = await admin.ok(`/${P}/products`, product('elm', { state: { typeId: 'state', key: 'product-new' } }), 201);
    const url = `/${P}/products/${created.id}`;
    const wrongType = await admin.post(url, { version: 1, actions: [{ action: 'transitionState', state: { key: 'order-open' } }] });
    expect(wrongType.body.errors[0].code).toBe('InvalidInput');
    const notAllowed = await admin.post(url, { version: 1, actions: [{ action: 'transitionState', state: { key: 'product-other' } }] });
    expect(notAllowed.body.errors[0].code).toBe('InvalidOperation');
    let updated = await admin.update(url, 1, [{ action: 'transitionState', state: { key: 'product-done' } }]);
    expect(updated.state).toEqual({ typeId: 'state', id: done.id });
    updated = await admin.update(url, updated.version, [{ action: 'transitionState', state: { key: 'product-other' }, force: true }]);
    expect(updated.state.id).not.toBe(done.id);
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'product');

    const created = await admin.ok(`/${P}/products`, product('maple'), 201);
    const url = `/${P}/products/${created.id}`;
    const updated = await admin.update(url, 1, [
      { action: 'changeSlug', slug: { en: 'maple-2' } },
      { action: 'addVariant', sku: 'maple-2', attributes: [{ name: 'legs', value: 4 }], images: [image('maple-2')] },
      { action: 'addPrice', variantId: 2, price: { value: eur(100) } },
      { action: 'addToCategory', category: { typeId: 'category', id: categoryId } },
      { action: 'publish' },
    ]);
    const priceId = updated.masterData.staged.variants[0].prices[0].id as string;
    await admin.update(url, 2, [
      { action: 'changePrice', priceId, price: { value: eur(200) } },
      { action: 'removePrice', priceId },
      { action: 'setPrices', variantId: 1, prices: [] },
      { action: 'removeFromCategory', category: { typeId: 'category', id: categoryId } },
      { action: 'removeVariant', id: 2 },
      { action: 'addVariant', sku: 'maple-3', attributes: [{ name: 'legs', value: 4 }], images: [image('maple-3')] },
      { action: 'revertStagedChanges' },
      { action: 'unpublish' },
    ]);
    await admin.delete(`${url}?version=3`);

    const id = created.id as string;
    const messages = [
      'ProductCreated',
      'ProductSlugChanged',
      'ProductVariantAdded',
      'ProductPriceAdded',
      'ProductAddedToCategory',
      'ProductPublished',
      'ProductPriceChanged',
      'ProductPriceRemoved',
      'ProductPricesSet',
      'ProductRemovedFromCategory',
      'ProductVariantDeleted',
      'ProductVariantAdded',
      'ProductRevertedStagedChanges',
      'ProductUnpublished',
      'ProductDeleted',
    ];
    const documents = await deliveriesAbout(sqs, queue, id, messages.length + 4);
    const expected = [
      ...messages.map((type, index) => `product:${id}:Message:${type}:${index + 1}`),
      `product:${id}:ResourceCreated:1`,
      `product:${id}:ResourceUpdated:2`,
      `product:${id}:ResourceUpdated:3`,
      `product:${id}:ResourceDeleted:3`,
    ];
    expect(labels(documents)).toEqual(expected.sort());
    const byType = (type: string) => documents.map(payloadOf).find((payload) => payload.type === type);
    expect(byType('ProductCreated')).toMatchObject({ productProjection: { key: 'maple', slug: { en: 'maple' } } });
    expect(byType('ProductSlugChanged')).toMatchObject({ slug: { en: 'maple-2' }, oldSlug: { en: 'maple' } });
    const added = documents
      .map(payloadOf)
      .filter((payload) => payload.type === 'ProductVariantAdded')
      .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    expect(added).toMatchObject([
      { variant: { id: 2, sku: 'maple-2', images: [image('maple-2')] }, staged: true },
      { variant: { id: 3, sku: 'maple-3' }, staged: true },
    ]);
    expect(byType('ProductPriceAdded')).toMatchObject({ variantId: 2, price: { value: { centAmount: 100 } }, staged: true });
    // The projection of the version the publishing update made.
    expect(byType('ProductPublished')).toMatchObject({ productProjection: { version: 2, slug: { en: 'maple-2' } }, scope: 'All' });
    expect(byType('ProductPriceChanged')).toMatchObject({
      variantId: 2,
      oldPrice: { value: { centAmount: 100 } },
      newPrice: { id: priceId, value: { centAmount: 200 } },
    });
    expect(byType('ProductAddedToCategory')).toMatchObject({ category: { typeId: 'category', id: categoryId }, staged: true });
    expect(byType('ProductVariantDeleted')).toMatchObject({ variant: { id: 2 }, removedImageUrls: [image('maple-2').url], staged: true });
    // Reverting drops the staged variant 3 and its image; the current data has variant 2 again.
    expect(byType('ProductRevertedStagedChanges')).toMatchObject({ removedImageUrls: [image('maple-3').url] });
    expect(byType('ProductDeleted')).toMatchObject({ currentProjection: { slug: { en: 'maple-2' } } });
  });
});
