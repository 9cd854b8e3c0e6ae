import { ApiError, type BaseResource, type MessagePayload } from '@herald/model';
import type { DocumentStore, ServerFields, WriteContext } from '@herald/store';

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
 * The document store the subscription routes write through. Its `create` enforces the §8 limit
 * atomically: in one transaction it takes a per-project advisory lock, counts, and inserts, so
 * concurrent creates in a project count one after the other and each sees the inserts committed
 * before it. The lock is transaction-scoped (released by commit or rollback, on PostgreSQL and on
 * PGlite alike) and is taken only here, after the draft's test notification went out, so no lock
 * is held across a network call. Everything else is the shared store unchanged.
 */
export function withSubscriptionLimit(documents: DocumentStore): DocumentStore {
  return Object.assign(Object.create(documents) as DocumentStore, {
    create<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      fields: Omit<D, ServerFields> & { id?: string },
      messages?: (doc: D) => MessagePayload[],
    ): Promise<D> {
      return documents.db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [SUBSCRIPTION_LIMIT_LOCK, ctx.projectKey]);
        const joined = documents.within(tx);
        await requireRoomForSubscription(joined, ctx.projectKey);
        return joined.create<D>(ctx, typeId, fields, messages);
      });
    },
  });
}
