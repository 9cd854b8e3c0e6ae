/**
 * Product update actions beyond the first set (reference: types/product/updates/
 * ProductSetSearchKeywordsAction, …SetCategoryOrderHint…, …SetProductVariantKey…, …SetPriceKey…,
 * …SetPriceMode…, …RevertStagedVariantChanges…): their effect on the staged data or both,
 * version bumps, refusals with the reference's error codes, and their messages in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const SETUP_MS = 180_000;
const P = 'product-more-actions';

describe('Product update actions: keywords, order hints, keys, price mode, variant revert', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let categoryId: string;

  /** A published product of the attribute-free `lamps` type, in the `lights` category, with a keyed variant 2 and keyed prices. */
  async function lamp(key: string): Promise<{ url: string; product: Json }> {
    const product = await admin.ok(
      `/${P}/products`,
      {
        key,
        productType: { typeId: 'product-type', key: 'lamps' },
        name: { en: `Lamp ${key}` },
        slug: { en: key },
        categories: [{ typeId: 'category', id: categoryId }],
        masterVariant: {
          sku: `${key}-1`,
          key: `${key}-v1`,
          prices: [
            { key: 'base', value: eur(900) },
            { key: 'sale', value: eur(700) },
          ],
        },
        variants: [{ sku: `${key}-2`, key: `${key}-v2` }],
        publish: true,
      },
      201,
    );
    return { url: `/${P}/products/${product.id as string}`, product };
  }

  async function refused(url: string, version: number, action: Json): Promise<string> {
    const answer = await admin.post(url, { version, actions: [action] });
    expect(answer.status, JSON.stringify(action)).toBe(400);
    return answer.body.errors[0].code as string;
  }

  async function messagesOf(product: Json): Promise<Json[]> {
    const where = encodeURIComponent(`resource(id = "${product.id as string}")`);
    const page = await admin.read(`/${P}/messages?where=${where}&sort=sequenceNumber&limit=100`);
    return page.results as Json[];
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_products', 'manage_product_types', 'manage_categories', 'view_messages']);
    await admin.ok(`/${P}/product-types`, { key: 'lamps', name: 'Lamps', description: 'Lamps', attributes: [] }, 201);
    categoryId = (await admin.ok(`/${P}/categories`, { key: 'lights', name: { en: 'Lights' }, slug: { en: 'lights' } }, 201)).id as string;
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  it('sets the search keywords of the staged data, or of both with staged false', async () => {
    const { url } = await lamp('keywords');
    const keywords = { en: [{ text: 'desk lamp' }, { text: 'reading light', suggestTokenizer: { type: 'whitespace' } }] };
    let updated = await admin.update(url, 1, [{ action: 'setSearchKeywords', searchKeywords: keywords }]);
    expect(updated.version).toBe(2);
    expect(updated.masterData.staged.searchKeywords).toEqual(keywords);
    expect(updated.masterData.current.searchKeywords).toEqual({});
    expect(updated.masterData.hasStagedChanges).toBe(true);
    updated = await admin.update(url, 2, [{ action: 'setSearchKeywords', searchKeywords: { de: [{ text: 'Lampe' }] }, staged: false }]);
    expect(updated.masterData.staged.searchKeywords).toEqual({ de: [{ text: 'Lampe' }] });
    expect(updated.masterData.current.searchKeywords).toEqual({ de: [{ text: 'Lampe' }] });
    expect(updated.masterData.hasStagedChanges).toBe(false);
    expect(await refused(url, 3, { action: 'setSearchKeywords' })).toBe('RequiredField');
    expect(await refused(url, 3, { action: 'setSearchKeywords', searchKeywords: { en: ['text'] } })).toBe('InvalidInput');
    expect(await refused(url, 3, { action: 'setSearchKeywords', searchKeywords: {}, staged: 'yes' })).toBe('InvalidInput');
  });

  it('sets and removes the order hint of a category the product is in', async () => {
    const { url } = await lamp('hints');
    let updated = await admin.update(url, 1, [{ action: 'setCategoryOrderHint', categoryId, orderHint: '0.25' }]);
    expect(updated.version).toBe(2);
    expect(updated.masterData.staged.categoryOrderHints).toEqual({ [categoryId]: '0.25' });
    expect(updated.masterData.current.categoryOrderHints ?? {}).toEqual({});
    updated = await admin.update(url, 2, [{ action: 'setCategoryOrderHint', categoryId, orderHint: '0.75', staged: false }]);
    expect(updated.masterData.staged.categoryOrderHints).toEqual({ [categoryId]: '0.75' });
    expect(updated.masterData.current.categoryOrderHints).toEqual({ [categoryId]: '0.75' });
    updated = await admin.update(url, 3, [{ action: 'setCategoryOrderHint', categoryId }]);
    expect(updated.masterData.staged.categoryOrderHints ?? {}).toEqual({});
    expect(updated.masterData.current.categoryOrderHints).toEqual({ [categoryId]: '0.75' });
    for (const orderHint of ['0', '1', '0.50', '1.5', '.5', 0.5]) {
      expect(await refused(url, 4, { action: 'setCategoryOrderHint', categoryId, orderHint }), String(orderHint)).toBe('InvalidInput');
    }
    expect(await refused(url, 4, { action: 'setCategoryOrderHint', orderHint: '0.5' })).toBe('InvalidInput');
    expect(await refused(url, 4, { action: 'setCategoryOrderHint', categoryId: 'not-a-category-of-it', orderHint: '0.5' })).toBe('InvalidOperation');
    // No message in the reference for this action.
    expect((await messagesOf(await admin.read(url))).map(({ type }) => type)).toEqual(['ProductCreated']);
  });

  it('sets and removes the key of a variant by id or SKU, refusing a key another variant has', async () => {
    const { url } = await lamp('vkeys');
    let updated = await admin.update(url, 1, [{ action: 'setProductVariantKey', variantId: 2, key: 'second' }]);
    expect(updated.version).toBe(2);
    expect(updated.masterData.staged.variants[0].key).toBe('second');
    expect(updated.masterData.current.variants[0].key).toBe('vkeys-v2');
    updated = await admin.update(url, 2, [{ action: 'setProductVariantKey', sku: 'vkeys-1', key: 'first', staged: false }]);
    expect(updated.masterData.staged.masterVariant.key).toBe('first');
    expect(updated.masterData.current.masterVariant.key).toBe('first');
    updated = await admin.update(url, 3, [{ action: 'setProductVariantKey', variantId: 1 }]);
    expect(updated.masterData.staged.masterVariant.key).toBeUndefined();
    expect(updated.masterData.current.masterVariant.key).toBe('first');
    // The same key on the same variant is no conflict (and no change: the version stays).
    updated = await admin.update(url, 4, [{ action: 'setProductVariantKey', variantId: 2, key: 'second' }]);
    expect(updated.version).toBe(4);
    expect(await refused(url, 4, { action: 'setProductVariantKey', variantId: 1, key: 'second' })).toBe('DuplicateField');
    expect(await refused(url, 4, { action: 'setProductVariantKey', variantId: 1, key: 'x' })).toBe('InvalidInput');
    expect(await refused(url, 4, { action: 'setProductVariantKey', key: 'third' })).toBe('InvalidInput');
    expect(await refused(url, 4, { action: 'setProductVariantKey', variantId: 9, key: 'third' })).toBe('InvalidOperation');
  });

  it('sets and removes the key of an embedded price with ProductPriceKeySet, refusing a key another price of the variant has', async () => {
    const { url, product } = await lamp('pkeys');
    const [base, sale] = (product.masterData.staged.masterVariant.prices as Json[]).map(({ id }) => ({ id: id as string }));
    if (base === undefined || sale === undefined) throw new Error('The draft has two prices.');
    let updated = await admin.update(url, 1, [{ action: 'setPriceKey', priceId: base.id, key: 'regular' }]);
    expect(updated.version).toBe(2);
    expect(updated.masterData.staged.masterVariant.prices[0]).toMatchObject({ id: base.id, key: 'regular' });
    expect(updated.masterData.current.masterVariant.prices[0].key).toBe('base');
    updated = await admin.update(url, 2, [{ action: 'setPriceKey', priceId: sale.id, staged: false }]);
    expect(updated.masterData.staged.masterVariant.prices[1].key).toBeUndefined();
    expect(updated.masterData.current.masterVariant.prices[1].key).toBeUndefined();
    expect(await refused(url, 3, { action: 'setPriceKey', priceId: sale.id, key: 'regular' })).toBe('DuplicatePriceKey');
    expect(await refused(url, 3, { action: 'setPriceKey', priceId: sale.id, key: 'no spaces' })).toBe('InvalidInput');
    expect(await refused(url, 3, { action: 'setPriceKey', priceId: 'nope', key: 'other' })).toBe('InvalidOperation');
    expect(await refused(url, 3, { action: 'setPriceKey', key: 'other' })).toBe('InvalidInput');
    const messages = (await messagesOf(product)).filter(({ type }) => type === 'ProductPriceKeySet');
    expect(messages).toMatchObject([
      { variantId: 1, priceId: base.id, oldKey: 'base', key: 'regular', staged: true, resourceVersion: 2 },
      { variantId: 1, priceId: sale.id, oldKey: 'sale', staged: false, resourceVersion: 3 },
    ]);
    expect(messages[1]).not.toHaveProperty('key');
  });

  it('sets the price mode with ProductPriceModeSet, Embedded when absent', async () => {
    const { url, product } = await lamp('mode');
    expect(product.priceMode).toBe('Embedded');
    let updated = await admin.update(url, 1, [{ action: 'setPriceMode', priceMode: 'Standalone' }]);
    expect(updated).toMatchObject({ version: 2, priceMode: 'Standalone' });
    updated = await admin.update(url, 2, [{ action: 'setPriceMode' }]);
    expect(updated).toMatchObject({ version: 3, priceMode: 'Embedded' });
    expect(await refused(url, 3, { action: 'setPriceMode', priceMode: 'Hybrid' })).toBe('InvalidInput');
    const messages = (await messagesOf(product)).filter(({ type }) => type === 'ProductPriceModeSet');
    expect(messages).toMatchObject([
      { to: 'Standalone', resourceVersion: 2 },
      { to: 'Embedded', resourceVersion: 3 },
    ]);
  });

  it('reverts the staged changes of one variant only', async () => {
    const { url } = await lamp('revert');
    let updated = await admin.update(url, 1, [
      { action: 'setSku', variantId: 2, sku: 'revert-2b' },
      { action: 'addPrice', variantId: 2, price: { value: eur(300) } },
      { action: 'setProductVariantKey', variantId: 1, key: 'master' },
      { action: 'addVariant', sku: 'revert-3' },
    ]);
    updated = await admin.update(url, updated.version, [{ action: 'revertStagedVariantChanges', variantId: 2 }]);
    const { staged, current } = updated.masterData;
    expect(staged.variants[0]).toEqual(current.variants[0]);
    expect(staged.masterVariant.key).toBe('master');
    expect(staged.variants.map(({ sku }: Json) => sku)).toEqual(['revert-2', 'revert-3']);
    expect(updated.masterData.hasStagedChanges).toBe(true);
    expect(await refused(url, updated.version, { action: 'revertStagedVariantChanges', variantId: 3 })).toBe('InvalidOperation');
    expect(await refused(url, updated.version, { action: 'revertStagedVariantChanges' })).toBe('InvalidInput');
    updated = await admin.update(url, updated.version, [
      { action: 'removeVariant', id: 3 },
      { action: 'revertStagedVariantChanges', variantId: 1 },
    ]);
    expect(updated.masterData.hasStagedChanges).toBe(false);
  });
});
