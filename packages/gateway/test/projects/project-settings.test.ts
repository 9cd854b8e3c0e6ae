/**
 * The project (`GET/POST /{projectKey}`) as the official reference's Project type has it: every
 * required configuration in the answer (types/project/Project.raml: messages, carts, inventory,
 * discounts), and the reference's update actions on the fields Herald keeps, with their code-list
 * validation (ISO 3166-1 alpha-2, ISO 4217, IETF language tags).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, type Client, type Json } from '../business-units/support.js';

const P = 'project-settings';

describe("project settings: required fields and the reference's update actions", () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  const current = (): Promise<Json> => admin.ok('GET', '');
  const update = async (actions: unknown[]) => admin.rest('POST', '', { version: (await current()).version, actions });

  it("answers the required configurations with the reference's defaults", async () => {
    const project = await current();
    expect(project).toMatchObject({
      key: P,
      countries: [],
      currencies: [],
      languages: [],
      messages: { enabled: true },
      carts: { deleteDaysAfterLastModification: 90, countryTaxRateFallbackEnabled: false },
      inventory: { releaseExpiredReservations: true },
      discounts: { discountCombinationMode: 'Stacking' },
      businessUnits: { myBusinessUnitStatusOnCreation: expect.any(String) },
    });
  });

  it('changes name, countries, currencies and languages, each validated against its code list', async () => {
    const changed = await update([
      { action: 'changeName', name: 'Herald Shop' },
      { action: 'changeCountries', countries: ['DE', 'AT', 'DE'] },
      { action: 'changeCurrencies', currencies: ['EUR', 'CHF'] },
      { action: 'changeLanguages', languages: ['de', 'de-CH', 'en'] },
    ]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Herald Shop', countries: ['DE', 'AT'], currencies: ['EUR', 'CHF'], languages: ['de', 'de-CH', 'en'] });
    expect(await current()).toMatchObject({ name: 'Herald Shop', countries: ['DE', 'AT'] });

    for (const [action, field] of [
      [{ action: 'changeCountries', countries: ['XX'] }, 'countries'],
      [{ action: 'changeCountries', countries: ['de'] }, 'countries'],
      [{ action: 'changeCurrencies', currencies: ['EURO'] }, 'currencies'],
      [{ action: 'changeCurrencies', currencies: ['ABC'] }, 'currencies'],
      [{ action: 'changeCurrencies', currencies: [] }, 'currencies'],
      [{ action: 'changeLanguages', languages: ['english'] }, 'languages'],
      [{ action: 'changeLanguages', languages: ['en_US'] }, 'languages'],
      [{ action: 'changeName', name: '' }, 'name'],
    ] as const) {
      const refused = await update([action]);
      expect(refused.status, JSON.stringify(action)).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'InvalidInput', field });
    }
  });

  it('keeps the carts, inventory, discounts and shopping-list settings of their actions', async () => {
    const changed = await update([
      { action: 'changeCountryTaxRateFallbackEnabled', countryTaxRateFallbackEnabled: true },
      { action: 'changePriceRoundingMode', priceRoundingMode: 'HalfUp' },
      { action: 'changeTaxRoundingMode', taxRoundingMode: 'HalfDown' },
      { action: 'setReservationExpirationInMinutes', reservationExpirationInMinutes: 60 },
      { action: 'setReleaseExpiredReservations', releaseExpiredReservations: false },
      { action: 'setDiscountsConfiguration', discountsConfiguration: { discountCombinationMode: 'BestDeal' } },
      { action: 'changeShoppingListsConfiguration', shoppingListsConfiguration: { deleteDaysAfterLastModification: 30 } },
      { action: 'setProductCatalogModel', productCatalogModel: 'Classic' },
    ]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      carts: { deleteDaysAfterLastModification: 90, countryTaxRateFallbackEnabled: true, priceRoundingMode: 'HalfUp', taxRoundingMode: 'HalfDown' },
      inventory: { reservationExpirationInMinutes: 60, releaseExpiredReservations: false },
      discounts: { discountCombinationMode: 'BestDeal' },
      shoppingLists: { deleteDaysAfterLastModification: 30 },
      productCatalogModel: 'Classic',
    });
    for (const action of [
      { action: 'changePriceRoundingMode', priceRoundingMode: 'Up' },
      { action: 'setReservationExpirationInMinutes', reservationExpirationInMinutes: 44_641 },
      { action: 'setDiscountsConfiguration', discountsConfiguration: { discountCombinationMode: 'Best' } },
      { action: 'changeCountryTaxRateFallbackEnabled', countryTaxRateFallbackEnabled: 'yes' },
    ]) {
      const refused = await update([action]);
      expect(refused.status, JSON.stringify(action)).toBe(400);
      expect(refused.body.errors[0].code).toBe('InvalidInput');
    }
  });

  it('sets and removes the shipping rate input type; classification keys must be unique', async () => {
    const values = [
      { key: 'Light', label: { en: 'Light' } },
      { key: 'Heavy', label: { en: 'Heavy' } },
    ];
    const set = await update([{ action: 'setShippingRateInputType', shippingRateInputType: { type: 'CartClassification', values } }]);
    expect(set.body.shippingRateInputType).toEqual({ type: 'CartClassification', values });
    const duplicate = await update([
      { action: 'setShippingRateInputType', shippingRateInputType: { type: 'CartClassification', values: [...values, values[0]] } },
    ]);
    expect(duplicate.status).toBe(400);
    const removed = await update([{ action: 'setShippingRateInputType' }]);
    expect(removed.body.shippingRateInputType).toBeUndefined();
  });

  it('records the search index statuses of the search actions', async () => {
    const changed = await update([
      { action: 'changeProductSearchIndexingEnabled', enabled: true, mode: 'ProductsSearch' },
      { action: 'changeOrderSearchStatus', status: 'Activated' },
      { action: 'changeCustomerSearchStatus', status: 'Deactivated' },
      { action: 'changeBusinessUnitSearchStatus', status: 'Activated' },
    ]);
    expect(changed.body.searchIndexing).toMatchObject({
      productsSearch: { status: 'Activated' },
      orders: { status: 'Activated' },
      customers: { status: 'Deactivated' },
      businessUnits: { status: 'Activated' },
    });
    const refused = await update([{ action: 'changeOrderSearchStatus', status: 'Indexing' }]);
    expect(refused.status).toBe(400);
  });

  it("still runs the feature modules' actions (messages, business units) beside the reference's", async () => {
    const changed = await update([
      { action: 'changeMessagesEnabled', messagesEnabled: false },
      { action: 'changeMyBusinessUnitStatusOnCreation', status: 'Inactive' },
    ]);
    expect(changed.body).toMatchObject({ messages: { enabled: false }, businessUnits: { myBusinessUnitStatusOnCreation: 'Inactive' } });
    const back = await update([{ action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 15 } }]);
    expect(back.body.messages).toEqual({ enabled: true, deleteDaysAfterCreation: 15 });
  });
});
