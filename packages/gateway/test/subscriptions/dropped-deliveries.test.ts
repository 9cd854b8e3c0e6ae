/**
 * Issue 25: the dropped deliveries of a deleted subscription (reason `SubscriptionDeleted`) are
 * counted by the process that deleted it — here a gateway without a delivery worker, as with
 * HERALD_DELIVERY=off — and are reached through `/{projectKey}/subscriptions/dropped-deliveries`
 * by the id the subscription had: listed, replayed to another subscription (formatted for that
 * one's destination), purged. Real SQS (fauxqs), PGlite or PostgreSQL (DATABASE_URL).
 *
 * The deliveries are made pending end to end: a worker routes three store events to a subscription
 * whose queue was deleted (retried as a configuration error), and is stopped before the delete so
 * that the gateway alone drops them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestDelivery, stopTestDelivery, type TestDelivery } from '../support/gateway.js';
import { CLOUD_EVENTS, eventually, expectError, gatewayWithSqsPeer, payloadOf, REGION, sqsDestination, sqsDocuments } from './support.js';

const P = 'dropped-deleted';
const BASE = `/${P}/subscriptions/dropped-deliveries`;

describe('dropped deliveries of a deleted subscription, by project', { timeout: 60_000 }, () => {
  let world: Awaited<ReturnType<typeof gatewayWithSqsPeer>>;
  let api: Caller;
  let worker: TestDelivery | undefined;

  const startWorker = (): void => {
    worker = startTestDelivery(world.gateway.db, { environment: { endpoints: { sqs: world.sqs.endpoint } } });
  };
  const stopWorker = async (): Promise<void> => {
    await stopTestDelivery(worker);
    worker = undefined;
  };

  /** The gateway's own `/metrics`: herald_deliveries_dropped_total for one subscription label and reason. */
  async function droppedCounter(subscription: string, reason: string): Promise<number | undefined> {
    const text = (await world.gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text
      .split('\n')
      .find(
        (row) => row.startsWith('herald_deliveries_dropped_total{') && row.includes(`subscription="${subscription}"`) && row.includes(`reason="${reason}"`),
      );
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  }

  beforeAll(async () => {
    world = await gatewayWithSqsPeer([P]);
    api = await callerWith(world.gateway, P, ['manage_subscriptions', 'manage_stores']);
    // An existing target, so that each bad request below fails on its own fault only.
    const queue = world.sqs.createQueue('dropped-deleted-x');
    await api.ok(`/${P}/subscriptions`, { key: 'spare', destination: sqsDestination(queue), changes: [{ resourceTypeId: 'customer' }] }, 201);
  });

  afterAll(async () => {
    await stopWorker();
    await world?.stop();
  });

  it('counts the drops in a gateway without a worker, lists them, replays some to another subscription and purges the rest', async () => {
    const goneQueue = world.sqs.createQueue('dropped-deleted-gone');
    const audit = await api.ok(`/${P}/subscriptions`, { key: 'audit', destination: sqsDestination(goneQueue), changes: [{ resourceTypeId: 'store' }] }, 201);
    const targetQueue = world.sqs.createQueue('dropped-deleted-target');
    // Subscribed to something else, and CloudEvents: what reaches its queue is the replay, formatted for it.
    const target = await api.ok(
      `/${P}/subscriptions`,
      { destination: sqsDestination(targetQueue), format: CLOUD_EVENTS, changes: [{ resourceTypeId: 'customer' }] },
      201,
    );
    await world.sqs.receiveAll(targetQueue); // its test notification
    world.sqs.fauxqs.deleteQueue('dropped-deleted-gone', { region: REGION });

    const stores = ['dd-a', 'dd-b', 'dd-c'];
    for (const key of stores) await api.ok(`/${P}/stores`, { key }, 201);
    startWorker();
    await eventually(async () => expect(await api.read(`/${P}/subscriptions/${audit.id}/delivery-status`)).toMatchObject({ pendingCount: 3 }));
    await stopWorker();

    expect(await droppedCounter('audit', 'SubscriptionDeleted')).toBeUndefined();
    const deleted = await api.delete(`/${P}/subscriptions/${audit.id}?version=${audit.version}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    // Counted here, under its key, though this gateway runs no worker.
    expect(await droppedCounter('audit', 'SubscriptionDeleted')).toBe(3);

    // The runbook's first step: the deleted subscription's id, from the project's SubscriptionDeleted drops.
    const byReason = await api.read(`${BASE}?reason=SubscriptionDeleted`);
    expect((byReason.results as Json[]).map((drop) => drop.subscriptionId)).toEqual([audit.id, audit.id, audit.id]);
    const listed = await api.read(`${BASE}?subscriptionId=${audit.id}&reason=SubscriptionDeleted`);
    expect(listed).toMatchObject({ limit: 20, offset: 0, count: 3, total: 3 });
    const drops = listed.results as Json[];
    for (const drop of drops) expect(drop).toMatchObject({ subscriptionId: audit.id, reason: 'SubscriptionDeleted' });
    const storeKeyOf = (drop: Json): string => (drop.payload as Json).resourceUserProvidedIdentifiers.key as string;
    expect(drops.map(storeKeyOf).sort()).toEqual(stores);
    const paged = await api.read(`${BASE}?subscriptionId=${audit.id}&limit=1&offset=1`);
    expect(paged).toMatchObject({ limit: 1, offset: 1, count: 1, total: 3, results: [{ id: drops[1]?.id }] });
    expect(await api.read(`${BASE}?subscriptionId=${audit.id}&reason=PayloadError`)).toMatchObject({ count: 0, total: 0 });

    const replayed = [drops[0], drops[1]] as Json[];
    const replay = await api.ok(`${BASE}/replay`, {
      from: { subscriptionId: audit.id, reason: 'SubscriptionDeleted', ids: replayed.map((drop) => drop.id) },
      to: { id: target.id },
    });
    expect(replay).toEqual({ replayed: 2 });
    startWorker();
    const arrived = await eventually(async () => {
      const documents = sqsDocuments(await world.sqs.receiveAll(targetQueue));
      expect(documents).toHaveLength(2);
      return documents;
    });
    for (const document of arrived) expect(document).toMatchObject({ specversion: '1.0', data: { notificationType: 'ResourceCreated' } });
    expect(arrived.map((document) => payloadOf(document).resourceUserProvidedIdentifiers.key).sort()).toEqual(replayed.map(storeKeyOf).sort());

    const purged = await api.delete(`${BASE}?subscriptionId=${audit.id}&reason=SubscriptionDeleted`);
    expect(purged.status, JSON.stringify(purged.body)).toBe(200);
    expect(purged.body).toEqual({ purged: 1 });
    expect(await api.read(`${BASE}?subscriptionId=${audit.id}`)).toMatchObject({ count: 0, total: 0, results: [] });
  });

  it('lists the drops of the whole project without a subscription id', async () => {
    const all = await api.read(`${BASE}?withTotal=false`);
    expect(all).toMatchObject({ limit: 20, offset: 0 });
    expect(all).not.toHaveProperty('total');
  });

  it('answers a replay to a subscription that does not exist with 400 ReferencedResourceNotFound', async () => {
    const answer = await api.post(`${BASE}/replay`, { from: { subscriptionId: 'gone' }, to: { key: 'no-such-subscription' } });
    expect(expectError(answer, 400, 'ReferencedResourceNotFound')).toMatchObject({ typeId: 'subscription', key: 'no-such-subscription' });
  });

  it.each([
    ['no body', undefined],
    ['no from', { to: { key: 'spare' } }],
    ['no subscription id', { from: {}, to: { key: 'spare' } }],
    ['an unknown reason', { from: { subscriptionId: 'x', reason: 'Bored' }, to: { key: 'spare' } }],
    ['ids that are not drop ids', { from: { subscriptionId: 'x', ids: ['1; DROP'] }, to: { key: 'spare' } }],
    ['a target of another type', { from: { subscriptionId: 'x' }, to: { typeId: 'store', key: 'spare' } }],
  ])('answers a replay with %s with 400 InvalidInput', async (_case, body) => {
    expectError(await api.post(`${BASE}/replay`, body), 400, 'InvalidInput');
  });

  it.each([
    ['a purge without a subscription id', 'DELETE', BASE],
    ['an unknown reason', 'GET', `${BASE}?reason=Bored`],
    ['a repeated subscription id', 'GET', `${BASE}?subscriptionId=a&subscriptionId=b`],
    ['a limit out of range', 'GET', `${BASE}?limit=501`],
  ] as const)('answers %s with 400 InvalidInput', async (_case, method, url) => {
    expectError(await api.request(method, url), 400, 'InvalidInput');
  });
});
