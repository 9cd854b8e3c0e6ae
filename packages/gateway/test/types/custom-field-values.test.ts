/**
 * Custom field values are stored as sent or refused with a 400, never silently changed. `1e400` is
 * valid JSON that parses to Infinity, which JSON cannot hold: stored, it would come back as null.
 * A Money value is Money as everywhere else (§2.1): a safe-integer `centAmount` (minor units) and
 * an ISO 4217 `currencyCode`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'custom-field-values';

describe('Number and Money custom field values', () => {
  let gateway: TestGateway;
  let token: string;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    token = await tokenFor(gateway, P, ['manage_project']);
    const type = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/types`,
      headers: bearer(token),
      payload: {
        key: 'money-fields',
        name: { en: 'Money fields' },
        resourceTypeIds: ['store'],
        fieldDefinitions: [
          { name: 'price', type: { name: 'Money' }, required: false, label: { en: 'Price' } },
          { name: 'prices', type: { name: 'Set', elementType: { name: 'Money' } }, required: false, label: { en: 'Prices' } },
          { name: 'size', type: { name: 'Number' }, required: false, label: { en: 'Size' } },
        ],
      },
    });
    expect(type.statusCode, type.body).toBe(201);
  });
  afterAll(() => gateway.close());

  let stores = 0;
  /** Creates a store whose custom fields are `fields`, given as JSON text (so that `1e400` reaches the parser). */
  const create = (fields: string) =>
    gateway.app.inject({
      method: 'POST',
      url: `/${P}/stores`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: `{"key":"store-${++stores}","custom":{"type":{"key":"money-fields"},"fields":${fields}}}`,
    });

  it.each([
    ['an infinite Number', '{"size":1e400}'],
    ['an infinite centAmount', '{"price":{"centAmount":1e400,"currencyCode":"EUR"}}'],
    ['an infinite centAmount in a Set of Money', '{"prices":[{"centAmount":1,"currencyCode":"EUR"},{"centAmount":-1e400,"currencyCode":"EUR"}]}'],
    ['a centAmount beyond the safe integers', '{"price":{"centAmount":9007199254740993,"currencyCode":"EUR"}}'],
    ['a fractional centAmount', '{"price":{"centAmount":10.5,"currencyCode":"EUR"}}'],
    ['a centAmount as text', '{"price":{"centAmount":"100","currencyCode":"EUR"}}'],
    ['a Money without currencyCode', '{"price":{"centAmount":100}}'],
    ['a currencyCode that is not ISO 4217 shaped', '{"price":{"centAmount":100,"currencyCode":"eur"}}'],
  ])('refuses %s with 400 InvalidInput and creates nothing', async (_what, fields) => {
    const response = await create(fields);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
    expect((await gateway.app.inject({ method: 'GET', url: `/${P}/stores/key=store-${stores}`, headers: bearer(token) })).statusCode).toBe(404);
  });

  it('stores Money as sent, negative amounts included', async () => {
    const fields = { price: { centAmount: 1999, currencyCode: 'EUR' }, prices: [{ centAmount: -500, currencyCode: 'JPY' }], size: 1.5 };
    const response = await create(JSON.stringify(fields));
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as { custom: { fields: unknown } }).custom.fields).toEqual(fields);
  });
});
