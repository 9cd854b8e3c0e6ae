import { createHash } from 'node:crypto';
import type { Clock } from '@herald/model';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Most keys remembered; beyond it, keys whose bucket has refilled completely are forgotten. */
const MAX_KEYS = 10_000;
/**
 * Longer keys are remembered by their SHA-256: keys carry a client id as claimed by the caller
 * (up to ~12 KB of header), and 10,000 of those would pin ~120 MB. A hash, not a prefix, so that
 * long keys never share a bucket.
 */
const MAX_KEY_LENGTH = 128;

function storedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * A token bucket per key (the keys: oauth/routes.ts): `perMinute` requests per minute, bursts up
 * to the same number. In memory, per process: with N gateway processes a client gets up to N times
 * the rate, which is acceptable for §5.9's "excessive requests may be rate limited".
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  take(requestedKey: string): RateDecision {
    if (this.perMinute === 0) return { allowed: true };
    const key = storedKey(requestedKey);
    const now = this.clock.now().getTime();
    const bucket = this.refilled(this.buckets.get(key), now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.remember(key, bucket, now);
      return { allowed: true };
    }
    this.remember(key, bucket, now);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000)) };
  }

  /** Gives back one request taken from `key`: it turned out to be charged elsewhere. */
  refund(requestedKey: string): void {
    const bucket = this.buckets.get(storedKey(requestedKey));
    if (bucket !== undefined) bucket.tokens = Math.min(this.perMinute, bucket.tokens + 1);
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (bucket === undefined) return { tokens: this.perMinute, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    return { tokens: Math.min(this.perMinute, bucket.tokens + elapsed * this.refillPerMs), updatedAt: now };
  }

  private remember(key: string, bucket: Bucket, now: number): void {
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size <= MAX_KEYS) return;
    for (const [candidate, stored] of this.buckets) {
      if (this.refilled(stored, now).tokens >= this.perMinute) this.buckets.delete(candidate);
      if (this.buckets.size <= MAX_KEYS / 2) break;
    }
    // Everyone is mid-burst: drop the least recently seen (Map order) rather than grow without bound.
    for (const candidate of this.buckets.keys()) {
      if (this.buckets.size <= MAX_KEYS) break;
      this.buckets.delete(candidate);
    }
  }
}
