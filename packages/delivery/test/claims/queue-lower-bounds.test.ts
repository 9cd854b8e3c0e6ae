import type { Queryable } from '@herald/store';
import { describe, expect, it } from 'vitest';
import { anyQueueAwake, claimDue, releaseAllOf, type Lease } from '../../src/engine/leases.js';
import { reschedule } from '../../src/engine/records.js';
import { driverName, engineDatabaseUrls, HOUR, writeStores } from '../engine/support.js';
import { backlogsFor, countBySubscription } from './backlogs.js';
import { copiesOf, insertDelivery } from './queue-fixtures.js';

const LEASE_MS = 60_000;

/** When the subscription's queue row (migration 010) says its next delivery may be due. */
async function wakeAt(db: Queryable, subscriptionId: string): Promise<Date | undefined> {
  const result = await db.query<{ wake_at: Date | string }>('SELECT wake_at FROM delivery_queues WHERE subscription_id = $1', [subscriptionId]);
  const row = result.rows[0];
  return row === undefined ? undefined : new Date(row.wake_at);
}

/**
 * Every way a delivery becomes pending or due earlier keeps its subscription's queue row a lower
 * bound of its due time, so a claim at that time finds it: a claim reads only the rows whose
 * `wake_at` has come, and moves those with nothing due to their next due time. Each test first
 * lets a claim move the row ahead (checked), then takes the path, then claims when it is due.
 */
