/**
 * Product update actions on embedded prices and product data (reference: types/product/updates/
 * ProductSetDiscountedPriceAction, …SetProductPriceCustomType…, …SetProductPriceCustomField…,
 * …SetProductAttribute…, …SetSku…, ProductLegacySetSkuAction): the staged data or both, refusals
 * with the reference's error codes, the messages in order, and what reaches an SQS subscription.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, type Caller, type Json } from '../carts/commerce.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'product-price-extras';

const textAttribute = (name: string, level: 'Product' | 'Variant'): Json => ({
  name,
  label: { en: name },
  type: { name: 'text' },
  isRequired: false,
  level,
  attributeConstraint: 'None',
  inputHint: 'SingleLine',
  isSearchable: true,
});

const productDiscount = (key: string, sortOrder: string, extra: Json = {}): Json => ({
  key,
  name: { en: key },
  value: { type: 'external' },
  predicate: '1 = 1',
  sortOrder,
  isActive: true,
  ...extra,
});

describe('Product actions: discounted prices, price custom fields, product attributes, SKUs', { timeout: 120_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let admin: Caller;
  const discounts: Record<string, string> = {};

  /** A published `chairs` product with a keyed variant 2 and one EUR price on each variant. */
  async function chair(key: string): Promise<{ url: string; product: Json; masterPrice: string; secondPrice: string }> {
    const product = await admin.ok(
      `/${P}/products`,
      {
        key,
        productType: { typeId: 'product-type', key: 'chairs' },
        name: { en: `Chair ${key}` },
        slug: { en: key },
        masterVariant: { sku: `${key}-1`, key: `${key}-v1`, prices: [{ value: eur(10_000) }] },
        variants: [{ sku: `${key}-2`, key: `${key}-v2`, prices: [{ value: eur(12_000) }, { value: { currencyCode: 'USD', centAmount: 13_000 } }] }],
        publish: true,
      },
      201,
    );
    return {
      url: `/${P}/products/${product.id as string}`,
      product,
      masterPrice: product.masterData.staged.masterVariant.prices[0].id as string,
      secondPrice: product.masterData.staged.variants[0].prices[0].id as string,
    };
  }

  async function refused(url: string, version: number, action: Json): Promise<string> {
    const answer = await admin.post(url, { version, actions: [action] });
    expect(answer.status, JSON.stringify(action)).toBe(400);
    expect(answer.body.statusCode).toBe(400);
    return answer.body.errors[0].code as string;
  }

  async function messagesOf(id: string): Promise<Json[]> {
    const where = encodeURIComponent(`resource(id = "${id}")`);
    return (await admin.read(`/${P}/messages?where=${where}&sort=sequenceNumber&limit=100`)).results as Json[];
  }

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_products',
      'manage_product_types',
      'manage_product_discounts',
      'manage_types',
      'manage_subscriptions',
      'view_messages',
    ]);
    ({ sqs, admin } = setup);
    const attributes = [textAttribute('brand', 'Product'), textAttribute('colour', 'Variant')];
    await admin.ok(`/${P}/product-types`, { key: 'chairs', name: 'Chairs', description: 'Chairs', attributes }, 201);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'price-notes',
        name: { en: 'Price notes' },
        resourceTypeIds: ['product-price'],
        fieldDefinitions: [
          { name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' },
          { name: 'rank', label: { en: 'Rank' }, required: false, type: { name: 'Number' } },
        ],
      },
      201,
    );
    await admin.ok(`/${P}/types`, { key: 'asset-notes', name: { en: 'Asset notes' }, resourceTypeIds: ['asset'], fieldDefinitions: [] }, 201);
    for (const [key, sortOrder, extra] of [
      ['summer', '0.1', {}],
      ['second-only', '0.2', { predicate: 'variant.id = 2' }],
      ['paused', '0.3', { isActive: false }],
      ['expired', '0.4', { validUntil: '2020-01-01T00:00:00.000Z' }],
      ['tenth-off', '0.5', { value: { type: 'relative', permyriad: 1000 } }],
    ] as const) {
      discounts[key] = (await admin.ok(`/${P}/product-discounts`, productDiscount(key, sortOrder, extra), 201)).id as string;
    }
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('sets and removes the external discounted price of an embedded price, staged or in both data versions', async () => {
    const { url, product, masterPrice, secondPrice } = await chair('discounted');
    const summer = { typeId: 'product-discount', id: discounts.summer };
    let updated = await admin.update(url, 1, [{ action: 'setDiscountedPrice', priceId: masterPrice, discounted: { value: eur(8_000), discount: summer } }]);
    const discounted = { value: { type: 'centPrecision', currencyCode: 'EUR', centAmount: 8_000, fractionDigits: 2 }, discount: summer };
    expect(updated.version).toBe(2);
    expect(updated.masterData.staged.masterVariant.prices[0].discounted).toEqual(discounted);
    expect(updated.masterData.current.masterVariant.prices[0].discounted).toBeUndefined();
    expect(updated.masterData.hasStagedChanges).toBe(true);

    // By key, in both data versions; the predicate `variant.id = 2` matches the second variant's price.
    const byKey = { typeId: 'product-discount', key: 'second-only' };
    updated = await admin.update(url, 2, [
      { action: 'setDiscountedPrice', priceId: secondPrice, staged: false, discounted: { value: eur(9_000), discount: byKey } },
    ]);
    const secondDiscount = { typeId: 'product-discount', id: discounts['second-only'] };
    expect(updated.masterData.staged.variants[0].prices[0].discounted).toMatchObject({ value: { centAmount: 9_000 }, discount: secondDiscount });
    expect(updated.masterData.current.variants[0].prices[0].discounted).toMatchObject({ value: { centAmount: 9_000 }, discount: secondDiscount });

    // Without `discounted` the staged discounted price is removed.
    updated = await admin.update(url, 3, [{ action: 'setDiscountedPrice', priceId: masterPrice }]);
    expect(updated.masterData.staged.masterVariant.prices[0].discounted).toBeUndefined();
    expect(updated.masterData.hasStagedChanges).toBe(false);

    const messages = await messagesOf(product.id as string);
    expect(messages.map(({ type }) => type)).toEqual([
      'ProductCreated',
      'ProductPriceExternalDiscountSet',
      'ProductPriceExternalDiscountSet',
      'ProductPriceExternalDiscountSet',
    ]);
    expect(messages[1]).toMatchObject({ variantId: 1, variantKey: 'discounted-v1', sku: 'discounted-1', priceId: masterPrice, discounted, staged: true });
    expect(messages[2]).toMatchObject({ variantId: 2, variantKey: 'discounted-v2', sku: 'discounted-2', priceId: secondPrice, staged: false });
    expect(messages[3]).toMatchObject({ variantId: 1, priceId: masterPrice, staged: true });
    expect(messages[3]).not.toHaveProperty('discounted');
  });

  it('refuses a discounted price that is not of an active, matching, external product discount in the price currency', async () => {
    const { url, masterPrice } = await chair('undiscounted');
    const action = (discount: Json, extra: Json = {}): Json => ({
      action: 'setDiscountedPrice',
      priceId: masterPrice,
      discounted: { value: eur(5_000), discount },
      ...extra,
    });
    const byKey = (key: string): Json => ({ typeId: 'product-discount', key });
    expect(await refused(url, 1, action(byKey('tenth-off')))).toBe('InvalidInput');
    expect(await refused(url, 1, action(byKey('paused')))).toBe('InvalidInput');
    expect(await refused(url, 1, action(byKey('expired')))).toBe('InvalidInput');
    expect(await refused(url, 1, action(byKey('second-only')))).toBe('InvalidInput');
    expect(await refused(url, 1, action(byKey('no-such-discount')))).toBe('ReferencedResourceNotFound');
    expect(await refused(url, 1, action({ typeId: 'category', key: 'summer' }))).toBe('InvalidInput');
    expect(await refused(url, 1, { action: 'setDiscountedPrice', priceId: masterPrice, discounted: { value: eur(5_000) } })).toBe('InvalidInput');
    const inDollars = {
      action: 'setDiscountedPrice',
      priceId: masterPrice,
      discounted: { value: { currencyCode: 'USD', centAmount: 1 }, discount: byKey('summer') },
    };
    const answer = await admin.post(url, { version: 1, actions: [inDollars] });
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field: 'discounted.value.currencyCode' }] });
    expect(await refused(url, 1, action(byKey('summer'), { priceId: 'no-such-price' }))).toBe('InvalidOperation');
    expect(await refused(url, 1, action(byKey('summer'), { priceId: undefined }))).toBe('InvalidInput');
    expect(await refused(url, 1, action(byKey('summer'), { staged: 'no' }))).toBe('InvalidInput');
    expect((await admin.read(url)).version).toBe(1);
  });

  it('sets the custom type and fields of an embedded price with the ProductPrice custom messages', async () => {
    const { url, product, secondPrice } = await chair('noted');
    const type = { typeId: 'type', key: 'price-notes' };
    let updated = await admin.update(url, 1, [
      { action: 'setProductPriceCustomType', priceId: secondPrice, type, fields: { note: 'launch' } },
      { action: 'setProductPriceCustomField', priceId: secondPrice, name: 'rank', value: 3 },
      { action: 'setProductPriceCustomField', priceId: secondPrice, name: 'note', value: 'relaunch' },
      { action: 'setProductPriceCustomField', priceId: secondPrice, name: 'rank' },
    ]);
    const typeId = (await admin.read(`/${P}/types/key=price-notes`)).id as string;
    expect(updated.masterData.staged.variants[0].prices[0].custom).toEqual({ type: { typeId: 'type', id: typeId }, fields: { note: 'relaunch' } });
    expect(updated.masterData.current.variants[0].prices[0].custom).toBeUndefined();

    updated = await admin.update(url, 2, [{ action: 'setProductPriceCustomType', priceId: secondPrice, type, fields: { rank: 1 }, staged: false }]);
    expect(updated.masterData.staged.variants[0].prices[0].custom.fields).toEqual({ rank: 1 });
    expect(updated.masterData.current.variants[0].prices[0].custom.fields).toEqual({ rank: 1 });
    updated = await admin.update(url, 3, [{ action: 'setProductPriceCustomType', priceId: secondPrice }]);
    expect(updated.masterData.staged.variants[0].prices[0].custom).toBeUndefined();
    expect(updated.masterData.current.variants[0].prices[0].custom.fields).toEqual({ rank: 1 });

    const messages = await messagesOf(product.id as string);
    const where = { variantId: 2, priceId: secondPrice };
    expect(messages.map(({ type: messageType }) => messageType)).toEqual([
      'ProductCreated',
      'ProductPriceCustomFieldsSet',
      'ProductPriceCustomFieldAdded',
      'ProductPriceCustomFieldChanged',
      'ProductPriceCustomFieldRemoved',
      'ProductPriceCustomFieldsSet',
      'ProductPriceCustomFieldsRemoved',
    ]);
    expect(messages[1]).toMatchObject({ ...where, staged: true, customField: { type: { typeId: 'type', id: typeId }, fields: { note: 'launch' } } });
    expect(messages[1]).not.toHaveProperty('oldTypeId');
    expect(messages[2]).toMatchObject({ ...where, staged: true, name: 'rank', value: 3 });
    expect(messages[3]).toMatchObject({ ...where, staged: true, name: 'note', value: 'relaunch' });
    expect(messages[3]).not.toHaveProperty('oldValue');
    expect(messages[4]).toMatchObject({ ...where, staged: true, name: 'rank' });
    expect(messages[5]).toMatchObject({ ...where, staged: false, oldTypeId: typeId, customField: { fields: { rank: 1 } } });
    expect(messages[6]).toMatchObject({ ...where, staged: true });
  });

  it('refuses bad price custom fields with the official error codes', async () => {
    const { url, masterPrice } = await chair('unnoted');
    const type = { typeId: 'type', key: 'price-notes' };
    expect(await refused(url, 1, { action: 'setProductPriceCustomType', priceId: masterPrice, type: { typeId: 'type', key: 'asset-notes' } })).toBe(
      'InvalidInput',
    );
    expect(await refused(url, 1, { action: 'setProductPriceCustomType', priceId: masterPrice, type, fields: { rank: 'high' } })).toBe('InvalidInput');
    expect(await refused(url, 1, { action: 'setProductPriceCustomType', priceId: masterPrice, type, fields: { colour: 'red' } })).toBe('InvalidInput');
    expect(await refused(url, 1, { action: 'setProductPriceCustomType', priceId: 'no-such-price', type })).toBe('InvalidOperation');
    // No custom type yet.
    expect(await refused(url, 1, { action: 'setProductPriceCustomField', priceId: masterPrice, name: 'note', value: 'x' })).toBe('InvalidInput');
    await admin.update(url, 1, [{ action: 'setProductPriceCustomType', priceId: masterPrice, type }]);
    // "Removing a field that does not exist returns an InvalidOperation error."
    expect(await refused(url, 2, { action: 'setProductPriceCustomField', priceId: masterPrice, name: 'note' })).toBe('InvalidOperation');
    expect(await refused(url, 2, { action: 'setProductPriceCustomField', priceId: masterPrice, name: 'rank', value: 'high' })).toBe('InvalidInput');
    expect(await refused(url, 2, { action: 'setProductPriceCustomField', priceId: masterPrice, value: 'x' })).toBe('InvalidInput');
  });

  it('keeps the custom fields of PriceDrafts in product drafts and addPrice, checked against their Type', async () => {
    const { url } = await chair('drafted');
    const typeId = (await admin.read(`/${P}/types/key=price-notes`)).id as string;
    const custom = { type: { typeId: 'type', key: 'price-notes' }, fields: { note: 'list price', rank: 2 } };
    const updated = await admin.update(url, 1, [{ action: 'addPrice', variantId: 1, price: { value: eur(1_000), country: 'DE', custom } }]);
    expect(updated.masterData.staged.masterVariant.prices[1].custom).toEqual({ type: { typeId: 'type', id: typeId }, fields: { note: 'list price', rank: 2 } });
    const created = await admin.ok(
      `/${P}/products`,
      {
        productType: { typeId: 'product-type', key: 'chairs' },
        name: { en: 'Custom priced' },
        slug: { en: 'custom-priced' },
        masterVariant: { prices: [{ value: eur(500), custom }] },
      },
      201,
    );
    expect(created.masterData.staged.masterVariant.prices[0].custom.fields).toEqual({ note: 'list price', rank: 2 });

    const wrongType = { value: eur(1_000), custom: { type: { typeId: 'type', key: 'asset-notes' } } };
    expect(await refused(url, 2, { action: 'addPrice', variantId: 1, price: wrongType })).toBe('InvalidInput');
    const wrongValue = { value: eur(1_000), custom: { ...custom, fields: { rank: 'high' } } };
    expect(await refused(url, 2, { action: 'addPrice', variantId: 1, price: wrongValue })).toBe('InvalidInput');
    const unknownType = { value: eur(1_000), custom: { type: { typeId: 'type', key: 'no-such-type' } } };
    // As every resource's custom type (shared/custom-fields.ts): a Type that does not exist is InvalidInput naming the field.
    expect(await refused(url, 2, { action: 'addPrice', variantId: 1, price: unknownType })).toBe('InvalidInput');
  });

  it('sets and removes a Product-level attribute of the staged data or both; a Variant-level name is refused', async () => {
    const { url, product } = await chair('branded');
    let updated = await admin.update(url, 1, [{ action: 'setProductAttribute', name: 'brand', value: 'Herald' }]);
    expect(updated.version).toBe(2);
    expect(updated.masterData.staged.attributes).toEqual([{ name: 'brand', value: 'Herald' }]);
    expect(updated.masterData.current.attributes).toEqual([]);
    expect(updated.masterData.staged.masterVariant.attributes).toEqual([]);
    updated = await admin.update(url, 2, [{ action: 'setProductAttribute', name: 'brand', value: 'Herald Co', staged: false }]);
    expect(updated.masterData.staged.attributes).toEqual([{ name: 'brand', value: 'Herald Co' }]);
    expect(updated.masterData.current.attributes).toEqual([{ name: 'brand', value: 'Herald Co' }]);
    updated = await admin.update(url, 3, [{ action: 'setProductAttribute', name: 'brand' }]);
    expect(updated.masterData.staged.attributes).toEqual([]);
    expect(updated.masterData.current.attributes).toEqual([{ name: 'brand', value: 'Herald Co' }]);

    expect(await refused(url, 4, { action: 'setProductAttribute', name: 'colour', value: 'red' })).toBe('InvalidInput');
    expect(await refused(url, 4, { action: 'setProductAttribute', name: 'brand', value: 7 })).toBe('InvalidInput');
    expect(await refused(url, 4, { action: 'setProductAttribute', value: 'Herald' })).toBe('InvalidInput');
    // setAttribute stays Variant-level: the Product-level name is not a variant's.
    expect(await refused(url, 4, { action: 'setAttribute', variantId: 1, name: 'brand', value: 'Herald' })).toBe('InvalidInput');
    // No message in the reference.
    expect((await messagesOf(product.id as string)).map(({ type }) => type)).toEqual(['ProductCreated']);
  });

  it('sets SKUs with setSku (staged by default) and the deprecated setSKU (both data versions)', async () => {
    const { url } = await chair('skus');
    let updated = await admin.update(url, 1, [{ action: 'setSku', variantId: 2, sku: 'skus-second' }]);
    expect(updated.masterData.staged.variants[0].sku).toBe('skus-second');
    expect(updated.masterData.current.variants[0].sku).toBe('skus-2');
    updated = await admin.update(url, 2, [{ action: 'setSKU', variantId: 1, sku: 'skus-first' }]);
    expect(updated.masterData.staged.masterVariant.sku).toBe('skus-first');
    expect(updated.masterData.current.masterVariant.sku).toBe('skus-first');
    updated = await admin.update(url, 3, [{ action: 'setSKU', variantId: 2 }]);
    expect(updated.masterData.staged.variants[0].sku).toBeUndefined();
    expect(updated.masterData.current.variants[0].sku).toBeUndefined();

    expect(await refused(url, 4, { action: 'setSKU', sku: 'x' })).toBe('InvalidInput');
    expect(await refused(url, 4, { action: 'setSKU', variantId: 9, sku: 'x' })).toBe('InvalidOperation');
    expect(await refused(url, 4, { action: 'setSKU', variantId: 2, sku: 'skus-first' })).toBe('InvalidInput');
    // A SKU of another product is taken project-wide.
    await chair('other');
    expect(await refused(url, 4, { action: 'setSKU', variantId: 2, sku: 'other-1' })).toBe('DuplicateField');
  });

  it('delivers the price messages in order with the change notifications to an SQS subscription', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'product');
    const { product, masterPrice } = await chair('delivered');
    const id = product.id as string;
    const url = `/${P}/products/${id}`;
    const summer = { typeId: 'product-discount', key: 'summer' };
    await admin.update(url, 1, [
      { action: 'setDiscountedPrice', priceId: masterPrice, discounted: { value: eur(7_000), discount: summer }, staged: false },
      { action: 'setProductAttribute', name: 'brand', value: 'Herald' },
    ]);
    await admin.update(url, 2, [
      { action: 'setProductPriceCustomType', priceId: masterPrice, type: { typeId: 'type', key: 'price-notes' } },
      { action: 'setProductPriceCustomField', priceId: masterPrice, name: 'note', value: 'sale' },
    ]);

    const messages = ['ProductCreated', 'ProductPriceExternalDiscountSet', 'ProductPriceCustomFieldsSet', 'ProductPriceCustomFieldAdded'];
    const documents = await deliveriesAbout(sqs, queue, id, messages.length + 3);
    expect(labels(documents)).toEqual(
      [
        ...messages.map((type, index) => `product:${id}:Message:${type}:${index + 1}`),
        `product:${id}:ResourceCreated:1`,
        `product:${id}:ResourceUpdated:2`,
        `product:${id}:ResourceUpdated:3`,
      ].sort(),
    );
    const payloads = documents
      .map(payloadOf)
      .filter((payload) => payload.notificationType === 'Message')
      .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    expect(payloads.map((payload) => [payload.type, payload.resourceVersion])).toEqual([
      ['ProductCreated', 1],
      ['ProductPriceExternalDiscountSet', 2],
      ['ProductPriceCustomFieldsSet', 3],
      ['ProductPriceCustomFieldAdded', 3],
    ]);
    expect(payloads[1]).toMatchObject({ variantId: 1, priceId: masterPrice, staged: false, discounted: { value: { centAmount: 7_000 } } });
    expect(payloads[3]).toMatchObject({ variantId: 1, priceId: masterPrice, staged: true, name: 'note', value: 'sale' });
  });
});
