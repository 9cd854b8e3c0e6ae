/**
 * Issue 28: the ShippingMethod resource `/{projectKey}/shipping-methods` (reference:
 * resources/shipping-methods.raml, types/shipping-method): the versioned template's operations by
 * id and key, ShippingMethodDraft validation with the official error codes, every official update
 * action, expand, predicates and sort, and change notifications delivered to an SQS subscription
 * (the reference has no ShippingMethod messages).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, subscribedQueue } from '../subscriptions/support.js';
import { seedCatalogue, taxCategoryKey, usd, zoneKey } from './support.js';

const P = 'shipping-methods';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });

/** A valid draft; each test varies it. */
const draft = (name: string, extra: Json = {}): Json => ({
  name,
  taxCategory: taxCategoryKey,
  zoneRates: [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(500), freeAbove: eur(10_000) }] }],
  isDefault: false,
  ...extra,
});

describe('ShippingMethod /{projectKey}/shipping-methods', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let catalogue: Awaited<ReturnType<typeof seedCatalogue>>;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_shipping_methods',
      'manage_tax_categories',
      'manage_zones',
      'manage_subscriptions',
      'manage_types',
      'manage_stores',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_shipping_methods']);
    catalogue = await seedCatalogue(admin, P);
  }, 180_000);
  afterAll(() => setup?.close());

  it('creates a method with the reference defaults and reads it by id, key, query, sort and expand', async () => {
    const method = await admin.ok(
      `/${P}/shipping-methods`,
      draft('Standard', {
        key: 'standard',
        localizedName: { en: 'Standard', de: 'Standard' },
        description: 'Three days',
        carrier: 'DHL',
        zoneRates: [
          {
            zone: zoneKey('europe'),
            shippingRates: [{ price: eur(500), tiers: [{ type: 'CartValue', minimumCentAmount: 5000, price: eur(250) }] }, { price: usd(600) }],
          },
        ],
      }),
      201,
    );
    // ShippingMethodDraft: `active` defaults to true; stores to none; Money answered in cent precision.
    expect(method).toMatchObject({
      version: 1,
      key: 'standard',
      name: 'Standard',
      active: true,
      isDefault: false,
      stores: [],
      carrier: 'DHL',
      taxCategory: { typeId: 'tax-category', id: catalogue.taxCategory.id },
      zoneRates: [
        {
          zone: { typeId: 'zone', id: catalogue.europe.id },
          shippingRates: [
            { price: money(500), tiers: [{ type: 'CartValue', minimumCentAmount: 5000, price: money(250) }] },
            { price: { currencyCode: 'USD', centAmount: 600 }, tiers: [] },
          ],
        },
      ],
    });
    expect(await viewer.read(`/${P}/shipping-methods/${method.id}`)).toEqual(method);
    expect(await viewer.read(`/${P}/shipping-methods/key=standard`)).toEqual(method);
    await admin.ok(`/${P}/shipping-methods`, draft('Express', { key: 'express', active: false }), 201);

    const inactive = await viewer.read(`/${P}/shipping-methods?${where('active = false')}`);
    expect(inactive.results.map((found: Json) => found.key)).toEqual(['express']);
    const sorted = await viewer.read(`/${P}/shipping-methods?sort=name%20asc&${where('name in ("Standard", "Express")')}`);
    expect(sorted.results.map((found: Json) => found.name)).toEqual(['Express', 'Standard']);
    const byZone = await viewer.read(`/${P}/shipping-methods?${where(`zoneRates(zone(id = "${catalogue.europe.id as string}"))`)}`);
    expect(byZone.results.length).toBeGreaterThanOrEqual(2);

    const expanded = await admin.read(`/${P}/shipping-methods/${method.id}?expand=taxCategory&expand=zoneRates[*].zone`);
    expect(expanded.taxCategory.obj).toMatchObject({ key: 'standard' });
    expect(expanded.zoneRates[0].zone.obj).toMatchObject({ key: 'europe' });
    // The orders scopes serve shipping methods too (resources/shipping-methods.raml securedBy).
    const orders = await callerWith(gateway, P, ['view_orders']);
    expect((await orders.get(`/${P}/shipping-methods/${method.id}`)).status).toBe(200);
    expect((await viewer.post(`/${P}/shipping-methods`, draft('Viewer'))).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official error codes', async () => {
    const withRate = (rate: Json): Json => draft('Rated', { zoneRates: [{ zone: zoneKey('europe'), shippingRates: [rate] }] });
    const cases: Array<[string, Json, string]> = [
      ['name missing', { ...draft('x'), name: undefined }, 'RequiredField'],
      ['name empty', draft(''), 'InvalidInput'],
      ['name not a string', draft('x', { name: 7 }), 'InvalidInput'],
      ['taxCategory missing', { ...draft('x'), taxCategory: undefined }, 'RequiredField'],
      ['taxCategory unknown', draft('x', { taxCategory: { typeId: 'tax-category', key: 'nope' } }), 'ReferencedResourceNotFound'],
      ['taxCategory of another type', draft('x', { taxCategory: { typeId: 'zone', key: 'europe' } }), 'InvalidInput'],
      ['zoneRates missing', { ...draft('x'), zoneRates: undefined }, 'RequiredField'],
      ['zoneRates not an array', draft('x', { zoneRates: {} }), 'InvalidInput'],
      ['zone unknown', draft('x', { zoneRates: [{ zone: zoneKey('mars'), shippingRates: [] }] }), 'ReferencedResourceNotFound'],
      ['zone missing', draft('x', { zoneRates: [{ shippingRates: [] }] }), 'RequiredField'],
      ['shippingRates missing', draft('x', { zoneRates: [{ zone: zoneKey('europe') }] }), 'RequiredField'],
      [
        'zone twice',
        draft('x', {
          zoneRates: [
            { zone: zoneKey('europe'), shippingRates: [] },
            { zone: zoneKey('europe'), shippingRates: [] },
          ],
        }),
        'DuplicateField',
      ],
      [
        'currency twice in a zone rate',
        draft('x', { zoneRates: [{ zone: zoneKey('europe'), shippingRates: [{ price: eur(1) }, { price: eur(2) }] }] }),
        'DuplicateField',
      ],
      ['price missing', withRate({ freeAbove: eur(1) }), 'RequiredField'],
      ['price currency malformed', withRate({ price: { currencyCode: 'euro', centAmount: 1 } }), 'InvalidInput'],
      ['price negative', withRate({ price: eur(-1) }), 'InvalidInput'],
      ['freeAbove in another currency', withRate({ price: eur(1), freeAbove: usd(1) }), 'InvalidInput'],
      ['tier without type', withRate({ price: eur(1), tiers: [{ price: eur(1) }] }), 'RequiredField'],
      ['tier of an unknown type', withRate({ price: eur(1), tiers: [{ type: 'CartWeight', price: eur(1) }] }), 'InvalidInput'],
      ['CartValue tier below 1', withRate({ price: eur(1), tiers: [{ type: 'CartValue', minimumCentAmount: 0, price: eur(1) }] }), 'InvalidInput'],
      ['CartValue tier without minimum', withRate({ price: eur(1), tiers: [{ type: 'CartValue', price: eur(1) }] }), 'RequiredField'],
      ['tier in another currency', withRate({ price: eur(1), tiers: [{ type: 'CartValue', minimumCentAmount: 10, price: usd(1) }] }), 'InvalidInput'],
      [
        'two tiers for one value',
        withRate({
          price: eur(1),
          tiers: [
            { type: 'CartValue', minimumCentAmount: 10, price: eur(1) },
            { type: 'CartValue', minimumCentAmount: 10, price: eur(2) },
          ],
        }),
        'InvalidInput',
      ],
      [
        'mixed tier types',
        withRate({
          price: eur(1),
          tiers: [
            { type: 'CartValue', minimumCentAmount: 10, price: eur(1) },
            { type: 'CartScore', score: 1, price: eur(2) },
          ],
        }),
        'InvalidInput',
      ],
      ['CartClassification tier without value', withRate({ price: eur(1), tiers: [{ type: 'CartClassification', price: eur(1) }] }), 'RequiredField'],
      [
        'CartScore tier with price and function',
        withRate({ price: eur(1), tiers: [{ type: 'CartScore', score: 1, price: eur(1), priceFunction: { currencyCode: 'EUR', function: 'x' } }] }),
        'InvalidInput',
      ],
      ['CartScore tier with neither', withRate({ price: eur(1), tiers: [{ type: 'CartScore', score: 1 }] }), 'InvalidInput'],
      [
        'CartScore function malformed',
        withRate({ price: eur(1), tiers: [{ type: 'CartScore', score: 1, priceFunction: { currencyCode: 'EUR', function: '(100 * x' } }] }),
        'InvalidInput',
      ],
      [
        'CartScore function in another currency',
        withRate({ price: eur(1), tiers: [{ type: 'CartScore', score: 1, priceFunction: { currencyCode: 'USD', function: 'x' } }] }),
        'InvalidInput',
      ],
      ['isDefault missing', { ...draft('x'), isDefault: undefined }, 'RequiredField'],
      ['isDefault not a boolean', draft('x', { isDefault: 'yes' }), 'InvalidInput'],
      ['active not a boolean', draft('x', { active: 1 }), 'InvalidInput'],
      ['key malformed', draft('x', { key: 'a' }), 'InvalidInput'],
      ['localizedName malformed', draft('x', { localizedName: 'Name' }), 'InvalidInput'],
      ['predicate blank', draft('x', { predicate: '  ' }), 'InvalidInput'],
      ['store unknown', draft('x', { stores: [{ typeId: 'store', key: 'nowhere' }] }), 'ReferencedResourceNotFound'],
      // The shared custom-fields helper answers an unknown Type as every other resource does.
      ['custom type unknown', draft('x', { custom: { type: { key: 'nope' } } }), 'InvalidInput'],
      ['not an object', [] as unknown as Json, 'InvalidInput'],
    ];
    for (const [label, body, code] of cases) {
      const answer = await admin.post(`/${P}/shipping-methods`, body);
      expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    await admin.ok(`/${P}/shipping-methods`, draft('Unique', { key: 'unique' }), 201);
    const sameName = await admin.post(`/${P}/shipping-methods`, draft('Unique'));
    expect(sameName.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'name' });
    const sameKey = await admin.post(`/${P}/shipping-methods`, draft('Other', { key: 'unique' }));
    expect(sameKey.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'key' });
  });

  it('accepts every tier type, and only one default method per project', async () => {
    const tiered = await admin.ok(
      `/${P}/shipping-methods`,
      draft('Tiered', {
        zoneRates: [
          {
            zone: zoneKey('us'),
            shippingRates: [
              {
                price: usd(900),
                tiers: [
                  { type: 'CartScore', score: 1, price: usd(1000) },
                  { type: 'CartScore', score: 2, priceFunction: { currencyCode: 'USD', function: '(150 * x) + 300' } },
                ],
              },
              { price: eur(900), tiers: [{ type: 'CartClassification', value: 'heavy', price: eur(1500) }] },
            ],
          },
        ],
      }),
      201,
    );
    expect(tiered.zoneRates[0].shippingRates[0].tiers[1]).toEqual({
      type: 'CartScore',
      score: 2,
      priceFunction: { currencyCode: 'USD', function: '(150 * x) + 300' },
    });

    const first = await admin.ok(`/${P}/shipping-methods`, draft('Default', { isDefault: true }), 201);
    const second = await admin.post(`/${P}/shipping-methods`, draft('Second default', { isDefault: true }));
    expect(second.status).toBe(400);
    expect(second.body.errors[0].code).toBe('InvalidOperation');
    const refused = await admin.post(`/${P}/shipping-methods/${tiered.id}`, { version: 1, actions: [{ action: 'changeIsDefault', isDefault: true }] });
    expect(refused.body.errors[0].code).toBe('InvalidOperation');
    await admin.update(`/${P}/shipping-methods/${first.id}`, 1, [{ action: 'changeIsDefault', isDefault: false }]);
    expect((await admin.update(`/${P}/shipping-methods/${tiered.id}`, 1, [{ action: 'changeIsDefault', isDefault: true }])).isDefault).toBe(true);
    await admin.update(`/${P}/shipping-methods/${tiered.id}`, 2, [{ action: 'changeIsDefault', isDefault: false }]);
  });

  it('applies every official update action', async () => {
    await admin.ok(
      `/${P}/types`,
      {
        key: 'method-fields',
        name: { en: 'Method fields' },
        resourceTypeIds: ['shipping-method'],
        fieldDefinitions: [{ name: 'note', type: { name: 'String' }, required: false, label: { en: 'Note' } }],
      },
      201,
    );
    const store = await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    await admin.ok(`/${P}/stores`, { key: 'vienna' }, 201);
    const other = await admin.ok(`/${P}/tax-categories`, { key: 'reduced', name: 'Reduced', rates: [] }, 201);
    const method = await admin.ok(`/${P}/shipping-methods`, draft('Actions', { key: 'actions' }), 201);
    const url = `/${P}/shipping-methods/key=actions`;

    const updated = await admin.update(url, 1, [
      { action: 'addShippingZone', zone: zoneKey('us') },
      { action: 'addShippingRate', zone: zoneKey('us'), shippingRate: { price: usd(700) } },
      {
        action: 'addShippingRate',
        zone: zoneKey('us'),
        shippingRate: { price: eur(800), tiers: [{ type: 'CartValue', minimumCentAmount: 100, price: eur(400) }] },
      },
      { action: 'removeShippingRate', zone: zoneKey('us'), shippingRate: { price: usd(700) } },
      { action: 'addZone', zone: zoneKey('california') },
      { action: 'removeZone', zone: zoneKey('california') },
      { action: 'changeName', name: 'Renamed' },
      { action: 'setLocalizedName', localizedName: { en: 'Renamed' } },
      { action: 'setDescription', description: 'Old style' },
      { action: 'setLocalizedDescription', localizedDescription: { en: 'New style' } },
      { action: 'changeTaxCategory', taxCategory: { typeId: 'tax-category', id: other.id } },
      { action: 'setPredicate', predicate: 'lineItemCount(1 = 1) > 0' },
      { action: 'changeActive', active: false },
      { action: 'setKey', key: 'renamed' },
      { action: 'setCarrier', carrier: 'UPS' },
      { action: 'addStore', store: { typeId: 'store', key: 'berlin' } },
      {
        action: 'setStores',
        stores: [
          { typeId: 'store', key: 'berlin' },
          { typeId: 'store', key: 'vienna' },
        ],
      },
      { action: 'removeStore', store: { typeId: 'store', id: store.id } },
      { action: 'setCustomType', type: { key: 'method-fields' }, fields: { note: 'fragile' } },
      { action: 'setCustomField', name: 'note', value: 'handle with care' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'renamed',
      name: 'Renamed',
      localizedName: { en: 'Renamed' },
      description: 'Old style',
      localizedDescription: { en: 'New style' },
      taxCategory: { typeId: 'tax-category', id: other.id },
      predicate: 'lineItemCount(1 = 1) > 0',
      active: false,
      carrier: 'UPS',
      stores: [{ typeId: 'store', key: 'vienna' }],
      custom: { fields: { note: 'handle with care' } },
    });
    expect(updated.zoneRates).toHaveLength(2);
    expect(updated.zoneRates[1]).toMatchObject({
      zone: { id: catalogue.us.id },
      shippingRates: [{ price: { currencyCode: 'EUR', centAmount: 800 }, tiers: [{ minimumCentAmount: 100 }] }],
    });

    const removed = await admin.update(`/${P}/shipping-methods/${method.id}`, 2, [
      { action: 'removeShippingZone', zone: zoneKey('us') },
      { action: 'setLocalizedName' },
      { action: 'setDescription' },
      { action: 'setLocalizedDescription' },
      { action: 'setPredicate' },
      { action: 'setKey' },
      { action: 'setCarrier' },
      { action: 'setCustomType' },
      { action: 'setStores', stores: [] },
    ]);
    expect(removed.version).toBe(3);
    for (const field of ['localizedName', 'description', 'localizedDescription', 'predicate', 'key', 'carrier', 'custom'])
      expect(removed).not.toHaveProperty(field);
    expect(removed.stores).toEqual([]);
    expect(removed.zoneRates.map((zoneRate: Json) => zoneRate.zone.id)).toEqual([catalogue.europe.id]);

    const failures: Array<[Json, string]> = [
      [{ action: 'addZone', zone: zoneKey('europe') }, 'DuplicateField'],
      [{ action: 'addZone', zone: zoneKey('mars') }, 'ReferencedResourceNotFound'],
      [{ action: 'removeZone', zone: zoneKey('us') }, 'InvalidOperation'],
      [{ action: 'addShippingRate', zone: zoneKey('us'), shippingRate: { price: eur(1) } }, 'InvalidOperation'],
      [{ action: 'addShippingRate', zone: zoneKey('europe'), shippingRate: { price: eur(1) } }, 'DuplicateField'],
      [{ action: 'removeShippingRate', zone: zoneKey('europe'), shippingRate: { price: eur(1) } }, 'InvalidOperation'],
      [{ action: 'changeName' }, 'RequiredField'],
      [{ action: 'changeTaxCategory', taxCategory: { typeId: 'tax-category', key: 'nope' } }, 'ReferencedResourceNotFound'],
      [{ action: 'changeActive', active: 'no' }, 'InvalidInput'],
      [{ action: 'removeStore', store: { typeId: 'store', key: 'berlin' } }, 'InvalidOperation'],
      [{ action: 'setCustomField', name: 'note', value: 'x' }, 'InvalidInput'],
      [{ action: 'flyAway' }, 'InvalidInput'],
    ];
    for (const [action, code] of failures) {
      const answer = await admin.post(`/${P}/shipping-methods/${method.id}`, { version: 3, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    const stale = await admin.post(`/${P}/shipping-methods/${method.id}`, { version: 1, actions: [{ action: 'changeActive', active: true }] });
    expect(stale.status).toBe(409);
  });

  it('delivers its change notifications to an SQS subscription in sequence; a tax category in use refuses its delete', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'shipping-method');

    const taxCategory = await admin.ok(`/${P}/tax-categories`, { key: 'held', name: 'Held', rates: [] }, 201);
    const method = await admin.ok(`/${P}/shipping-methods`, draft('Delivered', { taxCategory: { typeId: 'tax-category', key: 'held' } }), 201);
    const held = await admin.delete(`/${P}/tax-categories/${taxCategory.id}?version=1`);
    expect(held.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'shipping-method' });
    await admin.update(`/${P}/shipping-methods/${method.id}`, 1, [
      { action: 'changeName', name: 'Delivered again' },
      { action: 'addZone', zone: zoneKey('us') },
    ]);
    await admin.update(`/${P}/shipping-methods/${method.id}`, 2, [{ action: 'changeTaxCategory', taxCategory: taxCategoryKey }]);
    expect((await admin.delete(`/${P}/shipping-methods/${method.id}?version=3`)).status).toBe(200);
    expect((await viewer.get(`/${P}/shipping-methods/${method.id}`)).status).toBe(404);
    expect((await admin.delete(`/${P}/tax-categories/${taxCategory.id}?version=1`)).status).toBe(200);

    // No messages (the reference has none for shipping methods): the four change notifications only.
    const documents = await deliveriesAbout(sqs, queue, method.id as string, 4);
    const id = method.id as string;
    expect(labels(documents)).toEqual(
      [
        `shipping-method:${id}:ResourceCreated:1`,
        `shipping-method:${id}:ResourceDeleted:3`,
        `shipping-method:${id}:ResourceUpdated:2`,
        `shipping-method:${id}:ResourceUpdated:3`,
      ].sort(),
    );
  });
});
