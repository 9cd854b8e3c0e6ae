/**
 * Products follow their ProductType's attribute changes (reference: types/product-type/updates/
 * ProductTypeRemoveAttributeDefinitionAction "deletes all corresponding Attributes on all Products",
 * …ChangeAttributeName… "renames all corresponding Attributes", …ChangeEnumKey…, …ChangePlainEnumValueLabel…,
 * …ChangeLocalizedEnumValueLabel… "All Products will be updated", …RemoveEnumValues… "the Attributes
 * of all Products using those enum keys will also be removed"): both data versions, a new product
 * version, products of other types untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { attribute } from '../product-types/drafts.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const SETUP_MS = 180_000;
const P = 'product-type-changes';

const enumValues = [
  { key: 'wood', label: 'Wood' },
  { key: 'steel', label: 'Steel' },
];
const finishes = [
  { key: 'matt', label: { en: 'Matt' } },
  { key: 'gloss', label: { en: 'Gloss' } },
];
const tagValues = [
  { key: 'eco', label: 'Eco' },
  { key: 'sale', label: 'Sale' },
];

/** The attribute named `name` of a variant or of ProductData, if it has one. */
const valueOf = (holder: Json, name: string): unknown => (holder.attributes as Json[]).find((found) => found.name === name)?.value;

