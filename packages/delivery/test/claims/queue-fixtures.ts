import type { Queryable } from '@herald/store';

/*
 * Deliveries written by statement, for the claim tests that need hundreds of subscriptions or a
 * write at a chosen moment (through the API, hundreds of subscriptions take minutes). Each copies a
 * delivery the router wrote, so every column is as the router writes it.
 */

const COPIED_COLUMNS = 'project_key, outbox_seq, payload, message_stored, committed_at';

/**
 * `count` more subscriptions named `prefix-1…`, each with a copy of `template`'s delivery, due at
 * `dueAt` (by default when the template's is). Answers their ids.
 */
export async function copiesOf(db: Queryable, template: string, prefix: string, count: number, dueAt?: Date): Promise<string[]> {
  await db.query(
    `INSERT INTO deliveries (${COPIED_COLUMNS}, subscription_id, event_id, created_at, due_at)
     SELECT ${COPIED_COLUMNS}, $2 || '-' || g, event_id, created_at, COALESCE($4, due_at)
     FROM deliveries, generate_series(1, $3::int) g WHERE subscription_id = $1`,
    [template, prefix, count, dueAt ?? null],
  );
  return Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`);
}

/** One more delivery of the subscription (a copy of one it has), as a router inserts it. */
export async function insertDelivery(db: Queryable, subscriptionId: string, eventId: string, dueAt: Date): Promise<void> {
  await db.query(
    `INSERT INTO deliveries (${COPIED_COLUMNS}, subscription_id, event_id, created_at, due_at)
     SELECT ${COPIED_COLUMNS}, subscription_id, $2, $3, $3 FROM deliveries WHERE subscription_id = $1 LIMIT 1`,
    [subscriptionId, eventId, dueAt],
  );
}
