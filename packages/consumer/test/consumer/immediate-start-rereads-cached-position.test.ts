import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore } from '../../src/index.js';
import { createdPayload, messagePayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { elapse, sqs } from '../support/deliveries.js';

const MAX_WAIT_MS = 10_000;

describe("unknownStart: 'immediate' with a position stored by another instance", () => {
  it('does not treat a lane this instance never saw (cached as unknown) as having no stored position', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }); // shared, as Redis is
    const handled: string[] = [];
    const make = (id: string) =>
      createConsumer({
        dedup: store,
        clock,
        instanceId: id,
        ordering: { maxWaitMs: MAX_WAIT_MS, unknownStart: 'immediate' },
        handler: (delivery) => {
          handled.push(`${id}:${delivery.notificationType === 'Message' ? `m${delivery.payload.sequenceNumber}` : delivery.notificationType}`);
        },
      });
    const a = make('a');
    const b = make('b');
    // A sees the resource's creation (its messages lane stays unknown in A's position cache).
    await a.process(sqs(createdPayload(1)));
    // B handles messages 1 and 2: the store's messages position is now 2.
    await b.process(sqs(messagePayload(1)));
    await b.process(sqs(messagePayload(2)));
    // m4 reaches A before m3 (still in the queue): the stored position says m3 is next.
    const fourth = a.process(sqs(messagePayload(4)));
    await elapse(clock, 1_000);
    const m4RanBeforeM3 = handled.includes('a:m4');
    const third = await b.process(sqs(messagePayload(3)));
    await elapse(clock, 2_000);
    await fourth;
    expect({ m4RanBeforeM3, m3: third.items[0]?.status, handled }).toEqual({
      m4RanBeforeM3: false,
      m3: 'processed',
      handled: ['a:ResourceCreated', 'b:m1', 'b:m2', 'b:m3', 'a:m4'],
    });
  });
});
