import type { Destination, SubscriptionHealthStatus } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { DeliveryFailure } from '../destinations/port.js';
import type { HealthState } from './health.js';
import type { Lease } from './leases.js';
import type { DropReason, RecordedError } from './types.js';

/**
 * The SQL behind the sender's bookkeeping: acknowledged deliveries are deleted, failed ones are
 * rescheduled or moved into `dropped_deliveries` with their reason, and the §3.3 health row is
 * read under a row lock and written back. Every function runs on the caller's transaction.
 */

/** Longest error message kept (a destination may answer with a whole HTML page). */
const MAX_ERROR_MESSAGE_LENGTH = 1_000;

/**
 * A failure as it is written to the database. Its text comes from the destination (an error body,
 * a user-supplied URI), and PostgreSQL refuses U+0000 in text and jsonb: one such byte would roll
 * back the whole record — acknowledged deliveries resent, failed ones never rescheduled — so it is
 * replaced, as are lone surrogates (invalid in UTF-8), and the text is capped.
 */
export function recordedError(failure: DeliveryFailure): RecordedError {
  return { class: failure.class, code: storableText(failure.code, 200), message: storableText(failure.message, MAX_ERROR_MESSAGE_LENGTH) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storableText(text: string, maxLength: number): string {
  // Cut first: the cut may split a surrogate pair, which the replacement then mends.
  const capped = text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`;
  return capped.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATE, '\ufffd');
}

/** Acknowledged by the destination: gone, whoever holds the lease now (it was delivered). */
export async function deleteDelivered(tx: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query('DELETE FROM deliveries WHERE id = ANY($1::bigint[])', [ids], { prepare: true });
}

/**
 * The common case's one statement: deletes what was acknowledged and, in passing, reads whether the
 * subscription's health row says anything but Healthy (a worker's cached status may be a refresh
 * behind another worker's failure; the success must still heal it).
 */
export async function deleteDeliveredSeeingHealth(db: Queryable, ids: readonly number[], projectKey: string, subscriptionId: string): Promise<boolean> {
  const result = await db.query<{ unhealthy: boolean }>(
    `WITH deleted AS (DELETE FROM deliveries WHERE id = ANY($1::bigint[]))
     SELECT EXISTS (SELECT 1 FROM subscription_health WHERE project_key = $2 AND subscription_id = $3 AND status <> 'Healthy') AS unhealthy`,
    [ids, projectKey, subscriptionId],
    { prepare: true },
  );
  return result.rows[0]?.unhealthy === true;
}

/** Attempts and first failure of deliveries this lease still holds, as their rows have them now. */
export async function readAttempts(
  tx: Queryable,
  lease: { owner: string; expiresAt: Date },
  ids: readonly number[],
): Promise<Map<number, { attempts: number; firstFailureAt: Date | undefined }>> {
  const result = await tx.query<{ id: number | string; attempts: number; first_failure_at: Date | string | null }>(
    'SELECT id, attempts, first_failure_at FROM deliveries WHERE id = ANY($1::bigint[]) AND lease_owner = $2 AND lease_expires_at = $3',
    [ids, lease.owner, lease.expiresAt],
  );
  return new Map(
    result.rows.map((row) => [
      Number(row.id),
      { attempts: row.attempts, firstFailureAt: row.first_failure_at === null ? undefined : new Date(row.first_failure_at) },
    ]),
  );
}

/**
 * The subscription's destination as its document stores it now (secrets sealed), absent when the
 * subscription was deleted. Compared with the destination a send used, it tells whether that send
 * went to a destination `changeDestination` has since replaced.
 */
export async function readStoredDestination(tx: Queryable, projectKey: string, subscriptionId: string): Promise<Destination | undefined> {
  const result = await tx.query<{ destination: Destination }>(
    `SELECT doc->'destination' AS destination FROM resources WHERE project_key = $1 AND type_id = 'subscription' AND id = $2`,
    [projectKey, subscriptionId],
  );
  return result.rows[0]?.destination;
}

export interface Retry {
  id: number;
  dueAt: Date;
  firstFailureAt: Date;
  error: RecordedError;
}

/**
 * Failed, to be tried again at `dueAt`: counts the attempt, keeps the error, ends the lease.
 * Returns the retries written: not those whose lease expired meanwhile (another worker has them).
 */
export async function reschedule(tx: Queryable, lease: Pick<Lease, 'owner' | 'expiresAt'>, retries: readonly Retry[]): Promise<Retry[]> {
  if (retries.length === 0) return [];
  const rows = retries.map((retry) => ({
    id: retry.id,
    due_at: retry.dueAt.toISOString(),
    first_failure_at: retry.firstFailureAt.toISOString(),
    error_class: retry.error.class,
    error_code: retry.error.code,
    error_message: retry.error.message,
  }));
  const result = await tx.query(
    `UPDATE deliveries d SET due_at = r.due_at, attempts = d.attempts + 1,
       first_failure_at = COALESCE(d.first_failure_at, r.first_failure_at),
       last_error_class = r.error_class, last_error_code = r.error_code, last_error = r.error_message,
       lease_owner = NULL, lease_expires_at = NULL
     FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, due_at timestamptz, first_failure_at timestamptz,
       error_class text, error_code text, error_message text)
     WHERE d.id = r.id AND d.lease_owner = $2 AND d.lease_expires_at = $3
     RETURNING d.id`,
    [JSON.stringify(rows), lease.owner, lease.expiresAt],
  );
  const written = new Set(result.rows.map((row) => Number((row as { id: number | string }).id)));
  return written.size === retries.length ? [...retries] : retries.filter((retry) => written.has(retry.id));
}

export interface Drop {
  id: number;
  reason: DropReason;
  /** Attempts including the one that led to the drop. */
  attempts: number;
  firstFailureAt: Date | undefined;
  error: RecordedError | undefined;
}

const MOVED_COLUMNS = `project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, attempts,
  first_failure_at, reason, error_class, error_code, error_message, dropped_at`;

/** Moves leased deliveries into `dropped_deliveries` with their reasons (never silently). */
export async function dropLeased(
  tx: Queryable,
  lease: Pick<Lease, 'owner' | 'expiresAt'>,
  drops: readonly Drop[],
  now: Date,
): Promise<Map<DropReason, number>> {
  if (drops.length === 0) return new Map();
  const rows = drops.map((drop) => ({
    id: drop.id,
    reason: drop.reason,
    attempts: drop.attempts,
    first_failure_at: drop.firstFailureAt?.toISOString() ?? null,
    error_class: drop.error?.class ?? null,
    error_code: drop.error?.code ?? null,
    error_message: drop.error?.message ?? null,
  }));
  const result = await tx.query<{ reason: DropReason }>(
    `WITH moved AS (
       DELETE FROM deliveries d
       USING jsonb_to_recordset($1::jsonb) AS r(id bigint, reason text, attempts integer, first_failure_at timestamptz,
         error_class text, error_code text, error_message text)
       WHERE d.id = r.id AND d.lease_owner = $2 AND d.lease_expires_at = $3
       RETURNING d.project_key, d.subscription_id, d.event_id, d.outbox_seq, d.payload, d.message_stored, d.committed_at,
         r.attempts, COALESCE(d.first_failure_at, r.first_failure_at) AS first_failure_at,
         r.reason, r.error_class, r.error_code, r.error_message)
     INSERT INTO dropped_deliveries (${MOVED_COLUMNS})
     SELECT project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, attempts,
       first_failure_at, reason, error_class, error_code, error_message, $4 FROM moved
     RETURNING reason`,
    [JSON.stringify(rows), lease.owner, lease.expiresAt, now],
  );
  return countReasons(result.rows);
}

/**
 * Moves every pending delivery of a subscription into `dropped_deliveries` (§3.3 "undelivered
 * messages are dropped" on entering ConfigurationErrorDeliveryStopped; subscription deleted).
 * Deliveries leased by another worker are moved too: if that worker's send succeeds after all, its
 * delete finds nothing, and the event was delivered though recorded as dropped — never the reverse.
 */
export async function dropAllPending(
  tx: Queryable,
  projectKey: string,
  subscriptionId: string,
  reason: DropReason,
  error: RecordedError | undefined,
  now: Date,
): Promise<number> {
  const result = await tx.query(
    `WITH moved AS (
       DELETE FROM deliveries WHERE project_key = $1 AND subscription_id = $2
       RETURNING project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, attempts,
         first_failure_at, last_error_class, last_error_code, last_error)
     INSERT INTO dropped_deliveries (${MOVED_COLUMNS})
     SELECT project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, attempts, first_failure_at, $3,
       COALESCE(last_error_class, $4), COALESCE(last_error_code, $5), COALESCE(last_error, $6), $7 FROM moved`,
    [projectKey, subscriptionId, reason, error?.class ?? null, error?.code ?? null, error?.message ?? null, now],
  );
  return result.rowCount;
}

function countReasons(rows: readonly { reason: DropReason }[]): Map<DropReason, number> {
  const counts = new Map<DropReason, number>();
  for (const row of rows) counts.set(row.reason, (counts.get(row.reason) ?? 0) + 1);
  return counts;
}

interface HealthRow {
  status: SubscriptionHealthStatus;
  since: Date | string;
  last_error_class: RecordedError['class'] | null;
  last_error_code: string | null;
  last_error: string | null;
  last_error_at: Date | string | null;
}

const HEALTH_COLUMNS = 'status, since, last_error_class, last_error_code, last_error, last_error_at';

function toHealthState(row: HealthRow): HealthState {
  const state: HealthState = { status: row.status, since: new Date(row.since) };
  if (row.last_error_class !== null && row.last_error_code !== null) {
    state.lastError = { class: row.last_error_class, code: row.last_error_code, message: row.last_error ?? '' };
  }
  if (row.last_error_at !== null) state.lastErrorAt = new Date(row.last_error_at);
  return state;
}

/** The health row, absent when the subscription never failed. */
export async function readHealth(db: Queryable, projectKey: string, subscriptionId: string): Promise<HealthState | undefined> {
  const result = await db.query<HealthRow>(`SELECT ${HEALTH_COLUMNS} FROM subscription_health WHERE project_key = $1 AND subscription_id = $2`, [
    projectKey,
    subscriptionId,
  ]);
  const row = result.rows[0];
  return row === undefined ? undefined : toHealthState(row);
}

/**
 * The health row under a row lock (created Healthy first if missing), so that concurrent workers
 * apply their transitions one after another.
 */
export async function lockHealth(tx: Queryable, projectKey: string, subscriptionId: string, now: Date): Promise<HealthState> {
  await tx.query(
    `INSERT INTO subscription_health (project_key, subscription_id, status, since, updated_at)
     VALUES ($1, $2, 'Healthy', $3, $3) ON CONFLICT (project_key, subscription_id) DO NOTHING`,
    [projectKey, subscriptionId, now],
  );
  const result = await tx.query<HealthRow>(`SELECT ${HEALTH_COLUMNS} FROM subscription_health WHERE project_key = $1 AND subscription_id = $2 FOR UPDATE`, [
    projectKey,
    subscriptionId,
  ]);
  const row = result.rows[0];
  if (row === undefined) throw new Error(`health row of subscription ${subscriptionId} vanished under its lock`);
  return toHealthState(row);
}

export async function writeHealth(tx: Queryable, projectKey: string, subscriptionId: string, state: HealthState, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO subscription_health (project_key, subscription_id, ${HEALTH_COLUMNS}, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (project_key, subscription_id) DO UPDATE SET status = EXCLUDED.status, since = EXCLUDED.since,
       last_error_class = EXCLUDED.last_error_class, last_error_code = EXCLUDED.last_error_code,
       last_error = EXCLUDED.last_error, last_error_at = EXCLUDED.last_error_at, updated_at = EXCLUDED.updated_at`,
    [
      projectKey,
      subscriptionId,
      state.status,
      state.since,
      state.lastError?.class ?? null,
      state.lastError?.code ?? null,
      state.lastError?.message ?? null,
      state.lastErrorAt ?? null,
      now,
    ],
  );
}

export function sameHealth(a: HealthState, b: HealthState): boolean {
  return (
    a.status === b.status &&
    a.since.getTime() === b.since.getTime() &&
    a.lastError?.code === b.lastError?.code &&
    a.lastError?.message === b.lastError?.message &&
    a.lastErrorAt?.getTime() === b.lastErrorAt?.getTime()
  );
}
