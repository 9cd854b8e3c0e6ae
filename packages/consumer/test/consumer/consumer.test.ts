import { deduplicationKey, type Message } from '@herald/model';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import {
  CONSUMER_METRIC_NAMES,
  createConsumer,
  MemoryDedupStore,
  type ConsumerOptions,
  type Delivery,
  type DeliveryContext,
  type GapNotice,
  type ProcessOutcome,
  type RawDelivery,
  type Settlement,
} from '../../src/index.js';
import { cloudEventOf, createdPayload, deletedPayload, messagePayload, updatedPayload } from '../support/fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextTurn, until } from '../support/until.js';

const MAX_WAIT_MS = 10_000;

function sqs(payload: object): RawDelivery {
  return { source: 'sqs', body: JSON.stringify(payload) };
}

interface Seen {
  readonly delivery: Delivery;
  readonly context: DeliveryContext;
}

function setup(overrides: Partial<ConsumerOptions> = {}) {
  const clock = new ManualClock();
  const store = new MemoryDedupStore({ clock }, { leaseMs: 3_000 });
  const seen: Seen[] = [];
  const registry = new Registry();
  const consumer = createConsumer({
    dedup: store,
    clock,
    ordering: { maxWaitMs: MAX_WAIT_MS },
    metrics: { registry },
    handler: (delivery, context) => {
      seen.push({ delivery, context });
    },
    ...overrides,
  });
  const labels = (seenItem: Seen): string => {
    const payload = seenItem.delivery.payload;
    return payload.notificationType === 'Message' ? `m${payload.sequenceNumber}` : `${payload.notificationType}:${payload.version}`;
  };
  return { clock, store, seen, registry, consumer, order: () => seen.map(labels) };
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((value) => Object.entries(labels).every(([key, expected]) => value.labels[key] === expected))
    .reduce((sum, value) => sum + value.value, 0);
}

/**
 * Lets `ms` pass in steps, yielding to the event loop after each, as real time would: what a timer
 * starts (a position refresh, then a gap release) completes before the clock moves on.
 */
async function elapse(clock: ManualClock, ms: number, stepMs = 250): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
    clock.advance(Math.min(stepMs, ms - elapsed));
    for (let turn = 0; turn < 5; turn++) await nextTurn();
  }
}

