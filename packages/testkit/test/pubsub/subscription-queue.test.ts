import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptMessage } from '../../src/peers/pubsub/messages.js';
import { SubscriptionQueue, type Receiver, type SubscriptionSettings } from '../../src/peers/pubsub/subscription-queue.js';

// Lease expiry runs on the clock: fake setTimeout so a 10 s ack deadline passes in no time.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const settings = (overrides: Partial<SubscriptionSettings> = {}): SubscriptionSettings => ({
  ackDeadlineSeconds: 10,
  messageOrdering: false,
  deadLetter: false,
  ...overrides,
});

let nextId = 1;
function message(body: string, orderingKey = '') {
  const id = String(nextId++);
  return acceptMessage({ data: Buffer.from(body), attributes: {}, messageId: '', publishTime: null, orderingKey }, id, new Date());
}

/** A receiver that is only ever served through `takeNow`, so no delivery happens behind the test's back. */
const receiver = (maxMessages = 0, maxBytes = 0): Receiver => ({
  limits: { maxMessages, maxBytes },
  ackDeadlineSeconds: () => 10,
  deliver: () => {
    throw new Error('not used: the test takes messages explicitly');
  },
});

const bodies = (received: ReturnType<SubscriptionQueue['takeNow']>) => received.map((r) => r.message.data.toString());

describe('SubscriptionQueue leases', () => {
  it('redelivers a message whose lease expired, counting the attempt when a dead-letter policy is set', () => {
    const queue = new SubscriptionQueue('s', 't', settings({ deadLetter: true }));
    queue.enqueue(message('a'));
    const reader = receiver();

    const [first] = queue.takeNow(reader);
    expect(first?.deliveryAttempt).toBe(1);
    vi.advanceTimersByTime(9_999);
    expect(queue.snapshot()).toMatchObject({ pending: 0, outstanding: 1 });
    vi.advanceTimersByTime(1);
    expect(queue.snapshot()).toMatchObject({ pending: 1, outstanding: 0 });

    const [second] = queue.takeNow(reader);
    expect(second?.message.messageId).toBe(first?.message.messageId);
    expect(second?.deliveryAttempt).toBe(2);
    // The first delivery's ack id is no longer valid: acking it does nothing.
    queue.acknowledge([first?.ackId ?? '']);
    expect(queue.snapshot()).toMatchObject({ outstanding: 1, deliveries: 2 });
    queue.close();
  });

  it('extends a lease on ModifyAckDeadline and ends it on ack', () => {
    const queue = new SubscriptionQueue('s', 't', settings());
    queue.enqueue(message('a'));
    const [leased] = queue.takeNow(receiver());

    vi.advanceTimersByTime(9_000);
    queue.modifyAckDeadline([leased?.ackId ?? ''], 20);
    vi.advanceTimersByTime(19_999);
    expect(queue.snapshot()).toMatchObject({ outstanding: 1, pending: 0 });
    queue.acknowledge([leased?.ackId ?? '']);
    vi.advanceTimersByTime(60_000);
    expect(queue.snapshot()).toMatchObject({ outstanding: 0, pending: 0 });
    expect(queue.snapshot().acked.map((m) => m.data.toString())).toEqual(['a']);
    queue.close();
  });

  it('puts a nacked message back in its publish position', () => {
    const queue = new SubscriptionQueue('s', 't', settings());
    for (const body of ['a', 'b', 'c']) queue.enqueue(message(body));
    const reader = receiver();
    const [a, b] = queue.takeNow(receiver(2));
    queue.modifyAckDeadline([b?.ackId ?? '', a?.ackId ?? ''], 0);
    expect(bodies(queue.takeNow(reader))).toEqual(['a', 'b', 'c']);
    queue.close();
  });
});

describe('SubscriptionQueue flow control and ordering', () => {
  it('gives a receiver no more than its outstanding message limit', () => {
    const queue = new SubscriptionQueue('s', 't', settings());
    for (const body of ['a', 'b', 'c']) queue.enqueue(message(body));
    const reader = receiver(2);
    const taken = queue.takeNow(reader);
    expect(bodies(taken)).toEqual(['a', 'b']);
    expect(queue.takeNow(reader)).toEqual([]);
    queue.acknowledge([taken[0]?.ackId ?? '']);
    expect(bodies(queue.takeNow(reader))).toEqual(['c']);
    queue.close();
  });

  it('stops at the byte limit, but always lets one message through', () => {
    const queue = new SubscriptionQueue('s', 't', settings());
    for (const body of ['12345678', '12345678', '12345678']) queue.enqueue(message(body));
    expect(queue.takeNow(receiver(0, 10))).toHaveLength(2);
    expect(queue.takeNow(receiver(0, 4))).toHaveLength(1);
    queue.close();
  });

  it('keeps an ordering key with one receiver until its messages are acked', () => {
    const queue = new SubscriptionQueue('s', 't', settings({ messageOrdering: true }));
    queue.enqueue(message('a1', 'A'));
    queue.enqueue(message('a2', 'A'));
    queue.enqueue(message('b1', 'B'));
    const first = receiver(1);
    const second = receiver();

    const [a1] = queue.takeNow(first);
    expect(a1?.message.data.toString()).toBe('a1');
    // a2 must wait: its key is held by the first receiver, and it must not overtake a1.
    expect(bodies(queue.takeNow(second))).toEqual(['b1']);
    queue.acknowledge([a1?.ackId ?? '']);
    expect(bodies(queue.takeNow(second))).toEqual(['a2']);
    queue.close();
  });

  it('ignores ordering keys when the subscription does not enable ordering', () => {
    const queue = new SubscriptionQueue('s', 't', settings());
    queue.enqueue(message('a1', 'A'));
    queue.enqueue(message('a2', 'A'));
    queue.takeNow(receiver(1));
    expect(bodies(queue.takeNow(receiver()))).toEqual(['a2']);
    queue.close();
  });
});
