/**
 * A cart draft's line items by SKU are looked up together (carts/catalogue.ts withSkusReadAhead,
 * one query for all of them): each item still gets its own product and variant, the items of one
 * product their own variants, and every SKU the catalogue lacks the error of that item alone.
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