function gate(): { readonly promise: Promise<void>; open(): void; fail(error: Error): void } {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('ordering per resource', () => {
  it('releases messages by sequenceNumber and changes by the oldVersion chain', async () => {
    const { consumer, order } = setup();
    const outcomes = [
      consumer.process(sqs(messagePayload(3))),
      consumer.process(sqs(updatedPayload(4, 9))),
      consumer.process(sqs(messagePayload(2))),
      consumer.process(sqs(deletedPayload(9))),
      consumer.process(sqs(updatedPayload(1, 4))),
      consumer.process(sqs(messagePayload(1))),
      consumer.process(sqs(createdPayload(1))),
    ];
    const settled = await Promise.all(outcomes);
    expect(settled.every((outcome) => outcome.action === 'ack')).toBe(true);
    const seen = order();
    expect(seen.filter((label) => label.startsWith('m'))).toEqual(['m1', 'm2', 'm3']);
    expect(seen.filter((label) => !label.startsWith('m'))).toEqual(['ResourceCreated:1', 'ResourceUpdated:4', 'ResourceUpdated:9', 'ResourceDeleted:9']);
  });

  it('runs one handler at a time per resource and resources in parallel', async () => {
    const running = new Set<string>();
    let maxPerResource = 0;
    let maxOverall = 0;
    const gates = new Map<string, ReturnType<typeof gate>>();
    const { consumer } = setup({
      concurrency: 8,
      handler: async (_delivery, context) => {
        running.add(context.dedupKey);
        const sameResource = [...running].filter((key) => key.startsWith(`${context.streamKey.replace(/^/, 'herald:')}:`)).length;
        maxPerResource = Math.max(maxPerResource, sameResource);
        maxOverall = Math.max(maxOverall, running.size);
        const handlerGate = gate();
        gates.set(context.dedupKey, handlerGate);
        await handlerGate.promise;
        running.delete(context.dedupKey);
      },
    });
    const all = ['a', 'b', 'c'].flatMap((id) => [1, 2].map((seq) => consumer.process(sqs(messagePayload(seq, { id })))));
    await until(() => running.size === 3, 'three resources run at once');
    expect(maxPerResource).toBe(1);
    for (const pending of gates.values()) pending.open();
    await until(() => running.size === 3 && gates.size === 6, 'the second deliveries run');
    for (const pending of gates.values()) pending.open();
    await Promise.all(all);
    expect(maxOverall).toBe(3);
    expect(maxPerResource).toBe(1);
  });

  it('moves past a gap after maxWaitMs with a notice, then hands the late delivery over marked late', async () => {
    const { consumer, clock, seen, order, registry } = setup();
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    clock.advance(MAX_WAIT_MS - 1);
    await until(() => consumer.bufferedCount === 1, 'm3 still waits');
    expect(order()).toEqual(['m1']);
    clock.advance(1);
    expect((await third).action).toBe('ack');
    expect(seen[1]?.context.gap).toEqual({ reason: 'timeout', lane: 'messages', lastReleased: 1, released: 3, waitedMs: MAX_WAIT_MS });

    // Nothing accepted is dropped: m2 still reaches the handler, which is told it is late.
    const late = await consumer.process(sqs(messagePayload(2)));
    expect(late).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
    expect(order()).toEqual(['m1', 'm3', 'm2']);
    expect(seen[2]?.context.late).toEqual({ lane: 'messages', released: 2, alreadyReleased: 3 });
    expect(seen[2]?.context.gap).toBeUndefined();
    expect(await metricValue(registry, 'herald_consumer_gap_timeouts_total', { lane: 'messages', reason: 'timeout' })).toBe(1);
    expect(await metricValue(registry, 'herald_consumer_late_total', { notification_type: 'Message' })).toBe(1);

    // Once processed, a copy of it is a duplicate, not late again.
    expect(await consumer.process(sqs(messagePayload(2)))).toMatchObject({ action: 'ack', items: [{ status: 'duplicate' }] });
    expect(order()).toEqual(['m1', 'm3', 'm2']);
    expect(await metricValue(registry, 'herald_consumer_late_total')).toBe(1);
  });

  it('claims deliveries as they arrive, so a resource’s waiting ones run without a claim round trip each', async () => {
    const { consumer, store, order } = setup();
    let claimCalls = 0;
    const claim = store.claim.bind(store);
    store.claim = (requests) => {
      claimCalls++;
      return claim(requests);
    };
    // Arrived together, in reverse: one claim batch for all, then m1, m2, m3 back to back.
    await Promise.all([3, 2, 1].map((sequenceNumber) => consumer.process(sqs(messagePayload(sequenceNumber)))));
    expect(order()).toEqual(['m1', 'm2', 'm3']);
    expect(claimCalls).toBe(1);
  });

  it('does not count the wait while the source reports a backlog, for at most maxBacklogWaitMs more', async () => {
    const { consumer, clock, order } = setup({ ordering: { maxWaitMs: MAX_WAIT_MS, maxBacklogWaitMs: 3 * MAX_WAIT_MS } });
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    // The source keeps receiving full batches: m2 is most likely in the queue behind them.
    for (let second = 0; second < 2 * MAX_WAIT_MS; second += 1_000) {
      clock.advance(1_000);
      consumer.noteBacklog();
    }
    await until(() => consumer.bufferedCount === 1, 'm3 still waits');
    // The backlog is gone: the wait counts from its last report.
    clock.advance(MAX_WAIT_MS - 1);
    await until(() => consumer.bufferedCount === 1, 'm3 waits maxWaitMs after the backlog');
    const second = consumer.process(sqs(messagePayload(2)));
    expect((await second).action).toBe('ack');
    expect((await third).action).toBe('ack');
    expect(order()).toEqual(['m1', 'm2', 'm3']);

    // A backlog that never ends stretches a wait by maxBacklogWaitMs at most.
    const fifth = consumer.process(sqs(messagePayload(5)));
    await until(() => consumer.bufferedCount === 1, 'm5 waits');
    for (let waited = 0; waited < 4 * MAX_WAIT_MS - 1_000; waited += 1_000) {
      clock.advance(1_000);
      consumer.noteBacklog();
    }
    await until(() => consumer.bufferedCount === 1, 'm5 waits up to maxBacklogWaitMs + maxWaitMs');
    clock.advance(1_000);
    expect((await fifth).action).toBe('ack');
    expect(order()).toEqual(['m1', 'm2', 'm3', 'm5']);
  });

  it('with unknownStart "wait", waits for the start of an unknown resource, then releases the lowest with an unknown-start notice', async () => {
    const { consumer, clock, seen, order } = setup({ ordering: { maxWaitMs: MAX_WAIT_MS, unknownStart: 'wait' } });
    const fifth = consumer.process(sqs(messagePayload(5)));
    const sixth = consumer.process(sqs(messagePayload(6)));
    await until(() => consumer.bufferedCount === 2, 'both wait');
    clock.advance(MAX_WAIT_MS);
    await Promise.all([fifth, sixth]);
    expect(order()).toEqual(['m5', 'm6']);
    expect(seen[0]?.context.gap).toMatchObject({ reason: 'unknown-start', lastReleased: undefined, released: 5 });
    expect(seen[1]?.context.gap).toBeUndefined();
  });

  it('with unknownStart "immediate", releases the first one seen at once (an earlier one arriving after it is late)', async () => {
    const { consumer, order, seen } = setup({ ordering: { maxWaitMs: MAX_WAIT_MS, unknownStart: 'immediate' } });
    await consumer.process(sqs(updatedPayload(3, 5)));
    expect(order()).toEqual(['ResourceUpdated:5']);
    expect((await consumer.process(sqs(createdPayload(1)))).items[0]).toMatchObject({ status: 'processed' });
    expect(order()).toEqual(['ResourceUpdated:5', 'ResourceCreated:1']);
    expect(seen[1]?.context.late).toEqual({ lane: 'changes', released: 1, alreadyReleased: 5 });
  });

  it('defers an early delivery when the resource’s buffer is full', async () => {
    const { consumer, registry } = setup({ ordering: { maxWaitMs: MAX_WAIT_MS, maxBufferedPerResource: 2 }, retry: { bufferFullMs: 1_500 } });
    void consumer.process(sqs(messagePayload(3)));
    void consumer.process(sqs(messagePayload(4)));
    await until(() => consumer.bufferedCount === 2, 'two wait');
    const settled: string[] = [];
    const outcome = await consumer.process(sqs(messagePayload(5)), settlementRecorder(settled));
    expect(outcome).toMatchObject({ action: 'nack', retryAfterMs: 1_500, items: [{ status: 'deferred', reason: 'buffer-full' }] });
    expect(settled).toEqual(['nack:1500']);
    expect(await metricValue(registry, 'herald_consumer_deferred_total', { reason: 'buffer-full' })).toBe(1);
    expect(await metricValue(registry, 'herald_consumer_reorder_buffer_depth')).toBe(2);
  });

  it('keeps the positions of the most recently active resources only, and reads the others again', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock });
    const positionReads: string[] = [];
    const readPositions = store.readPositions.bind(store);
    store.readPositions = (streams) => {
      positionReads.push(...streams.map((stream) => stream.split(':').pop() as string));
      return readPositions(streams);
    };
    const handled: string[] = [];
    const consumer = createConsumer({
      dedup: store,
      clock,
      ordering: { maxWaitMs: MAX_WAIT_MS, positionCacheSize: 2 },
      handler: (delivery) =>
        void handled.push(`${delivery.payload.resource.id}/m${delivery.notificationType === 'Message' ? delivery.payload.sequenceNumber : 0}`),
    });
    for (const id of ['r1', 'r2', 'r3']) await consumer.process(sqs(messagePayload(1, { id })));
    expect(positionReads).toEqual(['r1', 'r2', 'r3']);
    // r1 was the least recently active of three with room for two: its position is read again and
    // is still honoured (m2 is next, not an unknown start); r3's is cached.
    await consumer.process(sqs(messagePayload(2, { id: 'r1' })));
    await consumer.process(sqs(messagePayload(2, { id: 'r3' })));
    expect(positionReads).toEqual(['r1', 'r2', 'r3', 'r1']);
    expect(handled).toEqual(['r1/m1', 'r2/m1', 'r3/m1', 'r1/m2', 'r3/m2']);
    expect(consumer.bufferedCount).toBe(0);
  });

  it('gives a failed delivery a full maxWaitMs to come back before moving past it', async () => {
    let fail = true;
    const handled: number[] = [];
    const { consumer, clock } = setup({
      handler: (delivery) => {
        if (delivery.notificationType !== 'Message') return;
        if (fail && delivery.payload.sequenceNumber === 2) throw new Error('boom');
        handled.push(delivery.payload.sequenceNumber);
      },
    });
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    clock.advance(MAX_WAIT_MS - 100);
    expect((await consumer.process(sqs(messagePayload(2)))).action).toBe('nack');
    clock.advance(MAX_WAIT_MS - 100);
    fail = false;
    expect((await consumer.process(sqs(messagePayload(2)))).action).toBe('ack');
    await third;
    expect(handled).toEqual([1, 2, 3]);
  });

  it('holds the successors of a failed delivery until its retry is due plus maxWaitMs, even when the retry is later than maxWaitMs', async () => {
    let downstreamUp = false;
    const handled: string[] = [];
    const { consumer, clock, seen } = setup({
      handler: (delivery, context) => {
        if (delivery.notificationType !== 'Message') return;
        if (delivery.payload.sequenceNumber === 2 && !downstreamUp) throw new Error('downstream unavailable');
        handled.push(`${delivery.payload.resource.id}/m${delivery.payload.sequenceNumber}`);
        seen.push({ delivery, context });
      },
    });
    // Two resources: a's m2 comes back when asked, b's never does.
    for (const id of ['a', 'b']) await consumer.process(sqs(messagePayload(1, { id })));
    const thirdA = consumer.process(sqs(messagePayload(3, { id: 'a' })));
    const thirdB = consumer.process(sqs(messagePayload(3, { id: 'b' })));
    await until(() => consumer.bufferedCount === 2, 'both m3 wait');
    // The 5th receive during an outage: a retry in 16 s (defaults: 1 s × 2^4, at most 30 s), longer than maxWaitMs.
    for (const id of ['a', 'b']) {
      expect(await consumer.process({ ...sqs(messagePayload(2, { id })), deliveryAttempt: 5 })).toMatchObject({ action: 'nack', retryAfterMs: 16_000 });
    }
    await elapse(clock, 16_000);
    expect(consumer.bufferedCount).toBe(2);
    downstreamUp = true;
    const redelivered = await consumer.process({ ...sqs(messagePayload(2, { id: 'a' })), deliveryAttempt: 6 });
    expect(redelivered).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
    await thirdA;
    // b's m3 waits a full maxWaitMs after its m2 was due again, then moves on.
    await elapse(clock, MAX_WAIT_MS - 1);
    expect(consumer.bufferedCount).toBe(1);
    await elapse(clock, 1);
    await thirdB;
    expect(handled).toEqual(['a/m1', 'b/m1', 'a/m2', 'a/m3', 'b/m3']);
    expect(seen.at(-1)?.context.gap).toEqual({ reason: 'timeout', lane: 'messages', lastReleased: 1, released: 3, waitedMs: 16_000 + MAX_WAIT_MS });
    expect(seen.slice(0, -1).every((item) => item.context.gap === undefined)).toBe(true);
  });

  it('holds the successors of a delivery another instance holds until its lease may be gone plus maxWaitMs', async () => {
    const maxWaitMs = 1_000; // shorter than the store's lease (3 s)
    const { consumer, clock, store, order } = setup({ ordering: { maxWaitMs } });
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    // Another instance claimed m2 and died in its handler: its lease has 3 s left.
    await store.claim([{ key: deduplicationKey(messagePayload(2)), owner: 'another-instance' }]);
    expect(await consumer.process(sqs(messagePayload(2)))).toMatchObject({
      action: 'nack',
      items: [{ status: 'deferred', reason: 'busy', retryAfterMs: 3_000 }],
    });
    await elapse(clock, 3_000);
    expect(consumer.bufferedCount).toBe(1); // m3 still waits for m2
    expect(await consumer.process(sqs(messagePayload(2)))).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
    await third;
    expect(order()).toEqual(['m1', 'm2', 'm3']);
  });

  it('holds the successors of a delivery deferred for an unreachable store until its retry plus maxWaitMs', async () => {
    const maxWaitMs = 1_000;
    const { consumer, clock, store, order } = setup({ ordering: { maxWaitMs }, retry: { storeUnavailableMs: 5_000 } });
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 1, 'm3 waits');
    const claim = store.claim.bind(store);
    store.claim = () => Promise.reject(new Error('ECONNREFUSED'));
    expect(await consumer.process(sqs(messagePayload(2)))).toMatchObject({
      action: 'nack',
      items: [{ status: 'deferred', reason: 'store-unavailable', retryAfterMs: 5_000 }],
    });
    store.claim = claim;
    await elapse(clock, 5_000);
    expect(consumer.bufferedCount).toBe(1); // m3 still waits for m2
    expect((await consumer.process(sqs(messagePayload(2)))).action).toBe('ack');
    await third;
    expect(order()).toEqual(['m1', 'm2', 'm3']);
  });

  it('never turns away the delivery a resource waits for next, even with its buffer full', async () => {
    const m1 = gate();
    const handled: number[] = [];
    const { consumer, clock, registry } = setup({
      ordering: { maxWaitMs: MAX_WAIT_MS, maxBufferedPerResource: 2 },
      handler: async (delivery) => {
        if (delivery.notificationType !== 'Message') return;
        if (delivery.payload.sequenceNumber === 1) await m1.promise;
        handled.push(delivery.payload.sequenceNumber);
      },
    });
    const first = consumer.process(sqs(messagePayload(1)));
    const waiting = [consumer.process(sqs(messagePayload(3))), consumer.process(sqs(messagePayload(4)))];
    await until(() => consumer.bufferedCount === 2, 'm3 and m4 wait: the buffer is full');
    await elapse(clock, MAX_WAIT_MS - 500);
    // m2 arrives while m1 still runs: it is what the resource waits for once m1 is done.
    waiting.unshift(consumer.process(sqs(messagePayload(2))));
    await until(() => consumer.bufferedCount === 3, 'm2 waits too');
    // Anything else is still turned away.
    expect(await consumer.process(sqs(messagePayload(5)))).toMatchObject({ action: 'nack', items: [{ status: 'deferred', reason: 'buffer-full' }] });
    await elapse(clock, 500);
    m1.open();
    await first;
    const settled = await Promise.all(waiting);
    expect(settled.map((outcome) => outcome.items[0]?.status)).toEqual(['processed', 'processed', 'processed']);
    expect(handled).toEqual([1, 2, 3, 4]);
    expect(await metricValue(registry, 'herald_consumer_gap_timeouts_total')).toBe(0);
    expect(await metricValue(registry, 'herald_consumer_deferred_total', { reason: 'buffer-full' })).toBe(1);
  });

  it('within one instance never runs a resource’s deliveries concurrently, even past maxWaitMs', async () => {
    const m1 = gate();
    const running = new Set<number>();
    let overlap = false;
    const { consumer, clock, seen } = setup({
      handler: async (delivery, context) => {
        if (delivery.notificationType !== 'Message') return;
        if (running.size > 0) overlap = true;
        running.add(delivery.payload.sequenceNumber);
        if (delivery.payload.sequenceNumber === 1) await m1.promise;
        running.delete(delivery.payload.sequenceNumber);
        seen.push({ delivery, context });
      },
    });
    const first = consumer.process(sqs(messagePayload(1)));
    await until(() => running.has(1), 'm1 runs');
    const second = consumer.process(sqs(messagePayload(2)));
    const third = consumer.process(sqs(messagePayload(3)));
    await until(() => consumer.bufferedCount === 2, 'm2 and m3 wait');
    await elapse(clock, 3 * MAX_WAIT_MS, 1_000);
    expect(consumer.bufferedCount).toBe(2); // they still wait
    m1.open();
    await Promise.all([first, second, third]);
    expect(overlap).toBe(false);
    expect(seen.map((item) => item.context.gap)).toEqual([undefined, undefined, undefined]);
  });

  it('across instances, may run a delivery released past a gap while another instance still runs the missing one (as documented)', async () => {
    // The documented limit of the guarantee: an instance knows another one's progress only from
    // the stored position, written when a handler is done; a handler that outlasts another
    // instance's maxWaitMs looks like a gap there. The gap notice says so.
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }); // shared, as Redis is
    const m1 = gate();
    const running = new Set<string>();
    let overlap = false;
    const gaps: (GapNotice | undefined)[] = [];
    const handler = (name: string) => async (delivery: Delivery, context: DeliveryContext) => {
      if (running.size > 0) overlap = true;
      running.add(name);
      gaps.push(context.gap);
      if (delivery.notificationType === 'Message' && delivery.payload.sequenceNumber === 1) await m1.promise;
      running.delete(name);
    };
    const ordering = { maxWaitMs: MAX_WAIT_MS, unknownStart: 'wait' } as const;
    const a = createConsumer({ dedup: store, clock, instanceId: 'a', ordering, handler: handler('a') });
    const b = createConsumer({ dedup: store, clock, instanceId: 'b', ordering, handler: handler('b') });
    const first = a.process(sqs(messagePayload(1)));
    await until(() => running.has('a'), 'A runs m1');
    const second = b.process(sqs(messagePayload(2)));
    await until(() => b.bufferedCount === 1, 'm2 waits on B');
    await elapse(clock, MAX_WAIT_MS);
    expect(await second).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
    expect(overlap).toBe(true);
    expect(gaps).toEqual([undefined, { reason: 'unknown-start', lane: 'messages', lastReleased: undefined, released: 2, waitedMs: MAX_WAIT_MS }]);
    m1.open();
    // m1 was claimed before the gap was declared: it is processed as it was, not as a late one.
    expect(await first).toMatchObject({ action: 'ack', items: [{ status: 'processed' }] });
  });
});

