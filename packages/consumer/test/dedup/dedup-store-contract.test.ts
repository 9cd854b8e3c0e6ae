import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryDedupStore, RedisDedupStore, type DedupStore, type DedupStoreOptions } from '../../src/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { redisForSuite, redisSkipReason } from '../support/redis.js';

type StoreFactory = (clock: ManualClock, options: DedupStoreOptions) => DedupStore;

const LEASE_MS = 1_000;
const RETENTION_MS = 60_000;

/** One suite, run against every store (style note 3: one conformance suite per port). */
function dedupStoreContract(name: string, factory: () => StoreFactory): void {
  describe(name, () => {
    let clock: ManualClock;
    let store: DedupStore;
    let key: (suffix: string) => string;

    beforeEach(() => {
      clock = new ManualClock();
      const prefix = `t-${randomUUID()}`;
      store = factory()(clock, { keyPrefix: prefix, leaseMs: LEASE_MS, processedRetentionMs: RETENTION_MS });
      key = (suffix) => `${prefix}:proj:business-unit:bu-1:${suffix}`;
    });

    it('lets exactly one of several claimers in, and reports busy with the time left', async () => {
      const results = await store.claim([
        { key: key('m:1'), owner: 'a' },
        { key: key('m:1'), owner: 'b' },
      ]);
      expect(results).toEqual([{ status: 'claimed' }, { status: 'busy', retryAfterMs: LEASE_MS }]);
      clock.advance(400);
      expect(await store.claim([{ key: key('m:1'), owner: 'c' }])).toEqual([{ status: 'busy', retryAfterMs: 600 }]);
    });

    it('hands an expired lease (a crashed owner) to the next claimer', async () => {
      await store.claim([{ key: key('m:1'), owner: 'crashed' }]);
      clock.advance(LEASE_MS);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toEqual([{ status: 'claimed' }]);
      expect(await store.renew([{ key: key('m:1'), owner: 'crashed' }])).toEqual([false]);
    });

    it('renews only for the owner, and the renewal pushes the expiry', async () => {
      await store.claim([{ key: key('m:1'), owner: 'a' }]);
      clock.advance(900);
      expect(
        await store.renew([
          { key: key('m:1'), owner: 'a' },
          { key: key('m:1'), owner: 'b' },
        ]),
      ).toEqual([true, false]);
      clock.advance(900);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toEqual([{ status: 'busy', retryAfterMs: 100 }]);
    });

    it('releases only the owner’s lease (compare-and-delete)', async () => {
      await store.claim([{ key: key('m:1'), owner: 'a' }]);
      await store.release([{ key: key('m:1'), owner: 'b' }]);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toMatchObject([{ status: 'busy' }]);
      await store.release([{ key: key('m:1'), owner: 'a' }]);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toEqual([{ status: 'claimed' }]);
    });

    it('remembers processed keys for the retention, then forgets them', async () => {
      await store.claim([{ key: key('m:1'), owner: 'a' }]);
      await store.complete([{ key: key('m:1') }]);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toEqual([{ status: 'processed' }]);
      await store.release([{ key: key('m:1'), owner: 'a' }]);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toEqual([{ status: 'processed' }]);
      clock.advance(RETENTION_MS);
      expect(await store.claim([{ key: key('m:1'), owner: 'b' }])).toEqual([{ status: 'claimed' }]);
    });

    it('raises positions monotonically, and claims deliveries behind them all the same, reported late', async () => {
      const stream = 'proj:business-unit:bu-1';
      expect(await store.readPositions([stream])).toEqual([{}]);
      await store.complete([
        { key: key('m:5'), position: { stream, lane: 'm', ordinal: 5 } },
        { key: key('m:3'), position: { stream, lane: 'm', ordinal: 3 } },
        { key: key('c:ResourceUpdated:4'), position: { stream, lane: 'c', ordinal: 8 } },
      ]);
      expect(await store.readPositions([stream, 'proj:business-unit:other'])).toEqual([{ m: 5, c: 8 }, {}]);
      const results = await store.claim([
        { key: key('m:4'), owner: 'a', position: { stream, lane: 'm', ordinal: 4 } },
        { key: key('m:5'), owner: 'a', position: { stream, lane: 'm', ordinal: 5 } },
        { key: key('m:6'), owner: 'a', position: { stream, lane: 'm', ordinal: 6 } },
        { key: key('c:ResourceUpdated:3'), owner: 'a', position: { stream, lane: 'c', ordinal: 6 } },
      ]);
      expect(results).toEqual([
        { status: 'late', storedOrdinal: 5 },
        { status: 'processed' },
        { status: 'claimed', storedOrdinal: 5 },
        { status: 'late', storedOrdinal: 8 },
      ]);
      // Late claims are claims: the lease is taken (another claimer is busy) and completes as usual.
      expect(await store.claim([{ key: key('m:4'), owner: 'b', position: { stream, lane: 'm', ordinal: 4 } }])).toEqual([
        { status: 'busy', retryAfterMs: LEASE_MS },
      ]);
      await store.complete([{ key: key('m:4'), position: { stream, lane: 'm', ordinal: 4 } }]);
      expect(await store.claim([{ key: key('m:4'), owner: 'b', position: { stream, lane: 'm', ordinal: 4 } }])).toEqual([{ status: 'processed' }]);
      expect(await store.readPositions([stream])).toEqual([{ m: 5, c: 8 }]);
    });

    it('reports the stored position with a claim right after it (its predecessor was processed), not with one further on', async () => {
      const stream = 'proj:quote-request:qr-1';
      const other = 'proj:quote-request:qr-2';
      await store.complete([
        { key: key('qr-1:m:3'), position: { stream, lane: 'm', ordinal: 3 } },
        { key: key('qr-2:m:3'), position: { stream: other, lane: 'm', ordinal: 3 } },
      ]);
      const results = await store.claim([
        { key: key('qr-1:m:4'), owner: 'a', position: { stream, lane: 'm', ordinal: 4 } },
        { key: key('qr-2:m:5'), owner: 'a', position: { stream: other, lane: 'm', ordinal: 5 } },
        { key: key('qr-3:m:2'), owner: 'a', position: { stream: 'proj:quote-request:qr-3', lane: 'm', ordinal: 2 } },
        { key: key('qr-1:m:9'), owner: 'a' },
      ]);
      expect(results).toEqual([{ status: 'claimed', storedOrdinal: 3 }, { status: 'claimed' }, { status: 'claimed' }, { status: 'claimed' }]);
    });

    it('keeps keys and streams apart whatever characters they hold', async () => {
      // Ids are strings: colons, dashes, digits, separators and non-ASCII must not blur one
      // delivery into the next, nor break a batch.
      // Quotes, backslashes, NUL and a lone surrogate too.
      const streams = [
        'proj:type:a:1',
        'proj:type:ü-9:c',
        'proj:type:1\n-m2:3',
        'proj:type::',
        'proj:type:"\\u0041\\',
        'proj:type:\u0000😀',
        'proj:type:\ud800x',
      ];
      const requests = streams.flatMap((stream, index) => [
        { key: key(`${stream}-m:${index}`), owner: 'a', position: { stream, lane: 'm' as const, ordinal: 10 + index } },
        { key: key(`${stream}-c:${index}`), owner: 'a', position: { stream, lane: 'c' as const, ordinal: 20 + index } },
        { key: key(`${stream}-plain`), owner: 'a' },
      ]);
      expect(await store.claim(requests)).toEqual(requests.map(() => ({ status: 'claimed' })));
      await store.complete(requests);
      expect(await store.readPositions(streams)).toEqual(streams.map((_, index) => ({ m: 10 + index, c: 20 + index })));
      expect(await store.claim(requests)).toEqual(requests.map(() => ({ status: 'processed' })));
    });

    it('answers a batch of many claims in order', async () => {
      const requests = Array.from({ length: 1_200 }, (_, index) => ({ key: key(`m:${index + 1}`), owner: index % 2 === 0 ? 'a' : 'b' }));
      await store.claim(requests.filter((_, index) => index % 3 === 0));
      const results = await store.claim(requests);
      results.forEach((result, index) => {
        expect(result.status).toBe(index % 3 === 0 ? 'busy' : 'claimed');
      });
    });
  });
}

