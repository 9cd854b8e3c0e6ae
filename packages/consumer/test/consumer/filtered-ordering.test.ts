import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import {
  createConsumer,
  MemoryDedupStore,
  RedisDedupStore,
  silentLogger,
  type ConsumerOptions,
  type DedupStore,
  type Delivery,
  type DeliveryContext,
  type LateNotice,
  type Logger,
} from '../../src/index.js';
import { messagePayload, updatedPayload } from '../support/fixtures.js';
import { elapse, settleTurns, sqs } from '../support/deliveries.js';
import { ManualClock } from '../support/manual-clock.js';
import { redisForSuite, redisSkipReason } from '../support/redis.js';
import { until } from '../support/until.js';

/*
 * Ordering of streams whose gaps are expected (README, *Ordering model*): a type-filtered message
 * subscription, and the first delivery of a resource seen mid-stream, are held briefly — never
 * for maxWaitMs — and released without a gap notice; out-of-order arrivals are still put in
 * order; one arriving after the hold is handed over all the same, marked late (never dropped); a
 * predecessor that is known to exist (unfiltered sequenceNumber, ResourceUpdated's oldVersion) is
 * still waited for and reported as a gap when it does not come.
 */

const MAX_WAIT_MS = 10_000;
const MAX_HOLD_MS = 1_000;
const QUOTE_REQUEST = { typeId: 'quote-request', id: 'qr-1' };
const filteredSubscription = [{ resourceTypeId: 'quote-request', types: ['QuoteRequestStateChanged'] }];

interface Seen {
  readonly delivery: Delivery;
  readonly context: DeliveryContext;
}

