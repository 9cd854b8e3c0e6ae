import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { until } from '../support/until.js';
import { elapse, sqs } from '../support/deliveries.js';

const MAX_WAIT_MS = 10_000;

describe("unknownStart: 'immediate' and a failed first delivery", () => {
  it('holds a successor until the failed head is due again plus maxWaitMs (README: a failed delivery is never skipped before)', async () => {
    const clock = new ManualClock();
    let downstreamUp = false;
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore({ clock }),
      clock,
      ordering: { maxWaitMs: MAX_WAIT_MS, unknownStart: 'immediate' },
      handler: (delivery) => {
        if (delivery.notificationType !== 'Message') return;
        if (delivery.payload.sequenceNumber === 1 && !downstreamUp) throw new Error('downstream unavailable');
        handled.push(delivery.payload.sequenceNumber);
      },
    });
    // m1 fails on its 5th receive: asked back in 16 s. Nothing is stored for the resource.
    expect(await consumer.process(sqs(messagePayload(1), { deliveryAttempt: 5 }))).toMatchObject({ action: 'nack', retryAfterMs: 16_000 });
    await elapse(clock, 1_000);
    let m2Done = false;
    const second = consumer.process(sqs(messagePayload(2))).then((outcome) => {
      m2Done = true;
      return outcome;
    });
    await until(() => consumer.bufferedCount === 1 || m2Done, 'm2 waits or ran');
    await elapse(clock, 14_000);
    const m2RanBeforeM1Due = handled.includes(2);
    downstreamUp = true;
    const redelivered = await consumer.process(sqs(messagePayload(1), { deliveryAttempt: 6 }));
    await second;
    expect({ m2RanBeforeM1Due, m1: redelivered.items[0]?.status, handled }).toEqual({ m2RanBeforeM1Due: false, m1: 'processed', handled: [1, 2] });
  });
});
