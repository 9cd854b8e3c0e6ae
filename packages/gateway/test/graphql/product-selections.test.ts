/**
 * Issue 28: GraphQL `productSelection(id|key)` and `productSelections(where, sort, limit, offset)`
 * in the official schema's names, the selection's `productRefs` (with variant selections) and
 * `Store.productSelections`, with the scopes of REST's `/product-selections`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type Client, type Json } from '../business-units/support.js';
import { callerWith, type Caller } from '../carts/commerce.js';
import { createProduct, createProductType, productRef } from '../product-selections/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'graphql-product-selections';

const SELECTION_FIELDS = /* GraphQL */ `
  id key version mode productCount
  name(locale: "de")
  nameAllLocales { locale value }
  productRefs(sort: ["product.id asc"]) {
    total count exists
    results {
      productRef { typeId id }
      product { key }
      variantSelection { __typename type skus }
      variantExclusion { skus }
    }
  }
`;

describe('GraphQL product selections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Client;
  let productViewer: Client;
  let summer: Json;
  let shirt: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_selections', 'manage_products', 'manage_stores', 'manage_business_units']);
    viewer = await apiClient(gateway, P, ['view_product_selections']);
    productViewer = await apiClient(gateway, P, ['view_product_selections', 'view_products', 'view_business_units', 'view_stores']);
    await createProductType(admin, P);
    shirt = await createProduct(admin, P, 'shirt');
    const created = await admin.ok(`/${P}/product-selections`, { key: 'summer', name: { en: 'Summer', de: 'Sommer' } }, 201);
    summer = await admin.update(`/${P}/product-selections/${created.id}`, created.version, [
      { action: 'addProduct', product: productRef(shirt), variantSelection: { type: 'includeOnly', skus: ['shirt-2'] } },
    ]);
    await admin.ok(`/${P}/product-selections`, { key: 'outlet', name: { en: 'Outlet' }, mode: 'IndividualExclusion' }, 201);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('reads a selection by id and by key, with its products and their variant selection', async () => {
    const byKey = await productViewer.gql(`{ productSelection(key: "summer") { ${SELECTION_FIELDS} } }`);
    expect(byKey.productSelection).toEqual({
      id: summer.id,
      key: 'summer',
      version: summer.version,
      mode: 'Individual',
      productCount: 1,
      name: 'Sommer',
      // A LocalizedString has no order (jsonb keeps its keys in an order of its own).
      nameAllLocales: expect.arrayContaining([
        { locale: 'en', value: 'Summer' },
        { locale: 'de', value: 'Sommer' },
      ]),
      productRefs: {
        total: 1,
        count: 1,
        exists: true,
        results: [
          {
            productRef: productRef(shirt),
            product: { key: 'shirt' },
            variantSelection: { __typename: 'ProductVariantSelectionIncludeOnly', type: 'includeOnly', skus: ['shirt-2'] },
            variantExclusion: null,
          },
        ],
      },
    });
    const byId = await viewer.gql(`{ productSelection(id: "${summer.id}") { key productRefs { results { product { key } } } } }`);
    // Without view_products the product itself is null; its reference is still there.
    expect(byId.productSelection).toEqual({ key: 'summer', productRefs: { results: [{ product: null }] } });
    expect((await viewer.gql('{ productSelection(key: "nowhere") { id } }')).productSelection).toBeNull();
  });

  it('queries selections with where, sort and paging', async () => {
    const all = await viewer.gql('{ productSelections(sort: ["key asc"]) { total count offset exists results { key mode } } }');
    expect(all.productSelections).toEqual({
      total: 2,
      count: 2,
      offset: 0,
      exists: true,
      results: [
        { key: 'outlet', mode: 'IndividualExclusion' },
        { key: 'summer', mode: 'Individual' },
      ],
    });
    const filtered = await viewer.gql('{ productSelections(where: "mode = \\"Individual\\"", limit: 1) { total results { key } } }');
    expect(filtered.productSelections).toEqual({ total: 1, results: [{ key: 'summer' }] });
    const paged = await viewer.gql('{ productSelections(sort: ["key asc"], limit: 1, offset: 1) { count results { key } } }');
    expect(paged.productSelections).toEqual({ count: 1, results: [{ key: 'summer' }] });
  });

  it("shows a Store's product selections through a business unit's stores", async () => {
    await admin.ok(`/${P}/stores`, { key: 'berlin', productSelections: [{ productSelection: { key: 'summer' }, active: true }] }, 201);
    await admin.ok(`/${P}/business-units`, { key: 'berlin-co', name: 'Berlin Co', unitType: 'Company', stores: [{ typeId: 'store', key: 'berlin' }] }, 201);
    const data = await productViewer.gql(
      '{ businessUnit(key: "berlin-co") { stores { key productSelections { active productSelectionRef { typeId id } productSelection { key } } } } }',
    );
    expect(data.businessUnit.stores).toEqual([
      {
        key: 'berlin',
        productSelections: [{ active: true, productSelectionRef: { typeId: 'product-selection', id: summer.id }, productSelection: { key: 'summer' } }],
      },
    ]);
  });

  it('needs view_product_selections, as REST does', async () => {
    const stranger = await apiClient(gateway, P, ['view_products']);
    for (const query of ['{ productSelection(key: "summer") { id } }', '{ productSelections { total } }']) {
      const error = await stranger.gqlError(query);
      expect(error.extensions.code, query).toBe('InsufficientScope');
    }
  });
});