dedupStoreContract('MemoryDedupStore', () => (clock, options) => new MemoryDedupStore({ clock }, options));

// The Redis store leaves positions to the key TTL (real time), so this is not part of the contract.
describe('MemoryDedupStore retention of positions', () => {
  it('forgets positions after the retention, like processed keys', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }, { leaseMs: LEASE_MS, processedRetentionMs: RETENTION_MS });
    const stream = 'proj:business-unit:bu-1';
    await store.complete([{ key: `herald:${stream}:m:1`, position: { stream, lane: 'm', ordinal: 1 } }]);
    clock.advance(RETENTION_MS - 1);
    expect(await store.readPositions([stream])).toEqual([{ m: 1 }]);
    clock.advance(1);
    expect(await store.readPositions([stream])).toEqual([{}]);
  });

  it('drops expired positions of streams never seen again (a long-running process sees many resources once)', async () => {
    const clock = new ManualClock();
    const store = new MemoryDedupStore({ clock }, { leaseMs: LEASE_MS, processedRetentionMs: RETENTION_MS });
    const completeOnce = async (stream: string) => {
      const request = { key: `herald:${stream}:m:1`, owner: 'a', position: { stream, lane: 'm' as const, ordinal: 1 } };
      await store.claim([request]);
      await store.complete([request]);
    };
    for (let index = 0; index < 2_000; index++) await completeOnce(`proj:order:o-${index}`);
    clock.advance(2 * RETENTION_MS);
    await completeOnce('proj:order:fresh');
    const internals = store as unknown as { keys: Map<string, unknown>; positions: Map<string, unknown> };
    expect(internals.keys.size).toBe(1);
    expect(internals.positions.size).toBe(1);
  });
});

