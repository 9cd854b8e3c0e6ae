/**
 * The delivery engine of `@herald/delivery`: router (outbox → pending deliveries), sender (leases →
 * destinations), §3.3 health, §6.2 retry windows, dropped-delivery records, metrics, worker.
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
 *
 * Running delivery in-process (`herald serve` unless HERALD_DELIVERY=off):
 *
 *   const worker = startDeliveryWorker({ db, logger, adapters: pool, clock?, registry?, secrets?, outboxSignal? },
 *                                      { workerId?, routeBatchSize?, sendBatchSize?, leaseMs?, … });
 *   worker.admin; worker.wake(); worker.healthy(); await worker.stop();
 */
export { DeliveryAdmin, type DeliveryAdminDeps, type DeletedSubscriptionName, type DroppedPaging } from './admin.js';
export type { DroppedFilter, ProjectDroppedDelivery, ProjectDroppedDeliveryPage } from './dropped-records.js';
export type { DestinationAdapterSource } from './adapters.js';
export { DeliveryEngine, DEFAULT_ENGINE_OPTIONS, type DeliveryEngineDeps, type DeliveryEngineOptions } from './engine.js';
export {
  nextHealth,
  initialHealth,
  configurationWindowEnd,
  type HealthState,
  type HealthEvent,
  type HealthContext,
  type HealthTransition,
} from './health.js';
export { subscriptionMatches, type RoutableEvent } from './matching.js';
export { recordRouteStarts, forgetRouteStarts } from './route-starts.js';
export {
  DEFAULT_RETRY_POLICY,
  createRetryPolicy,
  retryDelayMs,
  decideAfterFailure,
  type RetryPolicy,
  type RetryPolicyOptions,
  type FailureDecision,
  type FailureContext,
} from './retry-policy.js';
export { Router, type HandOff, type RouteResult, type RouterOptions } from './router.js';
export { Sender, type SendResult, type SenderOptions } from './sender.js';
export { Maintenance, type MaintenanceResult } from './maintenance.js';
export { SubscriptionCache, type ProjectSubscriptions } from './subscription-cache.js';
export {
  DROP_REASONS,
  PROJECT_ENVIRONMENTS,
  projectEnvironment,
  type DropReason,
  type ProjectEnvironment,
  type RecordedError,
  type DroppedDelivery,
  type DroppedDeliveryPage,
  type DeliveryStatus,
} from './types.js';
export { DeliveryMetrics, type DeliveryGaugeSnapshot, type DeliveryMetricsDeps } from '../metrics/delivery-metrics.js';
export { DELIVERY_METRIC, DELIVERY_METRIC_NAMES, PROCESS_METRIC, PROCESS_METRIC_NAMES } from '../metrics/names.js';
export {
  DATABASE_PROBE_TIMEOUT_MS,
  registerProcessMetrics,
  type ProcessMetricsDeps,
  type ProcessMetricsOptions,
} from '../metrics/process-metrics.js';
export { SubscriptionMeter, type DestinationLabel, type SubscriptionIdentity } from '../metrics/subscription-meter.js';
export {
  startDeliveryWorker,
  type DeliveryWorker,
  type DeliveryWorkerDeps,
  type DeliveryWorkerOptions,
  type OutboxSignal,
} from '../worker/worker.js';
export { listenForOutbox, OUTBOX_CHANNEL, type ListeningOutboxSignal } from '../worker/pg-listen.js';
export { parseWorkerConfig, WORKER_VARIABLES, WorkerConfigError, type WorkerConfig } from '../worker/config.js';
