/**
 * StandalonePriceSetDiscountedPriceAction (and StandalonePriceDraft.discounted): "The referenced
 * ProductDiscount must be of type external, active" — the check products' setDiscountedPrice makes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import { createCatalogue, createProduct, shirt } from '../product-projections/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'standalone-discounted';
const discountDraft = (key: string, value: Json, extra: Json = {}): Json => ({
  key,
  name: { en: key },
  value,
  predicate: '1 = 1',
  sortOrder: String(0.1 + key.length / 100),
  isActive: true,
  ...extra,
});

describe('discounted standalone prices', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  const discounts = {} as Record<'external' | 'relative' | 'inactive', Json>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_standalone_prices',
      'manage_product_discounts',
      'view_messages',
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
    ]);
    // The discounted price is of a variant of a published product (discounted-predicate.test.ts).
    await createCatalogue(admin, P);
    await createProduct(admin, P, shirt('sp', { priceMode: 'Standalone' }));
    discounts.external = await admin.ok(`/${P}/product-discounts`, discountDraft('ext', { type: 'external' }), 201);
    discounts.relative = await admin.ok(`/${P}/product-discounts`, discountDraft('relative', { type: 'relative', permyriad: 1000 }), 201);
    discounts.inactive = await admin.ok(`/${P}/product-discounts`, discountDraft('inactive-ext', { type: 'external' }, { isActive: false }), 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  const discounted = (discount: Json, centAmount = 800) => ({ value: eur(centAmount), discount: { typeId: 'product-discount', id: discount.id } });

  it('sets the discounted price of an active external discount, with StandalonePriceExternalDiscountSet', async () => {
    const price = await admin.ok(`/${P}/standalone-prices`, { sku: 'sp-1', value: eur(1000) }, 201);
    const updated = await admin.update(`/${P}/standalone-prices/${price.id as string}`, price.version, [
      { action: 'setDiscountedPrice', discounted: discounted(discounts.external) },
    ]);
    expect(updated.discounted).toMatchObject({ value: { centAmount: 800 }, discount: { id: discounts.external.id } });
    const messages = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id = "${price.id as string}")`)}`);
    expect((messages.results as Json[]).map((message) => message.type)).toContain('StandalonePriceExternalDiscountSet');
  });

  it.each([
    ['a relative discount', 'relative' as const],
    ['an inactive external discount', 'inactive' as const],
  ])('refuses %s with 400 InvalidInput naming discounted.discount, in the draft and in the action', async (_, which) => {
    const draft = await admin.post(`/${P}/standalone-prices`, { sku: `sp-${which}`, value: eur(1000), discounted: discounted(discounts[which]) });
    expect(draft.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field: 'discounted.discount' }] });
    const price = await admin.ok(`/${P}/standalone-prices`, { sku: `sp-${which}-2`, value: eur(1000) }, 201);
    const action = await admin.post(`/${P}/standalone-prices/${price.id as string}`, {
      version: price.version,
      actions: [{ action: 'setDiscountedPrice', discounted: discounted(discounts[which]) }],
    });
    expect(action.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field: 'discounted.discount' }] });
  });
});
