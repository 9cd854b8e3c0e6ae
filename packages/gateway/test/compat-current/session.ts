/**
 * A realistic client session through the CURRENT majors of the official TypeScript SDK
 * (`@commercetools/platform-sdk` 9, `@commercetools/ts-client` 5), which need Node >= 22: this file
 * is run by Node 24 (type stripping, so only erasable TypeScript here), not by vitest.
 * `current-sdk.test.ts` starts Herald, runs this script against it and reads its report.
 *
 * For every resource Herald implements: create, read (by id and key), query, update with the
 * official update actions, delete. Each step prints one JSON line `{step, ok, error?}`; the first
 * failure of a resource ends that resource's steps (later ones depend on it), the session goes on.
 *
 * Input (environment): HERALD_URL, HERALD_PROJECT, HERALD_CLIENT_ID, HERALD_CLIENT_SECRET,
 * SQS_QUEUE_URL.
 */
import { createApiBuilderFromCtpClient, type ByProjectKeyRequestBuilder } from '@commercetools/platform-sdk-current';
import { ClientBuilder } from '@commercetools/ts-client-current';
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const host = env('HERALD_URL');
const projectKey = env('HERALD_PROJECT');
const credentials = { clientId: env('HERALD_CLIENT_ID'), clientSecret: env('HERALD_CLIENT_SECRET') };
const queueUrl = env('SQS_QUEUE_URL');
const unique = randomUUID().slice(0, 8);

function report(step: string, error?: unknown): void {
  const line = error === undefined ? { step, ok: true } : { step, ok: false, error: describe(error) };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function describe(error: unknown): string {
  const e = error as { message?: string; statusCode?: number; body?: unknown };
  return [e.statusCode, e.message, e.body === undefined ? '' : JSON.stringify(e.body)].filter(Boolean).join(' ').slice(0, 1500);
}

/** Runs the steps of one resource in order, reporting each; stops that resource at its first failure. */
async function resource(name: string, steps: Array<[string, () => Promise<unknown>]>): Promise<void> {
  for (const [step, run] of steps) {
    try {
      await run();
      report(`${name}.${step}`);
    } catch (error) {
      report(`${name}.${step}`, error);
      return;
    }
  }
}

function api(build: (builder: ClientBuilder) => ClientBuilder): ByProjectKeyRequestBuilder {
  const builder = new ClientBuilder().withProjectKey(projectKey).withHttpMiddleware({ host, httpClient: fetch });
  return createApiBuilderFromCtpClient(build(builder).build()).withProjectKey({ projectKey });
}

const admin = api((b) => b.withClientCredentialsFlow({ host, projectKey, credentials, httpClient: fetch }));

async function projectSteps(): Promise<void> {
  let version = 0;
  await resource('project', [
    [
      'read',
      async () => {
        const project = (await admin.get().execute()).body;
        assert.equal(project.key, projectKey);
        version = project.version;
      },
    ],
    [
      'update',
      async () => {
        const updated = (
          await admin
            .post({
              body: {
                version,
                actions: [
                  { action: 'changeName', name: 'Herald Compat' },
                  { action: 'changeCurrencies', currencies: ['EUR', 'USD'] },
                  { action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 15 } },
                ],
              },
            })
            .execute()
        ).body;
        assert.equal(updated.name, 'Herald Compat');
        assert.deepEqual(updated.currencies, ['EUR', 'USD']);
      },
    ],
  ]);
}

async function storeSteps(): Promise<void> {
  const key = `store-${unique}`;
  let id = '';
  let version = 0;
  await resource('stores', [
    [
      'create',
      async () => {
        const store = (
          await admin
            .stores()
            .post({ body: { key, name: { en: 'Berlin' }, languages: ['en'], countries: [{ code: 'DE' }] } })
            .execute()
        ).body;
        ({ id, version } = store);
        assert.deepEqual(store.countries, [{ code: 'DE' }]);
      },
    ],
    ['read', async () => assert.equal((await admin.stores().withKey({ key }).get().execute()).body.id, id)],
    [
      'query',
      async () =>
        assert.equal(
          (
            await admin
              .stores()
              .get({ queryArgs: { where: `key="${key}"` } })
              .execute()
          ).body.results[0]?.id,
          id,
        ),
    ],
    [
      'update',
      async () => {
        const store = (
          await admin
            .stores()
            .withId({ ID: id })
            .post({
              body: {
                version,
                actions: [
                  { action: 'setName', name: { en: 'Berlin Mitte' } },
                  { action: 'addCountry', country: { code: 'AT' } },
                ],
              },
            })
            .execute()
        ).body;
        assert.deepEqual(
          store.countries.map((c) => c.code),
          ['DE', 'AT'],
        );
        version = store.version;
      },
    ],
    ['delete', async () => void (await admin.stores().withId({ ID: id }).delete({ queryArgs: { version } }).execute())],
  ]);
}

