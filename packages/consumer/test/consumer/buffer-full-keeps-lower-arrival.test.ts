import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore, type Consumer, type ProcessOutcome, type RawDelivery } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { until } from '../support/until.js';
import { elapse, settleTurns, sqs } from '../support/deliveries.js';

/** Like a queue: hands the delivery again after each retry delay, until it is settled; returns each attempt's status. */
async function deliverUntilSettled(consumer: Consumer, clock: ManualClock, raw: RawDelivery): Promise<string[]> {
  const statuses: string[] = [];
  for (let attempt = 0; attempt < 30; attempt++) {
    const outcome = await consumer.process(raw);
    const item = outcome.items[0];
    statuses.push(item?.status === 'deferred' ? `deferred:${item.reason}` : String(item?.status));
    if (outcome.action === 'ack') return statuses;
    const dueAt = clock.now() + outcome.retryAfterMs;
    await until(() => clock.now() >= dueAt, 'the retry is due');
  }
  return statuses;
}

describe('a full buffer and an arrival lower than what it holds', () => {
  it('takes the lower delivery in and hands back the highest waiting one, within the per-resource cap', async () => {
    const clock = new ManualClock();
    const handled: number[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore({ clock }),
      clock,
      ordering: { maxWaitMs: 10_000, maxBufferedPerResource: 2 },
      retry: { bufferFullMs: 1_000 },
      handler: (delivery) => {
        if (delivery.notificationType === 'Message') handled.push(delivery.payload.sequenceNumber);
      },
    });
    await consumer.process(sqs(messagePayload(1)));
    const fourth = deliverUntilSettled(consumer, clock, sqs(messagePayload(4)));
    const fifth = deliverUntilSettled(consumer, clock, sqs(messagePayload(5)));
    await until(() => consumer.bufferedCount === 2, 'm4 and m5 wait (buffer full)');
    // m3 arrives well within maxWaitMs; m2 never comes (a gap is legitimate).
    await elapse(clock, 2_000);
    const third = deliverUntilSettled(consumer, clock, sqs(messagePayload(3)));
    let mostBuffered = 0;
    for (let step = 0; step < 20; step++) {
      await elapse(clock, 1_000);
      mostBuffered = Math.max(mostBuffered, consumer.bufferedCount);
    }
    const [m3, m4, m5] = await Promise.all([third, fourth, fifth]);
    expect({ handled, m3, m4, m5FirstOutcome: m5[0], m5Final: m5.at(-1), mostBuffered }).toEqual({
      handled: [1, 3, 4, 5],
      m3: ['processed'],
      m4: ['processed'],
      m5FirstOutcome: 'deferred:buffer-full',
      m5Final: 'processed',
      mostBuffered: 2,
    });
  });

  it('hands back the highest waiting delivery of the same resource when the total cap is reached', async () => {
    const clock = new ManualClock();
    const handled: string[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore({ clock }),
      clock,
      ordering: { maxWaitMs: 10_000, maxBuffered: 2 },
      handler: (delivery) => {
        if (delivery.notificationType === 'Message') handled.push(`${delivery.payload.resource.id}:m${delivery.payload.sequenceNumber}`);
      },
    });
    const resource = (id: string, sequenceNumber: number) => sqs(messagePayload(sequenceNumber, { id }));
    await consumer.process(resource('a', 1));
    await consumer.process(resource('b', 1));
    let aFourth: ProcessOutcome | undefined;
    void consumer.process(resource('a', 4)).then((outcome) => (aFourth = outcome));
    const bFourth = consumer.process(resource('b', 4));
    await until(() => consumer.bufferedCount === 2, 'a:m4 and b:m4 wait (total cap)');
    const aThird = consumer.process(resource('a', 3));
    await settleTurns();
    // a:m4 goes back to its source; b:m4, another resource's, keeps its place.
    expect({ aFourth: aFourth?.items[0], buffered: consumer.bufferedCount }).toMatchObject({
      aFourth: { status: 'deferred', reason: 'buffer-full' },
      buffered: 2,
    });
    await consumer.process(resource('a', 2));
    await consumer.process(resource('b', 2));
    await consumer.process(resource('b', 3));
    expect([(await aThird).items[0]?.status, (await bFourth).items[0]?.status]).toEqual(['processed', 'processed']);
    const of = (id: string) => handled.filter((entry) => entry.startsWith(`${id}:`));
    expect({ a: of('a'), b: of('b') }).toEqual({ a: ['a:m1', 'a:m2', 'a:m3'], b: ['b:m1', 'b:m2', 'b:m3', 'b:m4'] });
  });
});