function settlementRecorder(log: string[]): Settlement {
  return {
    ack: () => void log.push('ack'),
    nack: (retryAfterMs) => void log.push(`nack:${retryAfterMs}`),
    deadLetter: (reason) => void log.push(`dead-letter:${reason}`),
  };
}

describe('deduplication', () => {
  it('acknowledges a copy of a processed delivery without running the handler', async () => {
    const { consumer, seen, registry } = setup({ ordering: undefined });
    await consumer.process(sqs(messagePayload(1)));
    const copy = await consumer.process({ source: 'sqs', body: JSON.stringify(cloudEventOf(messagePayload(1))) });
    expect(copy).toMatchObject({ action: 'ack', items: [{ status: 'duplicate', dedupKey: 'herald:proj:business-unit:bu-1:m:1' }] });
    expect(seen).toHaveLength(1);
    expect(await metricValue(registry, 'herald_consumer_duplicates_total', { notification_type: 'Message', resource_type: 'business-unit' })).toBe(1);
  });

  it('holds a copy arriving while the first runs in this process, and settles it after', async () => {
    const handlerGate = gate();
    let calls = 0;
    const { consumer } = setup({
      handler: async () => {
        calls++;
        await handlerGate.promise;
      },
    });
    const log: string[] = [];
    const first = consumer.process(sqs(messagePayload(1)), settlementRecorder(log));
    await until(() => calls === 1, 'the handler runs');
    const copy = consumer.process(sqs(messagePayload(1)), settlementRecorder(log));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual([]);
    handlerGate.open();
    expect(await first).toMatchObject({ items: [{ status: 'processed' }] });
    expect(await copy).toMatchObject({ items: [{ status: 'duplicate' }] });
    expect(calls).toBe(1);
    expect(log).toEqual(['ack', 'ack']);
  });

  it('counts a copy arriving while the first runs once, as a duplicate, whatever becomes of the first', async () => {
    const handlerGate = gate();
    let calls = 0;
    const { consumer, registry } = setup({
      handler: async () => {
        calls++;
        await handlerGate.promise;
        throw new Error('downstream unavailable');
      },
    });
    const first = consumer.process(sqs(messagePayload(1)));
    await until(() => calls === 1, 'the handler runs');
    const copy = consumer.process(sqs(messagePayload(1)));
    handlerGate.open();
    // Settled like the first (retried), but the one failure is counted once.
    for (const outcome of await Promise.all([first, copy])) expect(outcome).toMatchObject({ action: 'nack', items: [{ status: 'failed' }] });
    expect(calls).toBe(1);
    expect(await metricValue(registry, 'herald_consumer_received_total')).toBe(2);
    expect(await metricValue(registry, 'herald_consumer_failed_total')).toBe(1);
    expect(await metricValue(registry, 'herald_consumer_duplicates_total')).toBe(1);
  });

  it('defers a copy that another instance is running, for the rest of that lease', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }, { leaseMs: 3_000 });
    const handlerGate = gate();
    let running = false;
    const first = createConsumer({
      dedup: store,
      clock,
      instanceId: 'a',
      handler: async () => {
        running = true;
        await handlerGate.promise;
      },
    });
    const second = createConsumer({ dedup: store, clock, instanceId: 'b', handler: () => undefined });
    const processing = first.process(sqs(messagePayload(1)));
    await until(() => running, 'the first instance runs it');
    // Before the first renewal (at a third of the lease).
    clock.advance(900);
    const log: string[] = [];
    expect(await second.process(sqs(messagePayload(1)), settlementRecorder(log))).toMatchObject({
      action: 'nack',
      items: [{ status: 'deferred', reason: 'busy', retryAfterMs: 2_100 }],
    });
    expect(log).toEqual(['nack:2100']);
    // Renewals (every third of the lease) keep it while the handler runs longer than the lease.
    for (let step = 0; step < 6; step++) {
      clock.advance(1_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await second.process(sqs(messagePayload(1)))).items[0]).toMatchObject({ status: 'deferred', reason: 'busy' });
    handlerGate.open();
    await processing;
    expect((await second.process(sqs(messagePayload(1)))).items[0]).toMatchObject({ status: 'duplicate' });
  });

  it('releases the lease when the handler fails, and asks for a retry with backoff by attempt', async () => {
    let fail = true;
    const { consumer, seen, registry } = setup({
      ordering: undefined,
      retry: { failureBaseMs: 500, failureMaxMs: 3_000 },
      handler: (delivery, context) => {
        if (fail) throw new Error('downstream unavailable');
        seen.push({ delivery, context });
      },
    });
    const outcome = await consumer.process({ ...sqs(messagePayload(1)), deliveryAttempt: 3 });
    expect(outcome).toMatchObject({ action: 'nack', retryAfterMs: 2_000, items: [{ status: 'failed' }] });
    expect((await consumer.process({ ...sqs(messagePayload(1)), deliveryAttempt: 9 })).retryAfterMs).toBe(3_000);
    fail = false;
    expect((await consumer.process(sqs(messagePayload(1)))).items[0]).toMatchObject({ status: 'processed' });
    expect(await metricValue(registry, 'herald_consumer_failed_total')).toBe(2);
  });
});

