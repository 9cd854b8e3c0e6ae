import { SUBSCRIBABLE_RESOURCE_TYPE_IDS } from '@herald/model';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DeliverySource } from '../delivery.js';
import type { PositionLane } from '../dedup/dedup-store.js';
import type { ParseErrorReason } from '../parse/parse-error.js';

/** Every metric the consumer registers; dashboards and alerts can be validated against it. */
export const CONSUMER_METRIC_NAMES = [
  'herald_consumer_received_total',
  'herald_consumer_processed_total',
  'herald_consumer_duplicates_total',
  'herald_consumer_stale_total',
  'herald_consumer_failed_total',
  'herald_consumer_deferred_total',
  'herald_consumer_parse_errors_total',
  'herald_consumer_handler_duration_seconds',
  'herald_consumer_queue_wait_seconds',
  'herald_consumer_reorder_buffer_depth',
  'herald_consumer_reorder_wait_seconds',
  'herald_consumer_gap_timeouts_total',
  'herald_consumer_redis_command_duration_seconds',
] as const;

export type ConsumerMetricName = (typeof CONSUMER_METRIC_NAMES)[number];

/** Why a delivery was handed back to its source for a later retry (not a handler failure). */
export type DeferReason = 'busy' | 'buffer-full' | 'store-unavailable' | 'closing';

export type DeliveryOutcomeKind = 'received' | 'processed' | 'duplicate' | 'stale' | 'failed';

/** The metrics port of the consumer; `silentMetrics` when no registry is given. */
export interface ConsumerMetrics {
  delivery(kind: DeliveryOutcomeKind, source: DeliverySource, notificationType: string, resourceType: string): void;
  deferred(reason: DeferReason): void;
  parseError(source: DeliverySource, reason: ParseErrorReason): void;
  handlerDuration(notificationType: string, resourceType: string, seconds: number): void;
  queueWait(source: DeliverySource, seconds: number): void;
  bufferDepth(depth: number): void;
  bufferWait(lane: PositionLane, seconds: number): void;
  gap(lane: PositionLane, reason: 'timeout' | 'unknown-start'): void;
  redisCommand(operation: string, seconds: number): void;
}

const ignore = (): void => undefined;

export const silentMetrics: ConsumerMetrics = {
  delivery: ignore,
  deferred: ignore,
  parseError: ignore,
  handlerDuration: ignore,
  queueWait: ignore,
  bufferDepth: ignore,
  bufferWait: ignore,
  gap: ignore,
  redisCommand: ignore,
};

const KNOWN_RESOURCE_TYPES = new Set<string>(SUBSCRIBABLE_RESOURCE_TYPE_IDS);
const KNOWN_NOTIFICATION_TYPES = new Set(['Message', 'ResourceCreated', 'ResourceUpdated', 'ResourceDeleted']);

/** Label values come from payloads: anything outside the known sets collapses to `other` (bounded cardinality). */
function resourceTypeLabel(typeId: string): string {
  return KNOWN_RESOURCE_TYPES.has(typeId) ? typeId : 'other';
}

function notificationTypeLabel(notificationType: string): string {
  return KNOWN_NOTIFICATION_TYPES.has(notificationType) ? notificationType : 'other';
}

const laneLabel = (lane: PositionLane): string => (lane === 'm' ? 'messages' : 'changes');

// Handlers range from sub-millisecond to calls of remote APIs.
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// §6.2: delays of several minutes are possible.
const QUEUE_WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const REDIS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

/**
 * Registers the consumer's metrics on the given registry (never the global one). Label children are
 * cached so the hot path does one map lookup per observation.
 */
