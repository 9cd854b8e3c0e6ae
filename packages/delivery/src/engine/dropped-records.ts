import { invalidInput, type DeliveryPayload } from '@herald/model';
import { parsePaging, type Database } from '@herald/store';
import type { DroppedPaging } from './admin.js';
import type { DropReason, DroppedDelivery, DroppedDeliveryPage, RecordedError } from './types.js';

/**
 * The project-level view of `dropped_deliveries` (issue 25): the drops of a subscription that no
 * longer exists (reason `SubscriptionDeleted`) cannot be reached through `/subscriptions/{id}/…`,
 * so they are listed, replayed to another subscription and purged by project, filtered by the
 * subscription they were dropped from and their reason.
 */

export interface DroppedRow {
  id: number | string;
  subscription_id: string;
  event_id: string;
  reason: DropReason;
  error_class: RecordedError['class'] | null;
  error_code: string | null;
  error_message: string | null;
  attempts: number;
  committed_at: Date | string;
  first_failure_at: Date | string | null;
  dropped_at: Date | string;
  payload: DeliveryPayload;
}

/** Which drop records of a project an operation applies to; every field narrows it. */
export interface DroppedFilter {
  subscriptionId?: string;
  reason?: DropReason;
  /** Drop record ids (`id` in a listing), at most 500. */
  ids?: readonly string[];
}

/** A drop record listed by project: the record plus the subscription it was dropped from. */
export interface ProjectDroppedDelivery extends DroppedDelivery {
  subscriptionId: string;
}

export interface ProjectDroppedDeliveryPage extends Omit<DroppedDeliveryPage, 'results'> {
  results: ProjectDroppedDelivery[];
}

export const DROPPED_COLUMNS = `id, subscription_id, event_id, reason, error_class, error_code, error_message, attempts,
  committed_at, first_failure_at, dropped_at, payload`;

const DROP_ID = /^\d{1,18}$/;

/** Rejects anything but the decimal ids listings give (they are bigint keys). */
export function checkDropIds(ids: readonly string[]): void {
  const invalid = ids.find((id) => !DROP_ID.test(id));
  if (invalid !== undefined) throw invalidInput(`'${invalid}' is not the id of a dropped delivery.`, { field: 'ids' });
}

/** `WHERE` text for a filter; its values are appended to `params` (the project key is `$1`). */
export function filterClause(projectKey: string, filter: DroppedFilter, params: unknown[]): string {
  params.push(projectKey);
  const conditions = [`project_key = $${params.length}`];
  const add = (sql: (placeholder: string) => string, value: unknown): void => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.subscriptionId !== undefined) add((p) => `subscription_id = ${p}`, filter.subscriptionId);
  if (filter.reason !== undefined) add((p) => `reason = ${p}`, filter.reason);
  if (filter.ids !== undefined) add((p) => `id = ANY(${p}::bigint[])`, filter.ids.map(Number));
  return conditions.join(' AND ');
}

/** Drop records of a project in the order they were dropped, paged like §4.4.2. */
export async function listProjectDrops(db: Database, projectKey: string, filter: DroppedFilter, paging: DroppedPaging): Promise<ProjectDroppedDeliveryPage> {
  const { limit, offset, withTotal } = parsePaging(paging);
  const params: unknown[] = [];
  const where = filterClause(projectKey, filter, params);
  const page = await db.query<DroppedRow>(
    `SELECT ${DROPPED_COLUMNS} FROM dropped_deliveries WHERE ${where}
     ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  const results = page.rows.map((row) => ({ ...toDroppedDelivery(row), subscriptionId: row.subscription_id }));
  const response: ProjectDroppedDeliveryPage = { limit, offset, count: results.length, results };
  if (!withTotal) return response;
  // A short page ends the list, so its total is known without counting.
  if (results.length < limit && (results.length > 0 || offset === 0)) {
    response.total = offset + results.length;
  } else {
    const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM dropped_deliveries WHERE ${where}`, params);
    response.total = counted.rows[0]?.total ?? 0;
  }
  return response;
}

/**
 * Moves the selected drop records into the pending deliveries of `targetSubscriptionId`, due now.
 * Only the event travels: the target's sender formats it for the target's destination and format
 * at send time. An event pending for the target already is not duplicated.
 */
export async function replayDropsTo(
  db: Database,
  projectKey: string,
  filter: DroppedFilter,
  targetSubscriptionId: string,
  now: Date,
): Promise<{ replayed: number }> {
  const params: unknown[] = [];
  const where = filterClause(projectKey, filter, params);
  const result = await db.query(
    `WITH moved AS (
       DELETE FROM dropped_deliveries WHERE ${where}
       RETURNING project_key, event_id, outbox_seq, payload, message_stored, committed_at)
     INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at,
       created_at, due_at)
     SELECT project_key, $${params.length + 1}, event_id, outbox_seq, payload, message_stored, committed_at,
       $${params.length + 2}, $${params.length + 2} FROM moved
     ON CONFLICT (project_key, subscription_id, event_id) DO NOTHING`,
    [...params, targetSubscriptionId, now],
  );
  return { replayed: result.rowCount };
}

/** Removes the selected drop records for good (before their 14-day retention ends). */
export async function purgeDrops(db: Database, projectKey: string, filter: DroppedFilter): Promise<{ purged: number }> {
  const params: unknown[] = [];
  const result = await db.query(`DELETE FROM dropped_deliveries WHERE ${filterClause(projectKey, filter, params)}`, params);
  return { purged: result.rowCount };
}

export function toDroppedDelivery(row: Omit<DroppedRow, 'subscription_id'>): DroppedDelivery {
  const dropped: DroppedDelivery = {
    id: String(row.id),
    eventId: row.event_id,
    reason: row.reason,
    attempts: row.attempts,
    committedAt: new Date(row.committed_at).toISOString(),
    droppedAt: new Date(row.dropped_at).toISOString(),
    payload: row.payload,
  };
  if (row.error_class !== null && row.error_code !== null) {
    dropped.error = { class: row.error_class, code: row.error_code, message: row.error_message ?? '' };
  }
  if (row.first_failure_at !== null) dropped.firstFailureAt = new Date(row.first_failure_at).toISOString();
  return dropped;
}