async function typeSteps(): Promise<void> {
  const key = `type-${unique}`;
  // The SDK's own integration tests use long field names like this one.
  const longName = 'a-field-name-that-is-longer-than-fifty-characters-like-the-sdk-tests-use';
  let id = '';
  let version = 0;
  await resource('types', [
    [
      'create',
      async () => {
        const type = (
          await admin
            .types()
            .post({
              body: {
                key,
                name: { en: 'Customer extras' },
                resourceTypeIds: ['customer'],
                fieldDefinitions: [{ name: longName, label: { en: 'Long' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' }],
              },
            })
            .execute()
        ).body;
        ({ id, version } = type);
      },
    ],
    ['read', async () => assert.equal((await admin.types().withKey({ key }).get().execute()).body.id, id)],
    [
      'query',
      async () =>
        assert.equal(
          (
            await admin
              .types()
              .get({ queryArgs: { where: `key="${key}"` } })
              .execute()
          ).body.results.length,
          1,
        ),
    ],
    [
      'update',
      async () => {
        const type = (
          await admin
            .types()
            .withId({ ID: id })
            .post({
              body: {
                version,
                actions: [
                  { action: 'addFieldDefinition', fieldDefinition: { name: 'tier', label: { en: 'Tier' }, required: false, type: { name: 'Number' } } },
                  { action: 'changeLabel', fieldName: longName, label: { en: 'Longer' } },
                ],
              },
            })
            .execute()
        ).body;
        assert.equal(type.fieldDefinitions.length, 2);
        version = type.version;
      },
    ],
    ['delete', async () => void (await admin.types().withId({ ID: id }).delete({ queryArgs: { version } }).execute())],
  ]);
}

async function stateSteps(): Promise<void> {
  const key = `state-${unique}`;
  let id = '';
  let version = 0;
  await resource('states', [
    [
      'create',
      async () =>
        ({ id, version } = (
          await admin
            .states()
            .post({ body: { key, type: 'QuoteRequestState', name: { en: 'Review' } } })
            .execute()
        ).body),
    ],
    ['read', async () => assert.equal((await admin.states().withKey({ key }).get().execute()).body.id, id)],
    [
      'query',
      async () =>
        assert.equal(
          (
            await admin
              .states()
              .get({ queryArgs: { where: `key="${key}"` } })
              .execute()
          ).body.results.length,
          1,
        ),
    ],
    [
      'update',
      async () => {
        const state = (
          await admin
            .states()
            .withId({ ID: id })
            .post({
              body: {
                version,
                actions: [
                  { action: 'setName', name: { en: 'In review' } },
                  { action: 'setDescription', description: { en: 'Being reviewed' } },
                ],
              },
            })
            .execute()
        ).body;
        version = state.version;
      },
    ],
    ['delete', async () => void (await admin.states().withId({ ID: id }).delete({ queryArgs: { version } }).execute())],
  ]);
}

/** Customers, then the same customer's session: password flow, login, carts, quote requests. */
async function customerSteps(): Promise<void> {
  const key = `customer-${unique}`;
  const email = `buyer-${unique}@example.com`;
  const password = 'correct-horse-battery';
  let id = '';
  let version = 0;
  await resource('customers', [
    [
      'create',
      async () => {
        const result = (
          await admin
            .customers()
            .post({
              body: { key, email, password, firstName: 'Bea', addresses: [{ key: 'home', country: 'DE', city: 'Berlin' }], defaultShippingAddress: 0 },
            })
            .execute()
        ).body;
        ({ id, version } = result.customer);
        assert.equal(result.customer.addresses.length, 1);
        assert.equal(result.customer.defaultShippingAddressId, result.customer.addresses[0]?.id);
      },
    ],
    ['read', async () => assert.equal((await admin.customers().withKey({ key }).get().execute()).body.id, id)],
    [
      'query',
      async () =>
        assert.equal(
          (
            await admin
              .customers()
              .get({ queryArgs: { where: `email="${email}"` } })
              .execute()
          ).body.results[0]?.id,
          id,
        ),
    ],
    [
      'update',
      async () => {
        const customer = (
          await admin
            .customers()
            .withId({ ID: id })
            .post({
              body: {
                version,
                actions: [
                  { action: 'addAddress', address: { key: 'office', country: 'DE', city: 'Potsdam' } },
                  { action: 'setDefaultBillingAddress', addressKey: 'office' },
                  { action: 'setCompanyName', companyName: 'Compat GmbH' },
                ],
              },
            })
            .execute()
        ).body;
        assert.equal(customer.addresses.length, 2);
        assert.equal(customer.defaultBillingAddressId, customer.addresses[1]?.id);
        version = customer.version;
      },
    ],
    [
      'login',
      async () => {
        const result = (await admin.login().post({ body: { email, password } }).execute()).body;
        assert.equal(result.customer.id, id);
      },
    ],
  ]);
  await buyerSteps(email, password, id);
  await resource('customers', [
    [
      'delete',
      async () =>
        void (await admin
          .customers()
          .withId({ ID: id })
          .delete({ queryArgs: { version: await currentCustomerVersion(id), dataErasure: true } })
          .execute()),
    ],
  ]);
}

async function currentCustomerVersion(id: string): Promise<number> {
  return (await admin.customers().withId({ ID: id }).get().execute()).body.version;
}

async function buyerSteps(email: string, password: string, customerId: string): Promise<void> {
  const me = api((b) => b.withPasswordFlow({ host, projectKey, credentials: { ...credentials, user: { username: email, password } }, httpClient: fetch }));
  let cartId = '';
  let cartVersion = 0;
  let quoteRequestId = '';
  await resource('carts', [
    [
      'create',
      async () => {
        const cart = (
          await admin
            .carts()
            .post({
              body: {
                customerId,
                currency: 'EUR',
                country: 'DE',
                customLineItems: [{ name: { en: 'Setup fee' }, slug: 'setup', quantity: 1, money: { currencyCode: 'EUR', centAmount: 4900 } }],
              },
            })
            .execute()
        ).body;
        ({ id: cartId, version: cartVersion } = cart);
        assert.equal(cart.customerId, customerId);
        assert.equal(cart.totalPrice.centAmount, 4900);
      },
    ],
    ['read', async () => assert.equal((await me.me().activeCart().get().execute()).body.id, cartId)],
    // `?customerId=` answers the customer's active cart itself, not a page (the platform's form).
    ['query', async () => assert.equal(((await admin.carts().get({ queryArgs: { customerId } }).execute()).body as unknown as { id: string }).id, cartId)],
    [
      'update',
      async () => {
        const cart = (
          await admin
            .carts()
            .withId({ ID: cartId })
            .post({
              body: {
                version: cartVersion,
                actions: [
                  { action: 'setShippingAddress', address: { country: 'DE', city: 'Berlin' } },
                  { action: 'setCustomerEmail', email },
                  { action: 'setPurchaseOrderNumber', purchaseOrderNumber: 'PO-1' },
                ],
              },
            })
            .execute()
        ).body;
        assert.equal(cart.shippingAddress?.city, 'Berlin');
        cartVersion = cart.version;
      },
    ],
  ]);
  await resource('quote-requests', [
    [
      'create',
      async () => {
        const quoteRequest = (
          await me
            .me()
            .quoteRequests()
            .post({ body: { cartId, cartVersion, comment: 'Please quote' } })
            .execute()
        ).body;
        quoteRequestId = quoteRequest.id;
        assert.equal(quoteRequest.quoteRequestState, 'Submitted');
      },
    ],
    ['read', async () => assert.equal((await admin.quoteRequests().withId({ ID: quoteRequestId }).get().execute()).body.id, quoteRequestId)],
    ['query', async () => assert.equal((await me.me().quoteRequests().get().execute()).body.results[0]?.id, quoteRequestId)],
    [
      'update',
      async () => {
        const quoteRequest = (
          await admin
            .quoteRequests()
            .withId({ ID: quoteRequestId })
            .post({ body: { version: 1, actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Cancelled' }] } })
            .execute()
        ).body;
        assert.equal(quoteRequest.quoteRequestState, 'Cancelled');
      },
    ],
    [
      'delete',
      async () =>
        void (await admin
          .quoteRequests()
          .withId({ ID: quoteRequestId })
          .delete({ queryArgs: { version: 2 } })
          .execute()),
    ],
  ]);
  await resource('carts', [
    [
      'delete',
      async () =>
        void (await admin
          .carts()
          .withId({ ID: cartId })
          .delete({ queryArgs: { version: cartVersion } })
          .execute()),
    ],
  ]);
}

async function businessUnitSteps(): Promise<void> {
  const key = `company-${unique}`;
  let id = '';
  let version = 0;
  await resource('business-units', [
    [
      'create',
      async () => {
        const unit = (
          await admin
            .businessUnits()
            .post({ body: { key, unitType: 'Company', name: 'Compat Company', addresses: [{ country: 'DE' }] } })
            .execute()
        ).body;
        ({ id, version } = unit);
        assert.equal(unit.associateMode, 'Explicit');
      },
    ],
    ['read', async () => assert.equal((await admin.businessUnits().withKey({ key }).get().execute()).body.id, id)],
    [
      'query',
      async () =>
        assert.equal(
          (
            await admin
              .businessUnits()
              .get({ queryArgs: { where: `key="${key}"` } })
              .execute()
          ).body.results.length,
          1,
        ),
    ],
    [
      'update',
      async () => {
        const unit = (
          await admin
            .businessUnits()
            .withKey({ key })
            .post({
              body: {
                version,
                actions: [
                  { action: 'changeName', name: 'Compat Company AG' },
                  { action: 'setContactEmail', contactEmail: 'sales@compat.example' },
                ],
              },
            })
            .execute()
        ).body;
        version = unit.version;
      },
    ],
    [
      'graphql',
      async () => {
        const answer = (
          await admin
            .graphql()
            .post({ body: { query: 'query ($key: String!) { businessUnit(key: $key) { id name } }', variables: { key } } })
            .execute()
        ).body;
        assert.equal((answer.data as { businessUnit: { id: string } }).businessUnit.id, id);
      },
    ],
    ['delete', async () => void (await admin.businessUnits().withId({ ID: id }).delete({ queryArgs: { version } }).execute())],
  ]);
}

async function subscriptionSteps(): Promise<void> {
  const key = `subscription-${unique}`;
  let id = '';
  let version = 0;
  await resource('subscriptions', [
    [
      'create',
      async () => {
        const subscription = (
          await admin
            .subscriptions()
            .post({
              body: { key, destination: { type: 'SQS', queueUrl, region: 'us-east-1', authenticationMode: 'IAM' }, messages: [{ resourceTypeId: 'customer' }] },
            })
            .execute()
        ).body;
        ({ id, version } = subscription);
        assert.deepEqual(subscription.events, []);
      },
    ],
    ['read', async () => assert.equal((await admin.subscriptions().withKey({ key }).get().execute()).body.id, id)],
    [
      'query',
      async () =>
        assert.equal(
          (
            await admin
              .subscriptions()
              .get({ queryArgs: { where: `key="${key}"` } })
              .execute()
          ).body.results.length,
          1,
        ),
    ],
    [
      'update',
      async () => {
        const subscription = (
          await admin
            .subscriptions()
            .withId({ ID: id })
            .post({
              body: {
                version,
                actions: [
                  { action: 'setChanges', changes: [{ resourceTypeId: 'store' }] },
                  { action: 'setEvents', events: [{ resourceTypeId: 'import-api', types: ['ImportContainerCreated'] }] },
                ],
              },
            })
            .execute()
        ).body;
        version = subscription.version;
      },
    ],
    ['delete', async () => void (await admin.subscriptions().withId({ ID: id }).delete({ queryArgs: { version } }).execute())],
  ]);
}

async function apiClientSteps(): Promise<void> {
  let id = '';
  await resource('api-clients', [
    [
      'create',
      async () => {
        const client = (
          await admin
            .apiClients()
            .post({ body: { name: `reader-${unique}`, scope: `view_stores:${projectKey}` } })
            .execute()
        ).body;
        id = client.id;
        assert.ok(client.secret);
      },
    ],
    ['read', async () => assert.equal((await admin.apiClients().withId({ ID: id }).get().execute()).body.id, id)],
    ['query', async () => assert.ok((await admin.apiClients().get().execute()).body.results.some((client) => client.id === id))],
    ['delete', async () => void (await admin.apiClients().withId({ ID: id }).delete().execute())],
  ]);
}

async function messageSteps(): Promise<void> {
  await resource('messages', [
    [
      'query',
      async () => {
        // The customer was deleted with dataErasure, which erases its messages: read the store's.
        const page = (
          await admin
            .messages()
            .get({ queryArgs: { where: 'resource(typeId="store")', sort: 'sequenceNumber asc', withTotal: true } })
            .execute()
        ).body;
        // One message per action, in the order of the actions (setName, then addCountry).
        assert.deepEqual(page.results.map((message) => message.type).slice(0, 3), ['StoreCreated', 'StoreNameSet', 'StoreCountriesChanged']);
      },
    ],
  ]);
}

for (const run of [projectSteps, storeSteps, typeSteps, stateSteps, customerSteps, businessUnitSteps, subscriptionSteps, apiClientSteps, messageSteps]) {
  await run();
}
