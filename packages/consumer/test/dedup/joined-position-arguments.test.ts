import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryDedupStore, RedisDedupStore, type ClaimRequest, type DedupStore } from '../../src/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { redisForSuite, redisSkipReason } from '../support/redis.js';

/*
 * The Redis scripts get a batch's positions joined into one argument (`m12,-,c8,`). The stores
 * must still agree on every batch: empty ones, ordered and unordered requests mixed, batches split
 * into several script calls, and the largest ordinals the parser lets through (a change's ordinal
 * is twice its version, so beyond 2^53).
 */

const skip = redisSkipReason();

describe.skipIf(skip !== undefined)('the Redis store agrees with the memory store on position batches', () => {
  const redis = redisForSuite();

  function stores(): [DedupStore, DedupStore] {
    const clock = new ManualClock();
    const keyPrefix = `t-${randomUUID()}`;
    return [new MemoryDedupStore({ clock }, { keyPrefix }), new RedisDedupStore({ redis: redis(), clock }, { keyPrefix, maxKeysPerCall: 3 })];
  }

  it('answers empty batches without a call', async () => {
    for (const store of stores()) {
      expect(await store.claim([])).toEqual([]);
      await store.complete([]);
      expect(await store.renew([])).toEqual([]);
      await store.release([]);
      expect(await store.readPositions([])).toEqual([]);
    }
  });

  it('agrees on a mixed batch split over several calls, with ordinals beyond 2^53', async () => {
    const results: unknown[] = [];
    for (const store of stores()) {
      const prefix = store.keyPrefix;
      const big = Number.MAX_SAFE_INTEGER;
      const request = (stream: string, suffix: string, position?: { lane: 'm' | 'c'; ordinal: number }): ClaimRequest => ({
        key: `${prefix}:${stream}:${suffix}`,
        owner: 'a',
        ...(position === undefined ? {} : { position: { stream, ...position } }),
      });
      // Positions first: m at 2^53 - 1, c at a deletion's ordinal of version 2^53 - 1.
      // And a predecessor each: a claim right after it is told (exactly, so only below 2^53).
      await store.complete([
        request('p:t:big', `m:${big}`, { lane: 'm', ordinal: big }),
        request('p:t:big', 'plain-done'),
        request('p:t:big', `c:ResourceDeleted:${big}`, { lane: 'c', ordinal: big * 2 + 1 }),
        request('p:t:next', 'm:7', { lane: 'm', ordinal: 7 }),
        request('p:t:next', `c:ResourceUpdated:${big}`, { lane: 'c', ordinal: big * 2 }),
      ]);
      const batch = [
        request('p:t:big', `m:${big - 1}`, { lane: 'm', ordinal: big - 1 }),
        request('p:t:big', 'plain-new'),
        request('p:t:big', `c:ResourceUpdated:${big - 1}`, { lane: 'c', ordinal: (big - 1) * 2 }),
        request('p:t:big', 'plain-done'),
        request('p:t:other', 'm:1', { lane: 'm', ordinal: 1 }),
        request('p:t:other', 'c:ResourceCreated:1', { lane: 'c', ordinal: 2 }),
        request('p:t:other', 'plain-2'),
        request('p:t:next', 'm:8', { lane: 'm', ordinal: 8 }),
        request('p:t:next', `c:ResourceDeleted:${big}`, { lane: 'c', ordinal: big * 2 + 1 }),
      ];
      const claims = await store.claim(batch);
      await store.complete(batch.slice(4, 7));
      results.push({ claims, positions: await store.readPositions(['p:t:big', 'p:t:other']) });
    }
    const [memory, onRedis] = results;
    expect(memory).toEqual({
      claims: [
        { status: 'late', storedOrdinal: Number.MAX_SAFE_INTEGER },
        { status: 'claimed' },
        { status: 'late', storedOrdinal: Number.MAX_SAFE_INTEGER * 2 + 1 },
        { status: 'processed' },
        { status: 'claimed' },
        { status: 'claimed' },
        { status: 'claimed' },
        { status: 'claimed', storedOrdinal: 7 },
        { status: 'claimed' },
      ],
      positions: [
        { m: Number.MAX_SAFE_INTEGER, c: Number.MAX_SAFE_INTEGER * 2 + 1 },
        { m: 1, c: 2 },
      ],
    });
    expect(onRedis).toEqual(memory);
  });
});