describe('poison messages', () => {
  it('dead-letters by default, and lets the policy drop or retry', async () => {
    const log: string[] = [];
    const defaults = setup();
    expect(await defaults.consumer.process({ source: 'sqs', body: '{oops' }, settlementRecorder(log))).toMatchObject({
      action: 'dead-letter',
      items: [{ status: 'parse-error', decision: 'dead-letter', error: { reason: 'invalid-json' } }],
    });
    expect(log[0]).toMatch(/^dead-letter:invalid-json: /);
    expect(await metricValue(defaults.registry, 'herald_consumer_parse_errors_total', { source: 'sqs', reason: 'invalid-json' })).toBe(1);

    const policies: ('drop' | 'retry')[] = [];
    const custom = setup({ onParseError: (error) => (error.reason === 'invalid-json' ? 'drop' : 'retry') });
    policies.push((await custom.consumer.process({ source: 'sqs', body: '{oops' })).action === 'ack' ? 'drop' : 'retry');
    policies.push((await custom.consumer.process({ source: 'sqs', body: '{"x":1}' })).action === 'nack' ? 'retry' : 'drop');
    expect(policies).toEqual(['drop', 'retry']);

    const throwing = setup({ onParseError: () => Promise.reject(new Error('policy broke')) });
    expect((await throwing.consumer.process({ source: 'sqs', body: '{oops' })).action).toBe('nack');
  });

  it('settles an Event Grid batch once: retry wins over dead-letter, dead-letter over ack', async () => {
    const { consumer, order } = setup({ ordering: undefined });
    const good = cloudEventOf(messagePayload(1));
    const bad = { ...cloudEventOf(messagePayload(2)), specversion: '0.3' };
    const mixed = await consumer.process({ source: 'event-grid', body: JSON.stringify([good, bad]) });
    expect(mixed).toMatchObject({ action: 'dead-letter', items: [{ status: 'processed' }, { status: 'parse-error' }] });
    const retrying = createConsumer({ dedup: new MemoryDedupStore(), handler: () => Promise.reject(new Error('no')) });
    expect((await retrying.process({ source: 'event-grid', body: JSON.stringify([cloudEventOf(messagePayload(7)), bad]) })).action).toBe('nack');
    expect(order()).toEqual(['m1']);
  });
});

