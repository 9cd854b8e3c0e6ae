import type { Subscription } from '@herald/model';
import { DocumentStore, openDatabase, type Database } from '@herald/store';
import type { RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { recordRouteStarts } from '../../src/engine/route-starts.js';
import { freshDatabase, ManualClock, ScriptedAdapter, silentLogger, startServer } from './scripted-destination.js';
import { createProject, type TestDatabase } from './support.js';

/**
 * A subscription to subscription changes receives the notification of its own create: its route
 * starts at a snapshot that does not see the creating transaction. On PostgreSQL a snapshot never
 * lists its own transaction as running, and once any later transaction has committed (a busy
 * gateway), its xmax is past it: without counting it as running (`seeingNotItself`), the router
 * skipped the subscription's own ResourceCreated. PGlite (one backend) never showed it.
 */
describe('route starts on PostgreSQL: the write that creates a subscription', () => {
  let server: RunningService;
  let database: TestDatabase;
  let other: Database;
  beforeAll(async () => {
    server = await startServer();
    database = await freshDatabase(server);
    other = await openDatabase(database.url);
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await database?.close();
    await server?.stop();
  });

  it('routes its own creation notification to a subscription to subscription changes, whatever commits concurrently', async () => {
    const clock = new ManualClock();
    const projectKey = 'own-write';
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: new ScriptedAdapter(), clock },
      { sendTimeoutMs: 2_000, leaseMs: 10_000 },
    );
    await engine.router.routeOnce(); // nothing yet

    // What subscription-documents.ts does on create: the document (and its outbox rows), then the starts.
    const created = await database.db.transaction(async (tx) => {
      const subscription = await documents.within(tx).create<Subscription>({ projectKey }, 'subscription', {
        destination: { type: 'SQS', queueUrl: 'http://127.0.0.1:1/000000000000/q', accessKey: 'k', accessSecret: 's', region: 'us-east-1' },
        messages: [],
        changes: [{ resourceTypeId: 'subscription' }],
        format: { type: 'Platform' },
        status: 'Healthy',
      } as never);
      // Meanwhile another request of the gateway takes an xid and commits (any write would do).
      await other.query('SELECT pg_current_xact_id()');
      await recordRouteStarts(tx, projectKey, undefined, subscription);
      return subscription;
    });

    engine.admin.subscriptionsChanged(projectKey);
    const routed = await engine.router.routeOnce();
    const deliveries = await database.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM deliveries WHERE project_key = $1 AND subscription_id = $2',
      [projectKey, created.id],
    );
    expect({ events: routed.events > 0, deliveries: deliveries.rows[0]?.count }).toEqual({ events: true, deliveries: 1 });
  });
});
