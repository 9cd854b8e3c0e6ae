/**
 * Issue 28: the ProductType rules that depend on products (reference: ProductTypeRemoveEnumValuesAction
 * "if the Attribute is required, the operation returns an EnumValueIsUsed error"; deleting a
 * ProductType that products use is a ReferenceExists). Herald has no products endpoint yet, so
 * the products are written through the store's public DocumentStore, in the reference's Product
 * shape (types/product/Product.raml: masterData.current/staged, masterVariant, variants,
 * attributes {name, value}): the contract the products slice stores its documents in.
 */
import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { attribute } from './drafts.js';

const P = 'product-type-usage';

/** A Product of `productTypeId` whose staged master variant (and current variants) hold `attributes`. */
function product(productTypeId: string, staged: Json[], currentVariants: Json[] = []): Json {
  const data = (master: Json[], variants: Json[][]) => ({
    name: { en: 'P' },
    slug: { en: `p-${Math.random().toString(36).slice(2)}` },
    categories: [],
    masterVariant: { id: 1, attributes: master },
    variants: variants.map((attributes, index) => ({ id: index + 2, attributes })),
  });
  return {
    productType: { typeId: 'product-type', id: productTypeId },
    masterData: { published: false, hasStagedChanges: true, current: data([], [currentVariants]), staged: data(staged, []) },
  };
}

describe('ProductType rules that depend on its products', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let documents: DocumentStore;
  let productType: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_types']);
    documents = new DocumentStore(gateway.db);
    productType = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'shirts',
        name: 'Shirts',
        description: 'With colours',
        attributes: [
          attribute('colour', { name: 'enum', values: ['red', 'green', 'blue', 'white'].map((key) => ({ key, label: key })) }, { isRequired: true }),
          attribute('sizes', { name: 'set', elementType: { name: 'lenum', values: ['s', 'm', 'l'].map((key) => ({ key, label: { en: key } })) } }),
        ],
      },
      201,
    );
    await documents.create(
      { projectKey: P },
      'product',
      product(productType.id as string, [
        { name: 'colour', value: { key: 'red', label: 'red' } },
        { name: 'sizes', value: [{ key: 's', label: { en: 's' } }] },
      ]),
    );
    // An enum value given as its key (as drafts send it), in a variant of the current data.
    await documents.create({ projectKey: P }, 'product', product(productType.id as string, [], [{ name: 'colour', value: 'green' }]));
    // Another ProductType's product with the same attribute name does not count.
    await documents.create({ projectKey: P }, 'product', product('another-type', [{ name: 'colour', value: { key: 'blue', label: 'blue' } }]));
  }, 120_000);
  afterAll(() => gateway?.close());

  const update = (actions: Json[]) => admin.post(`/${P}/product-types/${productType.id as string}`, { version: productType.version, actions });

  it('refuses to remove values of a required attribute that products use (EnumValueIsUsed), in the current and the staged data', async () => {
    for (const key of ['red', 'green']) {
      const answer = await update([{ action: 'removeEnumValues', attributeName: 'colour', keys: [key, 'white'] }]);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: 'EnumValueIsUsed' });
      expect(answer.body.errors[0].message).toContain(key);
    }
  });

  it('removes values of a required attribute that no product of this type uses', async () => {
    const answer = await update([{ action: 'removeEnumValues', attributeName: 'colour', keys: ['blue', 'white'] }]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    productType = answer.body;
    expect(productType.attributes[0].type.values.map((value: Json) => value.key)).toEqual(['red', 'green']);
  });

  it('removes used values of an attribute that is not required (the products lose them: the products slice)', async () => {
    const answer = await update([{ action: 'removeEnumValues', attributeName: 'sizes', keys: ['s'] }]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    productType = answer.body;
  });

  it('refuses to delete a ProductType that products use (400 ReferenceExists)', async () => {
    const refused = await admin.delete(`/${P}/product-types/${productType.id as string}?version=${productType.version as number}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'product' });
    expect((await admin.get(`/${P}/product-types/${productType.id as string}`)).status).toBe(200);
  });
});