const skipRedis = redisSkipReason();
if (skipRedis) console.warn(`[consumer] skipping RedisDedupStore contract: ${skipRedis}`);

describe.skipIf(skipRedis !== undefined)('on a real redis-server', () => {
  const redis = redisForSuite();

  dedupStoreContract('RedisDedupStore', () => (clock, options) => new RedisDedupStore({ redis: redis(), clock }, { ...options, maxKeysPerCall: 500 }));

  it('gives every key it writes a TTL past the retention, with or without a claim', async () => {
    const prefix = `t-${randomUUID()}`;
    const store = new RedisDedupStore({ redis: redis(), clock: new ManualClock() }, { keyPrefix: prefix, leaseMs: 1_000, processedRetentionMs: 60_000 });
    const stream = 'proj:business-unit:bu-ttl';
    const claimed = `${prefix}:${stream}:m:1`;
    const unclaimed = `${prefix}:${stream}:m:2`;
    await store.claim([{ key: claimed, owner: 'a', position: { stream, lane: 'm', ordinal: 1 } }]);
    await store.complete([
      { key: claimed, position: { stream, lane: 'm', ordinal: 1 } },
      // Completed without a claim, as a fail-open consumer does after the store came back.
      { key: unclaimed, position: { stream, lane: 'm', ordinal: 2 } },
    ]);
    for (const key of [claimed, unclaimed, `${prefix}:${stream}:pos:m`]) {
      const ttl = await redis().pttl(key);
      expect(ttl, key).toBeGreaterThan(60_000);
      expect(ttl, key).toBeLessThanOrEqual(60_000 + 1_000 + 60_000);
    }
  });

  it("keeps a lane's position in a string key of its own, its TTL re-armed by every completion (key layout 2)", async () => {
    const prefix = `t-${randomUUID()}`;
    const store = new RedisDedupStore({ redis: redis(), clock: new ManualClock() }, { keyPrefix: prefix, leaseMs: 1_000, processedRetentionMs: 60_000 });
    const keyTtlMs = 60_000 + 1_000 + 60_000;
    const stream = 'proj:business-unit:bu-layout';
    const complete = (suffix: string, lane: 'm' | 'c', ordinal: number) =>
      store.complete([{ key: `${prefix}:${stream}:${suffix}`, position: { stream, lane, ordinal } }]);
    await complete('m:3', 'm', 3);
    await complete('c:ResourceUpdated:4', 'c', 8);
    expect(await redis().mget(`${prefix}:${stream}:pos:m`, `${prefix}:${stream}:pos:c`)).toEqual(['3', '8']);
    expect(await redis().exists(`${prefix}:${stream}:pos`)).toBe(0);
    // As if most of the TTL had run out: the next completion of the lane re-arms it, even a late one's.
    await redis().pexpire(`${prefix}:${stream}:pos:m`, 30_000);
    await complete('m:2', 'm', 2);
    expect(await redis().get(`${prefix}:${stream}:pos:m`)).toBe('3');
    expect(await redis().pttl(`${prefix}:${stream}:pos:m`)).toBeGreaterThan(keyTtlMs - 5_000);
  });

  it('still reads positions stored by a consumer of key layout 1 (one hash per resource), the higher of both layouts per lane', async () => {
    const prefix = `t-${randomUUID()}`;
    const store = new RedisDedupStore({ redis: redis(), clock: new ManualClock() }, { keyPrefix: prefix });
    const [older, both] = ['proj:order:o-old', 'proj:order:o-both'];
    await redis().hset(`${prefix}:${older}:pos`, 'm', '7', 'c', '4');
    await redis().hset(`${prefix}:${both}:pos`, 'm', '9', 'c', '2');
    await store.complete([
      { key: `${prefix}:${both}:m:5`, position: { stream: both, lane: 'm', ordinal: 5 } },
      { key: `${prefix}:${both}:c:ResourceUpdated:3`, position: { stream: both, lane: 'c', ordinal: 6 } },
    ]);
    expect(await store.readPositions([older, both, 'proj:order:o-none'])).toEqual([{ m: 7, c: 4 }, { m: 9, c: 6 }, {}]);
  });

  it('loads its scripts again after SCRIPT FLUSH', async () => {
    const keyPrefix = `t-${randomUUID()}`;
    const store = new RedisDedupStore({ redis: redis(), clock: new ManualClock() }, { keyPrefix });
    const key = `${keyPrefix}:k-flush`;
    expect(await store.claim([{ key, owner: 'a' }])).toEqual([{ status: 'claimed' }]);
    await redis().script('FLUSH');
    expect(await store.claim([{ key, owner: 'b' }])).toMatchObject([{ status: 'busy' }]);
  });
});
