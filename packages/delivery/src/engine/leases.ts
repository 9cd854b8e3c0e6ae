import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DeliveryPayload } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { LeasedDelivery } from './types.js';

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

/**
 * Claims up to `limit` due deliveries (oldest due first) for `owner` until `expiresAt`.
 * `now` comes from the injected clock, never from the database.
 */
export async function claimDue(
  db: Queryable,
  owner: string,
  now: Date,
  expiresAt: Date,
  limit: number,
): Promise<Lease | undefined> {
  const result = await db.query<LeasedRow>(
    `UPDATE deliveries d SET lease_owner = $1, lease_expires_at = $2, due_at = $2
     FROM (SELECT id FROM deliveries WHERE due_at <= $3 ORDER BY due_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) due
     WHERE d.id = due.id
     RETURNING d.id, d.project_key, d.subscription_id, d.event_id, d.payload, d.message_stored, d.committed_at, d.attempts,
       d.first_failure_at`,
    // Not prepared: a generic plan for `due_at <= $3` may be a sequential scan and sort of the
    // whole table, which a backlog (a destination down for hours) would make very expensive.
    [owner, expiresAt, now, limit],
  );
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
