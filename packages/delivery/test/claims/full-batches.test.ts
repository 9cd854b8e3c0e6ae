import { describe, expect, it } from 'vitest';
import { engineDatabaseUrls } from '../engine/support.js';
import { backlogsFor, countBySubscription } from './backlogs.js';

/**
 * Shares are whole deliveries: the remainder of dividing a batch between subscriptions goes one each
 * to some of them, so a claim leases its full batch whenever that many are due (rounding every share
 * down left up to one place per subscription empty: with the default batch of 100 and 51 busy
 * subscriptions, 51 per claim).
 */
describe.each(engineDatabaseUrls())('a claim fills its batch when enough is due (%s)', (serverUrl) => {
  const backlogs = backlogsFor(serverUrl, { fresh: true });

  it('three subscriptions with 10 due each, batch of 10: the claim leases 10', async () => {
    for (let index = 0; index < 3; index++) await backlogs().subscriptionWithDue(`fill-three-${index}`, 10);
    const lease = await backlogs().engine(10).sender.claim();
    expect(lease?.deliveries.length).toBe(10);
  });

  it('six subscriptions with 5 due each, batch of 10: the claim leases 10, each at least one', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index++) ids.push(await backlogs().subscriptionWithDue(`fill-six-${index}`, 5));
    const lease = await backlogs().engine(10).sender.claim();
    const counts = countBySubscription(lease);
    for (const id of ids) expect(counts[id] ?? 0).toBeGreaterThanOrEqual(1);
    expect(lease?.deliveries.length).toBe(10);
  });
});
