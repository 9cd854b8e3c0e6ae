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
  'herald_consumer_late_total',
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

/** `late`: handed to the handler after a later delivery of its resource (`context.late`), at each handover. */
export type DeliveryOutcomeKind = 'received' | 'processed' | 'duplicate' | 'late' | 'failed';

/**
 * The counters and handler-duration histogram of one label set (source, notification type,
 * resource type), looked up once per delivery; the delivery keeps it until it is settled.
 */
export interface DeliveryMeter {
  count(kind: DeliveryOutcomeKind): void;
  handlerDuration(seconds: number): void;
}

/** The metrics port of the consumer; `silentMetrics` when no registry is given. */
export interface ConsumerMetrics {
  meter(source: DeliverySource, notificationType: string, resourceType: string): DeliveryMeter;
  deferred(reason: DeferReason): void;
  parseError(source: DeliverySource, reason: ParseErrorReason): void;
  queueWait(source: DeliverySource, seconds: number): void;
  bufferWait(lane: PositionLane, seconds: number): void;
  gap(lane: PositionLane, reason: 'timeout' | 'unknown-start'): void;
  redisCommand(operation: string, seconds: number): void;
}

const ignore = (): void => undefined;
const silentMeter: DeliveryMeter = { count: ignore, handlerDuration: ignore };

export const silentMetrics: ConsumerMetrics = {
  meter: () => silentMeter,
  deferred: ignore,
  parseError: ignore,
  queueWait: ignore,
  bufferWait: ignore,
  gap: ignore,
  redisCommand: ignore,
};

// Event subscriptions' resource types (reference: EventSubscriptionResourceTypeId) besides §2.4's.
const KNOWN_RESOURCE_TYPES = new Set<string>([...SUBSCRIBABLE_RESOURCE_TYPE_IDS, 'checkout', 'import-api']);
const KNOWN_NOTIFICATION_TYPES = new Set(['Message', 'ResourceCreated', 'ResourceUpdated', 'ResourceDeleted', 'Event']);

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

type DeliveryLabel = 'source' | 'notification_type' | 'resource_type';
const OUTCOME_INDEX = new Map<DeliveryOutcomeKind, number>([
  ['received', 0],
  ['processed', 1],
  ['duplicate', 2],
  ['late', 3],
  ['failed', 4],
]);

/**
 * A label set's delivery counts, kept as plain numbers and added to the prom-client counters when
 * the registry is read (their `collect`): prom-client hashes the labels on every increment, even of
 * a label child, which cost more than the rest of a delivery's bookkeeping together.
 */
class Meter implements DeliveryMeter {
  private readonly counts = new Float64Array(OUTCOME_INDEX.size);
  private readonly reported = new Float64Array(OUTCOME_INDEX.size);

  constructor(
    readonly labels: Readonly<Record<DeliveryLabel, string>>,
    private readonly duration: Histogram.Internal<'notification_type' | 'resource_type'>,
  ) {}

  count(kind: DeliveryOutcomeKind): void {
    (this.counts[OUTCOME_INDEX.get(kind) as number] as number)++;
  }

  handlerDuration(seconds: number): void {
    this.duration.observe(seconds);
  }

  /** The count not yet added to the prom-client counter, which it is now. */
  unreported(kind: DeliveryOutcomeKind): number {
    const index = OUTCOME_INDEX.get(kind) as number;
    const delta = (this.counts[index] as number) - (this.reported[index] as number);
    this.reported[index] = this.counts[index] as number;
    return delta;
  }
}

