import type { DeliveryPayload } from '@herald/model';
import { DocumentStore, type Database } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import type { DestinationPool } from '../../src/destinations/pool.js';
import { DeliveryEngine, type DeliveryEngineOptions } from '../../src/engine/engine.js';
import {
  createProject,
  createSqsSubscription,
  driverName,
  engineDatabaseUrls,
  HOUR,
  ManualClock,
  openTestDatabase,
  OutageRelay,
  silentLogger,
  sqsPool,
  writeStores,
  type TestDatabase,
} from './support.js';

/**
 * Recovery drains at full speed (issue 25): once a subscription's destination accepts again, the
 * deliveries that backed off during the outage are due at once instead of each waiting out its own
 * backoff (minutes after a long outage). The clock never moves past those backoffs here: on code
 * that waits for them, the backlog is still pending at the end.
 */

const MINUTE = 60_000;
const SEND_TIMEOUT_MS = 2_000;

/** A subscription's pending deliveries with what their retries remember, oldest first. */
async function backoffs(db: Database, projectKey: string, subscriptionId: string): Promise<{ dueAt: Date; attempts: number; firstFailureAt: Date | null }[]> {
  const rows = await db.query<{ due_at: Date | string; attempts: number; first_failure_at: Date | string | null }>(
    'SELECT due_at, attempts, first_failure_at FROM deliveries WHERE project_key = $1 AND subscription_id = $2 ORDER BY id',
    [projectKey, subscriptionId],
  );
  return rows.rows.map((r) => ({
    dueAt: new Date(r.due_at),
    attempts: r.attempts,
    firstFailureAt: r.first_failure_at === null ? null : new Date(r.first_failure_at),
  }));
}

