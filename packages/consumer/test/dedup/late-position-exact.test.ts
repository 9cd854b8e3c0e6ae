import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryDedupStore, RedisDedupStore, type DedupStore } from '../../src/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { redisForSuite, redisSkipReason } from '../support/redis.js';

const skip = redisSkipReason();

describe.skipIf(skip !== undefined)('stores agree on very large positions (safe integers accepted by the parser)', () => {
  const redis = redisForSuite();

  async function lateReply(store: DedupStore): Promise<unknown> {
    const stream = 'proj:business-unit:big';
    const top = Number.MAX_SAFE_INTEGER;
    await store.complete([{ key: `${store.keyPrefix}:${stream}:m:${top}`, position: { stream, lane: 'm', ordinal: top } }]);
    return (await store.claim([{ key: `${store.keyPrefix}:${stream}:m:${top - 1}`, owner: 'a', position: { stream, lane: 'm', ordinal: top - 1 } }]))[0];
  }

  it('reports the stored position of a late claim exactly, like the memory store', async () => {
    const clock = new ManualClock();
    const memory = await lateReply(new MemoryDedupStore({ clock }));
    const onRedis = await lateReply(new RedisDedupStore({ redis: redis(), clock }, { keyPrefix: `t-${randomUUID()}` }));
    expect(memory).toEqual({ status: 'late', storedOrdinal: Number.MAX_SAFE_INTEGER });
    expect(onRedis).toEqual(memory);
  });
});
