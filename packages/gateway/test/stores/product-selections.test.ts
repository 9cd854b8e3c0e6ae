/**
 * Issue 28: a Store's Product Selections (reference: StoreDraft.productSelections,
 * ProductSelectionSettingDraft, the Store's product-selection update actions,
 * StoreProductSelectionsChanged) and what they do: the in-store product projections and
 * `/in-store/key={storeKey}/product-selection-assignments` show only what the Store's selections
 * make available (the rule of Store.productSelections).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createProduct, createProductType, enableMessages, productRef } from '../product-selections/support.js';

const SETUP_MS = 180_000;
const P = 'store-selections';

describe('stores: product selections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let shirt: Json;
  let cap: Json;
  let sock: Json;
  /** Individual: shirt and cap. */
  let tops: Json;
  /** IndividualExclusion: excludes cap wholly, sock's third variant only. */
  let noCaps: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_stores', 'manage_product_selections', 'manage_products', 'view_messages']);
    await enableMessages(gateway, P);
    await createProductType(admin, P);
    shirt = await createProduct(admin, P, 'shirt');
    cap = await createProduct(admin, P, 'cap');
    sock = await createProduct(admin, P, 'sock');
    tops = await admin.ok(`/${P}/product-selections`, { key: 'tops', name: { en: 'Tops' } }, 201);
    await admin.update(`/${P}/product-selections/${tops.id}`, 1, [
      { action: 'addProduct', product: productRef(shirt) },
      { action: 'addProduct', product: productRef(cap) },
    ]);
    noCaps = await admin.ok(`/${P}/product-selections`, { key: 'no-caps', name: { en: 'No caps' }, mode: 'IndividualExclusion' }, 201);
    await admin.update(`/${P}/product-selections/${noCaps.id}`, 1, [
      { action: 'excludeProduct', product: productRef(cap) },
      { action: 'excludeProduct', product: productRef(sock), variantExclusion: { skus: ['sock-3'] } },
    ]);
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  const setting = (selection: Json, active: boolean): Json => ({ productSelection: { typeId: 'product-selection', id: selection.id }, active });
  const storeUrl = (store: Json): string => `/${P}/stores/${store.id}`;

  it('resolves the draft’s product selections (active defaults to false) and refuses unknown ones', async () => {
    const store = await admin.ok(
      `/${P}/stores`,
      {
        key: 'drafted',
        productSelections: [{ productSelection: { key: 'tops' } }, { productSelection: { typeId: 'product-selection', id: noCaps.id }, active: true }],
      },
      201,
    );
    expect(store.productSelections).toEqual([setting(tops, false), setting(noCaps, true)]);
    const refusals: Array<[string, Json, string]> = [
      ['unknown selection', { key: 'bad-1', productSelections: [{ productSelection: { key: 'no-such-selection' } }] }, 'ReferencedResourceNotFound'],
      ['setting without selection', { key: 'bad-2', productSelections: [{ active: true }] }, 'InvalidInput'],
      ['active not a boolean', { key: 'bad-3', productSelections: [{ productSelection: { key: 'tops' }, active: 'yes' }] }, 'InvalidInput'],
      ['not an array', { key: 'bad-4', productSelections: { productSelection: { key: 'tops' } } }, 'InvalidInput'],
      ['wrong typeId', { key: 'bad-5', productSelections: [{ productSelection: { typeId: 'product', key: 'tops' } }] }, 'InvalidInput'],
    ];
    for (const [what, draft, code] of refusals) {
      const answer = await admin.post(`/${P}/stores`, draft);
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
  });

  it('adds, activates, removes and sets product selections, each change with StoreProductSelectionsChanged', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'changing' }, 201);
    const url = storeUrl(store);
    const added = await admin.update(url, 1, [{ action: 'addProductSelection', productSelection: { key: 'tops' } }]);
    expect(added).toMatchObject({ version: 2, productSelections: [setting(tops, false)] });
    // "No effect if the given Product Selection is already present in the Store and has the same active flag."
    expect((await admin.update(url, 2, [{ action: 'addProductSelection', productSelection: { key: 'tops' }, active: false }])).version).toBe(2);
    const activated = await admin.update(url, 2, [
      { action: 'changeProductSelectionActive', productSelection: { key: 'tops' }, active: true },
      { action: 'addProductSelection', productSelection: { key: 'no-caps' }, active: true },
    ]);
    expect(activated.productSelections).toEqual([setting(tops, true), setting(noCaps, true)]);
    const removed = await admin.update(url, 3, [
      { action: 'removeProductSelection', productSelection: { key: 'no-caps' } },
      // Not in the Store (any more): no effect.
      { action: 'removeProductSelection', productSelection: { key: 'no-caps' } },
    ]);
    expect(removed.productSelections).toEqual([setting(tops, true)]);
    const set = await admin.update(url, 4, [
      { action: 'setProductSelections', productSelections: [{ productSelection: { key: 'no-caps' }, active: true }, { productSelection: { key: 'tops' } }] },
    ]);
    expect(set).toMatchObject({ version: 5, productSelections: [setting(noCaps, true), setting(tops, false)] });
    const cleared = await admin.update(url, 5, [{ action: 'setProductSelections' }]);
    expect(cleared).toMatchObject({ version: 6, productSelections: [] });

    const refusals: Array<[string, Json, string]> = [
      [
        'activating a selection not in the store',
        { action: 'changeProductSelectionActive', productSelection: { key: 'tops' }, active: true },
        'InvalidOperation',
      ],
      ['adding an unknown selection', { action: 'addProductSelection', productSelection: { id: 'no-such-id' } }, 'ReferencedResourceNotFound'],
      ['removing an unknown selection', { action: 'removeProductSelection', productSelection: { key: 'nope' } }, 'ReferencedResourceNotFound'],
      ['active not a boolean', { action: 'addProductSelection', productSelection: { key: 'tops' }, active: 1 }, 'InvalidInput'],
    ];
    for (const [what, action, code] of refusals) {
      const answer = await admin.post(url, { version: 6, actions: [action] });
      expect(answer.status, what).toBe(400);
      expect(answer.body.errors[0].code, what).toBe(code);
    }

    const where = encodeURIComponent(`resource(id = "${store.id}") and type = "StoreProductSelectionsChanged"`);
    const messages = (await admin.read(`/${P}/messages?where=${where}&sort=sequenceNumber`)).results as Json[];
    expect(
      messages.map(({ addedProductSelections, removedProductSelections, updatedProductSelections }) => ({
        addedProductSelections,
        removedProductSelections,
        updatedProductSelections,
      })),
    ).toEqual([
      { addedProductSelections: [setting(tops, false)] },
      { updatedProductSelections: [setting(tops, true)] },
      { addedProductSelections: [setting(noCaps, true)] },
      { removedProductSelections: [setting(noCaps, true)] },
      { addedProductSelections: [setting(noCaps, true)], updatedProductSelections: [setting(tops, false)] },
      { removedProductSelections: [setting(noCaps, true), setting(tops, false)] },
    ]);
  });

  /** Which of shirt, cap and sock the in-store product projections show for a Store with `settings`. */
  async function offered(key: string, settings: Json[]): Promise<string[]> {
    await admin.ok(`/${P}/stores`, { key, productSelections: settings.map(({ productSelection, active }) => ({ productSelection, active })) }, 201);
    const shown: string[] = [];
    for (const product of [shirt, cap, sock]) {
      const byId = await admin.get(`/${P}/in-store/key=${key}/product-projections/${product.id}`);
      const byKey = await admin.get(`/${P}/in-store/key=${key}/product-projections/key=${product.key}`);
      expect(byKey.status, `${key} ${product.key}`).toBe(byId.status);
      if (byId.status === 200) shown.push(product.key);
      else expect(byId.body.errors[0].code).toBe('ResourceNotFound');
    }
    return shown;
  }

  it('shows in a Store only the products its Product Selections make available (the rule of Store.productSelections)', async () => {
    // Without Product Selections, every product.
    expect(await offered('all-products', [])).toEqual(['shirt', 'cap', 'sock']);
    // An active Individual selection: its products only.
    expect(await offered('tops-only', [setting(tops, true)])).toEqual(['shirt', 'cap']);
    // An active IndividualExclusion selection: all but the wholly excluded (sock is excluded in one variant only).
    expect(await offered('without-caps', [setting(noCaps, true)])).toEqual(['shirt', 'sock']);
    // Several active: what any of them offers; inactive ones do not count when one is active.
    expect(await offered('both', [setting(tops, true), setting(noCaps, true)])).toEqual(['shirt', 'cap', 'sock']);
    expect(await offered('tops-active', [setting(tops, true), setting(noCaps, false)])).toEqual(['shirt', 'cap']);
    // None active: nothing if one is Individual, everything if all are IndividualExclusion.
    expect(await offered('inactive-individual', [setting(tops, false), setting(noCaps, false)])).toEqual([]);
    expect(await offered('inactive-exclusion', [setting(noCaps, false)])).toEqual(['shirt', 'cap', 'sock']);
  });

  it('lists the assignments of the Store’s active Product Selections', async () => {
    await admin.ok(`/${P}/stores`, { key: 'assigned', productSelections: [setting(tops, true), setting(noCaps, false)] }, 201);
    const page = await admin.read(`/${P}/in-store/key=assigned/product-selection-assignments?withTotal=true`);
    expect(page).toMatchObject({ count: 2, total: 2 });
    expect(page.results).toEqual([
      { product: productRef(shirt), productSelection: { typeId: 'product-selection', id: tops.id } },
      { product: productRef(cap), productSelection: { typeId: 'product-selection', id: tops.id } },
    ]);
    const filtered = await admin.read(
      `/${P}/in-store/key=assigned/product-selection-assignments?where=${encodeURIComponent(`product(id in ("${cap.id}"))`)}&expand=product`,
    );
    expect(filtered.results).toHaveLength(1);
    expect(filtered.results[0].product.obj).toMatchObject({ id: cap.id, key: 'cap' });
    expect((await admin.get(`/${P}/in-store/key=no-such-store/product-selection-assignments`)).status).toBe(404);
    const storesOnly = await callerWith(gateway, P, ['view_stores']);
    expect((await storesOnly.get(`/${P}/in-store/key=assigned/product-selection-assignments`)).status).toBe(403);
  });
});
