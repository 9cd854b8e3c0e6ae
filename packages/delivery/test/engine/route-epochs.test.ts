import type { Subscription } from '@herald/model';
import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { forgetRouteStarts, recordRouteStarts } from '../../src/engine/route-starts.js';
import { ScriptedAdapter } from './scripted-destination.js';
import { createProject, driverName, engineDatabaseUrls, ManualClock, openTestDatabase, silentLogger, writeStores, type TestDatabase } from './support.js';

/**
 * A router routes with the subscriptions it cached, read again every `subscriptionRefreshMs`. A
 * subscription written by another process (the gateway, when delivery runs in worker containers)
 * meanwhile raises the project's routing epoch in its transaction, and the router claims none of
 * the project's events until it has read the routes again: an event written after the write
 * returned reaches the new subscription however long the refresh time (before, it was routed
 * without it, lost to it, when written within the refresh time).
 */
describe.each(engineDatabaseUrls())('routing epochs (%s)', (serverUrl) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  const projectKey = `epochs-${driverName(serverUrl)}`;
  const draft = {
    destination: { type: 'SQS', queueUrl: 'http://127.0.0.1:1/000000000000/q', accessKey: 'k', accessSecret: 's', region: 'us-east-1' },
    messages: [],
    changes: [{ resourceTypeId: 'store' }],
    events: [],
    format: { type: 'Platform' },
    status: 'Healthy',
  };

  /** What the gateway does on create and delete (subscription-documents.ts), in one transaction. */
  async function createSubscription(documents: DocumentStore): Promise<Subscription> {
    return database.db.transaction(async (tx) => {
      const created = await documents.within(tx).create<Subscription>({ projectKey }, 'subscription', draft as never);
      await recordRouteStarts(tx, projectKey, undefined, created);
      return created;
    });
  }
  async function deleteSubscription(documents: DocumentStore, subscription: Subscription): Promise<void> {
    await database.db.transaction(async (tx) => {
      await documents.within(tx).delete({ projectKey }, 'subscription', { id: subscription.id }, subscription.version);
      await forgetRouteStarts(tx, projectKey, subscription.id);
    });
  }
  async function deliveriesPerSubscription(): Promise<Record<string, number>> {
    const rows = await database.db.query<{ subscription_id: string; count: number }>(
      'SELECT subscription_id, count(*)::int AS count FROM deliveries WHERE project_key = $1 GROUP BY subscription_id',
      [projectKey],
    );
    return Object.fromEntries(rows.rows.map((row) => [row.subscription_id, row.count]));
  }

  it('an event written after another process created or deleted a subscription is routed with it, within any refresh time', async () => {
    const clock = new ManualClock();
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    // Never refreshes on its own during the test; no one tells it of the writes below.
    const engine = new DeliveryEngine({ db: database.db, logger: silentLogger, adapters: new ScriptedAdapter(), clock }, { subscriptionRefreshMs: 3_600_000 });
    const first = await createSubscription(documents);
    await writeStores(documents, projectKey, 1);
    while ((await engine.router.routeOnce()).events > 0);
    expect(await deliveriesPerSubscription()).toEqual({ [first.id]: 1 });

    const second = await createSubscription(documents);
    await writeStores(documents, projectKey, 1);
    while ((await engine.router.routeOnce()).events > 0);
    expect(await deliveriesPerSubscription()).toEqual({ [first.id]: 2, [second.id]: 1 });

    await deleteSubscription(documents, first);
    await writeStores(documents, projectKey, 1);
    while ((await engine.router.routeOnce()).events > 0);
    expect(await deliveriesPerSubscription()).toEqual({ [first.id]: 2, [second.id]: 2 });
  });
});