function recordingLogger() {
  const lines: { level: string; fields: object; message: string | undefined }[] = [];
  const at = (level: string) => (fields: object, message?: string) => lines.push({ level, fields, message });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

function setup(
  ordering: ConsumerOptions['ordering'] = { maxWaitMs: MAX_WAIT_MS, filteredMessages: filteredSubscription },
  work: (delivery: Delivery) => Promise<void> | undefined = () => undefined,
) {
  const clock = new ManualClock();
  const seen: Seen[] = [];
  const { logger, lines } = recordingLogger();
  const registry = new Registry();
  const consumer = createConsumer({
    dedup: new MemoryDedupStore({ clock }),
    clock,
    logger,
    ordering,
    metrics: { registry },
    handler: (delivery, context) => {
      seen.push({ delivery, context });
      return work(delivery);
    },
  });
  const order = () =>
    seen.map(({ delivery }) =>
      delivery.notificationType === 'Message' ? `m${delivery.payload.sequenceNumber}` : `${delivery.notificationType}:${delivery.payload.version}`,
    );
  return { clock, consumer, seen, order, lines, registry };
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((value) => Object.entries(labels).every(([key, expected]) => value.labels[key] === expected))
    .reduce((sum, value) => sum + value.value, 0);
}

const stateChanged = (sequenceNumber: number) => sqs(messagePayload(sequenceNumber, QUOTE_REQUEST, { type: 'QuoteRequestStateChanged' }));

describe('a type-filtered message stream', () => {
  it('is released in order within the brief hold, without waiting maxWaitMs and without gap notices', async () => {
    const { clock, consumer, seen, order } = setup();
    // sequenceNumbers 1, 2, 4, 6, 7 were other message types, filtered out by the subscription.
    const third = consumer.process(stateChanged(3));
    await elapse(clock, MAX_HOLD_MS);
    expect(order()).toEqual(['m3']);
    const fifth = consumer.process(stateChanged(5));
    await elapse(clock, MAX_HOLD_MS);
    const eighth = consumer.process(stateChanged(8));
    await elapse(clock, MAX_HOLD_MS);
    expect((await Promise.all([third, fifth, eighth])).map((outcome) => outcome.items[0]?.status)).toEqual(['processed', 'processed', 'processed']);
    expect(order()).toEqual(['m3', 'm5', 'm8']);
    expect(seen.map(({ context }) => context.gap)).toEqual([undefined, undefined, undefined]);
  });

  it('still puts out-of-order arrivals in order', async () => {
    const { clock, consumer, order } = setup();
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    const eighth = consumer.process(stateChanged(8));
    const fifth = consumer.process(stateChanged(5));
    await settleTurns();
    expect(order()).toEqual(['m3']);
    await elapse(clock, MAX_HOLD_MS);
    await Promise.all([eighth, fifth]);
    expect(order()).toEqual(['m3', 'm5', 'm8']);
  });

  it('releases the next sequenceNumber at once, with no hold', async () => {
    const { clock, consumer, order } = setup();
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    await consumer.process(stateChanged(4));
    expect(order()).toEqual(['m3', 'm4']);
  });

  it('ends a hold after enough later arrivals, before its time', async () => {
    const { consumer, order } = setup();
    const held = consumer.process(stateChanged(3));
    await settleTurns();
    expect(order()).toEqual([]);
    // A busy stream: deliveries of other resources keep arriving (each the start of its resource).
    const others = Array.from({ length: 300 }, (_, index) => consumer.process(sqs(messagePayload(1, { id: `bu-${index}` }))));
    await Promise.all([held, ...others]);
    expect(order()).toContain('m3');
  });

  it('hands a predecessor that arrives after the hold to the handler, marked late, counted and logged at warn; the hold grows', async () => {
    const { clock, consumer, seen, order, lines, registry } = setup();
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    const fifth = consumer.process(stateChanged(5));
    await elapse(clock, 100, 25);
    expect(order()).toEqual(['m3', 'm5']);
    await elapse(clock, 300);
    // m4 was a kept type after all, 400 ms late: it cannot run before m5 any more, but it is not
    // lost either (at-least-once comes first): the handler gets it and is told.
    expect((await consumer.process(stateChanged(4))).items[0]).toMatchObject({ status: 'processed' });
    await fifth;
    expect(order()).toEqual(['m3', 'm5', 'm4']);
    expect(seen.map(({ context }) => context.late)).toEqual([undefined, undefined, { lane: 'messages', released: 4, alreadyReleased: 5 }]);
    expect(seen[2]?.context.gap).toBeUndefined();
    expect(await metricValue(registry, 'herald_consumer_late_total', { resource_type: 'quote-request' })).toBe(1);
    expect(lines.find((line) => line.level === 'warn' && /marked late/.test(line.message ?? ''))?.fields).toMatchObject({
      late: { released: 4, alreadyReleased: 5 },
    });
    // The hold has grown to twice that lateness: m7 waits for m6 longer than 400 ms now.
    const seventh = consumer.process(stateChanged(7));
    await elapse(clock, 500);
    expect(order()).toEqual(['m3', 'm5', 'm4']);
    await consumer.process(stateChanged(6));
    await seventh;
    expect(order()).toEqual(['m3', 'm5', 'm4', 'm6', 'm7']);
    expect(seen.slice(3).map(({ context }) => context.late)).toEqual([undefined, undefined]);
  });

  it('acknowledges a copy of a late predecessor that was processed as a duplicate, without the handler', async () => {
    const { clock, consumer, order, registry } = setup();
    await Promise.all([consumer.process(stateChanged(5)), elapse(clock, MAX_HOLD_MS)]);
    await consumer.process(stateChanged(4));
    expect(order()).toEqual(['m5', 'm4']);
    expect((await consumer.process(stateChanged(4))).items[0]).toMatchObject({ status: 'duplicate' });
    expect(order()).toEqual(['m5', 'm4']);
    expect(await metricValue(registry, 'herald_consumer_late_total')).toBe(1);
  });

  it('runs a late predecessor only once the running delivery of its resource is done', async () => {
    const { clock, consumer, order, seen } = setup({ maxWaitMs: MAX_WAIT_MS, filteredMessages: filteredSubscription }, (delivery) =>
      delivery.notificationType === 'Message' && delivery.payload.sequenceNumber === 6 ? sixth.promise : undefined,
    );
    let openSixth!: () => void;
    const sixth = { promise: new Promise<void>((resolve) => (openSixth = resolve)) };
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    const running = consumer.process(stateChanged(6));
    await elapse(clock, MAX_HOLD_MS);
    await until(() => order().length === 2, 'm6 runs');
    // m5 comes after m6 was handed over: late, and it waits for m6's handler to end.
    const late = consumer.process(stateChanged(5));
    await settleTurns();
    expect(order()).toEqual(['m3', 'm6']);
    openSixth();
    await Promise.all([running, late]);
    expect(order()).toEqual(['m3', 'm6', 'm5']);
    expect(seen[2]?.context.late).toEqual({ lane: 'messages', released: 5, alreadyReleased: 6 });
  });

  it('marks late a delivery another instance already moved the stored position past (its own cache did not know)', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }); // shared, as Redis is
    const seenBy: { instance: string; sequence: number; late: LateNotice | undefined }[] = [];
    const instance = (name: string) =>
      createConsumer({
        dedup: store,
        clock,
        logger: silentLogger,
        instanceId: name,
        ordering: { maxWaitMs: MAX_WAIT_MS, filteredMessages: filteredSubscription },
        handler: (delivery, context) => {
          if (delivery.notificationType === 'Message') seenBy.push({ instance: name, sequence: delivery.payload.sequenceNumber, late: context.late });
        },
      });
    const a = instance('a');
    const b = instance('b');
    await b.process(stateChanged(1)); // B caches position 1
    await Promise.all([a.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]); // A: held, released, stored 3
    // To B, m2 follows its cached position: released at once; the claim shows the store is past it.
    expect((await b.process(stateChanged(2))).items[0]).toMatchObject({ status: 'processed' });
    expect(seenBy).toEqual([
      { instance: 'b', sequence: 1, late: undefined },
      { instance: 'a', sequence: 3, late: undefined },
      { instance: 'b', sequence: 2, late: { lane: 'messages', released: 2, alreadyReleased: 3 } },
    ]);
    // B caught up with the stored position: m4 is next there.
    await b.process(stateChanged(4));
    expect(seenBy[3]).toEqual({ instance: 'b', sequence: 4, late: undefined });
  });

  it('with filteredMessages: true, treats every messages lane as filtered', async () => {
    const { clock, consumer, seen, order } = setup({ maxWaitMs: MAX_WAIT_MS, filteredMessages: true });
    await Promise.all([consumer.process(sqs(messagePayload(2))), elapse(clock, MAX_HOLD_MS)]);
    await Promise.all([consumer.process(sqs(messagePayload(9))), elapse(clock, MAX_HOLD_MS)]);
    expect(order()).toEqual(['m2', 'm9']);
    expect(seen.every(({ context }) => context.gap === undefined)).toBe(true);
  });
});

