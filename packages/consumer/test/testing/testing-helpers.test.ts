import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore } from '../../src/index.js';
import { HandlerSpy, InMemorySource, ManualClock } from '../../src/testing/index.js';
import { messagePayload } from '../support/fixtures.js';

/* `@herald/consumer/testing`: what users' own tests get (the package's "./testing" export). */

describe('the testing helpers', () => {
  it('let a test push raw bodies and await a delivery by dedup key, moving a manual clock through a gap', async () => {
    const clock = new ManualClock();
    const spy = new HandlerSpy();
    const consumer = createConsumer({ dedup: new MemoryDedupStore({ clock }), clock, ordering: { maxWaitMs: 5_000 }, handler: spy.handler });
    const source = new InMemorySource(consumer);
    await source.push(messagePayload(1, { id: 'o-1' }));
    const third = source.push(JSON.stringify(messagePayload(3, { id: 'o-1' })), { source: 'sqs' });
    const handled = spy.waitFor('herald:proj:business-unit:o-1:m:3', 'handled');
    clock.advance(5_000);
    await third;
    const record = await handled;
    expect(record.context.gap).toMatchObject({ reason: 'timeout', lastReleased: 1, released: 3 });
    expect(source.settled.map((input) => input.action)).toEqual(['ack', 'ack']);
    expect(spy.handled).toHaveLength(2);
  });

  it('record failures and the nack that follows, and resolve waits for what already happened', async () => {
    let fail = true;
    const spy = new HandlerSpy(() => {
      if (fail) throw new Error('downstream unavailable');
    });
    const source = new InMemorySource(createConsumer({ dedup: new MemoryDedupStore(), handler: spy.handler }));
    await source.push(messagePayload(1), { deliveryAttempt: 2 });
    expect(source.settled[0]).toMatchObject({ action: 'nack', retryAfterMs: 2_000 });
    expect((await spy.waitFor('herald:proj:business-unit:bu-1:m:1', 'failed')).error).toEqual(new Error('downstream unavailable'));
    fail = false;
    await source.push(messagePayload(1));
    await expect(spy.waitFor('herald:proj:business-unit:bu-1:m:1')).resolves.toMatchObject({ state: 'handled' });
  });

  it('fail a wait for a delivery that never comes, with its key', async () => {
    await expect(new HandlerSpy().waitFor('herald:nothing', 'handled', 10)).rejects.toThrow(/herald:nothing/);
  });

  it('report a poison body as dead-lettered', async () => {
    const source = new InMemorySource(
      createConsumer({ dedup: new MemoryDedupStore(), logger: { debug() {}, info() {}, warn() {}, error() {} }, handler: () => undefined }),
    );
    await source.push('not json');
    expect(source.settled).toEqual([expect.objectContaining({ action: 'dead-letter', reason: expect.stringMatching(/^invalid-json/) })]);
  });
});
