import type { Queryable } from '@herald/store';
import { describe, expect, it } from 'vitest';
import { claimDue, releaseLease } from '../../src/engine/leases.js';
import { driverName, engineDatabaseUrls } from '../engine/support.js';
import { backlogsFor, countBySubscription } from './backlogs.js';
import { copiesOf } from './queue-fixtures.js';

const LEASE_MS = 60_000;

/** A database whose `failing`-th statement (counted from 1) fails, as a dropped connection does. */
function failingAt(db: Queryable, failing: number): Queryable {
  let statements = 0;
  return {
    async query(sql, params, options) {
      if (++statements === failing) throw new Error(`statement ${failing} failed`);
      return db.query(sql, params, options);
    },
    exec: (sql) => db.exec(sql),
  };
}

/**
 * A claim reads only the subscriptions whose queue row (migration 010) says something may be due.
 * Which of those it reads must not make it come back short while deliveries are due and free: the
 * worker then sleeps a poll interval with work waiting.
 */
describe.each(engineDatabaseUrls())('claims over the delivery queue rows (%s)', (serverUrl) => {
  const backlogs = backlogsFor(serverUrl, { fresh: true });

  it('queue rows left behind by sent deliveries do not hide a subscription with due deliveries', async () => {
    const db = backlogs().database.db;
    const clock = backlogs().clock;
    const template = await backlogs().subscriptionWithDue('window-template', 1);
    // 30 subscriptions had a delivery claimed and sent: their queue rows wait for the lease's end.
    const sent = await copiesOf(db, template, 'window-sent', 30);
    await backlogs().drain();
    await db.query('DELETE FROM deliveries WHERE subscription_id = ANY($1::text[])', [sent]);
    clock.advance(LEASE_MS + 1);
    const due = await backlogs().subscriptionWithDue('window-due', 1);

    const now = clock.now();
    const lease = await claimDue(db, 'worker-window', now, new Date(now.getTime() + LEASE_MS), 10);
    expect(countBySubscription(lease)[due]).toBe(1);
  });

  it('a claim whose queue statement fails leaves nothing leased to nobody', async () => {
    const db = backlogs().database.db;
    const clock = backlogs().clock;
    const id = await backlogs().subscriptionWithDue('window-failing', 2);
    for (let failing = 1; failing <= 3; failing++) {
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + LEASE_MS);
      const lease = await claimDue(failingAt(db, failing), 'worker-failing', now, expiresAt, 10).catch(() => undefined);
      // Claimed: the worker has them. Failed: nobody has them, so the next claim gets them now.
      const holder = lease ?? (await claimDue(db, 'worker-next', now, expiresAt, 10));
      expect(countBySubscription(holder)).toEqual({ [id]: 2 });
      if (holder !== undefined)
        await releaseLease(
          db,
          holder,
          holder.deliveries.map((d) => d.id),
          now,
        );
    }
  });

  it.skipIf(driverName(serverUrl) !== 'postgresql')(
    'a third worker claiming while two others hold their claims gets the due deliveries they left',
    async () => {
      const db = backlogs().database.db;
      const template = await backlogs().subscriptionWithDue('window-three', 1);
      const others = await copiesOf(db, template, 'window-three', 29);
      const mine = new Set([template, ...others]);
      const now = backlogs().clock.now();
      const expiresAt = new Date(now.getTime() + LEASE_MS);
      // Workers A and B each hold their claim's locks while C claims (their statements overlap).
      const third = await db.transaction(async (a) => {
        expect((await claimDue(a, 'worker-a', now, expiresAt, 10))?.deliveries).toHaveLength(10);
        return db.transaction(async (b) => {
          expect((await claimDue(b, 'worker-b', now, expiresAt, 10))?.deliveries).toHaveLength(10);
          return claimDue(db, 'worker-c', now, expiresAt, 10);
        });
      });
      const taken = Object.keys(countBySubscription(third)).filter((id) => mine.has(id));
      expect(taken).toHaveLength(10);
    },
  );
});