describe('payloadNotIncluded', () => {
  const { type: _type, name: _name, ...withoutPayload } = messagePayload(1);
  const notIncluded = { ...withoutPayload, payloadNotIncluded: { reason: 'MessageTooLarge', payloadType: 'BusinessUnitNameChanged' } };
  const fullMessage = { ...messagePayload(1), notificationType: undefined, projectKey: undefined, name: 'the big one' } as unknown as Message;

  it('loads the payload with fetchMessage before the handler runs', async () => {
    const asked: string[] = [];
    const { consumer, seen } = setup({
      fetchMessage: async (locator) => {
        asked.push(`${locator.projectKey}/${locator.messageId}`);
        return fullMessage;
      },
    });
    await consumer.process(sqs(notIncluded));
    expect(asked).toEqual(['proj/msg-bu-1-1']);
    const delivery = seen[0]?.delivery;
    expect(delivery?.notificationType === 'Message' && delivery.payloadFetched).toBe(true);
    expect(delivery?.payload).toMatchObject({ type: 'BusinessUnitNameChanged', name: 'the big one', notificationType: 'Message', projectKey: 'proj' });
    expect(delivery?.notificationType === 'Message' && delivery.payloadNotIncluded).toEqual(notIncluded.payloadNotIncluded);
  });

  it('hands it over as delivered when the Messages API does not have it, and retries when it fails', async () => {
    let available = true;
    const { consumer, seen } = setup({
      fetchMessage: async () => {
        if (!available) throw new Error('Messages API down');
        return undefined;
      },
    });
    await consumer.process(sqs(notIncluded));
    expect(seen[0]?.delivery.notificationType === 'Message' && seen[0].delivery.payloadFetched).toBe(false);
    available = false;
    expect((await consumer.process(sqs({ ...notIncluded, sequenceNumber: 2, id: 'msg-2' }))).items[0]).toMatchObject({ status: 'failed' });
  });
});

