import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { systemClock, type Clock } from '../clock.js';
import {
  checkStoreOptions,
  type ClaimRequest,
  type ClaimResult,
  type CompleteRequest,
  type DedupStore,
  type DedupStoreOptions,
  type LeaseRef,
  type StreamPositions,
} from './dedup-store.js';
import { CLAIM_SCRIPT, COMPLETE_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT } from './redis-scripts.js';

export interface RedisDedupStoreOptions extends DedupStoreOptions {
  /** Most keys per script call; bigger batches are split (and sent together). Default 500. */
  readonly maxKeysPerCall?: number;
}

interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const CLAIM = script(CLAIM_SCRIPT);
const RENEW = script(RENEW_SCRIPT);
const RELEASE = script(RELEASE_SCRIPT);
const COMPLETE = script(COMPLETE_SCRIPT);

/**
 * How long a key outlives its logical expiry in Redis. Logical expiry follows the injected clock;
 * the grace keeps a slightly skewed clock (or a test's manual one) from losing a live key.
 */
const KEY_TTL_GRACE_MS = 60_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

function groupByOwner<T extends LeaseRef>(items: readonly T[]): Map<string, { item: T; index: number }[]> {
  const groups = new Map<string, { item: T; index: number }[]>();
  items.forEach((item, index) => {
    const group = groups.get(item.owner);
    if (group) group.push({ item, index });
    else groups.set(item.owner, [{ item, index }]);
  });
  return groups;
}

function parseClaimReply(reply: string): ClaimResult {
  if (reply === 'claimed') return { status: 'claimed' };
  if (reply === 'processed') return { status: 'processed' };
  if (reply.startsWith('busy:')) return { status: 'busy', retryAfterMs: Number(reply.slice(5)) };
  if (reply.startsWith('stale:')) return { status: 'stale', storedOrdinal: Number(reply.slice(6)) };
  throw new Error(`unexpected claim reply ${JSON.stringify(reply)}`);
}

/**
 * The dedup contract on Redis (ioredis), shared by all consumer instances. Multi-key Lua scripts
 * make each batch one atomic round trip; on Redis Cluster give a hash-tagged `keyPrefix`
 * (`{herald}`) so a batch's keys share a slot.
 */
export class RedisDedupStore implements DedupStore {
  readonly kind = 'redis';
  readonly keyPrefix: string;
  readonly leaseMs: number;
  private readonly retentionMs: number;
  /** Physical TTL of a processing key: its lease is judged by the stored expiry, this only cleans up. */
  private readonly leaseKeyTtlMs: number;
  private readonly maxKeysPerCall: number;
  private readonly redis: Redis | Cluster;
  private readonly clock: Clock;

  constructor(deps: { readonly redis: Redis | Cluster; readonly clock?: Clock }, options: RedisDedupStoreOptions = {}) {
    const resolved = checkStoreOptions(options);
    this.redis = deps.redis;
    this.clock = deps.clock ?? systemClock;
    this.keyPrefix = resolved.keyPrefix;
    this.leaseMs = resolved.leaseMs;
    this.retentionMs = resolved.processedRetentionMs;
    this.leaseKeyTtlMs = resolved.leaseMs + KEY_TTL_GRACE_MS;
    this.maxKeysPerCall = options.maxKeysPerCall ?? 500;
  }

  private positionKey(stream: string): string {
    return `${this.keyPrefix}:${stream}:pos`;
  }

  async claim(requests: readonly ClaimRequest[]): Promise<ClaimResult[]> {
    const results: ClaimResult[] = new Array<ClaimResult>(requests.length);
    const now = this.clock.now();
    const calls: Promise<void>[] = [];
    for (const [owner, group] of groupByOwner(requests)) {
      for (const chunk of chunks(group, this.maxKeysPerCall)) {
        const keys: string[] = [];
        const args: (string | number)[] = [now, owner, now + this.leaseMs, this.leaseKeyTtlMs];
        for (const { item } of chunk) {
          keys.push(item.key, item.position ? this.positionKey(item.position.stream) : item.key);
          args.push(item.position?.lane ?? '', item.position?.ordinal ?? 0);
        }
        calls.push(
          this.run(CLAIM, keys, args).then((reply) => {
            const replies = reply as string[];
            chunk.forEach(({ index }, position) => {
              results[index] = parseClaimReply(replies[position] as string);
            });
          }),
        );
      }
    }
    await Promise.all(calls);
    return results;
  }

  async renew(leases: readonly LeaseRef[]): Promise<boolean[]> {
    const results: boolean[] = new Array<boolean>(leases.length).fill(false);
    const now = this.clock.now();
    const calls: Promise<void>[] = [];
    for (const [owner, group] of groupByOwner(leases)) {
      for (const chunk of chunks(group, this.maxKeysPerCall)) {
        const keys = chunk.map(({ item }) => item.key);
        calls.push(
          this.run(RENEW, keys, [owner, now + this.leaseMs, this.leaseKeyTtlMs]).then((reply) => {
            const replies = reply as number[];
            chunk.forEach(({ index }, position) => {
              results[index] = replies[position] === 1;
            });
          }),
        );
      }
    }
    await Promise.all(calls);
    return results;
  }

  async release(leases: readonly LeaseRef[]): Promise<void> {
    const calls: Promise<unknown>[] = [];
    for (const [owner, group] of groupByOwner(leases)) {
      for (const chunk of chunks(group, this.maxKeysPerCall)) {
        calls.push(this.run(RELEASE, chunk.map(({ item }) => item.key), [owner]));
      }
    }
    await Promise.all(calls);
  }

  async complete(requests: readonly CompleteRequest[]): Promise<void> {
    const calls: Promise<unknown>[] = [];
    const retainedUntil = this.clock.now() + this.retentionMs;
    for (const chunk of chunks(requests, this.maxKeysPerCall)) {
      const keys: string[] = [];
      const args: (string | number)[] = [retainedUntil, this.retentionMs + KEY_TTL_GRACE_MS];
      for (const item of chunk) {
        keys.push(item.key, item.position ? this.positionKey(item.position.stream) : item.key);
        args.push(item.position?.lane ?? '', item.position?.ordinal ?? 0);
      }
      calls.push(this.run(COMPLETE, keys, args));
    }
    await Promise.all(calls);
  }

  async readPositions(streams: readonly string[]): Promise<StreamPositions[]> {
    if (streams.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const stream of streams) pipeline.hmget(this.positionKey(stream), 'm', 'c');
    const replies = (await pipeline.exec()) ?? [];
    return streams.map((_, index) => {
      const [error, value] = replies[index] ?? [new Error('no reply'), null];
      if (error) throw error;
      const [m, c] = value as [string | null, string | null];
      const positions: { m?: number; c?: number } = {};
      if (m !== null) positions.m = Number(m);
      if (c !== null) positions.c = Number(c);
      return positions;
    });
  }

  /** EVALSHA, loading the script on first use (or after a SCRIPT FLUSH / failover). */
  private async run(lua: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(lua.sha, keys.length, ...keys, ...args);
    } catch (error) {
      // Redis reports a missing script only through the reply text.
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return this.redis.eval(lua.source, keys.length, ...keys, ...args);
      }
      throw error;
    }
  }
}
