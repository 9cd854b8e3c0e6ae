/**
 * Issue 28: what a Store shows of a product whose variants are partly selected (reference:
 * AssignedProductReference.variantSelection / variantExclusion, Get ProductProjection in Store),
 * and `storeProjection` on the general product projection routes (traits/store-projecting*.raml:
 * the Store's languages, countries and channels project; its Product Selections do not filter).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createProduct, createProductType, productRef } from './support.js';

const SETUP_MS = 120_000;
const P = 'store-assortment';

describe('Product Selections of variants in a Store', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let shirt: Json;
  let cap: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_selections', 'manage_products', 'manage_stores']);
    await createProductType(admin, P);
    shirt = await createProduct(admin, P, 'shirt');
    cap = await createProduct(admin, P, 'cap');
  }, SETUP_MS);
  afterAll(async () => {
    await gateway?.close();
  });

  /** A selection of `mode` with the given addProduct/excludeProduct actions. */
  async function selection(key: string, mode: string, actions: Json[]): Promise<Json> {
    const created = await admin.ok(`/${P}/product-selections`, { key, name: { en: key }, mode }, 201);
    return admin.update(`/${P}/product-selections/${created.id}`, created.version, actions);
  }

  async function store(key: string, selections: Json[]): Promise<void> {
    const productSelections = selections.map(({ id }) => ({ productSelection: { typeId: 'product-selection', id }, active: true }));
    await admin.ok(`/${P}/stores`, { key, productSelections }, 201);
  }

  /** The SKUs of the in-store projection (master first), or the status when it is not 200. */
  async function skusInStore(storeKey: string, product: Json): Promise<string[] | number> {
    const answer = await admin.get(`/${P}/in-store/key=${storeKey}/product-projections/${product.id}`);
    if (answer.status !== 200) return answer.status;
    const byKey = await admin.read(`/${P}/in-store/key=${storeKey}/product-projections/key=${product.key}`);
    expect(byKey.masterVariant).toEqual(answer.body.masterVariant);
    return [answer.body.masterVariant, ...answer.body.variants].map((variant: Json) => variant.sku);
  }

  const add = (product: Json, variantSelection?: Json): Json => ({ action: 'addProduct', product: productRef(product), variantSelection });

  it('shows only the included variants of an Individual selection, the first of them as master when the master is not', async () => {
    const picked = await selection('picked', 'Individual', [
      add(shirt, { type: 'includeOnly', skus: ['shirt-3', 'shirt-2'] }),
      add(cap, { type: 'includeAllExcept', skus: ['cap-1'] }),
    ]);
    await store('picked-store', [picked]);
    expect(await skusInStore('picked-store', shirt)).toEqual(['shirt-2', 'shirt-3']);
    expect(await skusInStore('picked-store', cap)).toEqual(['cap-2', 'cap-3']);

    // setVariantSelection changes what the Store shows; unset, every variant again.
    const current = await admin.read(`/${P}/product-selections/${picked.id}`);
    const changed = await admin.update(`/${P}/product-selections/${picked.id}`, current.version, [
      { action: 'setVariantSelection', product: productRef(shirt), variantSelection: { type: 'includeOnly', skus: ['shirt-1'] } },
      { action: 'setVariantSelection', product: productRef(cap) },
    ]);
    expect(changed.version).toBe(current.version + 1);
    expect(await skusInStore('picked-store', shirt)).toEqual(['shirt-1']);
    expect(await skusInStore('picked-store', cap)).toEqual(['cap-1', 'cap-2', 'cap-3']);
  });

  it('hides the excluded variants of an IndividualExclusion selection, and a product excluded without variants', async () => {
    const trimmed = await selection('trimmed', 'IndividualExclusion', [
      { action: 'excludeProduct', product: productRef(shirt), variantExclusion: { skus: ['shirt-1', 'shirt-3'] } },
      { action: 'excludeProduct', product: productRef(cap) },
    ]);
    await store('trimmed-store', [trimmed]);
    expect(await skusInStore('trimmed-store', shirt)).toEqual(['shirt-2']);
    expect(await skusInStore('trimmed-store', cap)).toBe(404);
  });

  it('shows the variants any active selection offers', async () => {
    const first = await selection('first-variant', 'Individual', [add(shirt, { type: 'includeOnly', skus: ['shirt-3'] })]);
    const second = await selection('second-variant', 'Individual', [add(shirt, { type: 'includeOnly', skus: ['shirt-2'] })]);
    await store('union-store', [first, second]);
    expect(await skusInStore('union-store', shirt)).toEqual(['shirt-2', 'shirt-3']);
    expect(await skusInStore('union-store', cap)).toBe(404);
  });

  it('projects by storeProjection on the query, key and search routes without applying the Store’s selections', async () => {
    const bilingual = await admin.ok(
      `/${P}/products`,
      { key: 'scarf', productType: { typeId: 'product-type', key: 'plain' }, name: { en: 'Scarf', de: 'Schal' }, slug: { en: 'scarf' }, publish: true },
      201,
    );
    const only = await selection('scarf-only', 'Individual', [add(bilingual)]);
    await admin.ok(`/${P}/stores`, { key: 'german', languages: ['de'], productSelections: [{ productSelection: { key: only.key }, active: true }] }, 201);
    const names = (page: Json): Json => Object.fromEntries((page.results as Json[]).map((projection) => [projection.key, projection.name]));
    const listed = await admin.read(`/${P}/product-projections?storeProjection=german&sort=key+asc`);
    expect(names(listed)).toMatchObject({ scarf: { de: 'Schal' }, shirt: expect.any(Object), cap: expect.any(Object) });
    expect((await admin.read(`/${P}/product-projections/key=scarf?storeProjection=german`)).name).toEqual({ de: 'Schal' });
    const searched = await admin.read(`/${P}/product-projections/search?storeProjection=german`);
    expect(names(searched)).toMatchObject({ scarf: { de: 'Schal' }, shirt: expect.any(Object) });
    for (const url of [`/${P}/product-projections?storeProjection=nowhere`, `/${P}/product-projections/search?storeProjection=nowhere`]) {
      const unknown = await admin.get(url);
      expect(unknown.status, url).toBe(400);
      expect(unknown.body.errors[0].code, url).toBe('InvalidInput');
    }
  });
});
