import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DeliveryPayload } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { LeasedDelivery, SubscriptionRef } from './types.js';

/**
 * A worker's hold on a set of pending deliveries. While held, `lease_owner` names the worker and
 * `due_at` = `lease_expires_at`: if the worker dies, the deliveries simply become due again when
 * the lease expires and any worker claims them (no sweeper, one index). A claim is identified by
 * (owner, expiry): two claims of one worker never share an expiry unless the first one's rows had
 * already expired, so updates conditioned on both never touch rows another claim took over.
 */
export interface Lease {
  owner: string;
  expiresAt: Date;
  deliveries: LeasedDelivery[];
}

/** A process-unique worker id: host, pid and a random suffix (pids repeat across containers). */
export function defaultWorkerId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** A deliveries row as a lease query returns it; fresh from the router it has no attempts yet. */
export interface LeasedRow {
  id: number | string;
  project_key: string;
  subscription_id: string;
  event_id: string;
  payload: DeliveryPayload;
  message_stored: boolean;
  committed_at: Date | string;
  attempts?: number;
  first_failure_at?: Date | string | null;
}

export function toLeasedDelivery(row: LeasedRow): LeasedDelivery {
  return {
    id: Number(row.id),
    projectKey: row.project_key,
    subscriptionId: row.subscription_id,
    eventId: row.event_id,
    payload: row.payload,
    messageStored: row.message_stored,
    committedAt: new Date(row.committed_at),
    attempts: row.attempts ?? 0,
    firstFailureAt: row.first_failure_at === null || row.first_failure_at === undefined ? undefined : new Date(row.first_failure_at),
  };
}

