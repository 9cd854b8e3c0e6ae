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

/*
 * The claim, fair between subscriptions:
 * - `subscriptions` skips through the (project_key, subscription_id, due_at, id) index from one
 *   subscription with pending deliveries to the next, landing on each one's oldest (one index probe
 *   per subscription, whatever its backlog);
 * - `heads` keeps those whose oldest delivery is due, the `limit` longest waiting first, with how
 *   many they have due (counted up to `limit`, on the index), leaving out the `excluded` ones (the
 *   worker's subscriptions with a send stuck at their destination);
 * - `shares` splits the batch like water poured over them: each gets the same share, and what one
 *   with fewer due deliveries leaves goes to the others (the level is the first, in ascending order
 *   of what they have, that what they have reaches);
 * - each then gives its share, oldest due first, locking only the rows it gives (`SKIP LOCKED`);
 *   the update finds them by primary key (`= ANY (ARRAY(…))`; a join lets the planner scan the table).
 * So a subscription with a million due deliveries takes half a batch next to one other subscription
 * with work, not all of it, as claiming the oldest due first across subscriptions did; and when
 * more subscriptions than `limit` have work, those whose deliveries waited longest get one each.
 */
const CLAIM_DUE_SQL = `
WITH RECURSIVE subscriptions AS (
  (SELECT project_key, subscription_id, due_at, id FROM deliveries ORDER BY project_key, subscription_id, due_at, id LIMIT 1)
  UNION ALL
  SELECT next.project_key, next.subscription_id, next.due_at, next.id FROM subscriptions s
  CROSS JOIN LATERAL (
    SELECT d.project_key, d.subscription_id, d.due_at, d.id FROM deliveries d
    WHERE (d.project_key, d.subscription_id) > (s.project_key, s.subscription_id)
    ORDER BY d.project_key, d.subscription_id, d.due_at, d.id LIMIT 1) next
), heads AS (
  SELECT s.project_key, s.subscription_id,
    (SELECT count(*) FROM (
       SELECT FROM deliveries d WHERE d.project_key = s.project_key AND d.subscription_id = s.subscription_id AND d.due_at <= $3
       LIMIT $4) due) AS available
  FROM subscriptions s
  WHERE s.due_at <= $3
    AND (s.project_key, s.subscription_id) NOT IN (SELECT * FROM unnest($5::text[], $6::text[]))
  ORDER BY s.due_at, s.id LIMIT $4
), levels AS (
  SELECT project_key, subscription_id, available,
    row_number() OVER smallest_first AS rank,
    ($4 - COALESCE(sum(available) OVER (smallest_first ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::numeric
      / (count(*) OVER () - row_number() OVER smallest_first + 1) AS level
  FROM heads
  WINDOW smallest_first AS (ORDER BY available, project_key, subscription_id)
), shares AS (
  SELECT project_key, subscription_id,
    LEAST(available, COALESCE(
      (SELECT floor(level) FROM levels WHERE available >= level ORDER BY rank LIMIT 1), available)) AS size
  FROM levels
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
 * subscriptions that have due deliveries, none of the `excluded` (see CLAIM_DUE_SQL). `now` comes
 * from the injected clock, never from the database.
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
  const deliveries = result.rows
    .map(toLeasedDelivery)
    .sort((a, b) => a.id - b.id);
  return { owner, expiresAt, deliveries };
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
  const result = await db.query(
    `UPDATE deliveries SET due_at = $2, lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1`,
    [owner, dueAt],
  );
  return result.rowCount;
}
