import type { Destination } from '@herald/model';
import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationAdapterSource } from '../../src/engine/adapters.js';
import type { DestinationAdapter, EncodedMessage, SendOutcome } from '../../src/destinations/port.js';
import { DeliveryEngine } from '../../src/engine/engine.js';
import {
  createProject,
  createSqsSubscription,
  engineDatabaseUrls,
  HOUR,
  ManualClock,
  openTestDatabase,
  silentLogger,
  writeStores,
  type TestDatabase,
} from './support.js';

/**
 * A destination's error text is written to the database (`reschedule`/`dropLeased` as jsonb,
 * `writeHealth` as text), and PostgreSQL refuses U+0000 in both: one such byte used to roll back
 * the whole record — the failed delivery never rescheduled nor dropped, the health unchanged, and
 * the acknowledged deliveries of the same batch sent again after every lease. Such text is not
 * exotic: Azure's core-client puts an unparseable error body into the RestError message, an
 * EventGrid `uri` is user-supplied, AWS error messages are copied verbatim. `recordedError` now
 * replaces it (and lone surrogates) and caps the length.
 */
describe.each(engineDatabaseUrls())('an error message with a NUL character (%s)', (serverUrl) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('is recorded (retry, then drop after 48 h) and does not make acknowledged deliveries resend forever', async () => {
    const clock = new ManualClock();
    const projectKey = 'nul-error';
    await createProject(database.db, clock, projectKey);
    const documents = new DocumentStore(database.db, clock);
    await createSqsSubscription(
      documents,
      projectKey,
      { queueUrl: 'http://127.0.0.1:1/000000000000/q', region: 'us-east-1' },
      {
        changes: [{ resourceTypeId: 'store' }],
      },
    );

    // A destination that acknowledges every message except the one of the first store, whose
    // error text carries a NUL character.
    let sends = 0;
    const adapter: DestinationAdapter<string> = {
      type: 'SQS',
      limits: { maxMessageBytes: 262_144, maxBatchEntries: 10, maxBatchBytes: 262_144 },
      encode: (payload) => ({
        ok: true,
        message: { id: payload.resource.id, native: payload.resource.id, sizeBytes: 10, payloadNotIncluded: false },
      }),
      send: (batch: readonly EncodedMessage<string>[]): Promise<SendOutcome[]> => {
        sends += batch.length;
        return Promise.resolve(
          batch.map((m, i) =>
            i === 0 ? { status: 'failed', failure: { class: 'temporary', code: 'HTTP500', message: `upstream said: bad\u0000byte` } } : { status: 'delivered' },
          ),
        );
      },
      verify: () => Promise.resolve({ ok: true }),
      close: () => Promise.resolve(),
    };
    const adapters: DestinationAdapterSource = { get: (_destination: Destination) => adapter as DestinationAdapter };
    const engine = new DeliveryEngine(
      { db: database.db, logger: silentLogger, adapters, clock, random: () => 0.5 },
      { workerId: 'w', sendTimeoutMs: 2_000, leaseMs: 10_000 },
    );

    await writeStores(documents, projectKey, 2);
    await engine.router.routeOnce();
    await engine.router.routeOnce();
    const first = await engine.sender.sendOnce();

    const subscriptionId = (
      await database.db.query<{ id: string }>(`SELECT id FROM resources WHERE project_key = $1 AND type_id = 'subscription'`, [projectKey])
    ).rows[0]!.id;

    // Long after the 48-hour window: the failing delivery should have been dropped with its reason.
    for (let i = 0; i < 60; i++) {
      clock.advance(HOUR);
      await engine.sender.sendOnce();
    }
    const dropped = await engine.admin.listDropped(projectKey, subscriptionId);
    const pendingAfter60h = (await engine.admin.deliveryStatus(projectKey, subscriptionId)).pendingCount;

    expect({
      firstAttempt: { delivered: first.delivered, retried: first.retried },
      // The acknowledged message is sent once: messages sent in all = 2 + retries of the failing one.
      acknowledgedMessageResent: sends > 2 + 60,
      pendingAfter60h,
      droppedReasons: dropped.results.map((d) => d.reason),
    }).toEqual({
      firstAttempt: { delivered: 1, retried: 1 },
      acknowledgedMessageResent: false,
      pendingAfter60h: 0,
      droppedReasons: ['TemporaryErrorWindowElapsed'],
    });
  });
});