describe('a resource first seen in a filtered lane (no position read)', () => {
  /** The memory store, counting the streams whose positions are read (the round trip a new resource used to cost). */
  function countingStore(clock: ManualClock): { store: DedupStore; streamsRead: () => number } {
    const store = new MemoryDedupStore({ clock });
    let streamsRead = 0;
    const counting: DedupStore = {
      kind: store.kind,
      keyPrefix: store.keyPrefix,
      leaseMs: store.leaseMs,
      claim: (requests) => store.claim(requests),
      renew: (leases) => store.renew(leases),
      release: (leases) => store.release(leases),
      complete: (requests) => store.complete(requests),
      readPositions: (streams) => {
        streamsRead += streams.length;
        return store.readPositions(streams);
      },
    };
    return { store: counting, streamsRead: () => streamsRead };
  }

  function instance(store: DedupStore, clock: ManualClock, seen: Seen[], name = 'a') {
    return createConsumer({
      dedup: store,
      clock,
      logger: silentLogger,
      instanceId: name,
      ordering: { maxWaitMs: MAX_WAIT_MS, filteredMessages: filteredSubscription },
      handler: (delivery, context) => void seen.push({ delivery, context }),
    });
  }

  it('is held without reading the stored position first; an unfiltered one still reads it', async () => {
    const clock = new ManualClock();
    const { store, streamsRead } = countingStore(clock);
    const seen: Seen[] = [];
    const consumer = instance(store, clock, seen);
    const filtered = Array.from({ length: 20 }, (_, index) =>
      consumer.process(sqs(messagePayload(3, { typeId: 'quote-request', id: `qr-${index}` }, { type: 'QuoteRequestStateChanged' }))),
    );
    await settleTurns();
    expect(streamsRead()).toBe(0);
    await Promise.all([...filtered, elapse(clock, MAX_HOLD_MS)]);
    expect(seen).toHaveLength(20);
    expect(seen.every(({ context }) => context.gap === undefined && context.late === undefined)).toBe(true);
    await consumer.process(sqs(messagePayload(1, { typeId: 'business-unit', id: 'bu-9' })));
    expect(streamsRead()).toBe(1);
  });

  it('is handed over late when another instance already stored a later position (the claim tells)', async () => {
    const clock = new ManualClock();
    const { store } = countingStore(clock);
    const seen: Seen[] = [];
    const other = instance(store, clock, [], 'other');
    await Promise.all([other.process(stateChanged(5)), elapse(clock, MAX_HOLD_MS)]);
    const consumer = instance(store, clock, seen);
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    expect(seen.map(({ context }) => context.late)).toEqual([{ lane: 'messages', released: 3, alreadyReleased: 5 }]);
    // The lane took the stored position over: m6 is next here, released at once.
    await consumer.process(stateChanged(6));
    expect(seen[1]?.context.late).toBeUndefined();
  });

  it('still reads the position before placing a change of that resource, which waits for its exact predecessor', async () => {
    const clock = new ManualClock();
    const { store, streamsRead } = countingStore(clock);
    const seen: Seen[] = [];
    // Another instance released the resource's changes up to version 4.
    const other = instance(store, clock, [], 'other');
    await Promise.all([other.process(sqs(updatedPayload(3, 4, QUOTE_REQUEST))), elapse(clock, MAX_HOLD_MS)]);
    const consumer = instance(store, clock, seen);
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    expect(streamsRead()).toBe(1); // the other instance's first change
    // 4 → 5 is next by the stored position: released as soon as it is read, without a hold.
    await consumer.process(sqs(updatedPayload(4, 5, QUOTE_REQUEST)));
    expect(streamsRead()).toBe(2);
    expect(seen.map(({ delivery }) => delivery.notificationType)).toEqual(['Message', 'ResourceUpdated']);
    // 6 → 7 misses 5 → 6, which is known to exist: waited for maxWaitMs, then a gap notice.
    const later = consumer.process(sqs(updatedPayload(6, 7, QUOTE_REQUEST)));
    await elapse(clock, MAX_HOLD_MS * 2);
    expect(seen).toHaveLength(2);
    await elapse(clock, MAX_WAIT_MS);
    await later;
    expect(seen[2]?.context.gap).toMatchObject({ reason: 'timeout', lane: 'changes', lastReleased: 5, released: 7 });
  });
});

