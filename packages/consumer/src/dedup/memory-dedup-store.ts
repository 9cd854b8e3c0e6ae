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

const CLAIMED: ClaimResult = Object.freeze({ status: 'claimed' });
const PROCESSED: ClaimResult = Object.freeze({ status: 'processed' });

/** Is `stored` the immediate predecessor of `ordinal` (exactly, so only below 2^53; see ClaimResult)? */
function followsStored(ordinal: number, stored: number): boolean {
  return Number.isSafeInteger(ordinal) && stored === ordinal - 1;
}

type KeyState =
  { readonly state: 'processing'; readonly owner: string; readonly expiresAt: number } | { readonly state: 'processed'; readonly expiresAt: number };

interface StoredPositions {
  m?: number;
  c?: number;
  expiresAt: number;
}

/**
 * Entries in the order they were written. The retention is the same for all, so the oldest are at
 * the head: expiring them is amortised O(1) instead of a scan.
 */
class ExpiryQueue {
  private items: { id: string; expiresAt: number }[] = [];
  private head = 0;

  push(id: string, expiresAt: number): void {
    this.items.push({ id, expiresAt });
  }

  /** Calls `expire` for each entry due at `now`, oldest first. */
  drain(now: number, expire: (id: string) => void): void {
    while (this.head < this.items.length) {
      const item = this.items[this.head] as { id: string; expiresAt: number };
      if (item.expiresAt > now) break;
      expire(item.id);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * The dedup contract in process memory: for tests and for a single consumer process. Not shared
 * across processes and lost on restart (a restart then reprocesses what is redelivered).
 * Expiry follows the injected clock.
 */
export class MemoryDedupStore implements DedupStore {
  readonly kind = 'memory';
  readonly keyPrefix: string;
  readonly leaseMs: number;
  private readonly retentionMs: number;
  private readonly clock: Clock;
  private readonly keys = new Map<string, KeyState>();
  private readonly positions = new Map<string, StoredPositions>();
  private readonly keyExpiries = new ExpiryQueue();
  /** Without it, a long-running process would keep the position of every resource it ever saw. */
  private readonly positionExpiries = new ExpiryQueue();

  constructor(deps: { readonly clock?: Clock } = {}, options: DedupStoreOptions = {}) {
    const resolved = checkStoreOptions(options);
    this.clock = deps.clock ?? systemClock;
    this.keyPrefix = resolved.keyPrefix;
    this.leaseMs = resolved.leaseMs;
    this.retentionMs = resolved.processedRetentionMs;
  }

  async claim(requests: readonly ClaimRequest[]): Promise<ClaimResult[]> {
    const now = this.clock.now();
    this.expire(now);
    return requests.map((request) => {
      const current = this.liveState(request.key, now);
      if (current?.state === 'processed') return PROCESSED;
      if (current?.state === 'processing') return { status: 'busy', retryAfterMs: current.expiresAt - now } as const;
      this.keys.set(request.key, { state: 'processing', owner: request.owner, expiresAt: now + this.leaseMs });
      if (request.position) {
        const stored = this.livePositions(request.position.stream, now)?.[request.position.lane];
        if (stored !== undefined && request.position.ordinal <= stored) return { status: 'late', storedOrdinal: stored } as const;
        if (stored !== undefined && followsStored(request.position.ordinal, stored)) return { status: 'claimed', storedOrdinal: stored } as const;
      }
      return CLAIMED;
    });
  }

  async renew(leases: readonly LeaseRef[]): Promise<boolean[]> {
    const now = this.clock.now();
    return leases.map((lease) => {
      const current = this.keys.get(lease.key);
      if (current?.state !== 'processing' || current.owner !== lease.owner) return false;
      this.keys.set(lease.key, { state: 'processing', owner: lease.owner, expiresAt: now + this.leaseMs });
      return true;
    });
  }

  async release(leases: readonly LeaseRef[]): Promise<void> {
    for (const lease of leases) {
      const current = this.keys.get(lease.key);
      if (current?.state === 'processing' && current.owner === lease.owner) this.keys.delete(lease.key);
    }
  }

  async complete(requests: readonly CompleteRequest[]): Promise<void> {
    const now = this.clock.now();
    const expiresAt = now + this.retentionMs;
    for (const request of requests) {
      this.keys.set(request.key, { state: 'processed', expiresAt });
      this.keyExpiries.push(request.key, expiresAt);
      if (request.position) {
        const { stream, lane, ordinal } = request.position;
        const stored = this.livePositions(stream, now) ?? { expiresAt };
        if (stored[lane] === undefined || ordinal > (stored[lane] as number)) stored[lane] = ordinal;
        stored.expiresAt = expiresAt;
        this.positions.set(stream, stored);
        this.positionExpiries.push(stream, expiresAt);
      }
    }
  }

  async readPositions(streams: readonly string[]): Promise<StreamPositions[]> {
    const now = this.clock.now();
    return streams.map((stream) => {
      const stored = this.livePositions(stream, now);
      if (stored === undefined) return {};
      const positions: { m?: number; c?: number } = {};
      if (stored.m !== undefined) positions.m = stored.m;
      if (stored.c !== undefined) positions.c = stored.c;
      return positions;
    });
  }

  private liveState(key: string, now: number): KeyState | undefined {
    const current = this.keys.get(key);
    if (current === undefined) return undefined;
    if (current.expiresAt <= now) {
      this.keys.delete(key);
      return undefined;
    }
    return current;
  }

  private livePositions(stream: string, now: number): StoredPositions | undefined {
    const stored = this.positions.get(stream);
    if (stored === undefined) return undefined;
    if (stored.expiresAt <= now) {
      this.positions.delete(stream);
      return undefined;
    }
    return stored;
  }

  private expire(now: number): void {
    // A key or stream may have been written again later: only the entry that set its current
    // expiry removes it.
    this.keyExpiries.drain(now, (key) => {
      const current = this.keys.get(key);
      if (current?.state === 'processed' && current.expiresAt <= now) this.keys.delete(key);
    });
    this.positionExpiries.drain(now, (stream) => {
      const stored = this.positions.get(stream);
      if (stored !== undefined && stored.expiresAt <= now) this.positions.delete(stream);
    });
  }
}
