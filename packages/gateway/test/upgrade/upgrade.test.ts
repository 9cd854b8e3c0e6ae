import { parseWorkerConfig } from '@herald/delivery';
import { MIGRATIONS, openDatabase, type Database } from '@herald/store';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../../src/app.js';
import { deleteExpiredCarts } from '../../src/resources/carts/retention.js';
import { defaultConfig, type HeraldConfig } from '../../src/config/config.js';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { ManualClock } from '../support/clock.js';
import { basicAuth, startTestDelivery, stopTestDelivery, TEST_BOOTSTRAP_CLIENT, type TestDelivery, type TestGateway } from '../support/gateway.js';
import { eventually, labels, REGION, sqsDestination, sqsDocuments } from '../subscriptions/support.js';
import { FIXTURE, FIXTURE_TIME, upgradeTargets, type OldDatabase } from './support.js';

const P = FIXTURE.project;
const HOUR = 60 * 60 * 1000;

/**
 * The upgrade a user runs: a database written by 5a70bf2 with delivery off (15 outbox rows never
 * routed), opened by this code. The legacy subscriptions must get the backlog, a subscription
 * created after the upgrade must not, a legacy subscription widened after the upgrade keeps what
 * it had, carts without `deleteDaysAfterLastModification` are kept until one is set (an upgrade must
 * not delete old carts at its first start).
 */
