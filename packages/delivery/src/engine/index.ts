/**
 * What the gateway uses of the delivery engine (router, sender, §3.3 health, §6.2 retry windows,
 * dropped-delivery records); everything else of `engine/` stays inside the package.
 *
 * The gateway's API (one object, works with or without a worker in the same process):
 *
 *   const admin = new DeliveryAdmin({ db, clock, logger });            // or worker.admin
 *   admin.getHealth(projectKey, subscriptionId): Promise<SubscriptionHealthStatus>   // Healthy when unknown
 *   admin.deliveryStatus(projectKey, subscriptionId): Promise<DeliveryStatus>
 *     // { pendingCount, oldestPendingAgeSeconds, lastError?: {class, code, message}, lastErrorAt? }
 *   admin.listDropped(projectKey, subscriptionId, { limit?, offset?, withTotal? }): Promise<DroppedDeliveryPage>
 *     // { limit, offset, count, total?, results: DroppedDelivery[] }; bad paging → ApiError 400 InvalidInput
 *   admin.replayDropped(projectKey, subscriptionId, ids: string[] | 'all'): Promise<{ replayed: number }>
 *   admin.markDestinationChanged(projectKey, subscriptionId): Promise<SubscriptionHealthStatus>  // after the test message
 *   admin.forgetSubscription(projectKey, subscriptionId, { key?, destinationType }?): Promise<{ dropped: number }>  // after delete
 *   admin.listProjectDropped(projectKey, { subscriptionId?, reason?, ids? }, paging?): Promise<ProjectDroppedDeliveryPage>
 *   admin.replayDroppedTo(projectKey, { subscriptionId, reason?, ids? }, targetSubscriptionId): Promise<{ replayed: number }>
 *   admin.purgeDropped(projectKey, { subscriptionId, reason?, ids? }): Promise<{ purged: number }>
 *
 * In the transaction that writes a subscription: recordRouteStarts(tx, …) after a create or an
 * update, forgetRouteStarts(tx, …) with a delete (where routing starts for each filter entry).
 */
export { DeliveryAdmin, type DeletedSubscriptionName, type DroppedPaging } from './admin.js';
export type { DroppedFilter, ProjectDroppedDeliveryPage } from './dropped-records.js';
export { recordRouteStarts, forgetRouteStarts } from './route-starts.js';
export { DROP_REASONS, PROJECT_ENVIRONMENTS, type DropReason, type DeliveryStatus, type DroppedDeliveryPage } from './types.js';
