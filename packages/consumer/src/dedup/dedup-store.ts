/**
 * The deduplication and position port. Two states per delivery key:
 *
 *   (absent) ──claim──▶ processing(owner, lease) ──complete──▶ processed (kept for the retention)
 *                            │   ▲ renew (owner only)
 *                            └───┴─ release (owner only) / lease expiry ──▶ (absent)
 *
 * In the contract:
 * - `claim` is atomic per key: of concurrent claimers exactly one gets `claimed`; while its lease
 *   is alive the others get `busy` (with the time left), after it expired the next claim takes
 *   over (a crashed owner's delivery runs again); once processed, everyone gets `processed`.
 * - With a position, `claim` of a delivery at or behind the stream's stored position that was
 *   never processed claims it all the same and says so (`late`: a later delivery of its resource
 *   was processed first); nothing is ever refused for its position, only for its key (processed,
 *   or leased to another owner). A claim right after the stored position says that too (`claimed`
 *   with `storedOrdinal`). `complete` raises the position monotonically (never lowers it) in the
 *   same atomic step as marking processed.
 * - Every method takes a batch and costs one round trip for the whole batch.
 * - `release` and `renew` act only while the caller still owns the lease (compare-and-act).
 *
 * Deliberately out: ordering decisions (the consumer's sequencer makes them from positions),
 * retries (a store error rejects the whole batch; the consumer decides fail-closed or open).
 */
export interface DedupStore {
  readonly kind: 'redis' | 'memory';
  /** Namespace of the keys (`deduplicationKey(payload, keyPrefix)`). */
  readonly keyPrefix: string;
  /** How long a claim lives without renewal; the consumer renews at a third of it. */
  readonly leaseMs: number;
  claim(requests: readonly ClaimRequest[]): Promise<ClaimResult[]>;
  renew(leases: readonly LeaseRef[]): Promise<boolean[]>;
  release(leases: readonly LeaseRef[]): Promise<void>;
  complete(requests: readonly CompleteRequest[]): Promise<void>;
  /** The stored positions of resource streams (`resourceStreamKey`), in request order. */
  readPositions(streams: readonly string[]): Promise<StreamPositions[]>;
}

/** A lane of a resource stream: messages (by sequenceNumber) or changes (by version). */
export type PositionLane = 'm' | 'c';

/** Where a delivery sits in its resource's order. `ordinal` grows along the lane. */
export interface PositionRef {
  readonly stream: string;
  readonly lane: PositionLane;
  readonly ordinal: number;
}

export interface LeaseRef {
  readonly key: string;
  readonly owner: string;
}

export interface ClaimRequest extends LeaseRef {
  readonly position?: PositionRef;
}

/**
 * `claimed` and `late` both give the caller the lease; `late` adds that the delivery is at or
 * behind the stream's stored position (`storedOrdinal`): its handler is told (`context.late`).
 * `claimed` carries `storedOrdinal` when the stored position is the delivery's immediate
 * predecessor (`ordinal − 1`; ordinals up to 2^53): in a type-filtered messages lane that is the
 * one fact that lets a delivery go without a hold, and the claim reads the position anyway. A store
 * that leaves it out is still correct; such deliveries are then held briefly.
 */
export type ClaimResult =
  | { readonly status: 'claimed'; readonly storedOrdinal?: number }
  | { readonly status: 'late'; readonly storedOrdinal: number }
  | { readonly status: 'processed' }
  | { readonly status: 'busy'; readonly retryAfterMs: number };

export interface CompleteRequest {
  readonly key: string;
  readonly position?: PositionRef;
}

/** Last released ordinal per lane; absent when the stream has no stored position. */
export interface StreamPositions {
  readonly m?: number;
  readonly c?: number;
}

/** TTLs shared by both stores. */
export interface DedupStoreOptions {
  /** Namespace of every key; default `herald`. With Redis Cluster use a hash tag, e.g. `{herald}`. */
  readonly keyPrefix?: string;
  /** Lease of a claim; default 30 s. A crashed consumer's delivery runs again after this. */
  readonly leaseMs?: number;
  /** How long a processed key (and a stream position) is remembered; default 7 days. */
  readonly processedRetentionMs?: number;
}

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_PROCESSED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_KEY_PREFIX = 'herald';

export function checkStoreOptions(options: DedupStoreOptions): Required<DedupStoreOptions> {
  const resolved = {
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    processedRetentionMs: options.processedRetentionMs ?? DEFAULT_PROCESSED_RETENTION_MS,
  };
  if (!Number.isInteger(resolved.leaseMs) || resolved.leaseMs < 100) throw new RangeError('leaseMs must be an integer >= 100');
  if (!Number.isInteger(resolved.processedRetentionMs) || resolved.processedRetentionMs < resolved.leaseMs) {
    throw new RangeError('processedRetentionMs must be an integer >= leaseMs');
  }
  if (resolved.keyPrefix.length === 0) throw new RangeError('keyPrefix must not be empty');
  return resolved;
}