describe.each(upgradeTargets())('Upgrade from 5a70bf2 ($name)', { timeout: 120_000 }, ({ make }) => {
  let old: OldDatabase;
  let db: Database;
  let sqs: SqsPeer;
  let clock: ManualClock;
  let gateway: Gateway;
  let testGateway: TestGateway;
  let delivery: TestDelivery | undefined;
  let api: Caller;
  const queues: Record<string, string> = {};
  let afterUpgrade: Json;
  let rome: Json;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    old = await make(sqs.endpoint);
    db = await openDatabase(old.url);
    for (const name of ['legacy-store-created', 'legacy-store-changes', 'legacy-widen', 'legacy-cart-changes', 'after-upgrade']) {
      queues[name] = sqs.createQueue(name);
    }
    clock = new ManualClock(new Date(new Date(FIXTURE_TIME).getTime() + HOUR));
    const base = defaultConfig();
    const config: HeraldConfig = Object.freeze({
      ...base,
      projects: [P],
      delivery: parseWorkerConfig({ HERALD_SQS_ENDPOINT: sqs.endpoint, HERALD_ALLOW_INSECURE_DESTINATIONS: 'true' }),
      oauth: { ...base.oauth, bootstrapClient: { ...TEST_BOOTSTRAP_CLIENT }, tokenRateLimitPerMinute: 0 },
    });
    // HERALD_DELIVERY=off first: the backlog waits while the user works with the upgraded gateway.
    gateway = await buildGateway(config, { db, logger: false, clock });
    await gateway.app.ready();
    testGateway = { app: gateway.app, gateway, db, projects: [P], bootstrapClient: { ...TEST_BOOTSTRAP_CLIENT }, close: async () => undefined };
    api = await callerWith(testGateway, P, ['manage_project']);

    // The cart sweep (it also runs at start) keeps the carts 100 and 120 days old: no retention was set for them.
    expect(await deleteExpiredCarts(gateway.documents, clock)).toBe(0);

    // After the upgrade: a new subscription, a legacy one widened, then new events.
    afterUpgrade = await api.ok(
      `/${P}/subscriptions`,
      {
        key: 'after-upgrade',
        destination: sqsDestination(queues['after-upgrade'] as string),
        messages: [{ resourceTypeId: 'store' }],
        changes: [{ resourceTypeId: 'store' }, { resourceTypeId: 'cart' }],
      },
      201,
    );
    const widen = await api.read(`/${P}/subscriptions/${FIXTURE.subToWiden}`);
    await api.ok(`/${P}/subscriptions/${FIXTURE.subToWiden}`, {
      version: widen.version,
      actions: [{ action: 'setMessages', messages: [{ resourceTypeId: 'store' }] }],
    });
    rome = await api.ok(`/${P}/stores`, { key: 'rome', name: { en: 'Rome' } }, 201);
    rome = await api.ok(`/${P}/stores/${rome.id}`, { version: 1, actions: [{ action: 'setName', name: { en: 'Roma' } }] });

    // Delivery comes on.
    delivery = startTestDelivery(db, { environment: { endpoints: { sqs: sqs.endpoint } } }, clock);
    // pendingCount counts routed deliveries only: wait for the router to empty the outbox first,
    // else an unrouted backlog reads as nothing pending.
    await eventually(async () => {
      expect((await db.query('SELECT seq FROM outbox')).rows).toEqual([]);
    });
    for (const id of [FIXTURE.subStoreCreated, FIXTURE.subStoreChanges, FIXTURE.subToWiden, FIXTURE.subCartChanges, afterUpgrade.id as string]) {
      await eventually(async () => {
        expect(await api.read(`/${P}/subscriptions/${id}/delivery-status`)).toMatchObject({ pendingCount: 0 });
      });
    }
  });

  afterAll(async () => {
    await stopTestDelivery(delivery);
    await gateway?.app.close();
    await db?.close();
    await sqs?.stop();
    await old?.drop();
  });

  async function received(queue: string, count: number): Promise<string[]> {
    await sqs.waitForMessages(queues[queue] as string, count, 15_000);
    return [...new Set(labels(sqsDocuments(await sqs.receiveAll(queues[queue] as string))))];
  }

  const berlin = FIXTURE.storeBerlin;
  const paris = FIXTURE.storeParis;

  it('the migrations since then applied once; the old outbox rows have no xact_id and were all routed', async () => {
    const applied = await db.query<{ id: number }>('SELECT id FROM herald_migrations ORDER BY id');
    expect(applied.rows.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    const again = await openDatabase(old.url.startsWith('postgres') ? old.url : old.url).catch((error: unknown) => error);
    // PGlite's directory is locked while open; PostgreSQL opens again and applies nothing.
    if (old.url.startsWith('postgres')) {
      const second = again as Database;
      expect((await second.query('SELECT id FROM herald_migrations')).rows).toHaveLength(MIGRATIONS.length);
      await second.close();
    }
    expect((await db.query('SELECT seq FROM outbox')).rows).toEqual([]);
  });

  it('legacy subscriptions receive the backlog and what came after', async () => {
    expect(await received('legacy-store-created', 3)).toEqual(
      [`store:${berlin}:Message:StoreCreated:1`, `store:${paris}:Message:StoreCreated:1`, `store:${rome.id}:Message:StoreCreated:1`].sort(),
    );
    expect(await received('legacy-store-changes', 5)).toEqual(
      [
        `store:${berlin}:ResourceCreated:1`,
        `store:${berlin}:ResourceUpdated:2`,
        `store:${paris}:ResourceCreated:1`,
        `store:${rome.id}:ResourceCreated:1`,
        `store:${rome.id}:ResourceUpdated:2`,
      ].sort(),
    );
  });

  it('a legacy subscription widened after the upgrade keeps the backlog it subscribed to, and gets the widened part from then on', async () => {
    expect(await received('legacy-widen', 4)).toEqual(
      [
        `store:${berlin}:Message:StoreCreated:1`,
        `store:${paris}:Message:StoreCreated:1`,
        `store:${rome.id}:Message:StoreCreated:1`,
        `store:${rome.id}:Message:StoreNameSet:2`,
      ].sort(),
    );
  });

  it('a subscription created after the upgrade receives nothing of the backlog', async () => {
    expect(await received('after-upgrade', 5)).toEqual(
      [
        `subscription:${afterUpgrade.id}:ResourceCreated:1`,
        `store:${rome.id}:Message:StoreCreated:1`,
        `store:${rome.id}:Message:StoreNameSet:2`,
        `store:${rome.id}:ResourceCreated:1`,
        `store:${rome.id}:ResourceUpdated:2`,
      ].sort(),
    );
  });

  it('carts without deleteDaysAfterLastModification are kept until one is set, then deleted when it has passed', async () => {
    for (const id of [FIXTURE.cartOld120, FIXTURE.cartOld100, FIXTURE.cartTouched, FIXTURE.cartRecent]) {
      expect((await api.get(`/${P}/carts/${id}`)).status).toBe(200);
    }
    expect((await received('legacy-cart-changes', 5)).filter((entry) => entry.includes('ResourceDeleted'))).toEqual([]);

    const old = await api.read(`/${P}/carts/${FIXTURE.cartOld120}`);
    expect(old.deleteDaysAfterLastModification).toBeUndefined();
    await api.ok(`/${P}/carts/${old.id}`, {
      version: old.version,
      actions: [{ action: 'setDeleteDaysAfterLastModification', deleteDaysAfterLastModification: 1 }],
    });
    // The sweep of a day and a bit later (its own clock: the rest of the suite stays where it is).
    const later = new ManualClock(clock.now());
    later.advance(25 * HOUR);
    expect(await deleteExpiredCarts(gateway.documents, later)).toBe(1);
    expect((await api.get(`/${P}/carts/${old.id}`)).status).toBe(404);
    expect((await api.get(`/${P}/carts/${FIXTURE.cartOld100}`)).status).toBe(200);
  });

  it('old documents read and update without a 500', async () => {
    const project = await api.read(`/${P}`);
    await api.ok(`/${P}`, {
      version: project.version,
      actions: [{ action: 'changeCartsConfiguration', cartsConfiguration: { deleteDaysAfterLastModification: 30 } }],
    });
    const cart = await api.read(`/${P}/carts/${FIXTURE.cartRecent}`);
    await api.ok(`/${P}/carts/${cart.id}`, { version: cart.version, actions: [{ action: 'setCountry', country: 'FR' }] });
    for (const url of [`/${P}/carts`, `/${P}/subscriptions`, `/${P}/stores`, `/${P}/messages`, `/${P}/api-clients`]) {
      const answer = await api.get(url);
      expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
    for (const id of [FIXTURE.subStoreCreated, FIXTURE.subCartChanges]) {
      expect((await api.get(`/${P}/subscriptions/${id}`)).status).toBe(200);
      expect((await gateway.app.inject({ method: 'GET', url: `/${P}/subscriptions/${id}/health` })).statusCode).toBe(200);
    }
    // The API client created by the old code still gets tokens.
    const token = await gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { ...basicAuth(FIXTURE.apiClient.id, FIXTURE.apiClient.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(token.statusCode, token.body).toBe(200);
  });
});
