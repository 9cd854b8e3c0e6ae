import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { until } from '../support/until.js';
import { elapse, sqs } from '../support/deliveries.js';

const MAX_WAIT_MS = 10_000;

describe('a failed / deferred head whose resource has nothing else waiting', () => {
  it('still holds a successor arriving after the failure until the retry is due plus maxWaitMs (README: never skipped before)', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }, { leaseMs: 3_000 });
    let downstreamUp = false;
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: store,
      clock,
      ordering: { maxWaitMs: MAX_WAIT_MS },
      handler: (delivery) => {
        if (delivery.notificationType !== 'Message') return;
        if (delivery.payload.sequenceNumber === 2 && !downstreamUp) throw new Error('downstream unavailable');
        handled.push(delivery.payload.sequenceNumber);
      },
    });
    await consumer.process(sqs(messagePayload(1)));
    // m2 fails on its 5th receive: asked back in 16 s (1 s × 2^4), longer than maxWaitMs.
    expect(await consumer.process(sqs(messagePayload(2), { deliveryAttempt: 5 }))).toMatchObject({ action: 'nack', retryAfterMs: 16_000 });
    // m3 arrives one second later (nothing of the resource was waiting when m2 failed).
    await elapse(clock, 1_000);
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    // Up to the moment m2 is due again, m3 must still wait for it.
    await elapse(clock, 15_000);
    const m3WaitingWhenM2Due = consumer.bufferedCount;
    downstreamUp = true;
    const redelivered = await consumer.process(sqs(messagePayload(2), { deliveryAttempt: 6 }));
    await third;
    expect({ m3WaitingWhenM2Due, m2: redelivered.items[0]?.status, handled }).toEqual({ m3WaitingWhenM2Due: 1, m2: 'processed', handled: [1, 2, 3] });
  });

  it('same for a head deferred as busy (another instance holds its lease), then redelivered after that lease', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }, { leaseMs: 30_000 });
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: store,
      clock,
      instanceId: 'a',
      ordering: { maxWaitMs: MAX_WAIT_MS },
      handler: (delivery) => {
        if (delivery.notificationType === 'Message') handled.push(delivery.payload.sequenceNumber);
      },
    });
    await consumer.process(sqs(messagePayload(1)));
    // Instance b claimed m2 and crashed mid-handler: its lease has 30 s left.
    await store.claim([{ key: 'herald:proj:business-unit:bu-1:m:2', owner: 'b' }]);
    expect(await consumer.process(sqs(messagePayload(2)))).toMatchObject({ items: [{ status: 'deferred', reason: 'busy', retryAfterMs: 30_000 }] });
    await elapse(clock, 1_000);
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    await elapse(clock, 29_000);
    const m3WaitingWhenM2Due = consumer.bufferedCount;
    const redelivered = await consumer.process(sqs(messagePayload(2)));
    await third;
    expect({ m3WaitingWhenM2Due, m2: redelivered.items[0]?.status, handled }).toEqual({ m3WaitingWhenM2Due: 1, m2: 'processed', handled: [1, 2, 3] });
  });

  it('keeps that wait when the idle position cache is full (other resources evicted first)', async () => {
    const clock = new ManualClock();
    let downstreamUp = false;
    const handled: string[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore({ clock }),
      clock,
      ordering: { maxWaitMs: MAX_WAIT_MS, positionCacheSize: 1 },
      handler: (delivery) => {
        if (delivery.notificationType !== 'Message') return;
        if (delivery.payload.resource.id === 'a' && delivery.payload.sequenceNumber === 2 && !downstreamUp) throw new Error('downstream unavailable');
        handled.push(`${delivery.payload.resource.id}:m${delivery.payload.sequenceNumber}`);
      },
    });
    const a = (sequenceNumber: number, attempt?: number) => sqs(messagePayload(sequenceNumber, { id: 'a' }), { deliveryAttempt: attempt });
    await consumer.process(a(1));
    expect(await consumer.process(a(2, 5))).toMatchObject({ action: 'nack', retryAfterMs: 16_000 });
    // Another resource goes idle after a's failure: the one-entry cache must drop it, not a.
    await consumer.process(sqs(messagePayload(1, { id: 'b' })));
    await elapse(clock, 1_000);
    const third = consumer.process(a(3));
    await until(() => consumer.bufferedCount === 1, 'a:m3 waits');
    await elapse(clock, 15_000);
    const waitingWhenDue = consumer.bufferedCount;
    downstreamUp = true;
    const redelivered = await consumer.process(a(2, 6));
    await third;
    expect({ waitingWhenDue, m2: redelivered.items[0]?.status, handled }).toEqual({
      waitingWhenDue: 1,
      m2: 'processed',
      handled: ['a:m1', 'b:m1', 'a:m2', 'a:m3'],
    });
  });
});
