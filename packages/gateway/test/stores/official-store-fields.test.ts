/**
 * Store fields and actions as the official reference defines them (types/store/*.raml): the
 * required `countries`, `distributionChannels`, `supplyChannels` and `productSelections` in every
 * answer and in StoreCreated; countries actions with StoreCountriesChanged; the channel and product
 * selection fields, which Herald accepts empty (it has no Channels or Product Selections); the
 * Storefront links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteContext } from '@herald/store';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, messagesOf, type Client } from '../business-units/support.js';

const P = 'store-official';

describe("stores: the reference's required fields and actions", () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  const update = (id: string, version: number, actions: unknown[]) => admin.rest('POST', `/stores/${id}`, { version, actions });

  it('answers and StoreCreated carry countries, channels and product selections, empty by default', async () => {
    const store = await admin.ok('POST', '/stores', { key: 'plain' }, 201);
    const required = { countries: [], distributionChannels: [], supplyChannels: [], productSelections: [], languages: [] };
    expect(store).toMatchObject(required);
    expect(await admin.ok('GET', `/stores/${store.id}`)).toMatchObject(required);
    const [created] = await messagesOf(admin, store.id);
    expect(created).toMatchObject({ type: 'StoreCreated', ...required });
  });

  it('keeps the countries of the draft and changes them with setCountries, addCountry and removeCountry', async () => {
    const store = await admin.ok('POST', '/stores', { key: 'dach', countries: [{ code: 'DE' }, { code: 'AT' }] }, 201);
    expect(store.countries).toEqual([{ code: 'DE' }, { code: 'AT' }]);
    const [created] = await messagesOf(admin, store.id);
    expect(created?.countries).toEqual([{ code: 'DE' }, { code: 'AT' }]);

    const added = await update(store.id, 1, [{ action: 'addCountry', country: { code: 'CH' } }]);
    expect(added.body).toMatchObject({ version: 2, countries: [{ code: 'DE' }, { code: 'AT' }, { code: 'CH' }] });
    const again = await update(store.id, 2, [{ action: 'addCountry', country: { code: 'CH' } }]);
    expect(again.body.version).toBe(2);
    const removed = await update(store.id, 2, [{ action: 'removeCountry', country: { code: 'AT' } }]);
    expect(removed.body.countries).toEqual([{ code: 'DE' }, { code: 'CH' }]);
    const set = await update(store.id, 3, [{ action: 'setCountries', countries: [{ code: 'FR' }] }]);
    expect(set.body).toMatchObject({ version: 4, countries: [{ code: 'FR' }] });

    const changes = (await messagesOf(admin, store.id)).filter((message) => message.type === 'StoreCountriesChanged');
    expect(changes.map(({ addedCountries, removedCountries }) => ({ addedCountries, removedCountries }))).toEqual([
      { addedCountries: [{ code: 'CH' }], removedCountries: [] },
      { addedCountries: [], removedCountries: [{ code: 'AT' }] },
      { addedCountries: [{ code: 'FR' }], removedCountries: [{ code: 'DE' }, { code: 'CH' }] },
    ]);
  });

  it('refuses a country that is no ISO 3166-1 alpha-2 code with InvalidInput', async () => {
    const draft = await admin.rest('POST', '/stores', { key: 'bad-country', countries: [{ code: 'Germany' }] });
    expect(draft.status).toBe(400);
    expect(draft.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'countries[0].code' });
    const store = await admin.ok('POST', '/stores', { key: 'good-country' }, 201);
    const action = await update(store.id, 1, [{ action: 'addCountry', country: { code: 'de' } }]);
    expect(action.status).toBe(400);
  });

  it('accepts empty channel and product selection lists; a channel or selection named answers ReferencedResourceNotFound', async () => {
    const store = await admin.ok('POST', '/stores', { key: 'channels', distributionChannels: [], supplyChannels: [], productSelections: [] }, 201);
    const same = await update(store.id, 1, [
      { action: 'setDistributionChannels', distributionChannels: [] },
      { action: 'setSupplyChannels' },
      { action: 'setProductSelections', productSelections: [] },
    ]);
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(1);

    const refusals = [
      await admin.rest('POST', '/stores', { key: 'with-channel', distributionChannels: [{ typeId: 'channel', key: 'warehouse' }] }),
      await admin.rest('POST', '/stores', { key: 'with-selection', productSelections: [{ productSelection: { typeId: 'product-selection', id: 'x' } }] }),
      await update(store.id, 1, [{ action: 'addSupplyChannel', supplyChannel: { typeId: 'channel', key: 'warehouse' } }]),
      await update(store.id, 1, [{ action: 'removeDistributionChannel', distributionChannel: { typeId: 'channel', id: 'c1' } }]),
      await update(store.id, 1, [{ action: 'addProductSelection', productSelection: { typeId: 'product-selection', key: 'summer' } }]),
      await update(store.id, 1, [{ action: 'changeProductSelectionActive', productSelection: { key: 'summer' }, active: true }]),
    ];
    for (const refusal of refusals) {
      expect(refusal.status, JSON.stringify(refusal.body)).toBe(400);
      expect(refusal.body.errors[0].code).toBe('ReferencedResourceNotFound');
    }
  });

  it('sets and removes Storefront links, each with its message; refuses links that are not https and templates without their variable', async () => {
    const store = await admin.ok('POST', '/stores', { key: 'front', storefront: { faqUrl: 'https://shop.example/faq' } }, 201);
    expect(store.storefront).toEqual({ faqUrl: 'https://shop.example/faq' });
    const set = await update(store.id, 1, [
      { action: 'setTermsOfServiceUrl', termsOfServiceUrl: 'https://shop.example/terms' },
      { action: 'setCheckoutUrlTemplate', checkoutUrlTemplate: 'https://shop.example/checkout/{checkoutId}' },
      { action: 'setFaqUrl' },
    ]);
    expect(set.body.storefront).toEqual({
      termsOfServiceUrl: 'https://shop.example/terms',
      checkoutUrlTemplate: 'https://shop.example/checkout/{checkoutId}',
    });
    const types = (await messagesOf(admin, store.id)).map((message) => message.type);
    expect(types).toEqual(['StoreCreated', 'StoreTermsOfServiceUrlSet', 'StoreCheckoutUrlTemplateSet', 'StoreFaqUrlSet']);

    for (const action of [
      { action: 'setImprintUrl', imprintUrl: 'http://shop.example/imprint' },
      { action: 'setOrderUrlTemplate', orderUrlTemplate: 'https://shop.example/orders/{id}' },
    ]) {
      const refused = await update(store.id, 2, [action]);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].code).toBe('InvalidInput');
    }
  });

  it('answers a Store written before these fields existed with their empty defaults', async () => {
    const write: WriteContext = { projectKey: P };
    // An older Herald stored only key, name and languages.
    const old = await gateway.gateway.documents.create(write, 'store', { key: 'old-store', languages: ['en'] } as never);
    const answer = await admin.ok('GET', `/stores/${(old as { id: string }).id}`);
    expect(answer).toMatchObject({ countries: [], distributionChannels: [], supplyChannels: [], productSelections: [] });
    const page = await admin.ok('GET', '/stores?where=key%3D%22old-store%22');
    expect(page.results[0]).toMatchObject({ countries: [], distributionChannels: [] });
  });
});
