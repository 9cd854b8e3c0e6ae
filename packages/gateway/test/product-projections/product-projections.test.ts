/**
 * Issue 28: `/{projectKey}/product-projections` (reference: resources/product-projections.raml,
 * in-store/product-projections-in-store.raml, the projection-selecting, price-selecting,
 * locale-projecting and store-projecting traits): current and staged projections, by id and key,
 * predicates and sort on projection fields, expansion, price selection, locale and store projection,
 * scopes and errors, all through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt, type Catalogue } from './fixtures.js';

const P = 'projections';
const BASE = `/${P}/product-projections`;

describe('Product projections /{projectKey}/product-projections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let publishedViewer: Caller;
  let catalogue: Catalogue;
  let alpha: Json;
  let beta: Json;
  let draft: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_stores',
      'view_categories',
    ]);
    publishedViewer = await callerWith(gateway, P, ['view_published_products']);
    catalogue = await createCatalogue(admin, P);
    const group = { typeId: 'customer-group', id: catalogue.customerGroupId };
    const channel = { typeId: 'channel', id: catalogue.channelId };
    alpha = await createProduct(
      admin,
      P,
      shirt('alpha', {
        categories: [{ typeId: 'category', id: catalogue.childCategoryId }],
        masterVariant: {
          sku: 'alpha-1',
          attributes: [
            { name: 'colour', value: 'red' },
            { name: 'size', value: 40 },
            { name: 'care', value: { en: 'Wash cold', de: 'Kalt waschen' } },
          ],
          prices: [
            eurPrice(1000),
            eurPrice(900, { country: 'DE' }),
            eurPrice(800, { customerGroup: group }),
            eurPrice(700, { channel }),
            eurPrice(500, { validFrom: '2000-01-01T00:00:00.000Z', validUntil: '2000-12-31T00:00:00.000Z' }),
            { value: { currencyCode: 'USD', centAmount: 1200 } },
          ],
        },
      }),
    );
    beta = await createProduct(admin, P, shirt('beta', { masterVariant: { sku: 'beta-1', prices: [eurPrice(2000)] } }));
    draft = await createProduct(admin, P, shirt('gamma'), false);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers the current projection of published products by id, key and query, and 404 for an unpublished one', async () => {
    const byId = await admin.read(`${BASE}/${alpha.id}`);
    expect(byId).toMatchObject({ id: alpha.id, key: 'alpha', version: alpha.version, name: { en: 'Shirt alpha' }, published: true, hasStagedChanges: false });
    expect(byId.masterData).toBeUndefined();
    expect(await admin.read(`${BASE}/key=alpha`)).toEqual(byId);
    const page = await admin.read(`${BASE}?sort=key asc`);
    expect(page.results.map((result: Json) => result.key)).toEqual(['alpha', 'beta']);
    expect((await admin.get(`${BASE}/${draft.id}`)).status).toBe(404);
    expect((await admin.get(`${BASE}/key=gamma`)).body.errors[0].code).toBe('ResourceNotFound');
  });

  it('with staged=true answers the staged data, also of unpublished products; an unpublished change is invisible in current', async () => {
    const changed = await admin.update(`/${P}/products/${beta.id}`, (await admin.read(`/${P}/products/${beta.id}`)).version, [
      { action: 'changeName', name: { en: 'Shirt beta renamed' } },
    ]);
    expect((await admin.read(`${BASE}/${beta.id}`)).name.en).toBe('Shirt beta');
    const staged = await admin.read(`${BASE}/${beta.id}?staged=true`);
    expect(staged).toMatchObject({ name: { en: 'Shirt beta renamed' }, hasStagedChanges: true, version: changed.version });
    expect((await admin.read(`${BASE}/key=gamma?staged=true`)).published).toBe(false);
    const stagedPage = await admin.read(`${BASE}?staged=true&sort=key asc`);
    expect(stagedPage.results.map((result: Json) => result.key)).toEqual(['alpha', 'beta', 'gamma']);
    expect((await admin.read(`${BASE}?where=${encodeURIComponent('name(en = "Shirt beta renamed")')}`)).results).toEqual([]);
    expect((await admin.read(`${BASE}?staged=true&where=${encodeURIComponent('name(en = "Shirt beta renamed")')}`)).results.map((r: Json) => r.key)).toEqual([
      'beta',
    ]);
  });

  it('applies predicates and sort to projection fields (data, product and catalogue fields)', async () => {
    const where = async (predicate: string, extra = ''): Promise<string[]> =>
      (await admin.read(`${BASE}?staged=true&sort=key asc&where=${encodeURIComponent(predicate)}${extra}`)).results.map((result: Json) => result.key);
    expect(await where('slug(en = "alpha")')).toEqual(['alpha']);
    expect(await where('masterVariant(sku = "beta-1")')).toEqual(['beta']);
    expect(await where(`categories(id = "${catalogue.childCategoryId}")`)).toEqual(['alpha']);
    expect(await where('masterVariant(prices(value(centAmount = 2000)))')).toEqual(['beta']);
    expect(await where('published = false')).toEqual(['gamma']);
    expect(await where('hasStagedChanges = true')).toEqual(['beta']);
    expect(await where(`productType(id = "${alpha.productType.id}") and key in ("alpha", "gamma")`)).toEqual(['alpha', 'gamma']);
    const sorted = await admin.read(`${BASE}?staged=true&sort=${encodeURIComponent('name.en desc')}`);
    expect(sorted.results.map((result: Json) => result.key)).toEqual(['gamma', 'beta', 'alpha']);
    const paged = await admin.read(`${BASE}?staged=true&sort=key asc&limit=1&offset=1&withTotal=true`);
    expect(paged).toMatchObject({ limit: 1, offset: 1, count: 1, total: 3 });
    expect(paged.results[0].key).toBe('beta');
    const malformed = await admin.get(`${BASE}?where=${encodeURIComponent('name(en = ')}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].code).toBe('InvalidInput');
  });

  it('expands references of the projection', async () => {
    const expanded = await admin.read(`${BASE}/${alpha.id}?expand=productType&expand=categories[*]`);
    expect(expanded.productType.obj.key).toBe('shirts');
    expect(expanded.categories[0].obj.key).toBe('tops');
  });

  it('selects a price per variant by currency, country, customer group, channel and validity', async () => {
    const price = async (query: string): Promise<number | undefined> =>
      (await admin.read(`${BASE}/${alpha.id}?${query}`)).masterVariant.price?.value.centAmount;
    expect(await price('priceCurrency=EUR')).toBe(1000);
    expect(await price('priceCurrency=USD')).toBe(1200);
    expect(await price('priceCurrency=EUR&priceCountry=DE')).toBe(900);
    expect(await price(`priceCurrency=EUR&priceCustomerGroup=${catalogue.customerGroupId}`)).toBe(800);
    expect(await price(`priceCurrency=EUR&priceChannel=${catalogue.channelId}`)).toBe(700);
    // The 500 price was valid in 2000 only; no selection without priceCurrency; none for GBP.
    expect(await price('priceCurrency=GBP')).toBeUndefined();
    expect(await price('')).toBeUndefined();
    const page = await admin.read(`${BASE}?priceCurrency=EUR&priceCountry=DE&sort=key asc`);
    expect(page.results.map((result: Json) => result.masterVariant.price?.value.centAmount)).toEqual([900, 2000]);
    for (const query of ['priceCountry=DE', `priceChannel=${catalogue.channelId}`, 'priceCurrency=euro', 'priceCurrency=EUR&priceCountry=Germany']) {
      const answer = await admin.get(`${BASE}/${alpha.id}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].code, query).toBe('InvalidInput');
    }
  });

  it('keeps only the requested locales with localeProjection (a region keeps its language too)', async () => {
    const projected = await admin.read(`${BASE}/${alpha.id}?localeProjection=de`);
    expect(projected.name).toEqual({ de: 'Hemd alpha' });
    expect(projected.slug).toEqual({ de: 'de-alpha' });
    expect(projected.masterVariant.attributes.find((a: Json) => a.name === 'care').value).toEqual({ de: 'Kalt waschen' });
    expect((await admin.read(`${BASE}/${alpha.id}?localeProjection=en-GB`)).name).toEqual({ en: 'Shirt alpha' });
    const both = await admin.read(`${BASE}?localeProjection=de&localeProjection=en&sort=key asc`);
    expect(both.results[0].name).toEqual({ en: 'Shirt alpha', de: 'Hemd alpha' });
    expect((await admin.get(`${BASE}?localeProjection=not a locale`)).status).toBe(400);
  });

  it('projects by store: its languages, countries and distribution channels, also on the in-store routes', async () => {
    await admin.ok(
      `/${P}/stores`,
      { key: 'berlin', languages: ['de'], countries: [{ code: 'DE' }], distributionChannels: [{ typeId: 'channel', id: catalogue.channelId }] },
      201,
    );
    await admin.ok(`/${P}/stores`, { key: 'plain' }, 201);
    const projected = await admin.read(`${BASE}/${alpha.id}?storeProjection=berlin`);
    expect(projected.name).toEqual({ de: 'Hemd alpha' });
    // Every price here is country DE, the store's channel, or unscoped by them.
    expect(projected.masterVariant.prices).toHaveLength(6);
    const inStore = await admin.read(`/${P}/in-store/key=berlin/product-projections/key=alpha?priceCurrency=EUR&priceCountry=DE`);
    expect(inStore.name).toEqual({ de: 'Hemd alpha' });
    expect(inStore.masterVariant.price.value.centAmount).toBe(900);
    expect((await admin.read(`/${P}/in-store/key=plain/product-projections/${alpha.id}`)).name).toEqual({ en: 'Shirt alpha', de: 'Hemd alpha' });
    expect((await admin.get(`/${P}/in-store/key=nowhere/product-projections/${alpha.id}`)).status).toBe(404);
    const unknown = await admin.get(`${BASE}/${alpha.id}?storeProjection=nowhere`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].code).toBe('InvalidInput');
  });

  it('filters prices of countries and channels a store does not have', async () => {
    await admin.ok(`/${P}/stores`, { key: 'paris', countries: [{ code: 'FR' }] }, 201);
    const prices = (await admin.read(`${BASE}/${alpha.id}?storeProjection=paris`)).masterVariant.prices as Json[];
    expect(prices.map((price) => price.value.centAmount).sort()).toEqual([1000, 1200, 500, 700, 800]);
  });

  it('lets view_published_products read current projections only (staged=true is 403), and refuses other tokens', async () => {
    expect((await publishedViewer.read(`${BASE}/${alpha.id}`)).id).toBe(alpha.id);
    expect((await publishedViewer.read(BASE)).count).toBe(2);
    expect((await publishedViewer.get(`${BASE}?staged=true`)).status).toBe(403);
    expect((await publishedViewer.get(`${BASE}/${alpha.id}?staged=true`)).status).toBe(403);
    const stranger = await callerWith(gateway, P, ['view_orders']);
    expect((await stranger.get(BASE)).status).toBe(403);
    const viewer = await callerWith(gateway, P, ['view_products']);
    expect((await viewer.read(`${BASE}?staged=true`)).count).toBe(3);
  });
});
