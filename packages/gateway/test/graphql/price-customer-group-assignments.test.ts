/**
 * Issue 28: price selection by several customer groups in GraphQL, as REST's
 * priceCustomerGroupAssignments (traits/price-selecting.raml): ProductVariant.price takes the
 * official `customerGroupAssignmentIds` (graphql/schema.sdl) on `product` and on the search's
 * variants, and the search's PriceSelectorInput takes `customerGroupAssignments`. A price of any of
 * the groups matches; among several, the lowest wins (the multiple Customer Groups fallback);
 * Embedded and Standalone prices alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { apiClient, type Client } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createCatalogue, createProduct, eurPrice, shirt } from '../product-projections/fixtures.js';

const P = 'graphql-price-group-assignments';

const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });

describe('GraphQL price selection by customer group assignments', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let reader: Client;
  let vip: string;
  let gold: string;

  /** The selected price's centAmount of the master variant of product `key` for these price arguments. */
  const selected = async (key: string, args: string): Promise<number | undefined> => {
    const { product } = await reader.gql(`{ product(key: "${key}") { masterData { current { masterVariant {
      price(currency: "EUR"${args}) { value { centAmount } }
    } } } } }`);
    return product.masterData.current.masterVariant.price?.value.centAmount;
  };

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
    reader = await apiClient(gateway, P, ['view_products']);
    vip = (await createCatalogue(admin, P)).customerGroupId;
    gold = (await admin.ok(`/${P}/customer-groups`, { key: 'gold', groupName: 'Gold' }, 201)).id;
    const group = (id: string) => ({ customerGroup: { typeId: 'customer-group', id } });
    const prices = [eurPrice(1000), eurPrice(900, group(vip)), eurPrice(800, group(gold))];
    await createProduct(admin, P, shirt('embedded', { masterVariant: { sku: 'embedded-1', prices } }));
    await createProduct(admin, P, shirt('solo', { priceMode: 'Standalone', masterVariant: { sku: 'solo-1', prices: [eurPrice(1)] } }));
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(700) }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'solo-1', value: eur(600), ...group(vip) }, 201);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('selects among the prices of any assigned group, the lowest of several, on product', async () => {
    expect(await selected('embedded', '')).toBe(1000);
    expect(await selected('embedded', `, customerGroupAssignmentIds: ["${vip}"]`)).toBe(900);
    expect(await selected('embedded', `, customerGroupAssignmentIds: ["${vip}", "${gold}"]`)).toBe(800);
    expect(await selected('embedded', `, customerGroupId: "${vip}", customerGroupAssignmentIds: ["${gold}"]`)).toBe(800);
    expect(await selected('embedded', `, customerGroupAssignmentIds: ["unknown-group"]`)).toBe(1000);
  });

  it('selects the StandalonePrice of an assigned group of a Standalone product', async () => {
    expect(await selected('solo', '')).toBe(700);
    expect(await selected('solo', `, customerGroupAssignmentIds: ["${gold}", "${vip}"]`)).toBe(600);
  });

  it('selects by them in productProjectionSearch: the priceSelector`s scopedPrice and the variant`s price', async () => {
    const { productProjectionSearch } = await reader.gql(
      `query ($groups: [ReferenceInput!]) { productProjectionSearch(
        filters: [{ string: "variants.sku:\\"embedded-1\\"" }],
        priceSelector: { currency: "EUR", customerGroupAssignments: $groups }
      ) { results { masterVariant { scopedPrice { value { centAmount } } byArgs: price(currency: "EUR", customerGroupAssignmentIds: ["${vip}"]) { value { centAmount } } } } } }`,
      {
        groups: [
          { typeId: 'customer-group', id: vip },
          { typeId: 'customer-group', id: gold },
        ],
      },
    );
    expect(productProjectionSearch.results).toEqual([
      { masterVariant: { scopedPrice: { value: { centAmount: 800 } }, byArgs: { value: { centAmount: 900 } } } },
    ]);
  });

  it('refuses an empty group id with InvalidInput, in the price arguments and in the priceSelector', async () => {
    const byArgs = await reader.gqlError(
      `{ product(key: "embedded") { masterData { current { masterVariant { price(currency: "EUR", customerGroupAssignmentIds: [" "]) { id } } } } } }`,
    );
    expect(byArgs.extensions).toMatchObject({ code: 'InvalidInput' });
    const bySelector = await reader.gqlError(
      `{ productProjectionSearch(priceSelector: { currency: "EUR", customerGroupAssignments: [{ typeId: "customer-group", id: " " }] }) { total } }`,
    );
    expect(bySelector.extensions).toMatchObject({ code: 'InvalidInput' });
  });
});
