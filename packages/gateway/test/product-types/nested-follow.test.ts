/**
 * Issue 28: a ProductType's renamed, removed, re-keyed and relabelled attributes and enum values
 * reach the values of that type nested in other types' products (AttributeNestedType: "the nested
 * Attributes are defined by the referenced ProductType"), in sets of nested values and at any depth
 * of nesting, in the current and the staged data, as they reach the type's own products
 * (products/follow-product-type.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { attribute } from './drafts.js';

const P = 'product-type-nested-follow';

const nestedOf = (productType: Json): Json => ({ name: 'nested', typeReference: { typeId: 'product-type', id: productType.id } });

/** A ProductDraft of the type `productTypeKey`, published, whose master variant holds `attributes`. */
function product(key: string, productTypeKey: string, attributes: Json[]): Json {
  return {
    key,
    productType: { typeId: 'product-type', key: productTypeKey },
    name: { en: key },
    slug: { en: key },
    masterVariant: { sku: `${key}-1`, attributes },
    publish: true,
  };
}

/** A value of the `dimensions` type (the enum value as answers show it, so that a label can change). */
const dimensions = (unit: string, width: number): Json[] => [
  { name: 'unit', value: { key: unit, label: unit } },
  { name: 'width', value: width },
  { name: 'note', value: `${width} ${unit}` },
];

describe('nested values follow the changes of their ProductType', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let dimensionType: Json;

  /** The master variant's attributes of product `key`, in the current and the staged data. */
  const attributesOf = async (key: string): Promise<{ current: Json[]; staged: Json[] }> => {
    const { masterData } = await admin.read(`/${P}/products/key=${key}`);
    return { current: masterData.current.masterVariant.attributes, staged: masterData.staged.masterVariant.attributes };
  };
  const valueOf = (attributes: Json[], name: string): unknown => attributes.find((each) => each.name === name)?.value;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_types', 'manage_products']);
    const units = [
      { key: 'cm', label: 'Centimetre' },
      { key: 'in', label: 'Inch' },
      { key: 'mm', label: 'Millimetre' },
    ];
    dimensionType = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'dimensions',
        name: 'Dimensions',
        description: 'Nested only',
        attributes: [attribute('unit', { name: 'enum', values: units }), attribute('width', { name: 'number' }), attribute('note', { name: 'text' })],
      },
      201,
    );
    const boxType = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'boxes',
        name: 'Boxes',
        description: 'Nest dimensions',
        attributes: [attribute('size', nestedOf(dimensionType)), attribute('sizes', { name: 'set', elementType: nestedOf(dimensionType) })],
      },
      201,
    );
    await admin.ok(
      `/${P}/product-types`,
      { key: 'pallets', name: 'Pallets', description: 'Nest boxes', attributes: [attribute('box', nestedOf(boxType))] },
      201,
    );
    await admin.ok(
      `/${P}/products`,
      product('box', 'boxes', [
        { name: 'size', value: dimensions('cm', 10) },
        { name: 'sizes', value: [dimensions('cm', 20), dimensions('in', 30)] },
      ]),
      201,
    );
    await admin.ok(`/${P}/products`, product('pallet', 'pallets', [{ name: 'box', value: [{ name: 'size', value: dimensions('mm', 40) }] }]), 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  it('renames, re-keys and removes in nested values, sets of them and nested values of nested values, current and staged', async () => {
    await admin.update(`/${P}/product-types/${dimensionType.id as string}`, dimensionType.version, [
      { action: 'changeAttributeName', attributeName: 'width', newAttributeName: 'breadth' },
      { action: 'changeEnumKey', attributeName: 'unit', key: 'cm', newKey: 'centimetre' },
      { action: 'changeEnumKey', attributeName: 'unit', key: 'mm', newKey: 'millimetre' },
      { action: 'removeAttributeDefinition', name: 'note' },
    ]);
    const renamed = (unit: string, breadth: number) => [
      { name: 'unit', value: expect.objectContaining({ key: unit }) },
      { name: 'breadth', value: breadth },
    ];
    const box = await attributesOf('box');
    for (const attributes of [box.current, box.staged]) {
      expect(valueOf(attributes, 'size')).toEqual(renamed('centimetre', 10));
      expect(valueOf(attributes, 'sizes')).toEqual([renamed('centimetre', 20), renamed('in', 30)]);
    }
    const pallet = await attributesOf('pallet');
    for (const attributes of [pallet.current, pallet.staged]) {
      expect(valueOf(attributes, 'box')).toEqual([{ name: 'size', value: renamed('millimetre', 40) }]);
    }
    const { masterData } = await admin.read(`/${P}/products/key=pallet`);
    expect(masterData.hasStagedChanges).toBe(false);
  });

  it('relabels enum values and drops the nested attributes of removed enum values', async () => {
    const current = await admin.read(`/${P}/product-types/${dimensionType.id as string}`);
    await admin.update(`/${P}/product-types/${dimensionType.id as string}`, current.version, [
      { action: 'changePlainEnumValueLabel', attributeName: 'unit', newValue: { key: 'in', label: 'Inches' } },
      { action: 'removeEnumValues', attributeName: 'unit', keys: ['millimetre'] },
    ]);
    const box = await attributesOf('box');
    expect(valueOf(box.current, 'sizes')).toEqual([
      [expect.objectContaining({ name: 'unit' }), { name: 'breadth', value: 20 }],
      [
        { name: 'unit', value: { key: 'in', label: 'Inches' } },
        { name: 'breadth', value: 30 },
      ],
    ]);
    const pallet = await attributesOf('pallet');
    expect(valueOf(pallet.current, 'box')).toEqual([{ name: 'size', value: [{ name: 'breadth', value: 40 }] }]);
  });
});
