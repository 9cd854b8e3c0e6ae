/**
 * Issue 29: price selection with multiple customer groups on product projections (reference:
 * traits/price-selecting.raml `priceCustomerGroupAssignments`, "IDs of existing CustomerGroups used
 * for Product price selection, when using multiple Customer Groups"; "only in conjunction with the
 * priceCurrency parameter"). A price of any of the groups matches at the customer group levels of
 * the fallback order; among prices of several of the groups at one level, the lowest wins. Through
 * HTTP on the list, by id and key, in search, for Embedded and Standalone prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from './fixtures.js';

const P = 'projection-group-assignments';
const BASE = `/${P}/product-projections`;

const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });

describe('priceCustomerGroupAssignments on /{projectKey}/product-projections', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let embedded: Json;
  const groups: Record<string, string> = {};

  const assignments = (...names: string[]): string => names.map((name) => `priceCustomerGroupAssignments=${groups[name] ?? name}`).join('&');
  /** The master variant's selected centAmount of `embedded` by id for a query. */
  const priceOf = async (query: string, path = `${BASE}/${embedded.id}`): Promise<number | undefined> =>
    (await admin.read(`${path}?priceCurrency=EUR&${query}`)).masterVariant.price?.value.centAmount as number | undefined;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_categories',
      'manage_customer_groups',
      'manage_channels',
      'manage_standalone_prices',
    ]);
    await createCatalogue(admin, P);
    for (const name of ['gold', 'silver', 'bronze']) groups[name] = (await admin.ok(`/${P}/customer-groups`, { key: name, groupName: name }, 201)).id as string;
    const group = (name: string): Json => ({ customerGroup: { typeId: 'customer-group', id: groups[name] } });
    embedded = await createProduct(
      admin,
      P,
      shirt('embedded', {
        masterVariant: {
          sku: 'embedded-1',
          prices: [eurPrice(1000), eurPrice(900, group('gold')), eurPrice(850, group('silver')), eurPrice(950, { ...group('bronze'), country: 'DE' })],
        },
      }),
    );
    await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone', masterVariant: { sku: 'solo-1', prices: [eurPrice(999)] } }));
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(500) }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(480), ...group('gold') }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(470), ...group('silver') }, 201);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('selects the lowest price among the groups named, by id and by key', async () => {
    expect(await priceOf(assignments('gold'))).toBe(900);
    expect(await priceOf(assignments('gold', 'silver'))).toBe(850);
    expect(await priceOf(assignments('silver', 'gold'))).toBe(850);
    expect(await priceOf(assignments('gold', 'silver'), `${BASE}/key=embedded`)).toBe(850);
    // A group without prices changes nothing; groups without any price fall back to the price without one.
    expect(await priceOf(assignments('gold', 'bronze'))).toBe(900);
    expect(await priceOf(assignments('bronze'))).toBe(1000);
    expect(await priceOf(assignments('no-such-group'))).toBe(1000);
  });

  it('keeps the fallback order: a group price for the country outranks a cheaper group price without one', async () => {
    expect(await priceOf(`priceCountry=DE&${assignments('gold', 'silver', 'bronze')}`)).toBe(950);
    expect(await priceOf(`priceCountry=DE&${assignments('gold', 'silver')}`)).toBe(850);
  });

  it('takes priceCustomerGroup as one more group', async () => {
    expect(await priceOf(`priceCustomerGroup=${groups.silver}&${assignments('gold')}`)).toBe(850);
  });

  it('selects among StandalonePrices too, on the list and in search', async () => {
    const where = encodeURIComponent('key = "solo"');
    const listed = await admin.read(`${BASE}?priceCurrency=EUR&${assignments('gold', 'silver')}&where=${where}`);
    expect(listed.results[0].masterVariant.price.value.centAmount).toBe(470);
    const searched = await admin.read(`${BASE}/search?priceCurrency=EUR&${assignments('gold', 'silver')}&sort=${encodeURIComponent('name.en asc')}`);
    const prices = (searched.results as Json[]).map((projection) => [projection.key, projection.masterVariant.price?.value.centAmount]);
    expect(prices).toEqual([
      ['embedded', 850],
      ['solo', 470],
    ]);
  });

  it('refuses priceCustomerGroupAssignments without priceCurrency', async () => {
    const answer = await admin.get(`${BASE}/${embedded.id}?${assignments('gold')}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', parameter: 'priceCustomerGroupAssignments' });
  });
});