describe('lifecycle and metrics', () => {
  it('defers waiting and new deliveries on close, and waits for running handlers', async () => {
    const handlerGate = gate();
    let finished = false;
    const { consumer } = setup({
      handler: async () => {
        await handlerGate.promise;
        finished = true;
      },
    });
    const running = consumer.process(sqs(messagePayload(1, { id: 'x' })));
    const waiting = consumer.process(sqs(messagePayload(2)));
    await until(() => consumer.bufferedCount === 1, 'm2 waits');
    const closed = consumer.close();
    expect(await waiting).toMatchObject({ action: 'nack', items: [{ status: 'deferred', reason: 'closing' }] });
    expect(await consumer.process(sqs(messagePayload(1, { id: 'y' })))).toMatchObject({ items: [{ status: 'deferred', reason: 'closing' }] });
    handlerGate.open();
    await closed;
    expect(finished).toBe(true);
    expect((await running).action).toBe('ack');
  });

  it('aborts the signal of running handlers when closing, so close() does not wait for one that honours it', async () => {
    const signals: AbortSignal[] = [];
    const { consumer } = setup({
      ordering: undefined,
      concurrency: 1,
      // Long work that stops when told to, as the docs recommend.
      handler: (_delivery, context) =>
        new Promise<void>((_resolve, reject) => {
          const signal = context.signal;
          signals.push(signal);
          if (signal.aborted) return reject(signal.reason as Error);
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
    });
    const running = consumer.process(sqs(messagePayload(1, { id: 'a' })));
    const queued = consumer.process(sqs(messagePayload(1, { id: 'b' }))); // waits for the only slot
    await until(() => signals.length === 1, 'the first handler runs');
    await consumer.close();
    // The queued one started after close began: its signal was aborted from the start.
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    expect((signals[0]?.reason as Error).message).toBe('consumer closed');
    for (const outcome of await Promise.all([running, queued])) expect(outcome).toMatchObject({ action: 'nack', items: [{ status: 'failed' }] });
  });

  it('aborts a handler’s signal when its lease is lost', async () => {
    const handlerGate = gate();
    let signal: AbortSignal | undefined;
    const { consumer, clock, store } = setup({
      handler: async (_delivery, context) => {
        signal = context.signal;
        await handlerGate.promise;
      },
    });
    const processing = consumer.process(sqs(messagePayload(1)));
    await until(() => signal !== undefined, 'the handler runs');
    store.renew = async (leases) => leases.map(() => false); // it expired and another instance took it
    clock.advance(1_000); // the first renewal, at a third of the 3 s lease
    await until(() => signal?.aborted === true, 'the signal is aborted');
    expect((signal?.reason as Error).message).toBe('lease lost');
    handlerGate.open();
    await processing;
  });

  it('registers every metric of CONSUMER_METRIC_NAMES on the injected registry only', async () => {
    const { registry, consumer } = setup();
    await consumer.process({ ...sqs(messagePayload(1)), enqueuedAt: Date.UTC(2025, 0, 1) - 2_000 });
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();
    expect(names).toEqual([...CONSUMER_METRIC_NAMES].sort());
    expect(names.every((name) => name.startsWith('herald_consumer_'))).toBe(true);
    expect(await metricValue(registry, 'herald_consumer_received_total', { source: 'sqs' })).toBe(1);
    expect(
      await metricValue(registry, 'herald_consumer_processed_total', { source: 'sqs', notification_type: 'Message', resource_type: 'business-unit' }),
    ).toBe(1);
    const exposition = await registry.metrics();
    expect(exposition).toContain('herald_consumer_queue_wait_seconds_sum{source="sqs"} 2');
    // A second consumer on its own registry does not clash (nothing global).
    setup();
  });

  it('labels unknown resource types as "other" to bound cardinality', async () => {
    const { registry, consumer } = setup({ ordering: undefined });
    await consumer.process(sqs(messagePayload(1, { typeId: 'attacker-controlled-1' })));
    expect(await metricValue(registry, 'herald_consumer_processed_total', { resource_type: 'other' })).toBe(1);
  });

  it('rejects options that make no sense', () => {
    const dedup = new MemoryDedupStore();
    expect(() => createConsumer({ dedup, handler: () => undefined, concurrency: 0 })).toThrow(RangeError);
    expect(() => createConsumer({ dedup, handler: () => undefined, instanceId: 'a|b' })).toThrow(RangeError);
    expect(() => createConsumer({ dedup, handler: () => undefined, ordering: { maxWaitMs: -1 } })).toThrow(RangeError);
  });
});

export type { ProcessOutcome };
