import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failed } from '../../src/destinations/port.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { engineDatabaseUrls, openTestDatabase, pendingDeliveries, pointSubscriptionAt, type TestDatabase } from './support.js';
import { gate, HOUR, ManualClock, projectWithSubscription, ScriptedAdapter, silentLogger } from './scripted-destination.js';

/**
 * markDestinationChanged starts the attempts of every pending delivery afresh, leased ones
 * included. A send to the NEW destination in flight while it does so (its worker read the new
 * document between the gateway's commit and markDestinationChanged) is judged on the attempts its
 * row holds at recording time, not on the lease's copy: judged on the old first failure, a failure
 * two seconds old was dropped as the end of a 48-hour window.
 */
describe.each(engineDatabaseUrls())('changeDestination while a send to the new destination is in flight (%s)', (serverUrl) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('counts the new destination failure afresh: not dropped as TemporaryErrorWindowElapsed of the old one', async () => {
    const clock = new ManualClock();
    const projectKey = 'race-change';
    const { documents, subscriptionId } = await projectWithSubscription(database, clock, projectKey);
    const destination = new ScriptedAdapter();
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: destination, clock, random: () => 0.5 },
      { sendTimeoutMs: 2_000, leaseMs: 10_000, subscriptionRefreshMs: 0 },
    );
    const temporary = { class: 'temporary' as const, code: 'ServiceUnavailable', message: 'old queue down' };
    destination.behaviour = async (messages) => messages.map(() => failed(temporary));
    const { writeStores } = await import('../engine/support.js');
    await writeStores(documents, projectKey, 1);
    await engine.router.routeOnce();
    expect(await engine.sender.sendOnce()).toMatchObject({ retried: 1 });

    // The old destination has been failing for almost 48 hours; the user changes the destination.
    clock.advance(48 * HOUR - 1_000);
    await pointSubscriptionAt(documents, projectKey, subscriptionId, 'http://127.0.0.1:1/000000000000/new-queue');
    engine.admin.subscriptionsChanged(projectKey);

    // A worker claims the delivery and sends it to the NEW destination (it read the new document)…
    const answer = gate();
    destination.behaviour = async (messages) => {
      await answer.promise;
      return messages.map(() => failed({ class: 'temporary', code: 'ServiceUnavailable', message: 'new queue hiccup' }));
    };
    const inFlight = engine.sender.sendOnce();
    for (let i = 0; i < 100 && destination.sent.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(destination.sent.length).toBe(2);
    // …while the gateway records the change (attempts counted afresh at the new destination).
    await engine.admin.markDestinationChanged(projectKey, subscriptionId);
    clock.advance(2_000); // the send took 2 s
    answer.open();
    const result = await inFlight;

    const pending = await pendingDeliveries(database.db, projectKey, subscriptionId);
    const dropped = (await engine.admin.listDropped(projectKey, subscriptionId)).results.map((d) => d.reason);
    // Its first failure at the new destination was 2 s ago: retried, attempts 1.
    expect({ result: { retried: result.retried, dropped: result.dropped }, attempts: pending.map((p) => p.attempts), dropped }).toEqual({
      result: { retried: 1, dropped: 0 },
      attempts: [1],
      dropped: [],
    });
  });
});
