import { forgetRouteStarts, recordRouteStarts } from '@herald/delivery';
import type { BaseResource, MessagePayload } from '@herald/model';
import type { DeleteOptions, DocumentStore, Locator, ServerFields, TransactionReader, UpdateOptions, UpdateResult, WriteContext } from '@herald/store';
import type { StoredSubscription } from './definition.js';
import { lockSubscriptionCount, requireRoomForSubscription } from './limit.js';

/**
 * The document store the subscription routes write through: the shared store, plus what must
 * commit with a subscription document.
 * - create: the §8 limit, atomically (lock, count, insert in one transaction, taken only after the
 *   draft's test notification went out, so no lock is held across a network call);
 * - create and update: where routing starts for each filter entry (`recordRouteStarts`), so that
 *   a subscription never receives events committed before it, or before the entry was added;
 * - delete: those starts go with the subscription.
 */
export function subscriptionDocuments(documents: DocumentStore): DocumentStore {
  const overrides: Pick<DocumentStore, 'create' | 'update' | 'delete'> = {
    create<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      fields: Omit<D, ServerFields> & { id?: string },
      messages?: (doc: D) => MessagePayload[],
    ): Promise<D> {
      return documents.db.transaction(async (tx) => {
        await lockSubscriptionCount(tx, ctx.projectKey);
        const joined = documents.within(tx);
        await requireRoomForSubscription(joined, ctx.projectKey);
        const created = await joined.create<D>(ctx, typeId, fields, messages);
        await recordRouteStarts(tx, ctx.projectKey, undefined, created as unknown as StoredSubscription);
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
      return documents.update<D>(ctx, typeId, locator, expectedVersion, apply, {
        ...options,
        alongside: async (tx, previous, next) => {
          await options.alongside?.(tx, previous, next);
          await recordRouteStarts(tx, ctx.projectKey, previous as unknown as StoredSubscription, next as unknown as StoredSubscription);
        },
      });
    },

    delete<D extends BaseResource>(ctx: WriteContext, typeId: string, locator: Locator, expectedVersion: number, options?: DeleteOptions<D>): Promise<D> {
      return documents.db.transaction(async (tx) => {
        const deleted = await documents.within(tx).delete<D>(ctx, typeId, locator, expectedVersion, options);
        await forgetRouteStarts(tx, ctx.projectKey, deleted.id);
        return deleted;
      });
    },
  };
  return Object.assign(Object.create(documents) as DocumentStore, overrides);
}
