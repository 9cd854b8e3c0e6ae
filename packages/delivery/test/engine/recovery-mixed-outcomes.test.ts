import type { DocumentStore } from '@herald/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERED, failed, type SendOutcome } from '../../src/destinations/port.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import { gate, projectWithSubscription, ScriptedAdapter } from './scripted-destination.js';
import { driverName, engineDatabaseUrls, ManualClock, openTestDatabase, pendingDeliveries, silentLogger, writeStores, type TestDatabase } from './support.js';

/**
 * What proves a destination accepts again (engine/outcomes/recovery.ts), with a scripted
 * destination that answers each message of a batch as a test says: a batch with acknowledgements
 * and temporary failures proves nothing; payload refusals do not hold a recovery back; and a
 * destination that flaps makes its backlog due at most once per gap.
 */

const MINUTE = 60_000;
const temporary: SendOutcome = failed({ class: 'temporary', code: 'ServiceUnavailable', message: 'try later' });
const payload: SendOutcome = failed({ class: 'payload', code: 'InvalidMessageContents', message: 'refused' });

describe.each(engineDatabaseUrls())('recovery with mixed outcomes (%s)', (serverUrl) => {
  const driver = driverName(serverUrl);
  let database: TestDatabase;
  let counter = 0;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
  });

  afterAll(async () => {
    await database?.close();
  });

  /** Claims span projects: each test leaves nothing pending for the next. */
  let settle: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await settle?.();
    settle = undefined;
  });

  /**
   * A subscription whose destination failed three deliveries temporarily: TemporaryError, their
   * retries 5 minutes away (the policy's first backoff, no jitter).
   */
  async function afterOutage() {
    const clock = new ManualClock();
    const projectKey = `${driver}-mixed-${++counter}`;
    const { documents, subscriptionId } = await projectWithSubscription(database, clock, projectKey);
    const adapter = new ScriptedAdapter();
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters: adapter, clock, random: () => 0.5, monotonicNow: () => 0 },
      { retry: { backoff: { initialMs: 5 * MINUTE, maxMs: 60 * MINUTE } } },
    );
    adapter.behaviour = async (messages) => messages.map(() => temporary);
    await writeStores(documents, projectKey, 3);
    await engine.router.routeOnce();
    expect(await engine.sender.sendOnce()).toMatchObject({ claimed: 3, retried: 3 });
    expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('TemporaryError');
    const backlogDue = () => pendingBacklog(projectKey, subscriptionId, clock);
    settle = async () => {
      adapter.behaviour = async (messages) => messages.map(() => DELIVERED);
      clock.advance(24 * 60 * MINUTE);
      while ((await engine.sender.sendOnce()).claimed > 0);
    };
    return { clock, projectKey, documents, subscriptionId, adapter, engine, backlogDue };
  }

  /** How many of the failed deliveries are due now (retries made due), of how many pending. */
  async function pendingBacklog(projectKey: string, subscriptionId: string, clock: ManualClock): Promise<{ due: number; waiting: number }> {
    const backlog = (await pendingDeliveries(database.db, projectKey, subscriptionId)).filter((delivery) => delivery.attempts > 0);
    const due = backlog.filter((delivery) => delivery.dueAt.getTime() <= clock.now().getTime()).length;
    return { due, waiting: backlog.length - due };
  }

  /** New events sent in one batch, their outcomes in order as given. */
  async function sendNew(setup: { documents: DocumentStore; projectKey: string; adapter: ScriptedAdapter; engine: DeliveryEngine }, outcomes: SendOutcome[]) {
    setup.adapter.behaviour = async (messages) => messages.map((_, index) => outcomes[index] ?? DELIVERED);
    await writeStores(setup.documents, setup.projectKey, outcomes.length);
    await setup.engine.router.routeOnce();
    return setup.engine.sender.sendOnce();
  }

  it('keeps the backoff when some deliveries of a batch are acknowledged and others fail temporarily', async () => {
    const setup = await afterOutage();
    setup.clock.advance(MINUTE);
    expect(await sendNew(setup, [DELIVERED, temporary])).toMatchObject({ delivered: 1, retried: 1, madeDue: 0 });
    expect(await setup.backlogDue()).toEqual({ due: 0, waiting: 4 });
    expect(await setup.engine.admin.getHealth(setup.projectKey, setup.subscriptionId)).toBe('TemporaryError');
  });

  it('makes the backlog due when a batch is acknowledged but for payload refusals (the message, not the destination)', async () => {
    const setup = await afterOutage();
    setup.clock.advance(MINUTE);
    expect(await sendNew(setup, [DELIVERED, payload])).toMatchObject({ delivered: 1, dropped: 1, madeDue: 3 });
    expect(await setup.backlogDue()).toEqual({ due: 3, waiting: 0 });
    expect(await setup.engine.admin.getHealth(setup.projectKey, setup.subscriptionId)).toBe('Healthy');
  });

  it('retries at once what failed in a send begun before the recovery, and stays Healthy', async () => {
    const setup = await afterOutage();
    const { clock, adapter, engine, projectKey, subscriptionId } = setup;
    // The backlog's retries come due; their send is still in flight when the destination returns.
    clock.advance(5 * MINUTE);
    const inFlight = gate();
    adapter.behaviour = async (messages) => {
      await inFlight.promise;
      return messages.map(() => temporary);
    };
    const before = engine.sender.sendOnce();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(adapter.sent).toHaveLength(6);

    // A new event is delivered meanwhile: Healthy again (the backlog is leased, nothing to make due).
    clock.advance(1_000);
    expect(await sendNew(setup, [DELIVERED])).toMatchObject({ delivered: 1, madeDue: 0 });
    expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('Healthy');

    // Then the old send fails: older news than the recovery. The attempt counts; no backoff, no TemporaryError.
    inFlight.open();
    expect(await before).toMatchObject({ claimed: 3, retried: 3 });
    expect(await engine.admin.getHealth(projectKey, subscriptionId)).toBe('Healthy');
    const backlog = (await pendingDeliveries(database.db, projectKey, subscriptionId)).map((d) => [d.attempts, d.dueAt.getTime() <= clock.now().getTime()]);
    expect(backlog).toEqual([
      [2, true],
      [2, true],
      [2, true],
    ]);
  });

  it('makes the backlog of a flapping destination due at most once per gap, a gap that doubles', async () => {
    const setup = await afterOutage();
    const { clock, adapter, engine } = setup;
    clock.advance(MINUTE);
    expect(await sendNew(setup, [DELIVERED])).toMatchObject({ madeDue: 3 });

    // The backlog fails again, then the destination accepts again at once: within the gap (5
    // minutes, the first backoff) the backlog waits for its own retries (now 10 minutes away).
    adapter.behaviour = async (messages) => messages.map(() => temporary);
    expect(await engine.sender.sendOnce()).toMatchObject({ claimed: 3, retried: 3 });
    expect(await sendNew(setup, [DELIVERED])).toMatchObject({ delivered: 1, madeDue: 0 });
    expect(await setup.backlogDue()).toEqual({ due: 0, waiting: 3 });

    // Past the gap, a new event fails and the next one is acknowledged: the backlog (now four) is
    // made due again, and fails again. The gap is now 10 minutes.
    clock.advance(5 * MINUTE);
    expect(await sendNew(setup, [temporary])).toMatchObject({ claimed: 1, retried: 1 });
    expect(await sendNew(setup, [DELIVERED])).toMatchObject({ delivered: 1, madeDue: 4 });
    adapter.behaviour = async (messages) => messages.map(() => temporary);
    expect(await engine.sender.sendOnce()).toMatchObject({ claimed: 4, retried: 4 });

    // Six minutes later: within the doubled gap.
    clock.advance(6 * MINUTE);
    expect(await sendNew(setup, [DELIVERED])).toMatchObject({ delivered: 1, madeDue: 0 });
    expect(await setup.backlogDue()).toEqual({ due: 0, waiting: 4 });
  });
});
