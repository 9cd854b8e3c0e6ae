import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createConsumer, RedisDedupStore, type DeliveryContext } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { redisForSuite, redisSkipReason } from '../support/redis.js';
import { sqs } from '../support/deliveries.js';
import { nextTurn, until } from '../support/until.js';

/*
 * The lease keeper marks the consumer's in-process deliveries as held (no map of its own): a
 * handler that runs for many lease periods keeps its lease, among deliveries that wait in the
 * reorder buffer or finish around it, and close() aborts it.
 */

const skip = redisSkipReason();
const LEASE_MS = 3_000;

describe.skipIf(skip !== undefined)('leases of running handlers on a real redis-server', () => {
  const redis = redisForSuite();

  async function passes(clock: ManualClock, ms: number): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += 250) {
      clock.advance(250);
      // Renewals are real Redis round trips: let them land before the clock moves on.
      for (let turn = 0; turn < 20; turn++) await nextTurn();
    }
  }

  it('renews a long handler’s lease for as long as it runs, keeps other instances out, and close() aborts it', async () => {
    const clock = new ManualClock();
    const keyPrefix = `t-${randomUUID()}`;
    const store = () => new RedisDedupStore({ redis: redis(), clock }, { keyPrefix, leaseMs: LEASE_MS });
    const contexts = new Map<number, DeliveryContext>();
    let releaseLong!: () => void;
    const long = new Promise<void>((resolve) => (releaseLong = resolve));
    const a = createConsumer({
      dedup: store(),
      clock,
      instanceId: 'a',
      ordering: { maxWaitMs: 60_000 },
      handler: async (delivery, context) => {
        const sequenceNumber = delivery.notificationType === 'Message' ? delivery.payload.sequenceNumber : 0;
        contexts.set(sequenceNumber, context);
        if (delivery.payload.resource.id === 'long') await long;
      },
    });
    const b = createConsumer({ dedup: store(), clock, instanceId: 'b', handler: () => undefined });

    const running = a.process(sqs(messagePayload(1, { id: 'long' })));
    const waiting = a.process(sqs(messagePayload(3, { id: 'long' }))); // waits in the buffer for m2
    await until(() => contexts.has(1) && a.bufferedCount === 1, 'the long handler runs, m3 waits');
    // Short deliveries come and go around it, several lease periods long.
    for (let round = 0; round < 4; round++) {
      expect(await a.process(sqs(messagePayload(1, { id: `short-${round}` })))).toMatchObject({ action: 'ack' });
      await passes(clock, LEASE_MS);
      expect(await b.process(sqs(messagePayload(1, { id: 'long' })))).toMatchObject({ action: 'nack', items: [{ status: 'deferred', reason: 'busy' }] });
    }
    expect(contexts.get(1)?.signal.aborted).toBe(false);

    const closed = a.close();
    expect(contexts.get(1)?.signal.aborted).toBe(true);
    expect(await waiting).toMatchObject({ action: 'nack', items: [{ status: 'deferred', reason: 'closing' }] });
    releaseLong();
    await closed;
    expect(await running).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
    expect(await b.process(sqs(messagePayload(1, { id: 'long' })))).toMatchObject({ action: 'ack', items: [{ status: 'duplicate' }] });
    await b.close();
  });
});
