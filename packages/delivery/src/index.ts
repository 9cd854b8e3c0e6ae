/**
 * The surface of `@herald/delivery`: what the gateway (and its tests and benches) use, by name.
 * Everything else is the package's own; its tests import the modules themselves.
 */

// Destinations (§2.4): validating and answering a destination, its test notification, the adapters' pool.
export { normalizeDestination } from './destinations/normalize.js';
export { answerDestination } from './destinations/answer.js';
export { sendTestNotification } from './destinations/test-notification.js';
export { DestinationPool } from './destinations/pool.js';
export { createDestinationEnvironment, type DestinationEnvironmentOptions } from './destinations/environment.js';
export { validateFormat } from './format/validate.js';

// Secrets at rest (HERALD_SECRET_KEY): destination secrets and the gateway's own.
export { AesGcmSecretBox, looksSealed, plainSecretBox, secretBoxFor, type SecretBox } from './secrets/secret-box.js';
export { openDestination, sealDestination } from './secrets/destination-secrets.js';

// The engine as the gateway's subscription routes drive it (engine/index.ts describes the calls).
export {
  DeliveryAdmin,
  DROP_REASONS,
  forgetRouteStarts,
  PROJECT_ENVIRONMENTS,
  recordRouteStarts,
  type DeletedSubscriptionName,
  type DeliveryStatus,
  type DroppedDeliveryPage,
  type DroppedFilter,
  type DroppedPaging,
  type DropReason,
  type ProjectDroppedDeliveryPage,
} from './engine/index.js';

// Metrics the gateway registers on its own registry (in-process delivery, HERALD_DELIVERY=off).
export { DeliveryMetrics } from './metrics/delivery-metrics.js';
export { DELIVERY_METRIC_NAMES, PROCESS_METRIC_NAMES } from './metrics/names.js';
export { registerProcessMetrics } from './metrics/process-metrics.js';

/*
 * Running delivery in-process (`herald serve` unless HERALD_DELIVERY=off): startDeliveryRuntime from
 * the worker configuration, or, in tests,
 *
 *   const worker = startDeliveryWorker({ db, logger, adapters: pool, clock?, registry?, secrets?, outboxSignal? },
 *                                      { workerId?, routeBatchSize?, sendBatchSize?, leaseMs?, … });
 *   worker.admin; worker.wake(); worker.healthy(); await worker.stop();
 */
export { parseWorkerConfig, WORKER_VARIABLES, type WorkerConfig } from './worker/config.js';
export { startDeliveryRuntime, destinationPoolFor, type DeliveryRuntime } from './worker/runtime.js';
export { startDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from './worker/worker.js';
