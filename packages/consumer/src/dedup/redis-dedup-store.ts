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
  type PositionRef,
  type StreamPositions,
} from './dedup-store.js';
import { CLAIM_SCRIPT, COMPLETE_SCRIPT, READ_POSITIONS_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT } from './redis-scripts.js';

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
const READ_POSITIONS = script(READ_POSITIONS_SCRIPT);

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

/** Request indexes per owner; one consumer means one owner, a single group in request order. */
function indexesByOwner(items: readonly LeaseRef[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (let index = 0; index < items.length; index++) {
    const owner = (items[index] as LeaseRef).owner;
    const group = groups.get(owner);
    if (group) group.push(index);
    else groups.set(owner, [index]);
  }
  return groups;
}

/** The ends of a lane's position key (key layout 2, see redis-scripts.ts). */
const MESSAGES_POSITION_SUFFIX = ':pos:m';
const CHANGES_POSITION_SUFFIX = ':pos:c';

const CLAIMED: ClaimResult = Object.freeze({ status: 'claimed' });
const PROCESSED: ClaimResult = Object.freeze({ status: 'processed' });

/** `12,`, or `-,` without ordering (see redis-scripts.ts). */
function ordinalArgument(position: PositionRef | undefined): string {
  return position === undefined ? '-,' : `${position.ordinal},`;
}

/** Decodes CLAIM_SCRIPT's replies: integers, or the stored position (a string) of a late delivery. */
function parseClaimReply(reply: number | string, request: ClaimRequest): ClaimResult {
  if (typeof reply === 'string') return { status: 'late', storedOrdinal: Number(reply) };
  if (reply === 0) return CLAIMED;
  if (reply === -1) return PROCESSED;
  // Only a request with a position gets -2: its predecessor is what is stored.
  if (reply === -2) return { status: 'claimed', storedOrdinal: (request.position as PositionRef).ordinal - 1 };
  return { status: 'busy', retryAfterMs: reply };
}

/**
 * The dedup contract on Redis (ioredis), shared by all consumer instances. Multi-key Lua scripts
 * make each batch one atomic round trip; on Redis Cluster give a hash-tagged `keyPrefix`
 * (`{herald}`) so a batch's keys share a slot.
 */
export class RedisDedupStore implements DedupStore {
  readonly kind = 'redis';
  readonly keyPrefix: string;
  /** `keyPrefix:`, the start of every position key. */
  private readonly keyPrefixColon: string;
  readonly leaseMs: number;
  private readonly retentionMs: number;
  /**
   * Physical TTL of a delivery key, set at the claim and kept when it is marked processed: the
   * retention plus a lease, so the mark outlives the retention even after a long (renewed) handler.
   * Leases and retention are judged by the expiries stored in the values; the TTL only cleans up.
   */
  private readonly keyTtlMs: number;
  private readonly maxKeysPerCall: number;
  private readonly redis: Redis | Cluster;
  private readonly clock: Clock;

  constructor(deps: { readonly redis: Redis | Cluster; readonly clock?: Clock }, options: RedisDedupStoreOptions = {}) {
    const resolved = checkStoreOptions(options);
    this.redis = deps.redis;
    this.clock = deps.clock ?? systemClock;
    this.keyPrefix = resolved.keyPrefix;
    this.keyPrefixColon = `${resolved.keyPrefix}:`;
    this.leaseMs = resolved.leaseMs;
    this.retentionMs = resolved.processedRetentionMs;
    this.keyTtlMs = resolved.processedRetentionMs + resolved.leaseMs + KEY_TTL_GRACE_MS;
    this.maxKeysPerCall = options.maxKeysPerCall ?? 500;
  }

  /** A lane's position key (layout 2, see redis-scripts.ts); the delivery's own key stands in without ordering. */
  private positionKeyOf(request: ClaimRequest | CompleteRequest): string {
    const position = request.position;
    if (position === undefined) return request.key;
    // Two concatenations instead of a template's four: made twice per delivery (claim, completion).
    return this.keyPrefixColon + position.stream + (position.lane === 'm' ? MESSAGES_POSITION_SUFFIX : CHANGES_POSITION_SUFFIX);
  }

  /** The layout-1 hash of a stream's positions, read only (see READ_POSITIONS_SCRIPT). */
  private legacyPositionKey(stream: string): string {
    return `${this.keyPrefix}:${stream}:pos`;
  }

  async claim(requests: readonly ClaimRequest[]): Promise<ClaimResult[]> {
    const results: ClaimResult[] = new Array<ClaimResult>(requests.length);
    const now = this.clock.now();
    const calls: Promise<void>[] = [];
    for (const [owner, indexes] of indexesByOwner(requests)) {
      for (let start = 0; start < indexes.length; start += this.maxKeysPerCall) {
        const chunk = indexes.slice(start, start + this.maxKeysPerCall);
        // EVALSHA sha numkeys key… arg…: keys first, then the arguments, in one flat array.
        const keysAndArgs: string[] = new Array<string>(chunk.length * 2 + 5);
        const argsAt = chunk.length * 2;
        let positions = '';
        for (let position = 0; position < chunk.length; position++) {
          const item = requests[chunk[position] as number] as ClaimRequest;
          keysAndArgs[2 * position] = item.key;
          keysAndArgs[2 * position + 1] = this.positionKeyOf(item);
          positions += ordinalArgument(item.position);
        }
        keysAndArgs[argsAt] = String(now);
        keysAndArgs[argsAt + 1] = owner;
        keysAndArgs[argsAt + 2] = String(now + this.leaseMs);
        keysAndArgs[argsAt + 3] = String(this.keyTtlMs);
        keysAndArgs[argsAt + 4] = positions;
        calls.push(
          this.run(CLAIM, argsAt, keysAndArgs).then((reply) => {
            const replies = reply as (number | string)[];
            for (let position = 0; position < chunk.length; position++) {
              const index = chunk[position] as number;
              results[index] = parseClaimReply(replies[position] as number | string, requests[index] as ClaimRequest);
            }
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
          this.run(RENEW, keys.length, [...keys, owner, String(now + this.leaseMs), String(this.keyTtlMs)]).then((reply) => {
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
        calls.push(this.run(RELEASE, chunk.length, [...chunk.map(({ item }) => item.key), owner]));
      }
    }
    await Promise.all(calls);
  }

  async complete(requests: readonly CompleteRequest[]): Promise<void> {
    const calls: Promise<unknown>[] = [];
    const now = this.clock.now();
    for (const chunk of chunks(requests, this.maxKeysPerCall)) {
      const keysAndArgs: string[] = new Array<string>(chunk.length * 2 + 3);
      const argsAt = chunk.length * 2;
      let positions = '';
      for (let position = 0; position < chunk.length; position++) {
        const item = chunk[position] as CompleteRequest;
        keysAndArgs[2 * position] = item.key;
        keysAndArgs[2 * position + 1] = this.positionKeyOf(item);
        positions += ordinalArgument(item.position);
      }
      keysAndArgs[argsAt] = String(now + this.retentionMs);
      keysAndArgs[argsAt + 1] = String(this.keyTtlMs);
      keysAndArgs[argsAt + 2] = positions;
      calls.push(this.run(COMPLETE, argsAt, keysAndArgs));
    }
    await Promise.all(calls);
  }

  async readPositions(streams: readonly string[]): Promise<StreamPositions[]> {
    const results: StreamPositions[] = [];
    for (let start = 0; start < streams.length; start += this.maxKeysPerCall) {
      const chunk = streams.slice(start, start + this.maxKeysPerCall);
      const keys: string[] = [];
      for (const stream of chunk) keys.push(`${this.keyPrefix}:${stream}:pos:m`, `${this.keyPrefix}:${stream}:pos:c`, this.legacyPositionKey(stream));
      const reply = (await this.run(READ_POSITIONS, keys.length, keys)) as (string | null)[];
      for (let index = 0; index < chunk.length; index++) {
        const m = reply[2 * index];
        const c = reply[2 * index + 1];
        const positions: { m?: number; c?: number } = {};
        if (m !== null && m !== undefined) positions.m = Number(m);
        if (c !== null && c !== undefined) positions.c = Number(c);
        results.push(positions);
      }
    }
    return results;
  }

  /** EVALSHA, loading the script on first use (or after a SCRIPT FLUSH / failover). `keysAndArgs` holds `keyCount` keys, then the arguments. */
  private async run(lua: Script, keyCount: number, keysAndArgs: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(lua.sha, keyCount, keysAndArgs);
    } catch (error) {
      // Redis reports a missing script only through the reply text.
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return this.redis.eval(lua.source, keyCount, keysAndArgs);
      }
      throw error;
    }
  }
}
