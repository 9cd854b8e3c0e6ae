/**
 * Issue 28: the StandalonePrice resource `/{projectKey}/standalone-prices` (reference:
 * resources/standalone-prices.raml, types/standalone-price): the versioned template's operations
 * by id and key, StandalonePriceDraft validation (required fields, money and high precision money,
 * tiers, references, the ProductDistribution role), the price scope rule
 * (DuplicateStandalonePriceScope, OverlappingStandalonePriceValidity), every official update
 * action with its messages in order, and messages and change notifications delivered to an SQS
 * subscription in sequence.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'standalone-prices';
const eur = (centAmount: number) => ({ currencyCode: 'EUR', centAmount });
const cents = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });

const PRICE_TYPE = {
  key: 'price-fields',
  name: { en: 'Price fields' },
  resourceTypeIds: ['standalone-price'],
  fieldDefinitions: [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }],
};

describe('StandalonePrice /{projectKey}/standalone-prices', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let group: Json;
  let shop: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_standalone_prices',
      'manage_customer_groups',
      'manage_channels',
      'manage_types',
      'manage_subscriptions',
      'view_messages',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_standalone_prices']);
    group = await admin.ok(`/${P}/customer-groups`, { groupName: 'B2B', key: 'b2b' }, 201);
    shop = await admin.ok(`/${P}/channels`, { key: 'shop', roles: ['ProductDistribution'] }, 201);
    await admin.ok(`/${P}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
    await admin.ok(`/${P}/types`, PRICE_TYPE, 201);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a price with the reference defaults and reads it by id, key, query, sort and expand', async () => {
    const price = await admin.ok(
      `/${P}/standalone-prices`,
      {
        key: 'shirt-b2b',
        sku: 'shirt-1',
        value: eur(1000),
        country: 'DE',
        customerGroup: { typeId: 'customer-group', key: 'b2b' },
        channel: { typeId: 'channel', key: 'shop' },
        validFrom: '2030-01-01T00:00:00.000Z',
        validUntil: '2030-12-31T00:00:00.000Z',
        tiers: [{ minimumQuantity: 10, value: eur(900) }],
        custom: { type: { key: 'price-fields' }, fields: { note: 'n' } },
        staged: { value: eur(1100) },
      },
      201,
    );
    expect(price).toMatchObject({
      version: 1,
      sku: 'shirt-1',
      active: true,
      value: cents(1000),
      customerGroup: { typeId: 'customer-group', id: group.id },
      channel: { typeId: 'channel', id: shop.id },
      tiers: [{ minimumQuantity: 10, value: cents(900) }],
      staged: { value: cents(1100) },
    });
    const precise = await admin.ok(
      `/${P}/standalone-prices`,
      { sku: 'shirt-2', value: { type: 'highPrecision', currencyCode: 'EUR', preciseAmount: 12345, fractionDigits: 4 } },
      201,
    );
    // 1.2345 EUR: centAmount rounded half to even from the precise amount.
    expect(precise.value).toEqual({ type: 'highPrecision', currencyCode: 'EUR', centAmount: 123, preciseAmount: 12345, fractionDigits: 4 });
    expect(await viewer.read(`/${P}/standalone-prices/${price.id}`)).toEqual(price);
    expect(await viewer.read(`/${P}/standalone-prices/key=shirt-b2b`)).toEqual(price);
    const page = await viewer.read(`/${P}/standalone-prices?where=${encodeURIComponent('sku in ("shirt-1", "shirt-2")')}&sort=sku%20desc`);
    expect(page.results.map((found: Json) => found.sku)).toEqual(['shirt-2', 'shirt-1']);
    const byValue = await viewer.read(`/${P}/standalone-prices?where=${encodeURIComponent('value(centAmount > 500) and active = true')}`);
    expect(byValue.results.map((found: Json) => found.sku)).toEqual(['shirt-1']);
    const expanded = await admin.read(`/${P}/standalone-prices/${price.id}?expand=customerGroup&expand=channel`);
    expect(expanded.customerGroup.obj).toMatchObject({ key: 'b2b' });
    expect(expanded.channel.obj).toMatchObject({ key: 'shop' });
  });

  it('refuses bad drafts with 400s and the official error codes', async () => {
    const cases: Array<[Json, string]> = [
      [{ value: eur(1) }, 'RequiredField'],
      [{ sku: 'a' }, 'RequiredField'],
      [{ sku: 'a', value: { currencyCode: 'EUR' } }, 'RequiredField'],
      [{ sku: 7, value: eur(1) }, 'InvalidInput'],
      [{ sku: 'a', value: { currencyCode: 'euro', centAmount: 1 } }, 'InvalidInput'],
      [{ sku: 'a', value: eur(-1) }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1.5) }, 'InvalidInput'],
      [{ sku: 'a', value: { type: 'highPrecision', currencyCode: 'EUR', preciseAmount: 1, fractionDigits: 2 } }, 'InvalidInput'],
      [{ sku: 'a', value: { type: 'highPrecision', currencyCode: 'EUR', fractionDigits: 4 } }, 'RequiredField'],
      [{ sku: 'a', value: eur(1), key: 'x' }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), country: 'Germany' }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), active: 'yes' }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), validFrom: 'now' }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), validFrom: '2030-02-01T00:00:00.000Z', validUntil: '2030-01-01T00:00:00.000Z' }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), tiers: [{ minimumQuantity: 1, value: eur(1) }] }, 'InvalidField'],
      [
        {
          sku: 'a',
          value: eur(1),
          tiers: [
            { minimumQuantity: 2, value: eur(1) },
            { minimumQuantity: 2, value: eur(2) },
          ],
        },
        'InvalidField',
      ],
      [{ sku: 'a', value: eur(1), tiers: [{ minimumQuantity: 2, value: { currencyCode: 'USD', centAmount: 1 } }] }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), staged: { value: { currencyCode: 'USD', centAmount: 1 } } }, 'InvalidInput'],
      [{ sku: 'a', value: eur(1), customerGroup: { key: 'nobody' } }, 'ReferencedResourceNotFound'],
      [{ sku: 'a', value: eur(1), channel: { key: 'nowhere' } }, 'ReferencedResourceNotFound'],
      [{ sku: 'a', value: eur(1), channel: { key: 'warehouse' } }, 'MissingRoleOnChannel'],
      [{ sku: 'a', value: eur(1), discounted: { value: eur(1), discount: { typeId: 'product-discount', id: 'none' } } }, 'ReferencedResourceNotFound'],
      [{ sku: 'a', value: eur(1), custom: { type: { key: 'no-such-type' } } }, 'InvalidInput'],
      [[1] as unknown as Json, 'InvalidInput'],
    ];
    for (const [draft, code] of cases) {
      const answer = await admin.post(`/${P}/standalone-prices`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    expect((await viewer.post(`/${P}/standalone-prices`, { sku: 'viewer', value: eur(1) })).status).toBe(403);
  });

  it('keeps price scopes distinct: DuplicateStandalonePriceScope and OverlappingStandalonePriceValidity', async () => {
    const base = await admin.ok(`/${P}/standalone-prices`, { sku: 'scoped', value: eur(100), country: 'DE' }, 201);
    const duplicate = await admin.post(`/${P}/standalone-prices`, { sku: 'scoped', value: eur(200), country: 'DE' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0]).toMatchObject({
      code: 'DuplicateStandalonePriceScope',
      conflictingStandalonePrice: { typeId: 'standalone-price', id: base.id },
      sku: 'scoped',
      currency: 'EUR',
      country: 'DE',
    });
    // Another country, currency or a period is another scope; a period does not conflict with none.
    await admin.ok(`/${P}/standalone-prices`, { sku: 'scoped', value: eur(200), country: 'AT' }, 201);
    await admin.ok(`/${P}/standalone-prices`, { sku: 'scoped', value: { currencyCode: 'USD', centAmount: 1 }, country: 'DE' }, 201);
    const january = await admin.ok(
      `/${P}/standalone-prices`,
      { sku: 'scoped', value: eur(90), country: 'DE', validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2030-02-01T00:00:00.000Z' },
      201,
    );
    const overlapping = await admin.post(`/${P}/standalone-prices`, { sku: 'scoped', value: eur(80), country: 'DE', validFrom: '2030-01-15T00:00:00.000Z' });
    expect(overlapping.status).toBe(400);
    expect(overlapping.body.errors[0]).toMatchObject({
      code: 'OverlappingStandalonePriceValidity',
      conflictingStandalonePrice: { id: january.id },
      conflictingValidFrom: '2030-01-01T00:00:00.000Z',
      conflictingValidUntil: '2030-02-01T00:00:00.000Z',
    });
    const february = await admin.ok(`/${P}/standalone-prices`, { sku: 'scoped', value: eur(80), country: 'DE', validFrom: '2030-02-01T00:00:00.000Z' }, 201);
    const moved = await admin.post(`/${P}/standalone-prices/${february.id}`, {
      version: 1,
      actions: [{ action: 'setValidFrom', validFrom: '2030-01-31T00:00:00.000Z' }],
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors[0].code).toBe('OverlappingStandalonePriceValidity');
    const same = await admin.post(`/${P}/standalone-prices/${february.id}`, {
      version: 1,
      actions: [{ action: 'setValidFromAndUntil', validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2030-02-01T00:00:00.000Z' }],
    });
    expect(same.body.errors[0].code).toBe('DuplicateStandalonePriceScope');
  });

  it('applies every official update action, with their messages in order', async () => {
    const price = await admin.ok(`/${P}/standalone-prices`, { sku: 'actions', value: eur(500), key: 'actions-price' }, 201);
    const updated = await admin.update(`/${P}/standalone-prices/key=actions-price`, 1, [
      { action: 'changeValue', value: eur(600) },
      { action: 'changeValue', value: eur(700), staged: true },
      { action: 'applyStagedChanges' },
      { action: 'changeValue', value: eur(800), staged: true },
      { action: 'removeStagedChanges' },
      { action: 'addPriceTier', tier: { minimumQuantity: 5, value: eur(650) } },
      { action: 'addPriceTier', tier: { minimumQuantity: 10, value: eur(600) } },
      { action: 'removePriceTier', minimumQuantity: 5 },
      { action: 'setPriceTiers', tiers: [{ minimumQuantity: 20, value: eur(550) }] },
      { action: 'setValidFrom', validFrom: '2031-01-01T00:00:00.000Z' },
      { action: 'setValidUntil', validUntil: '2031-06-01T00:00:00.000Z' },
      { action: 'setValidFromAndUntil', validFrom: '2031-02-01T00:00:00.000Z', validUntil: '2031-07-01T00:00:00.000Z' },
      { action: 'changeActive', active: false },
      { action: 'setKey', key: 'renamed-price' },
      { action: 'setDiscountedPrice' },
      { action: 'setCustomType', type: { key: 'price-fields' }, fields: { note: 'a' } },
      { action: 'setCustomField', name: 'note', value: 'b' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'renamed-price',
      value: cents(700),
      tiers: [{ minimumQuantity: 20, value: cents(550) }],
      validFrom: '2031-02-01T00:00:00.000Z',
      validUntil: '2031-07-01T00:00:00.000Z',
      active: false,
      custom: { fields: { note: 'b' } },
    });
    expect(updated).not.toHaveProperty('staged');
    const messages = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id = "${price.id}")`)}&sort=sequenceNumber%20asc`);
    expect(messages.results).toMatchObject([
      { type: 'StandalonePriceCreated', standalonePrice: { sku: 'actions', value: cents(500) } },
      { type: 'StandalonePriceValueChanged', value: cents(600), oldValue: cents(500), staged: false },
      { type: 'StandalonePriceValueChanged', value: cents(700), staged: true },
      { type: 'StandalonePriceStagedChangesApplied', stagedChanges: { value: cents(700) } },
      { type: 'StandalonePriceValueChanged', value: cents(800), staged: true },
      { type: 'StandalonePriceStagedChangesRemoved', stagedChanges: { value: cents(800) } },
      { type: 'StandalonePriceTierAdded', tier: { minimumQuantity: 5 } },
      { type: 'StandalonePriceTierAdded', tier: { minimumQuantity: 10 } },
      { type: 'StandalonePriceTierRemoved', removedTier: { minimumQuantity: 5 } },
      { type: 'StandalonePriceTiersSet', tiers: [{ minimumQuantity: 20 }], previousTiers: [{ minimumQuantity: 10 }] },
      { type: 'StandalonePriceValidFromSet', validFrom: '2031-01-01T00:00:00.000Z' },
      { type: 'StandalonePriceValidUntilSet', validUntil: '2031-06-01T00:00:00.000Z' },
      {
        type: 'StandalonePriceValidFromAndUntilSet',
        validFrom: '2031-02-01T00:00:00.000Z',
        previousValidFrom: '2031-01-01T00:00:00.000Z',
        validUntil: '2031-07-01T00:00:00.000Z',
        previousValidUntil: '2031-06-01T00:00:00.000Z',
      },
      { type: 'StandalonePriceActiveChanged', active: false, oldActive: true },
      { type: 'StandalonePriceKeySet', key: 'renamed-price', oldKey: 'actions-price' },
    ]);
    expect(messages.results[2]).not.toHaveProperty('oldValue');
    const cleared = await admin.update(`/${P}/standalone-prices/${price.id}`, 2, [
      { action: 'setKey' },
      { action: 'setValidFromAndUntil' },
      { action: 'setPriceTiers', tiers: [] },
      { action: 'setCustomType' },
    ]);
    for (const field of ['key', 'validFrom', 'validUntil', 'tiers', 'custom']) expect(cleared, field).not.toHaveProperty(field);
  });

  it('refuses bad update input with 400s', async () => {
    const price = await admin.ok(`/${P}/standalone-prices`, { sku: 'bad-actions', value: eur(100), tiers: [{ minimumQuantity: 3, value: eur(90) }] }, 201);
    const cases: Array<[Json, string]> = [
      [{ action: 'applyStagedChanges' }, 'InvalidOperation'],
      [{ action: 'changeValue' }, 'RequiredField'],
      [{ action: 'changeValue', value: { currencyCode: 'USD', centAmount: 1 } }, 'InvalidInput'],
      [{ action: 'changeActive', active: 'no' }, 'InvalidInput'],
      [{ action: 'addPriceTier', tier: { minimumQuantity: 3, value: eur(80) } }, 'InvalidField'],
      [{ action: 'addPriceTier', tier: { minimumQuantity: 1, value: eur(80) } }, 'InvalidField'],
      [{ action: 'removePriceTier', minimumQuantity: 7 }, 'InvalidOperation'],
      [{ action: 'setValidUntil', validUntil: 'later' }, 'InvalidInput'],
      [{ action: 'setDiscountedPrice', discounted: { value: eur(50), discount: { typeId: 'product-discount', id: 'none' } } }, 'ReferencedResourceNotFound'],
      [{ action: 'setKey', key: 'x' }, 'InvalidInput'],
    ];
    for (const [action, code] of cases) {
      const answer = await admin.post(`/${P}/standalone-prices/${price.id}`, { version: 1, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'standalone-price');

    const price = await admin.ok(`/${P}/standalone-prices`, { sku: 'delivered', value: eur(100) }, 201);
    await admin.update(`/${P}/standalone-prices/${price.id}`, 1, [
      { action: 'changeValue', value: eur(120) },
      { action: 'changeActive', active: false },
    ]);
    const deleted = await admin.delete(`/${P}/standalone-prices/${price.id}?version=2`);
    expect(deleted.status).toBe(200);

    // 4 messages and 3 change notifications (created, updated, deleted).
    const documents = await deliveriesAbout(sqs, queue, price.id as string, 7);
    const id = price.id as string;
    expect(labels(documents)).toEqual(
      [
        `standalone-price:${id}:Message:StandalonePriceCreated:1`,
        `standalone-price:${id}:Message:StandalonePriceValueChanged:2`,
        `standalone-price:${id}:Message:StandalonePriceActiveChanged:3`,
        `standalone-price:${id}:Message:StandalonePriceDeleted:4`,
        `standalone-price:${id}:ResourceCreated:1`,
        `standalone-price:${id}:ResourceUpdated:2`,
        `standalone-price:${id}:ResourceDeleted:2`,
      ].sort(),
    );
    const byType = (type: string) => documents.map(payloadOf).find((payload) => payload.type === type);
    expect(byType('StandalonePriceCreated')).toMatchObject({ standalonePrice: { sku: 'delivered', active: true } });
    expect(byType('StandalonePriceValueChanged')).toMatchObject({ value: cents(120), oldValue: cents(100), staged: false });
    expect(byType('StandalonePriceDeleted')).toMatchObject({ sku: 'delivered' });
  });
});
