/**
 * Issue 28: the ProductType rules that depend on products (reference: ProductTypeRemoveEnumValuesAction
 * "if the Attribute is required, the operation returns an EnumValueIsUsed error"; deleting a
 * ProductType that products use is a ReferenceExists), with products made through `/products`;
 * removed values of an attribute that is not required leave the products (products/follow-product-type.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { attribute } from './drafts.js';

const P = 'product-type-usage';
const colours = ['red', 'green', 'blue', 'white'].map((key) => ({ key, label: key }));

/** A ProductDraft of the type `key` whose master variant holds `attributes`. */
function product(key: string, productTypeKey: string, attributes: Json[]): Json {
  return {
    key,
    productType: { typeId: 'product-type', key: productTypeKey },
    name: { en: key },
    slug: { en: key },
    masterVariant: { sku: `${key}-1`, attributes },
  };
}

describe('ProductType rules that depend on its products', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let productType: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_types', 'manage_products']);
    productType = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'shirts',
        name: 'Shirts',
        description: 'With colours',
        attributes: [
          attribute('colour', { name: 'enum', values: colours }, { isRequired: true }),
          attribute('sizes', { name: 'set', elementType: { name: 'lenum', values: ['s', 'm', 'l'].map((key) => ({ key, label: { en: key } })) } }),
        ],
      },
      201,
    );
    await admin.ok(
      `/${P}/product-types`,
      { key: 'mugs', name: 'Mugs', description: 'Also coloured', attributes: [attribute('colour', { name: 'enum', values: colours })] },
      201,
    );
    await admin.ok(
      `/${P}/products`,
      product('red-shirt', 'shirts', [
        { name: 'colour', value: 'red' },
        { name: 'sizes', value: ['s'] },
      ]),
      201,
    );
    // Green only in the current data: published green, then staged red.
    const green = await admin.ok(`/${P}/products`, { ...product('green-shirt', 'shirts', [{ name: 'colour', value: 'green' }]), publish: true }, 201);
    await admin.update(`/${P}/products/${green.id as string}`, green.version, [{ action: 'setAttribute', sku: 'green-shirt-1', name: 'colour', value: 'red' }]);
    // Another ProductType's product with the same attribute name does not count.
    await admin.ok(`/${P}/products`, product('blue-mug', 'mugs', [{ name: 'colour', value: 'blue' }]), 201);
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

  it('removes used values of an attribute that is not required: the products lose them', async () => {
    const answer = await update([{ action: 'removeEnumValues', attributeName: 'sizes', keys: ['s'] }]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    productType = answer.body;
    const shirt = await admin.read(`/${P}/products/key=red-shirt`);
    for (const data of [shirt.masterData.current, shirt.masterData.staged]) {
      expect(data.masterVariant.attributes.find((each: Json) => each.name === 'sizes')?.value ?? []).toEqual([]);
    }
  });

  it('refuses to delete a ProductType that products use (400 ReferenceExists)', async () => {
    const refused = await admin.delete(`/${P}/product-types/${productType.id as string}?version=${productType.version as number}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'product' });
    expect((await admin.get(`/${P}/product-types/${productType.id as string}`)).status).toBe(200);
  });
});
