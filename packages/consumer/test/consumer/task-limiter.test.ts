import { describe, expect, it } from 'vitest';
import { TaskLimiter } from '../../src/consumer/task-limiter.js';
import { createConsumer, MemoryDedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { until } from '../support/until.js';

describe('TaskLimiter', () => {
  it('starts tasks that end synchronously in a loop, in arrival order, without growing the stack', async () => {
    const started: number[] = [];
    let finishSlow!: () => void;
    const limiter: TaskLimiter<number> = new TaskLimiter(1, (task) => {
      started.push(task);
      if (task === 0) finishSlow = () => limiter.done();
      else limiter.done(); // ends within start
    });
    limiter.schedule(0);
    // Far more than a recursion per task could take (about 10,000 frames overflow V8's stack).
    const count = 100_000;
    for (let task = 1; task <= count; task++) limiter.schedule(task);
    expect(started).toEqual([0]);
    const idle = limiter.onIdle();
    finishSlow();
    await idle;
    expect(started).toHaveLength(count + 1);
    expect(started.every((task, index) => task === index)).toBe(true);
  });

  it('keeps at most `limit` running, and a task scheduled while it drains waits its turn', () => {
    const running = new Set<string>();
    let maxRunning = 0;
    const order: string[] = [];
    const finishers = new Map<string, () => void>();
    const limiter: TaskLimiter<string> = new TaskLimiter(2, (task) => {
      running.add(task);
      maxRunning = Math.max(maxRunning, running.size);
      order.push(task);
      const finish = () => {
        running.delete(task);
        limiter.done();
      };
      if (task.startsWith('slow')) finishers.set(task, finish);
      else {
        if (task === 'sync-1') limiter.schedule('late'); // scheduled from inside a draining start
        finish();
      }
    });
    for (const task of ['slow-1', 'slow-2', 'sync-1', 'sync-2', 'slow-3']) limiter.schedule(task);
    expect(order).toEqual(['slow-1', 'slow-2']);
    finishers.get('slow-1')?.();
    expect(order).toEqual(['slow-1', 'slow-2', 'sync-1', 'sync-2', 'slow-3']);
    expect([...running]).toEqual(['slow-2', 'slow-3']);
    finishers.get('slow-2')?.();
    expect(order).toEqual(['slow-1', 'slow-2', 'sync-1', 'sync-2', 'slow-3', 'late']);
    expect(maxRunning).toBe(2);
  });
});

describe('the consumer with a concurrency of 1 and thousands of synchronous handlers queued behind an async one', () => {
  it('runs, records and settles all of them', async () => {
    const store = new MemoryDedupStore();
    let claimed = 0;
    const claim = store.claim.bind(store);
    store.claim = async (requests) => {
      const results = await claim(requests);
      claimed += requests.length;
      return results;
    };
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let handled = 0;
    const consumer = createConsumer({
      dedup: store,
      concurrency: 1,
      handler: (delivery) => {
        if (delivery.payload.resource.id === 'slow') return gate;
        handled++; // synchronous: ends within the limiter's start
      },
    });
    const slow = consumer.process({ source: 'sqs', body: JSON.stringify(messagePayload(1, { id: 'slow' })) });
    const count = 5_000;
    const rest = Array.from({ length: count }, (_, index) => consumer.process({ source: 'sqs', body: JSON.stringify(messagePayload(1, { id: `r${index}` })) }));
    await until(() => claimed === count + 1, 'all are claimed and queued behind the slow one');
    expect(handled).toBe(0);
    open();
    await slow;
    const outcomes = await Promise.all(rest);
    expect(handled).toBe(count);
    expect(outcomes.every((outcome) => outcome.action === 'ack' && outcome.items[0]?.status === 'processed')).toBe(true);
    await consumer.close();
  });
});