describe('a filtered resource the consumer no longer remembers', () => {
  /*
   * Idle lanes of filtered resources are kept only briefly (a stream of mostly new resources kept
   * in the position cache cost more than the rest of ordering): what the cache told, the claim of
   * the resource's next delivery tells — its predecessor stored (next: no hold) or not (held).
   */
  type StoreFactory = (clock: ManualClock) => DedupStore;

  /** The store, counting the claims answered (so a test knows what the consumer has heard). */
  function watched(store: DedupStore): { store: DedupStore; claimsAnswered: () => number } {
    let answered = 0;
    const watching: DedupStore = {
      kind: store.kind,
      keyPrefix: store.keyPrefix,
      leaseMs: store.leaseMs,
      claim: async (requests) => {
        const results = await store.claim(requests);
        answered += results.length;
        return results;
      },
      renew: (leases) => store.renew(leases),
      release: (leases) => store.release(leases),
      complete: (requests) => store.complete(requests),
      readPositions: (streams) => store.readPositions(streams),
    };
    return { store: watching, claimsAnswered: () => answered };
  }

  async function nextGoesAtOnceLaterIsHeld(store: StoreFactory): Promise<void> {
    const clock = new ManualClock();
    const seen: Seen[] = [];
    const { store: dedup, claimsAnswered } = watched(store(clock));
    const consumer = createConsumer({
      dedup,
      clock,
      logger: silentLogger,
      // One idle lane remembered: another resource's delivery makes qr-1's lane forgotten.
      ordering: { maxWaitMs: MAX_WAIT_MS, filteredMessages: filteredSubscription, positionCacheSize: 1 },
      handler: (delivery, context) => void seen.push({ delivery, context }),
    });
    const order = () =>
      seen.map(({ delivery }) => (delivery.notificationType === 'Message' ? `${delivery.payload.resource.id}/m${delivery.payload.sequenceNumber}` : '?'));
    await Promise.all([consumer.process(stateChanged(3)), elapse(clock, MAX_HOLD_MS)]);
    await consumer.process(sqs(messagePayload(1, { typeId: 'quote-request', id: 'qr-2' }, { type: 'QuoteRequestStateChanged' })));
    expect(order()).toEqual(['qr-1/m3', 'qr-2/m1']);
    const fourth = consumer.process(stateChanged(4));
    await until(() => order().length === 3, 'm4 handed over without the clock moving');
    expect((await fourth).items[0]).toMatchObject({ status: 'processed' });
    // m6: the stored m4 is not its predecessor (m5 may have been filtered out, or be on its way).
    const sixth = consumer.process(stateChanged(6));
    await until(() => claimsAnswered() === 4, "m6's claim answered");
    await settleTurns();
    expect(order()).toEqual(['qr-1/m3', 'qr-2/m1', 'qr-1/m4']);
    await Promise.all([sixth, elapse(clock, MAX_HOLD_MS)]);
    expect(order()).toEqual(['qr-1/m3', 'qr-2/m1', 'qr-1/m4', 'qr-1/m6']);
    expect(seen.every(({ context }) => context.gap === undefined && context.late === undefined)).toBe(true);
    await consumer.close();
  }

  const title = 'its next sequenceNumber goes at once (the claim says its predecessor is stored), a later one is held';
  it(`on the memory store: ${title}`, () => nextGoesAtOnceLaterIsHeld((clock) => new MemoryDedupStore({ clock })));

  describe.skipIf(redisSkipReason() !== undefined)('on a real redis-server', () => {
    const redis = redisForSuite();
    it(title, () => nextGoesAtOnceLaterIsHeld((clock) => new RedisDedupStore({ redis: redis(), clock }, { keyPrefix: `t-${randomUUID()}` })));
  });
});

