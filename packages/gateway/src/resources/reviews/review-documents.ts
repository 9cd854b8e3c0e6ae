import type { DocumentStore, Queryable } from '@herald/store';
import { withWriteFollowers } from '../shared/write-followers.js';
import { assertUniquenessValueFree } from './fields.js';
import type { Review } from './review.js';
import { refreshStatistics } from './statistics.js';

/** Serialises writes of one `uniquenessValue`, so two racing reviews cannot both find it free. */
const UNIQUENESS_LOCK = 0x52_45_56; // "REV"

async function checkUniqueness(tx: Queryable, projectKey: string, review: Review): Promise<void> {
  if (review.uniquenessValue === undefined) return;
  await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [UNIQUENESS_LOCK, `${projectKey}/${review.uniquenessValue}`]);
  await assertUniquenessValueFree(tx, projectKey, review);
}

/**
 * The document store the review routes write through: each write commits in one transaction with
 * what follows from it —
 * - `uniquenessValue` checked free (400 DuplicateField) under a lock on that value;
 * - the target's `reviewRatingStatistics` recomputed (statistics.ts) when the review counted before
 *   or counts now, in the same transaction as the review change.
 * Updates stay optimistic or locked as asked: `alongside` runs in the write's transaction either way.
 */
export function reviewDocuments(documents: DocumentStore): DocumentStore {
  return withWriteFollowers<Review>(documents, {
    async afterCreate({ ctx, tx }, review) {
      await checkUniqueness(tx, ctx.projectKey, review);
      await refreshStatistics(tx, ctx.projectKey, undefined, review);
    },
    async alongsideUpdate({ ctx, tx }, before, after) {
      if (before.uniquenessValue !== after.uniquenessValue) await checkUniqueness(tx, ctx.projectKey, after);
      await refreshStatistics(tx, ctx.projectKey, before, after);
    },
    afterDelete: ({ ctx, tx }, review) => refreshStatistics(tx, ctx.projectKey, review, undefined),
  });
}
