import { randomUUID } from 'node:crypto';
import type {
  ApiRequest,
  BusinessUnit,
  ByProjectKeyRequestBuilder,
  Cart,
  Customer,
  Message,
  QuoteRequest,
  Subscription,
  SubscriptionDraft,
} from '@commercetools/platform-sdk';
import {
  startEventBridgePeer,
  startEventGridPeer,
  startPubSubPeer,
  startServiceBusPeer,
  startSqsPeer,
  type EventBridgePeer,
  type EventGridPeer,
  type PubSubPeer,
  type ServiceBusPeer,
  type SqsPeer,
} from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningHerald } from '../../src/server/start.js';
import { TEST_BOOTSTRAP_CLIENT } from '../support/gateway.js';
import { startEventBridgePartnerShim, type EventBridgePartnerShim } from './eventbridge-partner-shim.js';
import { apiRoot, baseBuilder, MemoryTokenCache, sdkFailure, serveHerald, type SdkTarget, type ServedHerald } from './support.js';

const P = 'compat';
const REGION = 'us-east-1';
const CREDENTIALS = { clientId: TEST_BOOTSTRAP_CLIENT.id, clientSecret: TEST_BOOTSTRAP_CLIENT.secret };
/** Herald's own AWS credentials for EventBridge come from the process environment (the AWS SDK's chain). */
const HERALD_AWS = { accessKeyId: 'AKIAHERALDCOMPAT0001', secretAccessKey: 'herald-compat-partner-secret' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Executes an SDK request that must succeed with `status`; returns the typed body. */
async function body<T>(request: ApiRequest<T>, status = 200): Promise<T> {
  const response = await request.execute();
  expect(response.statusCode, JSON.stringify(response.body)).toBe(status);
  return response.body as T;
}

/**
 * Issue "Works unchanged with the official commercetools TypeScript SDK": Herald runs as
 * `herald serve` does (startHerald on a real socket, configured from environment variables only),
 * and is driven ONLY through `@commercetools/ts-client`'s ClientBuilder and
 * `@commercetools/platform-sdk`'s request builders, changed only in their base URLs.
 */
describe('the official commercetools TypeScript SDK against Herald', () => {
  let sqs: SqsPeer;
  let eventBridge: EventBridgePeer;
  let eventBridgeShim: EventBridgePartnerShim;
  let serviceBus: ServiceBusPeer;
  let eventGrid: EventGridPeer;
  let pubsub: PubSubPeer;
  let served: ServedHerald;
  let herald: RunningHerald;
  let target: SdkTarget;
  /** manage_project through the client credentials flow: the application's admin client. */
  let admin: ByProjectKeyRequestBuilder;

  function clientCredentials(scopes?: string[], tokenCache?: MemoryTokenCache): ByProjectKeyRequestBuilder {
    const client = baseBuilder(target)
      .withClientCredentialsFlow({
        host: target.url,
        projectKey: P,
        credentials: CREDENTIALS,
        httpClient: fetch,
        ...(scopes === undefined ? {} : { scopes }),
        ...(tokenCache === undefined ? {} : { tokenCache }),
      })
      .build();
    return apiRoot(client, target);
  }

  beforeAll(async () => {
    // Herald's own EventBridge partner credentials: read by the AWS SDK from the environment.
    vi.stubEnv('AWS_ACCESS_KEY_ID', HERALD_AWS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', HERALD_AWS.secretAccessKey);
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    [sqs, eventBridge, serviceBus, eventGrid, pubsub] = await Promise.all([
      startSqsPeer({ region: REGION }),
      // The partner event source registry is on: events for sources Herald did not create fail.
      startEventBridgePeer({ accessKeyId: HERALD_AWS.accessKeyId, partnerEventSources: [] }),
      startServiceBusPeer(),
      startEventGridPeer(),
      startPubSubPeer(),
    ]);
    eventBridgeShim = await startEventBridgePartnerShim(eventBridge);
    served = await serveHerald(P, {
      HERALD_SQS_ENDPOINT: sqs.endpoint,
      HERALD_SNS_ENDPOINT: sqs.endpoint,
      HERALD_EVENTBRIDGE_ENDPOINT: eventBridgeShim.endpoint,
      HERALD_PUBSUB_ENDPOINT: pubsub.apiEndpoint,
      HERALD_SECRET_KEY: 'compat-secret-key-0123456789',
      HERALD_DELIVERY_SENDER_POLL_MS: '20',
      HERALD_DELIVERY_SEND_TIMEOUT_MS: '5000',
    });
    herald = served.herald;
    expect(herald.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    target = { url: herald.url, projectKey: P };
    admin = clientCredentials(['manage_project:compat']);
  });

  afterAll(async () => {
    await served?.stop();
    await eventBridgeShim?.stop();
    await Promise.all([sqs?.stop(), eventBridge?.stop(), serviceBus?.stop(), eventGrid?.stop(), pubsub?.stop()]);
    vi.unstubAllEnvs();
  });

  /** A customer signed up through `.customers().post()`, with the password it signed up with. */
  async function signUp(prefix: string): Promise<{ customer: Customer; email: string; password: string }> {
    const email = `${prefix}-${randomUUID()}@example.com`;
    const password = `pw-${randomUUID()}`;
    const result = await body(admin.customers().post({ body: { email, password, firstName: 'Bea', lastName: 'Buyer' } }), 201);
    return { customer: result.customer, email, password };
  }

  function passwordFlow(user: { email: string; password: string }, scopes: string[], tokenCache?: MemoryTokenCache): ByProjectKeyRequestBuilder {
    const client = baseBuilder(target)
      .withPasswordFlow({
        host: target.url,
        projectKey: P,
        credentials: { ...CREDENTIALS, user: { username: user.email, password: user.password } },
        scopes,
        httpClient: fetch,
        ...(tokenCache === undefined ? {} : { tokenCache }),
      })
      .build();
    return apiRoot(client, target);
  }

  describe('token flows', () => {
    it('client credentials: a token with several scopes (sent not URL-encoded) reads the project', async () => {
      const cache = new MemoryTokenCache();
      const api = clientCredentials(['manage_stores:compat', 'view_project_settings:compat'], cache);
      const project = await body(api.get());
      expect(project).toMatchObject({ key: P, version: expect.any(Number) });
      expect(cache.stored?.token).toEqual(expect.any(String));
      expect(cache.stored?.expirationTime).toBeGreaterThan(Date.now());
      // The token holds what was asked for and no more: §5 scopes are enforced.
      const refused = await sdkFailure(api.subscriptions().get().execute());
      expect(refused).toMatchObject({ statusCode: 403, code: 'insufficient_scope' });
    });

    it('client credentials: wrong secret is a 401 the SDK reports with the OAuth error code', async () => {
      const client = baseBuilder(target)
        .withClientCredentialsFlow({
          host: target.url,
          projectKey: P,
          credentials: { clientId: CREDENTIALS.clientId, clientSecret: 'wrong-secret-123' },
          httpClient: fetch,
        })
        .build();
      const error = await sdkFailure(apiRoot(client, target).get().execute());
      expect(error).toMatchObject({ statusCode: 401, code: 'invalid_client' });
    });

    it('retries once on 401 with a fresh token when the cached one is no longer valid', async () => {
      const cache = new MemoryTokenCache({ token: 'revoked-or-unknown-token', expirationTime: Date.now() + 3_600_000 });
      const project = await body(clientCredentials(['manage_project:compat'], cache).get());
      expect(project.key).toBe(P);
      expect(cache.stored?.token).not.toBe('revoked-or-unknown-token');
    });

    it('password flow: the customer reads itself through /me; the refresh token flow renews it', async () => {
      const user = await signUp('password-flow');
      const cache = new MemoryTokenCache();
      const me = await body(passwordFlow(user, ['manage_my_profile:compat'], cache).me().get());
      expect(me).toMatchObject({ id: user.customer.id, email: user.email });
      const refreshToken = cache.stored?.refreshToken;
      expect(refreshToken).toEqual(expect.any(String));

      const refreshCache = new MemoryTokenCache();
      const refreshed = baseBuilder(target)
        .withRefreshTokenFlow({
          host: target.url,
          projectKey: P,
          credentials: CREDENTIALS,
          refreshToken: refreshToken as string,
          httpClient: fetch,
          tokenCache: refreshCache,
        })
        .build();
      expect(await body(apiRoot(refreshed, target).me().get())).toMatchObject({ id: user.customer.id });
      expect(refreshCache.stored?.token).toEqual(expect.any(String));
      expect(refreshCache.stored?.token).not.toBe(cache.stored?.token);

      const wrongPassword = await sdkFailure(
        passwordFlow({ ...user, password: 'not-the-password' }, ['manage_my_profile:compat'])
          .me()
          .get()
          .execute(),
      );
      expect(wrongPassword).toMatchObject({ statusCode: 400, code: 'invalid_customer_account_credentials' });
    });

    it('anonymous session flow: the cart belongs to the anonymous id the SDK sent', async () => {
      const anonymousId = `anon-${randomUUID()}`;
      const client = baseBuilder(target)
        .withAnonymousSessionFlow({
          host: target.url,
          projectKey: P,
          credentials: { ...CREDENTIALS, anonymousId },
          scopes: ['manage_my_orders:compat'],
          httpClient: fetch,
        })
        .build();
      const api = apiRoot(client, target);
      const cart = await body(
        api
          .me()
          .carts()
          .post({ body: { currency: 'EUR', country: 'DE' } }),
        201,
      );
      expect(cart).toMatchObject({ anonymousId, cartState: 'Active', totalPrice: { currencyCode: 'EUR', centAmount: 0 } });
      expect(await body(api.me().carts().withId({ ID: cart.id }).get())).toMatchObject({ id: cart.id, anonymousId });

      // Without an anonymousId the token service picks one, and the cart carries it.
      const unnamed = baseBuilder(target)
        .withAnonymousSessionFlow({ host: target.url, projectKey: P, credentials: CREDENTIALS, scopes: ['manage_my_orders:compat'], httpClient: fetch })
        .build();
      const other = await body(
        apiRoot(unnamed, target)
          .me()
          .carts()
          .post({ body: { currency: 'EUR' } }),
        201,
      );
      expect(other.anonymousId).toEqual(expect.any(String));
      expect(other.anonymousId).not.toBe(anonymousId);
    });
  });

  describe('stores', () => {
    it('create, get by id and key, exists, query, update, delete', async () => {
      const created = await body(admin.stores().post({ body: { key: 'compat-berlin', name: { en: 'Berlin' }, languages: ['en'] } }), 201);
      expect(created).toMatchObject({ key: 'compat-berlin', version: 1, name: { en: 'Berlin' }, languages: ['en'] });
      expect(created.id).toMatch(UUID);
      expect(await body(admin.stores().withId({ ID: created.id }).get())).toEqual(created);
      expect(await body(admin.stores().withKey({ key: 'compat-berlin' }).get())).toEqual(created);
      // HEAD: the SDK's existence checks.
      expect((await admin.stores().withKey({ key: 'compat-berlin' }).head().execute()).statusCode).toBe(200);
      expect(await sdkFailure(admin.stores().withKey({ key: 'compat-nowhere' }).head().execute())).toMatchObject({ statusCode: 404 });

      await body(admin.stores().post({ body: { key: 'compat-paris', name: { en: 'Paris' } } }), 201);
      // HEAD with a predicate: 200 when some resource matches, 404 when none does.
      expect(
        (
          await admin
            .stores()
            .head({ queryArgs: { where: 'key = "compat-paris"' } })
            .execute()
        ).statusCode,
      ).toBe(200);
      expect(
        await sdkFailure(
          admin
            .stores()
            .head({ queryArgs: { where: 'key = "compat-london"' } })
            .execute(),
        ),
      ).toMatchObject({ statusCode: 404 });
      // Repeated array params (where twice, sort twice) and a predicate variable.
      const page = await body(
        admin.stores().get({
          queryArgs: {
            where: ['key in :keys', 'name(en is defined)'],
            'var.keys': ['compat-berlin', 'compat-paris'],
            sort: ['key desc', 'id asc'],
            withTotal: true,
            limit: 1,
          },
        }),
      );
      expect(page).toMatchObject({ limit: 1, offset: 0, count: 1, total: 2, results: [{ key: 'compat-paris' }] });

      const renamed = await body(
        admin
          .stores()
          .withKey({ key: 'compat-berlin' })
          .post({ body: { version: 1, actions: [{ action: 'setName', name: { en: 'Berlin Mitte' } }] } }),
      );
      expect(renamed).toMatchObject({ version: 2, name: { en: 'Berlin Mitte' } });
      const languages = await body(
        admin
          .stores()
          .withId({ ID: created.id })
          .post({ body: { version: 2, actions: [{ action: 'setLanguages', languages: ['en', 'de'] }] } }),
      );
      expect(languages).toMatchObject({ version: 3, languages: ['en', 'de'] });

      const deleted = await body(
        admin
          .stores()
          .withKey({ key: 'compat-berlin' })
          .delete({ queryArgs: { version: 3 } }),
      );
      expect(deleted).toMatchObject({ id: created.id, version: 3 });
      const gone = await sdkFailure(admin.stores().withId({ ID: created.id }).get().execute());
      expect(gone).toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
      expect(gone.body.errors[0].code).toBe('ResourceNotFound');
    });

    it('answers endpoints Herald does not implement with a 404 in the error shape', async () => {
      const error = await sdkFailure(admin.attributeGroups().get().execute());
      expect(error).toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
      expect(error.body).toMatchObject({ statusCode: 404, errors: [{ code: 'ResourceNotFound' }] });
    });

    it('reports validation errors with the codes the SDK reads', async () => {
      const error = await sdkFailure(
        admin
          .stores()
          .post({ body: { key: 'x' } })
          .execute(),
      );
      expect(error).toMatchObject({ statusCode: 400, code: 'InvalidInput' });
      expect(error.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
    });
  });

  describe('customers', () => {
    it('create, get by id and key, query, update, delete with dataErasure', async () => {
      const email = `compat-customer-${randomUUID()}@example.com`;
      const signIn = await body(admin.customers().post({ body: { key: 'compat-customer', email, password: 'secret-password', firstName: 'Erika' } }), 201);
      const customer: Customer = signIn.customer;
      expect(customer).toMatchObject({ key: 'compat-customer', email, firstName: 'Erika', version: 1 });
      expect(customer).not.toHaveProperty('password');
      expect(await body(admin.customers().withId({ ID: customer.id }).get())).toEqual(customer);
      expect(await body(admin.customers().withKey({ key: 'compat-customer' }).get())).toEqual(customer);

      const page = await body(admin.customers().get({ queryArgs: { where: 'email = :email', 'var.email': email, withTotal: true } }));
      expect(page).toMatchObject({ count: 1, total: 1, results: [{ id: customer.id }] });

      const updated = await body(
        admin
          .customers()
          .withId({ ID: customer.id })
          .post({
            body: {
              version: 1,
              actions: [
                { action: 'setFirstName', firstName: 'Erika Maria' },
                { action: 'setLastName', lastName: 'Muster' },
              ],
            },
          }),
      );
      // One update request is one new version, however many actions it holds.
      expect(updated).toMatchObject({ version: 2, firstName: 'Erika Maria', lastName: 'Muster' });

      const stale = await sdkFailure(
        admin
          .customers()
          .withKey({ key: 'compat-customer' })
          .delete({ queryArgs: { version: 1 } })
          .execute(),
      );
      expect(stale).toMatchObject({ statusCode: 409, code: 'ConcurrentModification' });
      expect(stale.body.errors[0].currentVersion).toBe(2);

      const deleted = await body(
        admin
          .customers()
          .withKey({ key: 'compat-customer' })
          .delete({ queryArgs: { version: 2, dataErasure: true } }),
      );
      expect(deleted).toMatchObject({ id: customer.id, version: 2 });
      expect(await sdkFailure(admin.customers().withId({ ID: customer.id }).get().execute())).toMatchObject({ statusCode: 404 });
    });
  });

  describe('middlewares', () => {
    it('echoes the correlation id the SDK sends (given and generated)', async () => {
      const given = `compat-${randomUUID()}`;
      const withGiven = apiRoot(
        baseBuilder(target)
          .withClientCredentialsFlow({ host: target.url, projectKey: P, credentials: CREDENTIALS, httpClient: fetch })
          .withCorrelationIdMiddleware({ generate: () => given })
          .build(),
        target,
      );
      const response = await withGiven.get().execute();
      expect(response.headers?.['x-correlation-id']).toBe(given);
      // On errors too.
      const error = await sdkFailure(withGiven.stores().withKey({ key: 'compat-missing' }).get().execute());
      expect(error.headers?.['x-correlation-id']).toBe(given);

      // The SDK's own generator (UUID-shaped ids) is accepted as is, not replaced.
      const generated = apiRoot(
        baseBuilder(target)
          .withClientCredentialsFlow({ host: target.url, projectKey: P, credentials: CREDENTIALS, httpClient: fetch })
          .withCorrelationIdMiddleware()
          .build(),
        target,
      );
      // (Its ids are 7-4-4-4-12 hex groups, one short of a UUID: Herald's 8-256 [A-Za-z0-9_-] rule takes them.)
      const echoed = (await generated.get().execute()).headers?.['x-correlation-id'] as string;
      expect(echoed).toMatch(/^[0-9a-f]{7}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('a forced 409 is healed by the concurrent-modification middleware, and fails without it', async () => {
      const store = await body(admin.stores().post({ body: { key: 'compat-concurrent', name: { en: 'One' } } }), 201);
      await body(
        admin
          .stores()
          .withId({ ID: store.id })
          .post({ body: { version: 1, actions: [{ action: 'setName', name: { en: 'Two' } }] } }),
      );

      const stale = { version: 1, actions: [{ action: 'setName' as const, name: { en: 'Three' } }] };
      const plain = await sdkFailure(admin.stores().withId({ ID: store.id }).post({ body: stale }).execute());
      expect(plain).toMatchObject({ statusCode: 409, code: 'ConcurrentModification' });
      expect(plain.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 2 });

      const healing = apiRoot(
        baseBuilder(target)
          .withClientCredentialsFlow({ host: target.url, projectKey: P, credentials: CREDENTIALS, httpClient: fetch })
          .withConcurrentModificationMiddleware()
          .build(),
        target,
      );
      const healed = await body(healing.stores().withId({ ID: store.id }).post({ body: stale }));
      expect(healed).toMatchObject({ version: 3, name: { en: 'Three' } });
    });
  });

  describe('subscriptions', () => {
    const subscriptions: Record<string, Subscription> = {};
    const storeChanges: Pick<SubscriptionDraft, 'changes'> = { changes: [{ resourceTypeId: 'store' }] };
    const cloudEvents: SubscriptionDraft['format'] = { type: 'CloudEvents', cloudEventsVersion: '1.0' };
    const AWS_SECRET = 'compat-aws-secret-Zq8pL2vX9mW4';

    /** The §4.2 test notification, in either format. */
    function expectTestNotification(document: unknown, subscription: Subscription): void {
      const record = document as { specversion?: string; data?: unknown };
      const payload = record.specversion === '1.0' ? record.data : record;
      expect(payload).toMatchObject({
        notificationType: 'ResourceCreated',
        projectKey: P,
        resource: { typeId: 'subscription', id: subscription.id },
        version: 1,
      });
    }

    async function create(draft: SubscriptionDraft): Promise<Subscription> {
      const created = await body(admin.subscriptions().post({ body: draft }), 201);
      expect(created).toMatchObject({ key: draft.key, version: 1, status: 'Healthy' });
      subscriptions[draft.key as string] = created;
      return created;
    }

    it('SQS (Platform format): test notification delivered, secret partially hidden', async () => {
      const queueUrl = sqs.createQueue('compat-sqs');
      const created = await create({
        key: 'compat-sqs',
        destination: { type: 'SQS', queueUrl, region: REGION, accessKey: 'AKIACOMPATSUBSCRIBER', accessSecret: AWS_SECRET },
        ...storeChanges,
        messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }],
      });
      expect(created.destination).toMatchObject({ type: 'SQS', queueUrl, region: REGION, accessKey: 'AKIACOMPATSUBSCRIBER' });
      expect(JSON.stringify(created)).not.toContain(AWS_SECRET);
      expect(created.format).toEqual({ type: 'Platform' });
      const [arrived] = await sqs.waitForMessages(queueUrl, 1);
      expectTestNotification(JSON.parse(arrived?.body ?? '{}'), created);
    });

    it('SNS (CloudEvents format)', async () => {
      const topicArn = sqs.createTopic('compat-sns');
      const sink = sqs.createQueue('compat-sns-sink');
      sqs.subscribeQueue(topicArn, sink, { raw: true });
      const created = await create({
        key: 'compat-sns',
        destination: { type: 'SNS', topicArn, accessKey: 'AKIACOMPATSUBSCRIBER', accessSecret: AWS_SECRET },
        format: cloudEvents,
        ...storeChanges,
      });
      expect(created.destination).toMatchObject({ type: 'SNS', topicArn });
      const [arrived] = await sqs.waitForMessages(sink, 1);
      expectTestNotification(JSON.parse(arrived?.body ?? '{}'), created);
    });

    it('EventBridge: the partner event source is created, then the test notification put on it', async () => {
      const created = await create({
        key: 'compat-eventbridge',
        // `source` is typed as required by the SDK (it is read-only on the platform); Herald ignores it.
        destination: { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012', source: 'ignored-by-herald' },
        ...storeChanges,
      });
      expect(created.destination).toMatchObject({ type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' });
      // Named after the subscription id, which setKey cannot change.
      const source = `aws.partner/herald/${P}/${created.id}`;
      expect(eventBridgeShim.createdSources).toContain(source);
      const [event] = await eventBridge.waitFor(1);
      expect(event?.Source).toBe(source);
      expectTestNotification(event?.Detail, created);
    });

    it('AzureServiceBus (the SDK name of ProviderBServiceBus)', async () => {
      serviceBus.createEntity('compat-queue');
      const connectionString = serviceBus.connectionString('compat-queue');
      const created = await create({ key: 'compat-service-bus', destination: { type: 'AzureServiceBus', connectionString }, ...storeChanges });
      // The spec's name is answered; the shared access key is partially hidden.
      expect(created.destination.type).toBe('ProviderBServiceBus');
      expect(JSON.stringify(created)).not.toContain(serviceBus.key);
      const [message] = await serviceBus.waitFor('compat-queue', 1);
      expectTestNotification(message?.body, created);
    });

    it('EventGrid (CloudEvents)', async () => {
      const created = await create({
        key: 'compat-event-grid',
        destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey },
        format: cloudEvents,
        ...storeChanges,
      });
      expect(created.destination).toMatchObject({ type: 'EventGrid', uri: expect.stringContaining('127.0.0.1') });
      expect(JSON.stringify(created)).not.toContain(eventGrid.accessKey);
      const [event] = await eventGrid.waitFor(1);
      expectTestNotification(event, created);
    });

    it('GoogleCloudPubSub (the SDK name of ProviderCPubSub)', async () => {
      pubsub.createTopic('compat-topic');
      const created = await create({
        key: 'compat-pubsub',
        destination: { type: 'GoogleCloudPubSub', projectId: pubsub.projectId, topic: 'compat-topic' },
        format: cloudEvents,
        ...storeChanges,
      });
      expect(created.destination).toMatchObject({ type: 'ProviderCPubSub', projectId: pubsub.projectId, topic: 'compat-topic' });
      const [message] = await pubsub.waitFor('compat-topic', 1);
      expectTestNotification(message?.json, created);
    });

    it('refuses a destination that cannot take the test notification, with a code the SDK reads', async () => {
      const error = await sdkFailure(
        admin
          .subscriptions()
          .post({
            body: {
              key: 'compat-nowhere',
              destination: { type: 'AzureServiceBus', connectionString: serviceBus.connectionString('no-such-queue') },
              ...storeChanges,
            },
          })
          .execute(),
      );
      expect(error.statusCode).toBe(400);
      expect(error.code).toEqual(expect.any(String));
      expect(error.body.errors[0].code).toBe(error.code);
    });

    it('get by id and key, query, health, update, delete', async () => {
      const sqsSubscription = subscriptions['compat-sqs'] as Subscription;
      expect(await body(admin.subscriptions().withId({ ID: sqsSubscription.id }).get())).toEqual(sqsSubscription);
      expect(await body(admin.subscriptions().withKey({ key: 'compat-sqs' }).get())).toEqual(sqsSubscription);

      const page = await body(
        admin.subscriptions().get({ queryArgs: { where: 'key in :keys', 'var.keys': Object.keys(subscriptions), sort: 'key asc', withTotal: true } }),
      );
      expect(page.total).toBe(6);
      expect(page.results.map((subscription) => subscription.key)).toEqual(Object.keys(subscriptions).sort());

      // Health (§4.2): public, no body, the status code says it. The SDK's builder cannot read an
      // empty 200 body (it parses every GET answer as JSON), so the 200 is asserted by plain fetch
      // and the SDK builder's request is checked to be the same request.
      const healthRequest = admin.subscriptions().withId({ ID: sqsSubscription.id }).withIdHealth().get().clientRequest();
      expect(healthRequest.uri).toBe(`/${P}/subscriptions/${sqsSubscription.id}/health`);
      const health = await fetch(`${herald.url}${healthRequest.uri}`);
      expect(health.status).toBe(200);
      expect(await health.text()).toBe('');
      // The SDK's own attempt reaches Herald and gets that 200, then fails parsing the empty body
      // as JSON (it reports it as a NetworkError with status 0): a known difference, docs/compatibility.md.
      const sdkHealth = await sdkFailure(admin.subscriptions().withId({ ID: sqsSubscription.id }).withIdHealth().get().execute());
      expect(sdkHealth.error).toMatchObject({ code: 'NetworkError', statusCode: 0, message: expect.stringContaining('JSON') });
      const unknown = await sdkFailure(admin.subscriptions().withId({ ID: randomUUID() }).withIdHealth().get().execute());
      expect(unknown).toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });

      const withMessages = await body(
        admin
          .subscriptions()
          .withKey({ key: 'compat-sqs' })
          .post({
            body: {
              version: 1,
              actions: [
                { action: 'setMessages', messages: [{ resourceTypeId: 'customer' }, { resourceTypeId: 'store', types: ['StoreCreated', 'StoreNameSet'] }] },
              ],
            },
          }),
      );
      expect(withMessages).toMatchObject({
        version: 2,
        messages: [{ resourceTypeId: 'customer' }, { resourceTypeId: 'store', types: ['StoreCreated', 'StoreNameSet'] }],
      });
      const renamed = await body(
        admin
          .subscriptions()
          .withId({ ID: sqsSubscription.id })
          .post({
            body: {
              version: 2,
              actions: [
                { action: 'setKey', key: 'compat-sqs-renamed' },
                { action: 'setChanges', changes: [{ resourceTypeId: 'customer' }] },
              ],
            },
          }),
      );
      expect(renamed).toMatchObject({ version: 3, key: 'compat-sqs-renamed', changes: [{ resourceTypeId: 'customer' }] });

      const newQueue = sqs.createQueue('compat-sqs-moved');
      const moved = await body(
        admin
          .subscriptions()
          .withId({ ID: sqsSubscription.id })
          .post({
            body: {
              version: 3,
              actions: [
                {
                  action: 'changeDestination',
                  destination: { type: 'SQS', queueUrl: newQueue, region: REGION, accessKey: 'AKIACOMPATSUBSCRIBER', accessSecret: AWS_SECRET },
                },
              ],
            },
          }),
      );
      expect(moved).toMatchObject({ version: 4, destination: { queueUrl: newQueue }, status: 'Healthy' });
      await sqs.waitForMessages(newQueue, 1);

      const deleted = await body(
        admin
          .subscriptions()
          .withKey({ key: 'compat-sqs-renamed' })
          .delete({ queryArgs: { version: 4 } }),
      );
      expect(deleted).toMatchObject({ id: sqsSubscription.id, version: 4 });
      const gone = await sdkFailure(admin.subscriptions().withId({ ID: sqsSubscription.id }).get().execute());
      expect(gone).toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
      // changeDestination takes the SDK's alias too, and the test notification goes to the new entity.
      serviceBus.createEntity('compat-queue-2');
      const serviceBusSubscription = subscriptions['compat-service-bus'] as Subscription;
      const rerouted = await body(
        admin
          .subscriptions()
          .withKey({ key: 'compat-service-bus' })
          .post({
            body: {
              version: 1,
              actions: [
                { action: 'changeDestination', destination: { type: 'AzureServiceBus', connectionString: serviceBus.connectionString('compat-queue-2') } },
              ],
            },
          }),
      );
      expect(rerouted).toMatchObject({
        version: 2,
        destination: { type: 'ProviderBServiceBus', connectionString: expect.stringContaining('EntityPath=compat-queue-2') },
      });
      const [notification] = await serviceBus.waitFor('compat-queue-2', 1);
      expect(notification?.body).toMatchObject({ notificationType: 'ResourceCreated', resource: { typeId: 'subscription', id: serviceBusSubscription.id } });
      subscriptions['compat-service-bus'] = rerouted;

      for (const key of ['compat-sns', 'compat-eventbridge', 'compat-service-bus', 'compat-event-grid']) {
        const subscription = subscriptions[key] as Subscription;
        await body(
          admin
            .subscriptions()
            .withId({ ID: subscription.id })
            .delete({ queryArgs: { version: subscription.version } }),
        );
      }
    });

    it('delivers changes made through the SDK to the subscription that is left', async () => {
      const pubsubSubscription = subscriptions['compat-pubsub'] as Subscription;
      const store = await body(admin.stores().post({ body: { key: 'compat-delivered', name: { en: 'Delivered' } } }), 201);
      await vi.waitFor(
        () => {
          const delivered = pubsub.published('compat-topic').map((message) => (message.json as { data?: { resource?: { id?: string } } }).data);
          expect(delivered).toContainEqual(expect.objectContaining({ notificationType: 'ResourceCreated', resource: { typeId: 'store', id: store.id } }));
        },
        { timeout: 10_000, interval: 25 },
      );
      await body(
        admin
          .subscriptions()
          .withId({ ID: pubsubSubscription.id })
          .delete({ queryArgs: { version: 1 } }),
      );
    });
  });

  describe('quote requests, including /me', () => {
    it('a buyer asks for a quote through /me, the seller negotiates through /quote-requests', async () => {
      const buyer = await signUp('quote-buyer');
      const buyerApi = passwordFlow(buyer, ['manage_my_orders:compat', 'manage_my_quote_requests:compat', 'manage_my_profile:compat']);

      async function cartOfBuyer(): Promise<Cart> {
        // Herald has no product catalogue: custom line items carry their price (LineItemDraft would need one).
        return body(
          admin.carts().post({
            body: {
              currency: 'EUR',
              customerId: buyer.customer.id,
              country: 'DE',
              customLineItems: [{ name: { en: 'Consulting' }, quantity: 3, money: { currencyCode: 'EUR', centAmount: 10_000 }, slug: 'consulting' }],
            },
          }),
          201,
        );
      }

      // /me: create (MyQuoteRequestDraft names the cart by cartId), get, query, cancel.
      const cart = await cartOfBuyer();
      const mine = await body(
        buyerApi
          .me()
          .quoteRequests()
          .post({ body: { cartId: cart.id, cartVersion: cart.version, comment: 'Please quote' } }),
        201,
      );
      expect(mine).toMatchObject({
        version: 1,
        quoteRequestState: 'Submitted',
        comment: 'Please quote',
        customer: { typeId: 'customer', id: buyer.customer.id },
        totalPrice: { currencyCode: 'EUR', centAmount: 30_000 },
      });
      expect(await body(buyerApi.me().quoteRequests().withId({ ID: mine.id }).get())).toEqual(mine);
      const myPage = await body(
        buyerApi
          .me()
          .quoteRequests()
          .get({ queryArgs: { withTotal: true } }),
      );
      expect(myPage).toMatchObject({ total: 1, results: [{ id: mine.id }] });
      const cancelled = await body(
        buyerApi
          .me()
          .quoteRequests()
          .withId({ ID: mine.id })
          .post({ body: { version: 1, actions: [{ action: 'cancelQuoteRequest' }] } }),
      );
      expect(cancelled).toMatchObject({ version: 2, quoteRequestState: 'Cancelled' });

      // Seller: create with a key, get by id and key, query, accept, close, delete.
      const second = await cartOfBuyer();
      const quoteRequest: QuoteRequest = await body(
        admin.quoteRequests().post({ body: { key: 'compat-qr', cart: { typeId: 'cart', id: second.id }, cartVersion: second.version } }),
        201,
      );
      expect(quoteRequest).toMatchObject({ key: 'compat-qr', quoteRequestState: 'Submitted', customer: { id: buyer.customer.id } });
      expect(await body(admin.quoteRequests().withId({ ID: quoteRequest.id }).get())).toEqual(quoteRequest);
      expect(await body(admin.quoteRequests().withKey({ key: 'compat-qr' }).get())).toEqual(quoteRequest);
      const expanded = await body(
        admin
          .quoteRequests()
          .withId({ ID: quoteRequest.id })
          .get({ queryArgs: { expand: ['customer'] } }),
      );
      expect(expanded.customer.obj).toMatchObject({ id: buyer.customer.id, email: buyer.email });
      const page = await body(
        admin.quoteRequests().get({ queryArgs: { where: `customer(id = "${buyer.customer.id}")`, sort: 'createdAt asc', withTotal: true } }),
      );
      expect(page.results.map((result) => [result.id, result.quoteRequestState])).toEqual([
        [mine.id, 'Cancelled'],
        [quoteRequest.id, 'Submitted'],
      ]);
      const accepted = await body(
        admin
          .quoteRequests()
          .withKey({ key: 'compat-qr' })
          .post({ body: { version: 1, actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' }] } }),
      );
      expect(accepted).toMatchObject({ version: 2, quoteRequestState: 'Accepted' });
      // The buyer sees the seller's decision through /me.
      expect(await body(buyerApi.me().quoteRequests().withId({ ID: quoteRequest.id }).get())).toMatchObject({ quoteRequestState: 'Accepted' });
      const closed = await body(
        admin
          .quoteRequests()
          .withId({ ID: quoteRequest.id })
          .post({ body: { version: 2, actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Closed' }] } }),
      );
      expect(closed.quoteRequestState).toBe('Closed');
      const deleted = await body(
        admin
          .quoteRequests()
          .withKey({ key: 'compat-qr' })
          .delete({ queryArgs: { version: 3 } }),
      );
      expect(deleted).toMatchObject({ id: quoteRequest.id, version: 3 });

      // Messages of the quote request through `.messages()`: where repeated, sorted, paged.
      const messages = await body(
        admin
          .messages()
          .get({ queryArgs: { where: [`resource(id = "${quoteRequest.id}")`, 'sequenceNumber >= 1'], sort: ['sequenceNumber asc'], withTotal: true } }),
      );
      expect(messages.results.map((message: Message) => [message.sequenceNumber, message.type])).toEqual([
        [1, 'QuoteRequestCreated'],
        [2, 'QuoteRequestStateChanged'],
        [3, 'QuoteRequestStateChanged'],
        [4, 'QuoteRequestDeleted'],
      ]);
      const [first] = messages.results;
      expect(
        await body(
          admin
            .messages()
            .withId({ ID: (first as Message).id })
            .get(),
        ),
      ).toEqual(first);
      expect(first).toMatchObject({
        resource: { typeId: 'quote-request', id: quoteRequest.id },
        resourceVersion: 1,
        resourceUserProvidedIdentifiers: { key: 'compat-qr' },
      });
    });
  });

  describe('business units', () => {
    it('REST: create, get by id and key, query, update, delete', async () => {
      const created: BusinessUnit = await body(
        admin.businessUnits().post({
          body: {
            key: 'compat-company',
            name: 'Compat Co',
            unitType: 'Company',
            contactEmail: 'info@compat.example',
            addresses: [{ key: 'main', country: 'DE', city: 'Berlin' }],
            shippingAddresses: [0],
            defaultShippingAddress: 0,
          },
        }),
        201,
      );
      expect(created).toMatchObject({
        key: 'compat-company',
        unitType: 'Company',
        status: 'Active',
        version: 1,
        topLevelUnit: { typeId: 'business-unit', key: 'compat-company' },
      });
      const mainAddressId = created.addresses[0]?.id;
      expect(created.shippingAddressIds).toEqual([mainAddressId]);
      expect(await body(admin.businessUnits().withId({ ID: created.id }).get())).toEqual(created);
      expect(await body(admin.businessUnits().withKey({ key: 'compat-company' }).get())).toEqual(created);

      const division = await body(
        admin.businessUnits().post({
          body: { key: 'compat-division', name: 'Compat Division', unitType: 'Division', parentUnit: { typeId: 'business-unit', key: 'compat-company' } },
        }),
        201,
      );
      expect(division).toMatchObject({ parentUnit: { key: 'compat-company' }, ancestors: [{ key: 'compat-company' }] });
      const page = await body(
        admin.businessUnits().get({ queryArgs: { where: 'topLevelUnit(key = :top)', 'var.top': 'compat-company', sort: ['name asc'], withTotal: true } }),
      );
      expect(page).toMatchObject({ total: 2, results: [{ key: 'compat-company' }, { key: 'compat-division' }] });

      const renamed = await body(
        admin
          .businessUnits()
          .withKey({ key: 'compat-company' })
          .post({
            body: {
              version: 1,
              actions: [
                { action: 'changeName', name: 'Compat Company' },
                { action: 'setContactEmail', contactEmail: 'sales@compat.example' },
              ],
            },
          }),
      );
      expect(renamed).toMatchObject({ version: 2, name: 'Compat Company', contactEmail: 'sales@compat.example' });

      const removed = await body(
        admin
          .businessUnits()
          .withId({ ID: division.id })
          .delete({ queryArgs: { version: division.version } }),
      );
      expect(removed).toMatchObject({ id: division.id });
    });

    it('GraphQL through .graphql().post(): query and mutation with variables', async () => {
      const created = await body(
        admin.graphql().post({
          body: {
            query: 'mutation Create($draft: BusinessUnitDraft!) { createBusinessUnit(draft: $draft) { id key name version unitType } }',
            variables: { draft: { key: 'compat-graphql', name: 'GraphQL Co', unitType: 'Company' } },
          },
        }),
      );
      expect(created).toEqual({
        data: { createBusinessUnit: { id: expect.stringMatching(UUID), key: 'compat-graphql', name: 'GraphQL Co', version: 1, unitType: 'Company' } },
      });

      const read = await body(
        admin.graphql().post({
          body: {
            query:
              'query Read($key: String, $where: String) { businessUnit(key: $key) { name } businessUnits(where: $where, sort: ["key asc"]) { total results { key } } }',
            variables: { key: 'compat-graphql', where: 'key = "compat-graphql" or key = "compat-company"' },
          },
        }),
      );
      expect(read).toEqual({
        data: { businessUnit: { name: 'GraphQL Co' }, businessUnits: { total: 2, results: [{ key: 'compat-company' }, { key: 'compat-graphql' }] } },
      });
      // The same unit through REST.
      expect(await body(admin.businessUnits().withKey({ key: 'compat-graphql' }).get())).toMatchObject({ name: 'GraphQL Co', version: 1 });

      // A GraphQL error answers 200 with `errors` and the code in extensions, as the platform does.
      const refused = await body(
        admin
          .graphql()
          .post({ body: { query: 'mutation { updateBusinessUnit(key: "compat-graphql", version: 7, actions: [{changeName: {name: "X"}}]) { id } }' } }),
      );
      expect(refused.data).toEqual({ updateBusinessUnit: null });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'ConcurrentModification', currentVersion: 1 });
    });
  });

  describe('API clients', () => {
    it('creates a client through .apiClients(), which then gets its own tokens through the SDK', async () => {
      const created = await body(admin.apiClients().post({ body: { name: 'compat-reader', scope: `view_stores:${P}` } }), 201);
      expect(created).toMatchObject({ name: 'compat-reader', scope: `view_stores:${P}`, secret: expect.any(String) });
      expect(await body(admin.apiClients().withId({ ID: created.id }).get())).not.toHaveProperty('secret');

      const reader = apiRoot(
        baseBuilder(target)
          .withClientCredentialsFlow({
            host: target.url,
            projectKey: P,
            credentials: { clientId: created.id, clientSecret: created.secret as string },
            httpClient: fetch,
          })
          .build(),
        target,
      );
      const stores = await body(reader.stores().get());
      expect(stores.results.length).toBeGreaterThan(0);
      expect(
        await sdkFailure(
          reader
            .stores()
            .post({ body: { key: 'compat-not-allowed' } })
            .execute(),
        ),
      ).toMatchObject({ statusCode: 403 });

      await body(admin.apiClients().withId({ ID: created.id }).delete());
      expect(await sdkFailure(admin.apiClients().withId({ ID: created.id }).get().execute())).toMatchObject({ statusCode: 404 });
    });
  });
});