describe('streams whose predecessor is known exactly', () => {
  it('an unfiltered messages lane still waits maxWaitMs for a missing sequenceNumber and reports the gap', async () => {
    const { clock, consumer, seen, order } = setup();
    await consumer.process(sqs(messagePayload(1)));
    const third = consumer.process(sqs(messagePayload(3)));
    await elapse(clock, MAX_HOLD_MS * 2);
    expect(order()).toEqual(['m1']);
    await elapse(clock, MAX_WAIT_MS);
    await third;
    expect(order()).toEqual(['m1', 'm3']);
    expect(seen[1]?.context.gap).toMatchObject({ reason: 'timeout', lane: 'messages', lastReleased: 1, released: 3 });
  });

  it('the first change seen of a resource is held briefly, then released without a gap notice; a missing oldVersion is still waited for', async () => {
    const { clock, consumer, seen, order } = setup({ maxWaitMs: MAX_WAIT_MS });
    // The resource existed before the subscription: its first notification is an update.
    const first = consumer.process(sqs(updatedPayload(4, 5)));
    await elapse(clock, MAX_HOLD_MS);
    await first;
    expect(order()).toEqual(['ResourceUpdated:5']);
    expect(seen[0]?.context.gap).toBeUndefined();
    // 5 → 6 is missing: 6 → 7 names its predecessor, which is waited for.
    const later = consumer.process(sqs(updatedPayload(6, 7)));
    await elapse(clock, MAX_HOLD_MS * 2);
    expect(order()).toEqual(['ResourceUpdated:5']);
    await elapse(clock, MAX_WAIT_MS);
    await later;
    expect(seen[1]?.context.gap).toMatchObject({ reason: 'timeout', lane: 'changes', lastReleased: 5, released: 7 });
  });

  it('an out-of-order first change is still put in order within the hold', async () => {
    const { clock, consumer, order } = setup({ maxWaitMs: MAX_WAIT_MS });
    const later = consumer.process(sqs(updatedPayload(5, 6)));
    const earlier = consumer.process(sqs(updatedPayload(4, 5)));
    await until(() => consumer.bufferedCount === 2 || order().length > 0, 'both arrived');
    await elapse(clock, MAX_HOLD_MS);
    await Promise.all([later, earlier]);
    expect(order()).toEqual(['ResourceUpdated:5', 'ResourceUpdated:6']);
  });
});
