import type { BaseResource, MessagePayload } from '@herald/model';
import type {
  DeleteOptions,
  DocumentStore,
  Locator,
  Queryable,
  ServerFields,
  TransactionReader,
  UpdateOptions,
  UpdateResult,
  WriteContext,
} from '@herald/store';
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
 */
export function reviewDocuments(documents: DocumentStore): DocumentStore {
  const overrides: Pick<DocumentStore, 'create' | 'update' | 'delete'> = {
    create<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      fields: Omit<D, ServerFields> & { id?: string },
      messages?: (doc: D) => MessagePayload[],
    ): Promise<D> {
      return documents.db.transaction(async (tx) => {
        const created = await documents.within(tx).create<D>(ctx, typeId, fields, messages);
        const review = created as unknown as Review;
        await checkUniqueness(tx, ctx.projectKey, review);
        await refreshStatistics(tx, ctx.projectKey, undefined, review);
        return created;
      });
    },

    update<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      locator: Locator,
      expectedVersion: number,
      apply: (current: D, reader: TransactionReader) => Promise<UpdateResult<D>> | UpdateResult<D>,
      options: UpdateOptions<D> = {},
    ): Promise<D> {
      // Optimistic or locked as asked: `alongside` runs in the write's transaction either way.
      return documents.update<D>(ctx, typeId, locator, expectedVersion, apply, {
        ...options,
        alongside: async (tx, previous, next) => {
          await options.alongside?.(tx, previous, next);
          const [before, after] = [previous as unknown as Review, next as unknown as Review];
          if (before.uniquenessValue !== after.uniquenessValue) await checkUniqueness(tx, ctx.projectKey, after);
          await refreshStatistics(tx, ctx.projectKey, before, after);
        },
      });
    },

    delete<D extends BaseResource>(ctx: WriteContext, typeId: string, locator: Locator, expectedVersion: number, options?: DeleteOptions<D>): Promise<D> {
      return documents.db.transaction(async (tx) => {
        const deleted = await documents.within(tx).delete<D>(ctx, typeId, locator, expectedVersion, options);
        await refreshStatistics(tx, ctx.projectKey, deleted as unknown as Review, undefined);
        return deleted;
      });
    },
  };
  return Object.assign(Object.create(documents) as DocumentStore, overrides);
}