export function createConsumerMetrics(registry: Registry): ConsumerMetrics {
  const registers = [registry];
  const deliveryLabels = ['source', 'notification_type', 'resource_type'] as const;
  const counters: Record<DeliveryOutcomeKind, Counter<(typeof deliveryLabels)[number]>> = {
    received: new Counter({ name: 'herald_consumer_received_total', help: 'Deliveries parsed successfully', labelNames: deliveryLabels, registers }),
    processed: new Counter({ name: 'herald_consumer_processed_total', help: 'Deliveries the handler completed', labelNames: deliveryLabels, registers }),
    duplicate: new Counter({ name: 'herald_consumer_duplicates_total', help: 'Deliveries already processed (acknowledged without running the handler)', labelNames: deliveryLabels, registers }),
    stale: new Counter({ name: 'herald_consumer_stale_total', help: 'Deliveries behind the released position of their resource (acknowledged without running the handler)', labelNames: deliveryLabels, registers }),
    failed: new Counter({ name: 'herald_consumer_failed_total', help: 'Handler failures (the delivery is retried)', labelNames: deliveryLabels, registers }),
  };
  const deferred = new Counter({ name: 'herald_consumer_deferred_total', help: 'Deliveries handed back to the source to retry later', labelNames: ['reason'], registers });
  const parseErrors = new Counter({ name: 'herald_consumer_parse_errors_total', help: 'Inputs that are not deliveries', labelNames: ['source', 'reason'], registers });
  const handlerDuration = new Histogram({
    name: 'herald_consumer_handler_duration_seconds',
    help: 'Handler run time',
    labelNames: ['notification_type', 'resource_type'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const queueWait = new Histogram({
    name: 'herald_consumer_queue_wait_seconds',
    help: 'From the transport accepting a delivery to the consumer receiving it',
    labelNames: ['source'],
    buckets: QUEUE_WAIT_BUCKETS,
    registers,
  });
  const bufferDepth = new Gauge({ name: 'herald_consumer_reorder_buffer_depth', help: 'Deliveries waiting for a predecessor', registers });
  const bufferWait = new Histogram({
    name: 'herald_consumer_reorder_wait_seconds',
    help: 'Time a delivery waited in the reorder buffer',
    labelNames: ['lane'],
    buckets: QUEUE_WAIT_BUCKETS,
    registers,
  });
  const gaps = new Counter({ name: 'herald_consumer_gap_timeouts_total', help: 'Releases past a missing predecessor after maxWaitMs', labelNames: ['lane', 'reason'], registers });
  const redis = new Histogram({
    name: 'herald_consumer_redis_command_duration_seconds',
    help: 'Round trip of one batched Redis call of the dedup store',
    labelNames: ['operation'],
    buckets: REDIS_BUCKETS,
    registers,
  });

  const deliveryChildren = new Map<string, Counter.Internal>();
  const durationChildren = new Map<string, Histogram.Internal<'notification_type' | 'resource_type'>>();

  return {
    delivery(kind, source, notificationType, resourceType) {
      const notificationLabel = notificationTypeLabel(notificationType);
      const resourceLabel = resourceTypeLabel(resourceType);
      const cacheKey = `${kind}|${source}|${notificationLabel}|${resourceLabel}`;
      let child = deliveryChildren.get(cacheKey);
      if (child === undefined) {
        child = counters[kind].labels(source, notificationLabel, resourceLabel);
        deliveryChildren.set(cacheKey, child);
      }
      child.inc();
    },
    deferred: (reason) => deferred.labels(reason).inc(),
    parseError: (source, reason) => parseErrors.labels(source, reason).inc(),
    handlerDuration(notificationType, resourceType, seconds) {
      const notificationLabel = notificationTypeLabel(notificationType);
      const resourceLabel = resourceTypeLabel(resourceType);
      const cacheKey = `${notificationLabel}|${resourceLabel}`;
      let child = durationChildren.get(cacheKey);
      if (child === undefined) {
        child = handlerDuration.labels(notificationLabel, resourceLabel);
        durationChildren.set(cacheKey, child);
      }
      child.observe(seconds);
    },
    queueWait: (source, seconds) => queueWait.labels(source).observe(Math.max(0, seconds)),
    bufferDepth: (depth) => bufferDepth.set(depth),
    bufferWait: (lane, seconds) => bufferWait.labels(laneLabel(lane)).observe(seconds),
    gap: (lane, reason) => gaps.labels(laneLabel(lane), reason).inc(),
    redisCommand: (operation, seconds) => redis.labels(operation).observe(seconds),
  };
}