/** Deliveries per subscription (keyed `project\0subscription`), each group in the order given. */
export function bySubscription(deliveries: readonly LeasedDelivery[]): Map<string, LeasedDelivery[]> {
  const groups = new Map<string, LeasedDelivery[]>();
  for (const delivery of deliveries) {
    const key = `${delivery.projectKey}\u0000${delivery.subscriptionId}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [delivery]);
    else group.push(delivery);
  }
  return groups;
}

/*
 * The claim, fair between subscriptions:
 * - `queues` reads the queue rows (migration 010) whose `wake_at` has come, none of the `excluded`
 *   (the worker's subscriptions with a send stuck at their destination), each with its oldest
 *   pending delivery (one index probe): a subscription whose deliveries all wait for a retry later
 *   is not read at all. Every such row is read, not a window of the oldest: rows with nothing due
 *   (deliveries sent, or leased by a claim) or held by another claim running now must not keep a
 *   claim from the subscriptions behind them that have work;
 * - `idle`, `moved` and `emptied` settle the rows read with nothing due: each is moved to its
 *   subscription's oldest pending delivery's due time — a lease's expiry, a retry's time — or
 *   removed when none is pending, so that the next claims do not read it again before then. Only
 *   rows no writer touched since this statement read them (same `revision`, checked again on the
 *   row as it was committed): a delivery inserted meanwhile is not in this statement's snapshot, and
 *   moving past it would hide it until the later time. Rows another transaction holds (a writer
 *   lowering them, another claim settling them) are skipped, not waited for: left as they are they
 *   stay lower bounds. Rows with due deliveries stay; those whose deliveries this claim takes are
 *   settled by the next claim, which sees the leases. Settling in this statement, not in one after
 *   it, keeps it atomic with the claim (a failure leaves nothing leased to nobody) and one round trip;
 * - `heads` takes, the longest waiting first, up to `limit` of those whose oldest delivery is due,
 *   leaving out those whose due deliveries another claim running now holds every one of: each
 *   head's first free due delivery is locked (`SKIP LOCKED`) on the way, so that concurrent claims
 *   pass over each other's subscriptions instead of coming back empty. With each, how many it has
 *   due (counted up to `limit`, in index order so that the count stops there);
 * - `levels`, `water` and `shares` split the batch like water poured over them: what one with few
 *   due deliveries leaves goes to the others, and the rest is shared equally, the remainder of the
 *   division one each to those with the most due — the shares add up to `limit` when that many are due;
 * - each then gives its share, oldest due first, locking only the rows it gives (`SKIP LOCKED`);
 *   the update finds them by primary key (`= ANY (ARRAY(…))`; a join lets the planner scan the table).
 * So a subscription with a million due deliveries takes half a batch next to one other subscription
 * with work, not all of it, as claiming the oldest due first across subscriptions did; and when
 * more subscriptions than `limit` have work, those whose deliveries waited longest get one each.
 */
const CLAIM_DUE_SQL = `
WITH queues AS (
  SELECT q.project_key, q.subscription_id, q.revision, oldest.due_at, oldest.id FROM delivery_queues q
  LEFT JOIN LATERAL (
    SELECT d.due_at, d.id FROM deliveries d
    WHERE d.project_key = q.project_key AND d.subscription_id = q.subscription_id
    ORDER BY d.due_at, d.id LIMIT 1) oldest ON true
  WHERE q.wake_at <= $3 AND (q.project_key, q.subscription_id) NOT IN (SELECT * FROM unnest($5::text[], $6::text[]))
), idle AS (
  SELECT q.project_key, q.subscription_id, r.due_at AS next_due FROM delivery_queues q
  JOIN queues r ON r.project_key = q.project_key AND r.subscription_id = q.subscription_id AND r.revision = q.revision
  WHERE r.due_at IS NULL OR r.due_at > $3
  FOR UPDATE OF q SKIP LOCKED
), moved AS (
  UPDATE delivery_queues q SET wake_at = i.next_due FROM idle i
  WHERE q.project_key = i.project_key AND q.subscription_id = i.subscription_id AND i.next_due > q.wake_at
), emptied AS (
  DELETE FROM delivery_queues q USING idle i
  WHERE q.project_key = i.project_key AND q.subscription_id = i.subscription_id AND i.next_due IS NULL
), heads AS (
  SELECT s.project_key, s.subscription_id,
    (SELECT count(*) FROM (
       SELECT FROM deliveries d WHERE d.project_key = s.project_key AND d.subscription_id = s.subscription_id AND d.due_at <= $3
       ORDER BY d.due_at, d.id LIMIT $4::bigint) due) AS available
  FROM (
    SELECT * FROM queues WHERE due_at <= $3 ORDER BY due_at, id) s
  CROSS JOIN LATERAL (
    SELECT x.id FROM deliveries x
    WHERE x.project_key = s.project_key AND x.subscription_id = s.subscription_id AND x.due_at <= $3
    ORDER BY x.due_at, x.id LIMIT 1
    FOR UPDATE SKIP LOCKED) free
  LIMIT $4::bigint
), levels AS (
  SELECT project_key, subscription_id, available,
    row_number() OVER smallest_first AS rank,
    count(*) OVER () AS total,
    COALESCE(sum(available) OVER (smallest_first ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint AS before
  FROM heads
  WINDOW smallest_first AS (ORDER BY available, project_key, subscription_id)
), water AS (
  -- The first (fewest due first) to have at least an equal part of what the ones before it left:
  -- it and all after it share that rest.
  SELECT rank AS first, $4::bigint - before AS rest, total - rank + 1 AS sharing FROM levels
  WHERE available * (total - rank + 1) >= $4::bigint - before
  ORDER BY rank LIMIT 1
), shares AS (
  SELECT l.project_key, l.subscription_id,
    CASE WHEN w.first IS NULL OR l.rank < w.first THEN l.available
      ELSE w.rest / w.sharing + CASE WHEN l.rank > l.total - w.rest % w.sharing THEN 1 ELSE 0 END
    END AS size
  FROM levels l LEFT JOIN water w ON true
)
UPDATE deliveries d SET lease_owner = $1, lease_expires_at = $2, due_at = $2
WHERE d.id = ANY (ARRAY(
  SELECT picked.id FROM shares s
  CROSS JOIN LATERAL (
    SELECT x.id FROM deliveries x
    WHERE x.project_key = s.project_key AND x.subscription_id = s.subscription_id AND x.due_at <= $3
    ORDER BY x.due_at, x.id LIMIT s.size
    FOR UPDATE SKIP LOCKED) picked))
RETURNING d.id, d.project_key, d.subscription_id, d.event_id, d.payload, d.message_stored, d.committed_at, d.attempts,
  d.first_failure_at`;

/**
 * Claims up to `limit` due deliveries for `owner` until `expiresAt`, shared fairly between the
 * subscriptions that have due deliveries, none of the `excluded`, and settles the queue rows it
 * read with nothing due (see CLAIM_DUE_SQL). `now` comes from the injected clock, never from the
 * database.
 */
export async function claimDue(
  db: Queryable,
  owner: string,
  now: Date,
  expiresAt: Date,
  limit: number,
  excluded: readonly SubscriptionRef[] = [],
): Promise<Lease | undefined> {
  // Not prepared: a generic plan for `due_at <= $3` may scan far more of a backlog (a destination
  // down for hours) than the plan for the actual time.
  const result = await db.query<LeasedRow>(CLAIM_DUE_SQL, [
    owner,
    expiresAt,
    now,
    limit,
    excluded.map((ref) => ref.projectKey),
    excluded.map((ref) => ref.subscriptionId),
  ]);
  if (result.rows.length === 0) return undefined;
  const deliveries = result.rows.map(toLeasedDelivery).sort((a, b) => a.id - b.id);
  return { owner, expiresAt, deliveries };
}

/**
 * Whether a claim at `now` could find anything: a queue row whose wake time has come. Every pending
 * delivery has its subscription's queue row at or before its due time (migration 010), and the claim
 * reads and settles only such rows, so when there is none the claim would return nothing and change
 * nothing. One prepared probe of `delivery_queues_wake_idx`, where the claim (planned afresh each
 * time, see claimDue) cost PostgreSQL about 2 ms of planning alone.
 */
export async function anyQueueAwake(db: Queryable, now: Date): Promise<boolean> {
  const result = await db.query<{ awake: boolean }>('SELECT EXISTS (SELECT 1 FROM delivery_queues WHERE wake_at <= $1) AS awake', [now], { prepare: true });
  return result.rows[0]?.awake === true;
}

/** Gives deliveries of a lease back, due at `dueAt`, without counting an attempt (shutdown). */
export async function releaseLease(db: Queryable, lease: Pick<Lease, 'owner' | 'expiresAt'>, ids: readonly number[], dueAt: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.query(
    `UPDATE deliveries SET due_at = $4, lease_owner = NULL, lease_expires_at = NULL
     WHERE id = ANY($1::bigint[]) AND lease_owner = $2 AND lease_expires_at = $3`,
    [ids, lease.owner, lease.expiresAt, dueAt],
    { prepare: true },
  );
  return result.rowCount;
}

/** Gives back everything a worker still holds (graceful shutdown), due at `dueAt`. */
export async function releaseAllOf(db: Queryable, owner: string, dueAt: Date): Promise<number> {
  const result = await db.query(`UPDATE deliveries SET due_at = $2, lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1`, [owner, dueAt]);
  return result.rowCount;
}
