import type { RunningService } from '@herald/testkit';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { failed } from '../../src/destinations/port.js';
import type { TestDatabase } from './support.js';
import { freshDatabase, gate, ManualClock, projectWithSubscription, ScriptedAdapter, silentLogger, startServer, writeStores } from './scripted-destination.js';

/**
 * Worker A's lease expires while its send is in flight; worker B claims the delivery. A's send
 * then fails temporarily: A's reschedule changes nothing (the row is B's now), and A neither
 * reports nor counts a retry (`SendResult.retried`, `herald_delivery_retries_total`): B counts its own.
 */
describe('a lease lost mid-send (PostgreSQL)', () => {
  let server: RunningService;
  let database: TestDatabase;

  beforeAll(async () => {
    server = await startServer();
    database = await freshDatabase(server);
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('does not count a retry for a delivery it no longer holds', async () => {
    const clock = new ManualClock();
    const { documents, subscriptionId } = await projectWithSubscription(database, clock, 'lost-lease');
    const registry = new Registry();
    const adapterA = new ScriptedAdapter();
    const adapterB = new ScriptedAdapter();
    const sending = gate();
    const release = gate();
    adapterA.behaviour = async (messages) => {
      sending.open();
      await release.promise;
      return messages.map(() => failed({ class: 'temporary', code: 'ServiceUnavailable', message: 'try later' }));
    };
    const options = { leaseMs: 10_000, sendTimeoutMs: 2_000 };
    const engineA = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: adapterA, clock, registry, random: () => 0.5 },
      { ...options, workerId: 'A' },
    );
    const engineB = new DeliveryEngine({ db: database.db, logger: silentLogger, adapters: adapterB, clock, random: () => 0.5 }, { ...options, workerId: 'B' });

    await writeStores(documents, 'lost-lease', 1);
    await engineA.router.routeOnce();
    const leaseA = await engineA.sender.claim();
    const deliveringA = engineA.sender.deliver(leaseA!);
    await sending.promise;

    // A's lease expires; B takes the delivery over (and keeps it leased while it sends).
    clock.advance(10_001);
    const leaseB = await engineB.sender.claim();
    expect(leaseB?.deliveries.length).toBe(1);

    release.open();
    const resultA = await deliveringA;

    // The row is still B's lease, untouched by A (that part is right).
    const row = await database.db.query<{ lease_owner: string | null; attempts: number }>(
      'SELECT lease_owner, attempts FROM deliveries WHERE subscription_id = $1',
      [subscriptionId],
    );
    expect(row.rows).toEqual([{ lease_owner: 'B', attempts: 0 }]);

    const retries = (await registry.getSingleMetric('herald_delivery_retries_total')?.get())?.values.reduce((s, v) => s + v.value, 0) ?? 0;
    expect({ reportedRetried: resultA.retried, countedRetries: retries }).toEqual({ reportedRetried: 0, countedRetries: 0 });
  });
});
