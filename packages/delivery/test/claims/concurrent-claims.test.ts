import { describe, expect, it } from 'vitest';
import { claimDue } from '../../src/engine/leases.js';
import { driverName, engineDatabaseUrls } from '../engine/support.js';
import { backlogsFor, countBySubscription } from './backlogs.js';

/**
 * Several workers against one PostgreSQL claim at the same time, from the same snapshot. A claim
 * passes over the subscriptions whose due deliveries another claim holds, and takes more of one with
 * more due, instead of coming back short or empty (its worker would then sleep a poll interval while
 * deliveries are due).
 *
 * The first claim runs inside an open transaction so that its row locks are held while the second
 * claim runs (what two workers' overlapping claim statements do for the length of a statement).
 * PGlite has one connection, nothing runs concurrently there.
 */
describe.each(engineDatabaseUrls())('concurrent claims (%s)', (serverUrl) => {
  const concurrent = driverName(serverUrl) === 'postgresql';
  const backlogs = backlogsFor(serverUrl, { fresh: true });

  /** Worker A's claim with its locks held, and worker B's claim meanwhile. */
  async function overlappingClaims(limit: number) {
    const now = backlogs().clock.now();
    const expiresAt = new Date(now.getTime() + 60_000);
    return backlogs().database.db.transaction(async (tx) => {
      const a = await claimDue(tx, 'worker-a', now, expiresAt, limit);
      const b = await claimDue(backlogs().database.db, 'worker-b', now, expiresAt, limit);
      return { a, b };
    });
  }

  it.skipIf(!concurrent)('a second worker claiming meanwhile gets the other subscriptions’ due deliveries, not nothing', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 20; index++) ids.push(await backlogs().subscriptionWithDue(`concurrent-many-${index}`, 1));
    const { a, b } = await overlappingClaims(10);
    expect(a?.deliveries).toHaveLength(10);
    // 10 more subscriptions have a due delivery that nobody holds.
    expect(b?.deliveries.length ?? 0).toBe(10);
    const taken = new Set([...Object.keys(countBySubscription(a)), ...Object.keys(countBySubscription(b))]);
    expect(taken.size).toBe(20);
  });

  it.skipIf(!concurrent)('a second worker claiming meanwhile fills its batch from the backlog that is left', async () => {
    await backlogs().subscriptionWithDue('concurrent-small', 5);
    const big = await backlogs().subscriptionWithDue('concurrent-big', 100);
    const { a, b } = await overlappingClaims(10);
    expect(a?.deliveries).toHaveLength(10);
    // 90 of the big one are due and free; the small one's are all held by A.
    expect(countBySubscription(b)).toEqual({ [big]: 10 });
  });
});
