import { ApiError } from '@herald/model';
import type { DocumentStore, Queryable } from '@herald/store';

/** §8: at most 50 subscriptions per project. */
export const MAX_SUBSCRIPTIONS_PER_PROJECT = 50;

/**
 * The namespace of the per-project advisory lock (the first key of the two-key form; the second is
 * the hash of the project key). Two-key locks never collide with the migrations' one-key lock, and
 * two projects whose keys hash alike only wait for each other's creates a moment.
 */
const SUBSCRIPTION_LIMIT_LOCK = 7_042_002;

/** 400 MaxResourceLimitExceeded when the project already has the maximum number of subscriptions. */
export async function requireRoomForSubscription(documents: DocumentStore, projectKey: string): Promise<void> {
  const existing = await documents.query(projectKey, 'subscription', { limit: 1, withTotal: true });
  if ((existing.total ?? 0) >= MAX_SUBSCRIPTIONS_PER_PROJECT) {
    throw new ApiError(400, {
      code: 'MaxResourceLimitExceeded',
      message: `A project can have at most ${MAX_SUBSCRIPTIONS_PER_PROJECT} subscriptions.`,
      exceededResource: 'subscription',
    });
  }
}

/**
 * Serialises the creates of a project until the transaction ends: concurrent creates count one
 * after the other, each seeing the inserts committed before it. The lock is transaction-scoped
 * (released by commit or rollback, on PostgreSQL and on PGlite alike).
 */
export async function lockSubscriptionCount(tx: Queryable, projectKey: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [SUBSCRIPTION_LIMIT_LOCK, projectKey]);
}
