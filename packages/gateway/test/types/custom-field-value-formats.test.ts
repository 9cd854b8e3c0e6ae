/**
 * Custom field values match the field type of their Type, on create, setCustomType and
 * setCustomField: Date/Time/DateTime in their formats and on the calendar, References of the
 * field's referenceTypeId, and a required field cannot be removed by setCustomField.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'custom-field-formats';

describe('custom field values are validated against their field type', () => {
  let gateway: TestGateway;
  let headers: Record<string, string>;
  let storeCount = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    headers = bearer(await tokenFor(gateway, P, ['manage_project']));
    const type = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/types`,
      headers,
      payload: {
        key: 'typed',
        name: { en: 'Typed' },
        resourceTypeIds: ['store', 'customer'],
        fieldDefinitions: [
          { name: 'day', type: { name: 'Date' }, required: false, label: { en: 'Day' } },
          { name: 'at', type: { name: 'DateTime' }, required: false, label: { en: 'At' } },
          { name: 'clock', type: { name: 'Time' }, required: false, label: { en: 'Clock' } },
          { name: 'days', type: { name: 'Set', elementType: { name: 'Date' } }, required: false, label: { en: 'Days' } },
          { name: 'buyer', type: { name: 'Reference', referenceTypeId: 'customer' }, required: false, label: { en: 'Buyer' } },
          { name: 'mandatory', type: { name: 'String' }, required: true, label: { en: 'Mandatory' } },
        ],
      },
    });
    expect(type.statusCode, type.body).toBe(201);
  });
  afterAll(() => gateway?.close());

  const createStore = (fields: Record<string, unknown>) =>
    gateway.app.inject({
      method: 'POST',
      url: `/${P}/stores`,
      headers,
      payload: { key: `store-${++storeCount}`, custom: { type: { key: 'typed' }, fields: { mandatory: 'm', ...fields } } },
    });

  it.each([
    ['a Date that is no date', { day: 'not-a-date' }],
    ['a Date with an impossible month', { day: '2024-13-45' }],
    ['a DateTime that is no date-time', { at: 'yesterday' }],
    ['a Time that is no time of day', { clock: '99:99' }],
    ['a Set of Date holding a non-date', { days: ['2024-01-01', 'soon'] }],
  ])('refuses %s with 400 InvalidInput (create)', async (_what, fields) => {
    const response = await createStore(fields);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].code).toBe('InvalidInput');
  });

  it('still accepts well-formed Date, DateTime and Time values', async () => {
    const response = await createStore({ day: '2024-02-29', at: '2024-02-29T12:30:00.000Z', clock: '12:30:00.000', days: ['2024-01-01'] });
    expect(response.statusCode, response.body).toBe(201);
  });

  it("refuses a Reference value whose typeId is not the field's referenceTypeId, or that has none", async () => {
    const created = await createStore({});
    expect(created.statusCode, created.body).toBe(201);
    const store = created.json() as { id: string; version: number };
    for (const value of [{ typeId: 'product', id: 'some-product' }, { id: 'some-customer' }]) {
      const response = await gateway.app.inject({
        method: 'POST',
        url: `/${P}/stores/${store.id}`,
        headers,
        payload: { version: store.version, actions: [{ action: 'setCustomField', name: 'buyer', value }] },
      });
      expect(response.statusCode, `${JSON.stringify(value)}: ${response.body}`).toBe(400);
    }
  });

  it('does not let setCustomField remove a field the Type marks required (create and setCustomType refuse its absence)', async () => {
    const missing = await createStore({ mandatory: undefined });
    expect(missing.statusCode).toBe(400); // the create path does enforce `required`
    const created = await createStore({});
    const store = created.json() as { id: string; version: number };
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/stores/${store.id}`,
      headers,
      payload: { version: store.version, actions: [{ action: 'setCustomField', name: 'mandatory' }] },
    });
    expect(response.statusCode, response.body).toBe(400);
    const stored = await gateway.app.inject({ method: 'GET', url: `/${P}/stores/${store.id}`, headers });
    expect(stored.json().custom.fields).toHaveProperty('mandatory', 'm');
  });
});