describe('Products follow the attribute changes of their ProductType', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  async function productType(key: string): Promise<string> {
    const attributes = [
      attribute(`${key}-origin`, { name: 'text' }, { level: 'Product' }),
      attribute(`${key}-legacy`, { name: 'text' }),
      attribute(`${key}-material`, { name: 'enum', values: enumValues }),
      attribute(`${key}-finish`, { name: 'lenum', values: finishes }),
      attribute(`${key}-tags`, { name: 'set', elementType: { name: 'enum', values: tagValues } }),
    ];
    return (await admin.ok(`/${P}/product-types`, { key, name: key, description: key, attributes }, 201)).id as string;
  }

  /** A published product whose variants hold enum values as keys and as {key, label}, and a staged change on top. */
  async function productOf(key: string, slug: string): Promise<Json> {
    const created = await admin.ok(
      `/${P}/products`,
      {
        productType: { typeId: 'product-type', key },
        name: { en: slug },
        slug: { en: slug },
        attributes: [{ name: `${key}-origin`, value: 'Norway' }],
        masterVariant: {
          attributes: [
            { name: `${key}-legacy`, value: 'old' },
            { name: `${key}-material`, value: 'wood' },
            { name: `${key}-finish`, value: { key: 'matt', label: { en: 'Matt' } } },
            { name: `${key}-tags`, value: ['eco', 'sale'] },
          ],
        },
        variants: [
          {
            attributes: [
              { name: `${key}-material`, value: { key: 'steel', label: 'Steel' } },
              { name: `${key}-tags`, value: [{ key: 'eco', label: 'Eco' }] },
            ],
          },
        ],
        publish: true,
      },
      201,
    );
    const url = `/${P}/products/${created.id as string}`;
    return admin.update(url, 1, [{ action: 'setAttribute', variantId: 2, name: `${key}-legacy`, value: 'staged only' }]);
  }

  async function updateType(id: string, actions: Json[]): Promise<void> {
    const current = await admin.read(`/${P}/product-types/${id}`);
    await admin.update(`/${P}/product-types/${id}`, current.version as number, actions);
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_products', 'manage_product_types']);
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  it('renames and removes attributes in both data versions with a new product version; other types stay', async () => {
    const typeId = await productType('desks');
    await productType('shelves');
    const product = await productOf('desks', 'desk-renamed');
    const other = await productOf('shelves', 'shelf-untouched');
    await updateType(typeId, [
      { action: 'changeAttributeName', attributeName: 'desks-origin', newAttributeName: 'desks-made-in' },
      { action: 'removeAttributeDefinition', name: 'desks-legacy' },
    ]);

    const updated = await admin.read(`/${P}/products/${product.id as string}`);
    expect(updated.version).toBe(product.version + 1);
    for (const data of [updated.masterData.current, updated.masterData.staged]) {
      expect(data.attributes).toEqual([{ name: 'desks-made-in', value: 'Norway' }]);
      for (const variant of [data.masterVariant, ...data.variants]) expect(valueOf(variant, 'desks-legacy')).toBeUndefined();
    }
    expect(valueOf(updated.masterData.staged.masterVariant, 'desks-material')).toBe('wood');
    // The staged-only change is gone with its attribute: nothing differs any more.
    expect(updated.masterData.hasStagedChanges).toBe(false);
    expect(await admin.read(`/${P}/products/${other.id as string}`)).toEqual(other);

    // The product accepts actions under the new names and refuses the old ones.
    const url = `/${P}/products/${product.id as string}`;
    await admin.update(url, updated.version as number, [{ action: 'setProductAttribute', name: 'desks-made-in', value: 'Sweden' }]);
    const stale = await admin.post(url, { version: updated.version + 1, actions: [{ action: 'setProductAttribute', name: 'desks-origin', value: 'Sweden' }] });
    expect(stale.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
  });

  it('re-keys and relabels enum values, held as keys, as {key, label} or in sets', async () => {
    const typeId = await productType('stools');
    const product = await productOf('stools', 'stool-relabelled');
    await updateType(typeId, [
      { action: 'changeEnumKey', attributeName: 'stools-material', key: 'wood', newKey: 'oak' },
      { action: 'changePlainEnumValueLabel', attributeName: 'stools-material', newValue: { key: 'steel', label: 'Stainless steel' } },
      { action: 'changeLocalizedEnumValueLabel', attributeName: 'stools-finish', newValue: { key: 'matt', label: { en: 'Matte', de: 'Matt' } } },
      { action: 'changeEnumKey', attributeName: 'stools-tags', key: 'eco', newKey: 'green' },
    ]);

    const { masterData } = await admin.read(`/${P}/products/${product.id as string}`);
    for (const data of [masterData.current, masterData.staged]) {
      expect(valueOf(data.masterVariant, 'stools-material')).toBe('oak');
      expect(valueOf(data.masterVariant, 'stools-finish')).toEqual({ key: 'matt', label: { en: 'Matte', de: 'Matt' } });
      expect(valueOf(data.masterVariant, 'stools-tags')).toEqual(['green', 'sale']);
      expect(valueOf(data.variants[0], 'stools-material')).toEqual({ key: 'steel', label: 'Stainless steel' });
      expect(valueOf(data.variants[0], 'stools-tags')).toEqual([{ key: 'green', label: 'Eco' }]);
    }
  });

  it('removes the attributes that use removed enum values; a ProductType change without attribute effects leaves products alone', async () => {
    const typeId = await productType('benches');
    const product = await productOf('benches', 'bench-pruned');
    await updateType(typeId, [{ action: 'changeName', name: 'Benches' }]);
    expect((await admin.read(`/${P}/products/${product.id as string}`)).version).toBe(product.version);

    await updateType(typeId, [
      { action: 'removeEnumValues', attributeName: 'benches-tags', keys: ['sale'] },
      { action: 'removeEnumValues', attributeName: 'benches-material', keys: ['steel'] },
    ]);
    const { masterData, version } = await admin.read(`/${P}/products/${product.id as string}`);
    expect(version).toBe(product.version + 1);
    for (const data of [masterData.current, masterData.staged]) {
      // The master variant's set used `sale`: the attribute is removed; the other variant's set did not.
      expect(valueOf(data.masterVariant, 'benches-tags')).toBeUndefined();
      expect(valueOf(data.masterVariant, 'benches-material')).toBe('wood');
      expect(valueOf(data.variants[0], 'benches-tags')).toEqual([{ key: 'eco', label: 'Eco' }]);
      expect(valueOf(data.variants[0], 'benches-material')).toBeUndefined();
    }
  });
});