/** `get(key)`, or what `make()` makes, kept under `key`. */
function cached<Key, Value>(map: Map<Key, Value>, key: Key, make: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * Registers the consumer's metrics on the given registry (never the global one). Per delivery the
 * hot path does one lookup (its meter) and a few increments; label children are cached. What the
 * consumer knows at any time (`live`) is read when the registry is read, not pushed on each change.
 */
export function createConsumerMetrics(registry: Registry, live: { readonly bufferDepth: () => number }): ConsumerMetrics {
  const registers = [registry];
  const deliveryLabels = ['source', 'notification_type', 'resource_type'] as const;
  // Meters by source, then notification type, then resource type label.
  const meters = new Map<string, Map<string, Map<string, Meter>>>();
  const allMeters: Meter[] = [];
  const counter = (kind: DeliveryOutcomeKind, name: string, help: string): Counter<DeliveryLabel> => {
    const metric = new Counter({
      name,
      help,
      labelNames: deliveryLabels,
      registers,
      collect() {
        for (const meter of allMeters) {
          const delta = meter.unreported(kind);
          if (delta > 0) this.inc(meter.labels, delta);
        }
      },
    });
    // A reset (registry.resetMetrics()) zeroes what was counted until then, including the counts
    // not yet added to the counter, as it would if they had been added at once.
    const reset = metric.reset.bind(metric);
    metric.reset = () => {
      for (const meter of allMeters) meter.unreported(kind);
      reset();
    };
    return metric;
  };
  counter('received', 'herald_consumer_received_total', 'Deliveries parsed successfully');
  counter('processed', 'herald_consumer_processed_total', 'Deliveries the handler completed');
  counter('duplicate', 'herald_consumer_duplicates_total', 'Deliveries already processed (acknowledged without running the handler)');
  counter('late', 'herald_consumer_late_total', 'Deliveries handed to the handler after a later one of their resource (context.late), per handover');
  counter('failed', 'herald_consumer_failed_total', 'Handler failures (the delivery is retried)');
  const deferred = new Counter({
    name: 'herald_consumer_deferred_total',
    help: 'Deliveries handed back to the source to retry later',
    labelNames: ['reason'],
    registers,
  });
  const parseErrors = new Counter({
    name: 'herald_consumer_parse_errors_total',
    help: 'Inputs that are not deliveries',
    labelNames: ['source', 'reason'],
    registers,
  });
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
  new Gauge({
    name: 'herald_consumer_reorder_buffer_depth',
    help: 'Deliveries waiting for a predecessor',
    registers,
    collect() {
      this.set(live.bufferDepth());
    },
  });
  const bufferWait = new Histogram({
    name: 'herald_consumer_reorder_wait_seconds',
    help: 'Time a delivery waited in the reorder buffer',
    labelNames: ['lane'],
    buckets: QUEUE_WAIT_BUCKETS,
    registers,
  });
  const gaps = new Counter({
    name: 'herald_consumer_gap_timeouts_total',
    help: 'Releases past a missing predecessor after maxWaitMs',
    labelNames: ['lane', 'reason'],
    registers,
  });
  const redis = new Histogram({
    name: 'herald_consumer_redis_command_duration_seconds',
    help: 'Round trip of one batched Redis call of the dedup store',
    labelNames: ['operation'],
    buckets: REDIS_BUCKETS,
    registers,
  });

  const durationChildren = new Map<string, Histogram.Internal<'notification_type' | 'resource_type'>>();
  const queueWaitChildren = new Map<string, Histogram.Internal<'source'>>();
  const bufferWaitChildren = { m: bufferWait.labels(laneLabel('m')), c: bufferWait.labels(laneLabel('c')) };
  const redisChildren = new Map<string, Histogram.Internal<'operation'>>();

  function newMeter(source: string, notificationLabel: string, resourceLabel: string): Meter {
    const duration = cached(durationChildren, `${notificationLabel}|${resourceLabel}`, () => handlerDuration.labels(notificationLabel, resourceLabel));
    const meter = new Meter({ source, notification_type: notificationLabel, resource_type: resourceLabel }, duration);
    allMeters.push(meter);
    return meter;
  }

  return {
    meter(source, notificationType, resourceType) {
      const notificationLabel = notificationTypeLabel(notificationType);
      const resourceLabel = resourceTypeLabel(resourceType);
      const byNotification = cached(meters, source, () => new Map<string, Map<string, Meter>>());
      const byResource = cached(byNotification, notificationLabel, () => new Map<string, Meter>());
      return cached(byResource, resourceLabel, () => newMeter(source, notificationLabel, resourceLabel));
    },
    deferred: (reason) => deferred.labels(reason).inc(),
    parseError: (source, reason) => parseErrors.labels(source, reason).inc(),
    queueWait: (source, seconds) => cached(queueWaitChildren, source, () => queueWait.labels(source)).observe(Math.max(0, seconds)),
    bufferWait: (lane, seconds) => bufferWaitChildren[lane].observe(seconds),
    gap: (lane, reason) => gaps.labels(laneLabel(lane), reason).inc(),
    redisCommand: (operation, seconds) => cached(redisChildren, operation, () => redis.labels(operation)).observe(seconds),
  };
}