describe.each(engineDatabaseUrls())('recovery after a destination outage (%s)', (serverUrl) => {
  const driver = driverName(serverUrl);
  let database: TestDatabase;
  let sqs: SqsPeer;
  let relay: OutageRelay;
  let pool: DestinationPool;
  let projectCounter = 0;

  beforeAll(async () => {
    [database, sqs] = await Promise.all([openTestDatabase(serverUrl), startSqsPeer()]);
    relay = await OutageRelay.start(sqs.endpoint);
    // Every SQS request goes through the relay, so a test can take the destination down.
    pool = sqsPool(relay.endpoint, SEND_TIMEOUT_MS);
  });

  afterAll(async () => {
    await pool?.closeAll();
    await relay?.down();
    await sqs?.stop();
    await database?.close();
  });

  /** A project with one SQS subscription to store changes, and an engine on a manual clock. */
  async function setup(options: DeliveryEngineOptions = {}, random: () => number = () => 0.5) {
    const clock = new ManualClock();
    const projectKey = `${driver}-recovery-${++projectCounter}`;
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    const target = { queueUrl: sqs.createQueue(projectKey), region: sqs.region };
    const subscription = await createSqsSubscription(documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] });
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: pool, clock, random, monotonicNow: () => 0 },
      { sendTimeoutMs: SEND_TIMEOUT_MS, leaseMs: 10_000, ...options },
    );
    const pending = () => backoffs(database.db, projectKey, subscription.id);
    const received = async () => (await sqs.receiveAll(target.queueUrl)).map((m) => JSON.parse(m.body) as DeliveryPayload);
    return { clock, projectKey, documents, engine, subscriptionId: subscription.id, pending, received };
  }

  /** Routes and sends until nothing is left that is due now (the clock stands still). */
  async function drain(engine: DeliveryEngine): Promise<void> {
    for (;;) {
      const routed = await engine.router.routeOnce();
      const sent = await engine.sender.sendOnce();
      if (routed.events === 0 && sent.claimed === 0) return;
    }
  }

  /** A ten-minute outage: every 30 s what is due is tried again and fails, so backoffs grow to minutes. */
  async function tenMinuteOutage(engine: DeliveryEngine, clock: ManualClock): Promise<void> {
    for (let elapsed = 0; elapsed < 10 * MINUTE; elapsed += 30_000) {
      await drain(engine);
      clock.advance(30_000);
    }
  }

  it('drains the backlog as soon as a send to the returned destination succeeds, without waiting out the backoffs', async () => {
    const { clock, projectKey, documents, engine, subscriptionId, pending, received } = await setup();
    await relay.down();
    try {
      await writeStores(documents, projectKey, 20);
      await tenMinuteOutage(engine, clock);
      const backlog = await pending();
      expect(backlog).toHaveLength(20);
      // The default policy after ten minutes of failures: the next tries are minutes away.
      for (const delivery of backlog) expect(delivery.dueAt.getTime() - clock.now().getTime()).toBeGreaterThan(MINUTE);
      expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('TemporaryError');
    } finally {
      await relay.up();
    }
    const returnedAt = clock.now().getTime();

    // New traffic is the first send to the returned destination.
    await writeStores(documents, projectKey, 1);
    await drain(engine);

    expect(clock.now().getTime()).toBe(returnedAt);
    expect(await pending()).toEqual([]);
    expect(await received()).toHaveLength(21);
    expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('Healthy');
  });

  it('drains it when the first retry that comes due succeeds, with no new traffic', async () => {
    // Jitter spreads the backlog's retries over ±20 %.
    let draw = 0;
    const { clock, projectKey, documents, engine, pending, received } = await setup({}, () => (draw++ % 10) / 10);
    await relay.down();
    try {
      await writeStores(documents, projectKey, 10);
      await tenMinuteOutage(engine, clock);
    } finally {
      await relay.up();
    }
    const dueTimes = (await pending()).map((delivery) => delivery.dueAt.getTime()).sort((a, b) => a - b);
    const first = dueTimes[0] as number;
    const last = dueTimes.at(-1) as number;
    expect(last - first).toBeGreaterThan(MINUTE);

    clock.set(new Date(first));
    await drain(engine);

    expect(clock.now().getTime()).toBeLessThan(last);
    expect(await pending()).toEqual([]);
    expect(await received()).toHaveLength(10);
  });

  it('keeps the backoff of a destination that is still failing', async () => {
    const { clock, projectKey, documents, engine, pending } = await setup();
    await relay.down();
    try {
      await writeStores(documents, projectKey, 5);
      await tenMinuteOutage(engine, clock);
      const before = (await pending()).map((delivery) => delivery.dueAt.getTime());

      // New traffic fails too: nothing proves the destination accepts again.
      await writeStores(documents, projectKey, 1);
      await drain(engine);

      const after = await pending();
      expect(after).toHaveLength(6);
      expect(after.slice(0, 5).map((delivery) => delivery.dueAt.getTime())).toEqual(before);
    } finally {
      await relay.up();
    }
    // Claims span projects: leave nothing pending for the next test.
    clock.advance(HOUR);
    await drain(engine);
    expect(await pending()).toEqual([]);
  });

  it('makes retries due without forgetting failures: the temporary-error window counts from the first one', async () => {
    const { clock, projectKey, documents, engine, subscriptionId, pending } = await setup({
      retry: { backoff: { initialMs: 5 * MINUTE, maxMs: HOUR }, windows: { temporaryMs: HOUR } },
    });
    const outageStart = clock.now();
    await relay.down();
    try {
      await writeStores(documents, projectKey, 3);
      await drain(engine);
    } finally {
      await relay.up();
    }
    expect((await pending()).map((delivery) => delivery.attempts)).toEqual([1, 1, 1]);

    // A minute later a new event is delivered: the three retries are due now, history intact.
    clock.advance(MINUTE);
    await writeStores(documents, projectKey, 1);
    await engine.router.routeOnce();
    expect(await engine.sender.sendOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await pending()).toEqual(Array.from({ length: 3 }, () => ({ dueAt: clock.now(), attempts: 1, firstFailureAt: outageStart })));

    // The destination fails again before they go: their backoff grows from their full count.
    await relay.down();
    try {
      expect(await engine.sender.sendOnce()).toMatchObject({ claimed: 3, retried: 3 });
      const retried = await pending();
      expect(retried.map((delivery) => [delivery.attempts, delivery.firstFailureAt])).toEqual(Array.from({ length: 3 }, () => [2, outageStart]));
      for (const delivery of retried) expect(delivery.dueAt.getTime() - clock.now().getTime()).toBe(10 * MINUTE);

      // The one-hour window counts from the outage's start, not from the recovery.
      clock.set(new Date(outageStart.getTime() + HOUR));
      expect(await engine.sender.sendOnce()).toMatchObject({ claimed: 3, dropped: 3 });
    } finally {
      await relay.up();
    }
    const dropped = (await engine.admin.listDropped(projectKey, subscriptionId)).results;
    expect(dropped.map((d) => [d.reason, d.attempts, d.firstFailureAt])).toEqual(
      Array.from({ length: 3 }, () => ['TemporaryErrorWindowElapsed', 3, outageStart.toISOString()]),
    );
  });
});
