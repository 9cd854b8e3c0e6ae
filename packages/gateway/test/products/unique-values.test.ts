/**
 * Issue 28: a product's slug (per locale) and SKUs are unique in the project, enforced by the
 * store's claims in the write itself (products/uniqueness.ts): racing creates cannot both take a
 * value, a value is freed when the product lets go of it (change, publish, delete), a staged-only
 * value is taken, and a product keeps its own values through its updates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Answer, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'unique-products';

/** A ProductDraft of the attribute-less `plain` type with one slug and one SKU. */
const draft = (slug: string, sku: string, extra: Json = {}): Json => ({
  productType: { typeId: 'product-type', key: 'plain' },
  name: { en: slug },
  slug: { en: slug },
  masterVariant: { sku },
  ...extra,
});

function expectDuplicate(answer: Answer, field: 'slug' | 'sku', duplicateValue: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.errors).toEqual([
    { code: 'DuplicateField', message: `A duplicate value ${JSON.stringify(duplicateValue)} exists for field '${field}'.`, field, duplicateValue },
  ]);
}

describe('Product slugs and SKUs are unique in the project', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_products', 'manage_product_types']);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'Plain', attributes: [] }, 201);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  const create = (body: Json) => admin.post(`/${P}/products`, body);
  const update = (product: Json, actions: Json[]) => admin.post(`/${P}/products/${product.id}`, { version: product.version, actions });

  it('lets exactly one of concurrent creates with one slug, or one SKU, succeed', async () => {
    for (const round of [1, 2, 3]) {
      const bySlug = await Promise.all([create(draft(`race-${round}`, `race-a-${round}`)), create(draft(`race-${round}`, `race-b-${round}`))]);
      expect(bySlug.map(({ status }) => status).sort()).toEqual([201, 400]);
      expectDuplicate(bySlug.find(({ status }) => status === 400) as Answer, 'slug', `race-${round}`);

      const bySku = await Promise.all([create(draft(`sku-a-${round}`, `race-sku-${round}`)), create(draft(`sku-b-${round}`, `race-sku-${round}`))]);
      expect(bySku.map(({ status }) => status).sort()).toEqual([201, 400]);
      expectDuplicate(bySku.find(({ status }) => status === 400) as Answer, 'sku', `race-sku-${round}`);
    }
  });

  it('names the slug when a draft takes both a slug and a SKU of others, and compares slugs per locale', async () => {
    await admin.ok(`/${P}/products`, draft('both', 'both-1'), 201);
    expectDuplicate(await create(draft('both', 'both-1')), 'slug', 'both');
    // The same text in another locale is another slug.
    await admin.ok(`/${P}/products`, { ...draft('x-both', 'both-2'), slug: { de: 'both' } }, 201);
    // A variant's SKU as taken as the master variant's.
    expectDuplicate(await create({ ...draft('variant-sku', 'variant-sku-1'), variants: [{ sku: 'both-1' }] }), 'sku', 'both-1');
  });

  it('frees a slug and a SKU the product changes (current and staged), and refuses taking another one', async () => {
    let product = await admin.ok(`/${P}/products`, draft('old-slug', 'old-sku'), 201);
    await admin.ok(`/${P}/products`, draft('other-slug', 'other-sku'), 201);
    expectDuplicate(await update(product, [{ action: 'changeSlug', slug: { en: 'other-slug' }, staged: false }]), 'slug', 'other-slug');
    expectDuplicate(await update(product, [{ action: 'setSku', variantId: 1, sku: 'other-sku', staged: false }]), 'sku', 'other-sku');
    expectDuplicate(await update(product, [{ action: 'addVariant', sku: 'other-sku' }]), 'sku', 'other-sku');
    product = await admin.ok(`/${P}/products/${product.id}`, {
      version: product.version,
      actions: [
        { action: 'changeSlug', slug: { en: 'new-slug' }, staged: false },
        { action: 'setSku', variantId: 1, sku: 'new-sku', staged: false },
      ],
    });
    await admin.ok(`/${P}/products`, draft('old-slug', 'old-sku'), 201);
    expectDuplicate(await create(draft('new-slug', 'fresh-sku')), 'slug', 'new-slug');
  });

  it('takes a staged-only slug and SKU, and frees the replaced current ones when published', async () => {
    let product = await admin.ok(`/${P}/products`, draft('live-slug', 'live-sku', { publish: true }), 201);
    product = await admin.ok(`/${P}/products/${product.id}`, {
      version: product.version,
      actions: [
        { action: 'changeSlug', slug: { en: 'staged-slug' } },
        { action: 'setSku', variantId: 1, sku: 'staged-sku' },
      ],
    });
    expect(product.masterData.current.slug).toEqual({ en: 'live-slug' });
    expectDuplicate(await create(draft('staged-slug', 'any-1')), 'slug', 'staged-slug');
    expectDuplicate(await create(draft('any-2', 'staged-sku')), 'sku', 'staged-sku');
    // The current data still holds the live values.
    expectDuplicate(await create(draft('live-slug', 'any-3')), 'slug', 'live-slug');
    expectDuplicate(await create(draft('any-4', 'live-sku')), 'sku', 'live-sku');
    await admin.ok(`/${P}/products/${product.id}`, { version: product.version, actions: [{ action: 'publish' }] });
    await admin.ok(`/${P}/products`, draft('live-slug', 'live-sku'), 201);
  });

  it('keeps its own slug and SKU through updates', async () => {
    let product = await admin.ok(`/${P}/products`, draft('mine', 'mine-1', { publish: true }), 201);
    product = await admin.ok(`/${P}/products/${product.id}`, {
      version: product.version,
      actions: [
        { action: 'changeName', name: { en: 'Renamed' } },
        { action: 'changeSlug', slug: { en: 'mine' }, staged: false },
        { action: 'setSku', variantId: 1, sku: 'mine-1', staged: false },
        { action: 'addVariant', sku: 'mine-2' },
        { action: 'changeSlug', slug: { en: 'mine', de: 'meins' } },
      ],
    });
    expect(product.masterData.staged).toMatchObject({ slug: { en: 'mine', de: 'meins' }, variants: [{ sku: 'mine-2' }] });
    expectDuplicate(await create({ ...draft('x-mine', 'x-mine-1'), slug: { de: 'meins' } }), 'slug', 'meins');
  });

  it('frees every slug and SKU when the product is deleted', async () => {
    const product = await admin.ok(`/${P}/products`, { ...draft('gone', 'gone-1', { publish: true }), variants: [{ sku: 'gone-2' }] }, 201);
    const changed = await admin.ok(`/${P}/products/${product.id}`, {
      version: product.version,
      actions: [{ action: 'changeSlug', slug: { en: 'gone-staged' } }],
    });
    const deleted = await admin.request('DELETE', `/${P}/products/${product.id}?version=${changed.version}`);
    expect(deleted.status).toBe(200);
    await admin.ok(`/${P}/products`, { ...draft('gone', 'gone-2'), variants: [{ sku: 'gone-1' }] }, 201);
    await admin.ok(`/${P}/products`, draft('gone-staged', 'gone-3'), 201);
  });
});
