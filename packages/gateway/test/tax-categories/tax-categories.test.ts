/**
 * Issue 28: the TaxCategory resource `/{projectKey}/tax-categories` (reference:
 * resources/tax-categories.raml, types/tax-category): the versioned template's operations by id and
 * key, TaxCategoryDraft and TaxRateDraft validation, every update action, the delete refused while
 * the category is in use, predicates and sort, and change notifications delivered to an SQS
 * subscription (the reference has no TaxCategory messages).
 */
import { DocumentStore } from '@herald/store';
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'tax-categories';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const rate = (country: string, amount: number, extra: Json = {}): Json => ({ name: `${country} VAT`, amount, includedInPrice: true, country, ...extra });

describe('TaxCategory /{projectKey}/tax-categories', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_tax_categories', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_tax_categories']);
  }, 180_000);
  afterAll(() => setup?.close());

  const updateOf = (category: Json, actions: Json[]) => admin.post(`/${P}/tax-categories/${category.id}`, { version: category.version, actions });

  it('creates a TaxCategory with rate ids and sub-rates, and reads it by id, by key, by query and sorted', async () => {
    const category = await admin.ok(
      `/${P}/tax-categories`,
      {
        key: 'standard',
        name: 'Standard',
        description: 'Most goods',
        rates: [
          rate('DE', 0.19, { key: 'de' }),
          // Without `amount`, the rate is the sum of its sub-rates (TaxRate.amount).
          {
            name: 'NY',
            includedInPrice: false,
            country: 'US',
            state: 'New York',
            subRates: [
              { name: 'State', amount: 0.04 },
              { name: 'City', amount: 0.04875 },
            ],
          },
          // An empty state is no state (TaxRateDraft.state); amount given and equal to the sum.
          {
            name: 'US',
            amount: 0.1,
            includedInPrice: false,
            country: 'US',
            state: '',
            subRates: [
              { name: 'A', amount: 0.07 },
              { name: 'B', amount: 0.03 },
            ],
          },
        ],
      },
      201,
    );
    expect(category).toMatchObject({
      version: 1,
      key: 'standard',
      name: 'Standard',
      description: 'Most goods',
      rates: [
        { key: 'de', name: 'DE VAT', amount: 0.19, includedInPrice: true, country: 'DE' },
        {
          name: 'NY',
          amount: 0.08875,
          includedInPrice: false,
          country: 'US',
          state: 'New York',
          subRates: [
            { name: 'State', amount: 0.04 },
            { name: 'City', amount: 0.04875 },
          ],
        },
        { name: 'US', amount: 0.1, country: 'US' },
      ],
    });
    expect(category.rates[2]).not.toHaveProperty('state');
    const ids = category.rates.map((each: Json) => each.id as string);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{8}$/);

    expect(await viewer.read(`/${P}/tax-categories/${category.id}`)).toEqual(category);
    expect(await viewer.read(`/${P}/tax-categories/key=standard`)).toEqual(category);
    await admin.ok(`/${P}/tax-categories`, { key: 'reduced', name: 'Reduced', rates: [rate('DE', 0.07)] }, 201);
    const byRate = await viewer.read(`/${P}/tax-categories?${where('rates(country = "US" and state = "New York" and amount > 0.08)')}`);
    expect(byRate.results.map((found: Json) => found.key)).toEqual(['standard']);
    const sorted = await viewer.read(`/${P}/tax-categories?sort=name%20asc&${where('rates(country = "DE")')}`);
    expect(sorted.results.map((found: Json) => found.name)).toEqual(['Reduced', 'Standard']);

    // resources/tax-categories.raml: the products scopes reach tax categories too.
    const products = await callerWith(gateway, P, ['manage_products']);
    expect(await products.read(`/${P}/tax-categories/key=reduced`)).toMatchObject({ name: 'Reduced' });
    await products.ok(`/${P}/tax-categories`, { name: 'By the products scope' }, 201);
    expect((await viewer.post(`/${P}/tax-categories`, { name: 'Viewer category' })).status).toBe(403);
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/tax-categories`, { key: 'taken', name: 'Taken' }, 201);
    const cases: Array<[string, unknown, string]> = [
      ['draft not an object', ['x'], 'InvalidInput'],
      ['no name', { key: 'no-name' }, 'RequiredField'],
      ['name not a string', { name: ['x'] }, 'InvalidInput'],
      ['description not a string', { name: 'C', description: 1 }, 'InvalidInput'],
      ['key too short', { name: 'C', key: 'k' }, 'InvalidInput'],
      ['rates not an array', { name: 'C', rates: rate('DE', 0.19) }, 'InvalidInput'],
      ['rate not an object', { name: 'C', rates: [0.19] }, 'InvalidInput'],
      ['rate without a name', { name: 'C', rates: [{ amount: 0.1, includedInPrice: true, country: 'DE' }] }, 'RequiredField'],
      ['rate without includedInPrice', { name: 'C', rates: [{ name: 'r', amount: 0.1, country: 'DE' }] }, 'RequiredField'],
      ['includedInPrice not a boolean', { name: 'C', rates: [rate('DE', 0.1, { includedInPrice: 'yes' })] }, 'InvalidInput'],
      ['rate without a country', { name: 'C', rates: [{ name: 'r', amount: 0.1, includedInPrice: true }] }, 'InvalidInput'],
      ['country not a code', { name: 'C', rates: [rate('Germany', 0.1)] }, 'InvalidInput'],
      ['state not a string', { name: 'C', rates: [rate('US', 0.1, { state: 5 })] }, 'InvalidInput'],
      ['neither amount nor subRates', { name: 'C', rates: [{ name: 'r', includedInPrice: true, country: 'DE' }] }, 'RequiredField'],
      ['amount over 1', { name: 'C', rates: [rate('DE', 19)] }, 'InvalidInput'],
      ['amount below 0', { name: 'C', rates: [rate('DE', -0.1)] }, 'InvalidInput'],
      ['amount a string', { name: 'C', rates: [rate('DE', 0.1, { amount: '0.1' })] }, 'InvalidInput'],
      ['subRates not an array', { name: 'C', rates: [rate('DE', 0.1, { subRates: { name: 's', amount: 0.1 } })] }, 'InvalidInput'],
      ['sub-rate without an amount', { name: 'C', rates: [rate('DE', 0.1, { subRates: [{ name: 's' }] })] }, 'RequiredField'],
      ['sub-rate without a name', { name: 'C', rates: [rate('DE', 0.1, { subRates: [{ amount: 0.1 }] })] }, 'RequiredField'],
      ['sub-rate over 1', { name: 'C', rates: [{ name: 'r', includedInPrice: true, country: 'DE', subRates: [{ name: 's', amount: 2 }] }] }, 'InvalidInput'],
      [
        'sub-rates over 1 together',
        {
          name: 'C',
          rates: [
            {
              name: 'r',
              includedInPrice: true,
              country: 'DE',
              subRates: [
                { name: 's', amount: 0.6 },
                { name: 't', amount: 0.6 },
              ],
            },
          ],
        },
        'InvalidInput',
      ],
      ['amount not the sum of its sub-rates', { name: 'C', rates: [rate('DE', 0.2, { subRates: [{ name: 's', amount: 0.19 }] })] }, 'InvalidOperation'],
      ['a country twice', { name: 'C', rates: [rate('DE', 0.19), rate('DE', 0.07, { state: '' })] }, 'DuplicateField'],
      ['a country and state twice', { name: 'C', rates: [rate('US', 0.1, { state: 'Ohio' }), rate('US', 0.2, { state: 'Ohio' })] }, 'DuplicateField'],
      ['a rate key twice', { name: 'C', rates: [rate('DE', 0.19, { key: 'vat' }), rate('AT', 0.2, { key: 'vat' })] }, 'DuplicateField'],
      ['a bad rate key', { name: 'C', rates: [rate('DE', 0.19, { key: 'v a t' })] }, 'InvalidInput'],
      ['a key of another TaxCategory', { name: 'C', key: 'taken' }, 'DuplicateField'],
      ['the name of another TaxCategory', { name: 'Taken' }, 'InvalidOperation'],
    ];
    for (const [label, draft, code] of cases) {
      const answer = await admin.post(`/${P}/tax-categories`, draft);
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
    }
    // Same country, different states (and the country without one) are distinct rates.
    const states = await admin.ok(
      `/${P}/tax-categories`,
      { name: 'C', rates: [rate('US', 0.1), rate('US', 0.2, { state: 'Ohio' }), rate('US', 0.3, { state: 'ohio' })] },
      201,
    );
    expect(states.rates).toHaveLength(3);
  });

  it('applies every update action; a rate is named by its id or its key', async () => {
    const category = await admin.ok(`/${P}/tax-categories`, { key: 'books', name: 'Books', rates: [rate('DE', 0.07, { key: 'de' }), rate('FR', 0.055)] }, 201);
    const germany = category.rates[0] as Json;
    const france = category.rates[1] as Json;
    const added = await updateOf(category, [
      { action: 'addTaxRate', taxRate: rate('AT', 0.1, { key: 'at' }) },
      {
        action: 'addTaxRate',
        taxRate: { name: 'CA', includedInPrice: false, country: 'US', state: 'California', subRates: [{ name: 'State', amount: 0.0725 }] },
      },
      { action: 'removeTaxRate', taxRateId: france.id },
      { action: 'replaceTaxRate', taxRateKey: 'de', taxRate: rate('DE', 0.19, { key: 'de-standard', includedInPrice: false }) },
      { action: 'changeName', name: 'Printed matter' },
      { action: 'setDescription', description: 'Books and papers' },
      { action: 'setKey', key: 'printed' },
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      version: 2,
      key: 'printed',
      name: 'Printed matter',
      description: 'Books and papers',
      rates: [
        // The replaced rate keeps its id.
        { id: germany.id, key: 'de-standard', amount: 0.19, includedInPrice: false, country: 'DE' },
        { key: 'at', amount: 0.1, country: 'AT' },
        { name: 'CA', amount: 0.0725, country: 'US', state: 'California' },
      ],
    });
    const atId = added.body.rates[1].id as string;
    expect(atId).toMatch(/^[A-Za-z0-9]{8}$/);
    expect([germany.id, france.id]).not.toContain(atId);

    const removedByKey = await updateOf(added.body, [{ action: 'removeTaxRate', taxRateKey: 'at' }, { action: 'setDescription' }, { action: 'setKey' }]);
    expect(removedByKey.body.version).toBe(3);
    expect(removedByKey.body.rates.map((each: Json) => each.country)).toEqual(['DE', 'US']);
    expect(removedByKey.body).not.toHaveProperty('description');
    expect(removedByKey.body).not.toHaveProperty('key');
    // Renaming to its own name is no conflict.
    expect((await updateOf(removedByKey.body, [{ action: 'changeName', name: 'Printed matter' }])).status).toBe(200);

    const replaced = await updateOf(removedByKey.body, [
      { action: 'removeTaxRate', taxRateId: removedByKey.body.rates[0].id },
      { action: 'removeTaxRate', taxRateId: removedByKey.body.rates[1].id },
      { action: 'addTaxRate', taxRate: rate('IT', 0.04) },
      { action: 'addTaxRate', taxRate: rate('ES', 0.04) },
    ]);
    expect(replaced.body.rates.map((each: Json) => each.country)).toEqual(['IT', 'ES']);

    const current = replaced.body;
    const italy = current.rates[0].id as string;
    await admin.ok(`/${P}/tax-categories`, { name: 'Other', key: 'other' }, 201);
    const refusals: Array<[string, Json, string]> = [
      ['a country it has', { action: 'addTaxRate', taxRate: rate('IT', 0.1) }, 'DuplicateField'],
      ['a rate key it has', { action: 'addTaxRate', taxRate: rate('GR', 0.1, { key: 'x1' }) }, 'DuplicateField'],
      ['no taxRate', { action: 'addTaxRate' }, 'RequiredField'],
      ['a bad taxRate', { action: 'addTaxRate', taxRate: rate('GR', 3) }, 'InvalidInput'],
      ['sub-rates off their amount', { action: 'addTaxRate', taxRate: rate('GR', 0.1, { subRates: [{ name: 's', amount: 0.2 }] }) }, 'InvalidOperation'],
      ['removing an unknown id', { action: 'removeTaxRate', taxRateId: 'nope' }, 'InvalidOperation'],
      ['removing an unknown key', { action: 'removeTaxRate', taxRateKey: 'nope' }, 'InvalidOperation'],
      ['removing, naming no rate', { action: 'removeTaxRate' }, 'InvalidInput'],
      ['replacing an unknown id', { action: 'replaceTaxRate', taxRateId: 'nope', taxRate: rate('GR', 0.1) }, 'InvalidOperation'],
      ['replacing onto a country it has', { action: 'replaceTaxRate', taxRateId: italy, taxRate: rate('ES', 0.1) }, 'DuplicateField'],
      ['the name of another TaxCategory', { action: 'changeName', name: 'Other' }, 'InvalidOperation'],
      ['no name', { action: 'changeName' }, 'RequiredField'],
      ['a bad key', { action: 'setKey', key: 'a' }, 'InvalidInput'],
      ['the key of another TaxCategory', { action: 'setKey', key: 'other' }, 'DuplicateField'],
      // Not an action of the reference's TaxCategoryUpdateAction set.
      ['setTaxRates', { action: 'setTaxRates', taxRates: [rate('IT', 0.1)] }, 'InvalidInput'],
      ['an unknown action', { action: 'setRates', rates: [] }, 'InvalidInput'],
    ];
    await updateOf(current, [{ action: 'addTaxRate', taxRate: rate('PT', 0.06, { key: 'x1' }) }]);
    for (const [label, action, code] of refusals) {
      const answer = await admin.post(`/${P}/tax-categories/${current.id}`, { version: current.version + 1, actions: [action] });
      expect(answer.status, label).toBe(400);
      expect(answer.body.errors[0].code, label).toBe(code);
    }
    // Replacing a rate with one of its own location is no duplicate.
    expect(
      (
        await admin.post(`/${P}/tax-categories/${current.id}`, {
          version: current.version + 1,
          actions: [{ action: 'replaceTaxRate', taxRateId: italy, taxRate: rate('IT', 0.05) }],
        })
      ).status,
    ).toBe(200);
    const stale = await updateOf(category, [{ action: 'changeName', name: 'Old' }]);
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('ConcurrentModification');
  });

  it('refuses to delete a TaxCategory a product still uses (400 ReferenceExists), deletes it once unused', async () => {
    const category = await admin.ok(`/${P}/tax-categories`, { key: 'in-use', name: 'In use', rates: [rate('DE', 0.19)] }, 201);
    // Herald has no product resource yet: the product document that holds the reference
    // (Product.taxCategory) is written through the store's public API.
    const documents = new DocumentStore(gateway.db);
    const product = await documents.create({ projectKey: P }, 'product', { key: 'taxed', taxCategory: { typeId: 'tax-category', id: category.id } } as never);
    const refused = await admin.delete(`/${P}/tax-categories/${category.id}?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'product' });
    expect((await viewer.read(`/${P}/tax-categories/${category.id}`)).version).toBe(1);

    await documents.delete({ projectKey: P }, 'product', { id: product.id }, 1);
    expect((await admin.delete(`/${P}/tax-categories/key=in-use?version=1`)).status).toBe(200);
    expect((await viewer.get(`/${P}/tax-categories/${category.id}`)).status).toBe(404);
  });

  it('delivers its change notifications to an SQS subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'tax-category');

    const category = await admin.ok(`/${P}/tax-categories`, { key: 'delivered', name: 'Delivered', rates: [rate('DE', 0.19)] }, 201);
    await admin.update(`/${P}/tax-categories/${category.id}`, 1, [
      { action: 'addTaxRate', taxRate: rate('AT', 0.2) },
      { action: 'removeTaxRate', taxRateId: category.rates[0].id },
      { action: 'changeName', name: 'Delivered too' },
    ]);
    await admin.update(`/${P}/tax-categories/key=delivered`, 2, [{ action: 'setKey', key: 'delivered-too' }]);
    await admin.delete(`/${P}/tax-categories/${category.id}?version=3`);

    const documents = await deliveriesAbout(sqs, queue, category.id as string, 4);
    const id = category.id as string;
    // No TaxCategory messages exist in the reference: change notifications only.
    expect(labels(documents)).toEqual(
      [
        `tax-category:${id}:ResourceCreated:1`,
        `tax-category:${id}:ResourceUpdated:2`,
        `tax-category:${id}:ResourceUpdated:3`,
        `tax-category:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const byVersion = (version: number) =>
      documents.map(payloadOf).find((payload) => payload.notificationType === 'ResourceUpdated' && payload.version === version);
    expect(byVersion(2)).toMatchObject({ resourceUserProvidedIdentifiers: { key: 'delivered' } });
    expect(byVersion(3)).toMatchObject({ resourceUserProvidedIdentifiers: { key: 'delivered-too' } });
  });
});
