import { MIGRATIONS, runMigrations, type Queryable } from '@herald/store';
import { describe, expect, it } from 'vitest';
import { claimDue, releaseLease } from '../../src/engine/leases.js';
import { reschedule } from '../../src/engine/records.js';
import { driverName, engineDatabaseUrls, writeStores } from '../engine/support.js';
import { backlogsFor, countBySubscription } from './backlogs.js';

const HOUR_MS = 3_600_000;

/** Index scans of `deliveries` in the current transaction so far. */
async function deliveryIndexScans(tx: Queryable): Promise<number> {
  const stats = await tx.query<{ idx_scan: string | number | null }>(`SELECT idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'deliveries'`);
  return Number(stats.rows[0]?.idx_scan ?? 0);
}

/**
 * A claim reads only the subscriptions that have something due (migration 010's queue rows), not
 * every subscription with pending deliveries: a destination down for a while leaves many of them
 * with all their deliveries waiting for a retry, and every idle poll of every sender used to probe
 * each of them.
 */
describe.each(engineDatabaseUrls())('claims next to subscriptions whose deliveries all wait (%s)', (serverUrl) => {
  const backlogs = backlogsFor(serverUrl, { fresh: true });

  it('a claim probes the subscriptions with due deliveries, not the 500 waiting for a retry', { timeout: 60_000 }, async () => {
    const db = backlogs().database.db;
    const template = await backlogs().subscriptionWithDue('waiting-template', 1);
    // 500 subscriptions whose one delivery waits an hour for its retry (rows copied in one statement:
    // 500 subscriptions through the API would take minutes), next to one with a delivery due now.
    await db.query(
      `INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, created_at, due_at, attempts)
       SELECT project_key, 'waiting-' || g, event_id, outbox_seq, payload, message_stored, committed_at, created_at, due_at + interval '1 hour', 3
       FROM deliveries, generate_series(1, 500) g WHERE subscription_id = $1`,
      [template],
    );
    await backlogs().drain();
    const due = await backlogs().subscriptionWithDue('waiting-due', 2);

    const now = backlogs().clock.now();
    const { lease, scans } = await db.transaction(async (tx) => {
      const before = await deliveryIndexScans(tx);
      const lease = await claimDue(tx, 'worker-waiting', now, new Date(now.getTime() + 60_000), 100);
      return { lease, scans: (await deliveryIndexScans(tx)) - before };
    });
    expect(countBySubscription(lease)).toEqual({ [due]: 2 });
    // Walking every subscription with pending deliveries made over 500.
    expect(scans).toBeLessThan(20);

    // An hour later the 500 retries are due (and the leases above have expired): all are claimed,
    // 100 at a time, each once.
    backlogs().clock.advance(HOUR_MS);
    const engine = backlogs().engine(100);
    const retried: string[] = [];
    for (let next = await engine.sender.claim(); next !== undefined; next = await engine.sender.claim()) {
      retried.push(...next.deliveries.map((d) => d.subscriptionId).filter((s) => s.startsWith('waiting-')));
    }
    expect(retried).toHaveLength(500);
    expect(new Set(retried).size).toBe(500);
  });

  it('a retry due before its lease would expire is claimed when it is due', async () => {
    const id = await backlogs().subscriptionWithDue('waiting-retry', 1);
    const clock = backlogs().clock;
    const db = backlogs().database.db;
    const lease = await claimDue(db, 'worker-retry', clock.now(), new Date(clock.now().getTime() + 60_000), 10);
    const delivery = lease?.deliveries[0];
    expect(delivery?.subscriptionId).toBe(id);
    if (lease === undefined || delivery === undefined) return;
    const error = { class: 'temporary' as const, code: 'Throttled', message: 'slow down' };
    await reschedule(db, lease, [{ id: delivery.id, dueAt: new Date(clock.now().getTime() + 1_000), firstFailureAt: clock.now(), error }]);

    expect(await claimDue(db, 'worker-retry', clock.now(), new Date(clock.now().getTime() + 60_000), 10)).toBeUndefined();
    clock.advance(1_000);
    const again = await claimDue(db, 'worker-retry', clock.now(), new Date(clock.now().getTime() + 60_000), 10);
    expect(again?.deliveries.map((d) => d.id)).toEqual([delivery.id]);
  });

  it('deliveries given back are claimable at once, not when the lease would have expired', async () => {
    const id = await backlogs().subscriptionWithDue('waiting-given-back', 3);
    const clock = backlogs().clock;
    const db = backlogs().database.db;
    const lease = await claimDue(db, 'worker-stopping', clock.now(), new Date(clock.now().getTime() + 60_000), 10);
    expect(countBySubscription(lease)).toEqual({ [id]: 3 });
    if (lease === undefined) return;
    await releaseLease(
      db,
      lease,
      lease.deliveries.map((d) => d.id),
      clock.now(),
    );
    expect(countBySubscription(await claimDue(db, 'worker-next', clock.now(), new Date(clock.now().getTime() + 60_000), 10))).toEqual({ [id]: 3 });
  });

  it.skipIf(driverName(serverUrl) !== 'postgresql')(
    'a delivery being inserted while a claim settles the queue rows is not hidden behind a later time',
    async () => {
      const id = await backlogs().subscriptionWithDue('waiting-insert', 1);
      const clock = backlogs().clock;
      const db = backlogs().database.db;
      // Its only delivery is leased for an hour: the next claim moves its queue row an hour ahead.
      const lease = await claimDue(db, 'worker-a', clock.now(), new Date(clock.now().getTime() + HOUR_MS), 10);
      expect(lease?.deliveries).toHaveLength(1);

      await db.transaction(async (router) => {
        // A router inserting a new delivery holds the queue row it lowered until it commits; a
        // claim meanwhile sees neither the delivery nor may move the row past it.
        await router.query(
          `INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, created_at, due_at)
           SELECT project_key, subscription_id, 'inserted-meanwhile', outbox_seq, payload, message_stored, committed_at, $2, $2
           FROM deliveries WHERE subscription_id = $1`,
          [id, clock.now()],
        );
        expect(await claimDue(db, 'worker-b', clock.now(), new Date(clock.now().getTime() + 60_000), 10)).toBeUndefined();
      });
      const next = await claimDue(db, 'worker-b', clock.now(), new Date(clock.now().getTime() + 60_000), 10);
      expect(next?.deliveries.map((d) => d.eventId)).toEqual(['inserted-meanwhile']);
    },
  );

  it('deliveries pending before the upgrade that added the queue rows are claimed after it', async () => {
    const db = backlogs().database.db;
    // The database as the release before migration 010 left it.
    const migration = MIGRATIONS.find((m) => m.name === 'delivery-queues');
    expect(migration).toBeDefined();
    await db.exec(`DROP TABLE delivery_queues;
      DROP FUNCTION herald_lower_queues_on_insert() CASCADE; DROP FUNCTION herald_lower_queues_on_update() CASCADE;
      DELETE FROM herald_migrations WHERE id = ${migration?.id};`);
    const id = await backlogs().subscriptionWithDue('waiting-upgrade', 4);
    // And deliveries a worker of that release holds, then crashes with.
    const clock = backlogs().clock;
    const held = await backlogs().subscriptionWithDue('waiting-upgrade-held', 0);
    await writeStores(backlogs().documents, 'waiting-upgrade-held', 2);
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    const handed = await backlogs().engine(100).router.routeOnce({ owner: 'worker-old', expiresAt, limit: 100 });
    expect(handed.lease?.deliveries).toHaveLength(2);

    await runMigrations(db);
    const lease = await claimDue(db, 'worker-upgraded', clock.now(), new Date(clock.now().getTime() + 60_000), 10);
    expect(countBySubscription(lease)).toEqual({ [id]: 4 });
    // When the crashed worker's lease expires (with the earlier tests' leases: claimed until none is left).
    clock.set(expiresAt);
    const engine = backlogs().engine(100);
    const taken: string[] = [];
    for (let next = await engine.sender.claim(); next !== undefined; next = await engine.sender.claim()) {
      taken.push(...next.deliveries.map((d) => d.subscriptionId).filter((s) => s === held));
    }
    expect(taken).toHaveLength(2);
  });
});
