import { describe, expect, it } from 'vitest';
import { engineDatabaseUrls } from '../engine/support.js';
import { backlogsFor, countBySubscription } from './backlogs.js';

/**
 * One subscription's backlog (a bulk import, a destination back after an outage) must not hold
 * back every other subscription's deliveries: claims share each batch between the subscriptions
 * with due deliveries.
 */
describe.each(engineDatabaseUrls())('claims are shared between subscriptions (%s)', (serverUrl) => {
  const backlogs = backlogsFor(serverUrl, { fresh: true });

  it('a subscription whose deliveries became due after another one’s backlog gets its share of the next claim', async () => {
    const backlogged = await backlogs().subscriptionWithDue('fair-backlog', 200);
    backlogs().clock.advance(1_000);
    const quiet = await backlogs().subscriptionWithDue('fair-quiet', 3);
    const engine = backlogs().engine(20);

    // Oldest due first across subscriptions would have claimed 20 of the backlog and nothing else.
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [backlogged]: 17, [quiet]: 3 });
    // What the quiet one does not use goes to the others: the rest of the backlog, 20 at a time.
    let claimed = 0;
    for (let lease = await engine.sender.claim(); lease !== undefined; lease = await engine.sender.claim()) {
      expect(countBySubscription(lease)).toEqual({ [backlogged]: lease.deliveries.length });
      claimed += lease.deliveries.length;
    }
    expect(claimed).toBe(200 - 17);
  });

  it('shares a batch equally between the subscriptions with due deliveries', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) ids.push(await backlogs().subscriptionWithDue(`fair-even-${index}`, 10));
    expect(countBySubscription(await backlogs().engine(8).sender.claim())).toEqual(Object.fromEntries(ids.map((id) => [id, 2])));
  });

  it('takes the subscriptions that waited longest first when more than a batch have due deliveries', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      ids.push(await backlogs().subscriptionWithDue(`fair-wait-${index}`, 2));
      backlogs().clock.advance(1_000);
    }
    const [first, second, third] = ids as [string, string, string];
    const engine = backlogs().engine(2);
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [first]: 1, [second]: 1 });
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [first]: 1, [second]: 1 });
    expect(countBySubscription(await engine.sender.claim())).toEqual({ [third]: 2 });
  });
});
