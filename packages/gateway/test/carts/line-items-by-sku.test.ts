/**
 * A cart draft's line items by SKU are looked up together (carts/catalogue-ahead.ts: one query for
 * all of them, and for the drafts sent at the same time): each item still gets its own product and variant, the items of one
 * product their own variants, and every SKU the catalogue lacks the error of that item alone.
 * SKUs are found through their unique-value claims; one without a claim (a product stored before
 * claims existed) through the documents themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { eur, seedCatalogue, SCOPES, type Catalogue } from './catalogue-fixture.js';
import { callerWith, type Caller, type Json } from './commerce.js';

const P = 'carts-by-sku';

describe('cart drafts with several line items by SKU', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, SCOPES);
    catalogue = await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(() => gateway?.close());

  const refused = async (lineItems: Json[]) => (await admin.post(`/${P}/carts`, { currency: 'EUR', lineItems })).body;

  it('gives each item its product and variant, two variants of one product included', async () => {
    // A draft's items are not merged (addLineItem merges): the fourth names shirt-l by id.
    const cart = await admin.ok(
      `/${P}/carts`,
      { currency: 'EUR', lineItems: [{ sku: 'shirt-l', quantity: 2 }, { sku: 'mug-1' }, { sku: 'shirt-m' }, { productId: catalogue.shirt.id, variantId: 2 }] },
      201,
    );
    expect(cart.lineItems.map((item: Json) => [item.productId, item.variant.sku, item.quantity])).toEqual([
      [catalogue.shirt.id, 'shirt-l', 2],
      [catalogue.mug.id, 'mug-1', 1],
      [catalogue.shirt.id, 'shirt-m', 1],
      [catalogue.shirt.id, 'shirt-l', 1],
    ]);
    expect(cart.lineItems[0].price.value).toMatchObject(eur(1100));
    expect(cart.lineItems[2].price.value).toMatchObject(eur(1000));
  });

  it('finds a SKU whose claim is missing (stored before claims) next to claimed ones', async () => {
    await gateway.db.query(`DELETE FROM unique_values WHERE project_key = $1 AND field = 'sku' AND value = 'mug-1'`, [P]);
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [{ sku: 'shirt-m' }, { sku: 'mug-1' }] }, 201);
    expect(cart.lineItems.map((item: Json) => [item.productId, item.variant.sku])).toEqual([
      [catalogue.shirt.id, 'shirt-m'],
      [catalogue.mug.id, 'mug-1'],
    ]);
  });

  it('prices concurrent drafts each with its own items, an unknown SKU failing only its own draft', async () => {
    const drafts = [['shirt-l', 'mug-1'], ['shirt-m'], ['mug-1', 'shirt-m', 'shirt-l'], ['nope', 'shirt-l'], ['shirt-l']];
    const answers = await Promise.all(drafts.map((skus) => admin.post(`/${P}/carts`, { currency: 'EUR', lineItems: skus.map((sku) => ({ sku })) })));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 400, 201]);
    answers.forEach((answer, index) => {
      if (answer.status !== 201) return;
      expect(answer.body.lineItems.map((item: Json) => item.variant.sku)).toEqual(drafts[index]);
    });
    expect(answers[3]!.body).toMatchObject({ errors: [{ code: 'InvalidInput', field: 'lineItems[0].sku' }] });
    // Two carts with one product's variant: each holds a line item of its own.
    const [first, last] = [answers[0]!.body, answers[4]!.body];
    expect(first.lineItems[0].variant).toEqual(last.lineItems[0].variant);
    expect(first.lineItems[0].id).not.toBe(last.lineItems[0].id);
  });

  it.each([
    ['an unknown SKU after known ones', [{ sku: 'shirt-m' }, { sku: 'mug-1' }, { sku: 'nope' }], 'lineItems[2].sku'],
    ['an unpublished product’s SKU among published ones', [{ sku: 'draft-1' }, { sku: 'shirt-m' }], 'lineItems[0].sku'],
    // (Bodies with unpaired surrogates never get this far: json-body.ts refuses them.)
    [
      'SKUs with quotes, backslashes and jsonpath syntax',
      [{ sku: 'a"b' }, { sku: 'c\\d' }, { sku: '") || true || ("' }, { sku: 'shirt-m' }],
      'lineItems[0].sku',
    ],
  ])('refuses %s with 400 InvalidInput naming the item', async (_, lineItems, field) => {
    const body = await refused(lineItems);
    expect(body, JSON.stringify(body)).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field }] });
  });
});