describe.each(engineDatabaseUrls())('no delivery is hidden behind its queue row (%s)', (serverUrl) => {
  const backlogs = backlogsFor(serverUrl, { fresh: true });

  /**
   * Claims at the clock's time for `owner`, leased for `leaseMs`. A worker's sender first asks
   * `anyQueueAwake` and skips the claim on "no": asked here before every claim, it must never say
   * so when the claim finds deliveries.
   */
  async function claim(owner: string, limit = 100, leaseMs = LEASE_MS): Promise<Lease | undefined> {
    const awake = await anyQueueAwake(backlogs().database.db, backlogs().clock.now());
    const lease = await claimDirectly(owner, limit, leaseMs);
    if (lease !== undefined) expect(awake, 'the probe before a claim that found deliveries').toBe(true);
    return lease;
  }

  /** The claim alone, for the races with inserts (there the probe may answer before an insert commits). */
  function claimDirectly(owner: string, limit = 100, leaseMs = LEASE_MS): Promise<Lease | undefined> {
    const now = backlogs().clock.now();
    return claimDue(backlogs().database.db, owner, now, new Date(now.getTime() + leaseMs), limit);
  }

  /** A subscription's deliveries leased to `owner` for `leaseMs`, its queue row moved to their expiry. */
  async function leased(projectKey: string, due: number, owner: string, leaseMs = LEASE_MS): Promise<{ id: string; lease: Lease }> {
    const id = await backlogs().subscriptionWithDue(projectKey, due);
    const lease = await claim(owner, 100, leaseMs);
    expect(countBySubscription(lease)).toEqual({ [id]: due });
    // The next claim sees nothing due and moves the row to the lease's expiry.
    expect(await claim('worker-looking')).toBeUndefined();
    expect(await wakeAt(backlogs().database.db, id)).toEqual(new Date(backlogs().clock.now().getTime() + leaseMs));
    return { id, lease: lease as Lease };
  }

  it('a crashed worker’s claimed deliveries are claimed by another worker when its lease expires', async () => {
    const { id } = await leased('bounds-crashed', 3, 'worker-crashed');
    backlogs().clock.advance(LEASE_MS - 1);
    expect(countBySubscription(await claim('worker-other'))[id]).toBeUndefined();
    backlogs().clock.advance(1);
    expect(countBySubscription(await claim('worker-other'))[id]).toBe(3);
  });

  it('deliveries a router handed to a worker that crashed are claimed when that lease expires', async () => {
    const projectKey = 'bounds-handed';
    const id = await backlogs().subscriptionWithDue(projectKey, 0);
    await writeStores(backlogs().documents, projectKey, 2);
    const clock = backlogs().clock;
    const routed = await backlogs()
      .engine(100)
      .router.routeOnce({
        owner: 'worker-crashed',
        expiresAt: new Date(clock.now().getTime() + LEASE_MS),
        limit: 100,
      });
    expect(routed.lease?.deliveries).toHaveLength(2);
    expect(await wakeAt(backlogs().database.db, id)).toEqual(new Date(clock.now().getTime() + LEASE_MS));
    expect(countBySubscription(await claim('worker-other'))[id]).toBeUndefined();
    clock.advance(LEASE_MS);
    expect(countBySubscription(await claim('worker-other'))[id]).toBe(2);
  });

  it('a retry scheduled after the lease’s expiry is claimed at its time', async () => {
    const { id, lease } = await leased('bounds-late-retry', 1, 'worker-failing');
    const clock = backlogs().clock;
    const [delivery] = lease.deliveries;
    const error = { class: 'temporary' as const, code: 'Unavailable', message: 'down' };
    const retryAt = new Date(clock.now().getTime() + 2 * HOUR);
    await reschedule(backlogs().database.db, lease, [{ id: delivery!.id, dueAt: retryAt, firstFailureAt: clock.now(), error }]);
    clock.advance(LEASE_MS);
    expect(countBySubscription(await claim('worker-other'))[id]).toBeUndefined();
    expect(await wakeAt(backlogs().database.db, id)).toEqual(retryAt);
    clock.set(retryAt);
    expect(countBySubscription(await claim('worker-other'))[id]).toBe(1);
  });

  it('deliveries a stopping worker gives back are claimable at once', async () => {
    const { id } = await leased('bounds-stopping', 2, 'worker-stopping', HOUR);
    await releaseAllOf(backlogs().database.db, 'worker-stopping', backlogs().clock.now());
    expect(countBySubscription(await claim('worker-next'))).toEqual({ [id]: 2 });
  });

  it('replayed dropped deliveries are claimable at once', async () => {
    const projectKey = 'bounds-replay';
    const { id } = await leased(projectKey, 2, 'worker-dropping', HOUR);
    const admin = backlogs().engine(100).admin;
    expect(await admin.forgetSubscription(projectKey, id)).toEqual({ dropped: 2 });
    // The row still waits for the lease that was dropped.
    expect(await claim('worker-next')).toBeUndefined();
    expect(await admin.replayDropped(projectKey, id, 'all')).toEqual({ replayed: 2 });
    expect(countBySubscription(await claim('worker-next'))).toEqual({ [id]: 2 });
  });

  it('retries waiting at the old destination are claimable at once after the destination changed', async () => {
    const projectKey = 'bounds-destination';
    const { id, lease } = await leased(projectKey, 2, 'worker-failing');
    const clock = backlogs().clock;
    const error = { class: 'temporary' as const, code: 'Unavailable', message: 'down' };
    const retryAt = new Date(clock.now().getTime() + HOUR);
    const retries = lease.deliveries.map((d) => ({ id: d.id, dueAt: retryAt, firstFailureAt: clock.now(), error }));
    await reschedule(backlogs().database.db, lease, retries);
    clock.advance(LEASE_MS);
    expect(countBySubscription(await claim('worker-other'))[id]).toBeUndefined();
    expect(await wakeAt(backlogs().database.db, id)).toEqual(retryAt);
    await backlogs().engine(100).admin.markDestinationChanged(projectKey, id);
    expect(countBySubscription(await claim('worker-other'))[id]).toBe(2);
  });

  it.skipIf(driverName(serverUrl) !== 'postgresql')(
    'deliveries inserted while claims settle the queue rows are all claimed, none hidden',
    { timeout: 60_000 },
    async () => {
      const db = backlogs().database.db;
      const clock = backlogs().clock;
      // Its first delivery stays leased for an hour: a claim that sees nothing else due moves the
      // row an hour ahead, and one that sees nothing pending at all removes it.
      const { id } = await leased('bounds-race', 1, 'worker-holding', HOUR);
      const rounds = 200;
      const hidden: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const eventId = `raced-${round}`;
        // A router's insert and a claim, at the same time on two connections.
        const [, raced] = await Promise.all([insertDelivery(db, id, eventId, clock.now()), claimDirectly('worker-racing')]);
        const find = (lease: Lease | undefined) => lease?.deliveries.find((d) => d.eventId === eventId);
        const claimed = find(raced) ?? find(await claim('worker-after'));
        if (claimed === undefined) hidden.push(eventId);
        else await db.query('DELETE FROM deliveries WHERE id = $1', [claimed.id]);
      }
      expect(hidden).toEqual([]);
    },
  );

  it.skipIf(driverName(serverUrl) !== 'postgresql')(
    'a delivery committed after a claim read its queue row, before the claim moves the row, is not hidden',
    { timeout: 60_000 },
    async () => {
      const db = backlogs().database.db;
      const clock = backlogs().clock;
      const { id } = await leased('bounds-revision', 1, 'worker-holding', HOUR);
      // 5,000 subscriptions with a delivery due since yesterday (their rows before this one's in
      // `wake_at` order): a claim reads all of them before it comes to this subscription's row,
      // which leaves the time for a router's insert to commit in between.
      await copiesOf(db, id, 'bounds-filler', 5000, new Date(clock.now().getTime() - 24 * HOUR));
      const insert = (eventId: string) => insertDelivery(db, id, eventId, clock.now());
      const hidden: string[] = [];
      for (let round = 0; round < 10; round++) {
        // A delivery sent at once: the row stays where it lowered it, with nothing due behind it.
        await insert(`sent-${round}`);
        await db.query('DELETE FROM deliveries WHERE subscription_id = $1 AND event_id = $2', [id, `sent-${round}`]);
        let claimed = false;
        const claiming = claimDirectly('worker-claiming', 1).finally(() => (claimed = true));
        await claimRunning(db, () => claimed);
        await insert(`raced-${round}`);
        await claiming;
        const wake = await wakeAt(db, id);
        if (wake === undefined || wake > clock.now()) hidden.push(`raced-${round}`);
        await db.query('DELETE FROM deliveries WHERE subscription_id = $1 AND event_id = $2', [id, `raced-${round}`]);
      }
      expect(hidden).toEqual([]);
    },
  );
});

/**
 * Returns once a claim statement runs on another connection (an insert then races it), or once
 * it has `ended` (too quick to be seen: that round races nothing).
 */
async function claimRunning(db: Queryable, ended: () => boolean): Promise<void> {
  while (!ended()) {
    // Known by its first lines: pg_stat_activity cuts a statement's text at 1 kB.
    const running = await db.query(
      `SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%FROM delivery_queues q%'`,
    );
    if (running.rows.length > 0) return;
  }
}
