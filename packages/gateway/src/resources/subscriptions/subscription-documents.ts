import { forgetRouteStarts, recordRouteStarts } from '@herald/delivery';
import type { DocumentStore } from '@herald/store';
import { withWriteFollowers } from '../shared/write-followers.js';
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
  return withWriteFollowers<StoredSubscription>(documents, {
    async beforeCreate({ ctx, tx, joined }, fields) {
      await lockSubscriptionCount(tx, ctx.projectKey);
      await requireRoomForSubscription(joined, ctx.projectKey);
      return { fields };
    },
    afterCreate: ({ ctx, tx }, created) => recordRouteStarts(tx, ctx.projectKey, undefined, created),
    alongsideUpdate: ({ ctx, tx }, previous, next) => recordRouteStarts(tx, ctx.projectKey, previous, next),
    afterDelete: ({ ctx, tx }, deleted) => forgetRouteStarts(tx, ctx.projectKey, deleted.id),
  });
}
