/**
 * Every metric the delivery engine exports, so that dashboards and alerts can be validated against
 * this list in a test. Base units (`_seconds`), `_total` counters, `herald_` prefix.
 *
 * Per-subscription series carry `project` (the project key), `subscription` (the subscription's
 * key, its id when it has none) and `destination_type`; see `subscription-meter.ts` for the bound.
 */
export const DELIVERY_METRIC = {
  /** Counter {project, subscription, destination_type, outcome = delivered | dropped}: deliveries that reached an end. */
  deliveries: 'herald_deliveries_total',
  /** Counter {project, subscription, destination_type, outcome = delivered | configuration | temporary | payload}. */
  attempts: 'herald_delivery_attempts_total',
  /** Counter {project, subscription, destination_type, failure_class = configuration | temporary}: rescheduled attempts. */
  retries: 'herald_delivery_retries_total',
  /** Counter {project, subscription, destination_type, reason}: dropped deliveries by DropReason. */
  dropped: 'herald_deliveries_dropped_total',
  /** Histogram {project, subscription, destination_type}: outbox commit → destination acknowledgement. */
  latency: 'herald_delivery_latency_seconds',
  /** Counter: outbox events routed (claimed and removed). */
  routedEvents: 'herald_outbox_events_routed_total',
  /** Counter: pending deliveries created by routing. */
  createdDeliveries: 'herald_deliveries_created_total',
  /** Gauge {project, subscription}: pending deliveries, read from the database on scrape (reused for `gaugeRefreshMs`). */
  pending: 'herald_deliveries_pending',
  /** Gauge {project, subscription}: age of the oldest pending delivery's event, computed at each scrape. */
  oldestPendingAge: 'herald_deliveries_oldest_pending_age_seconds',
  /** Gauge {project, subscription, status}: 1 for the subscription's current §3.3 status, else 0. */
  health: 'herald_subscription_health',
  /** Gauge {project, subscription, subscription_id, destination_type}: 1 per subscription, to map a key to its id. */
  subscriptionInfo: 'herald_subscription_info',
  /** Gauge: age of the database read the per-subscription gauges show (grows while reads fail). */
  gaugesAge: 'herald_delivery_gauges_age_seconds',
  /** Gauge: delivery workers running in this process (1 while running, 0 before start and once stopping). */
  workers: 'herald_delivery_workers',
} as const;

export const DELIVERY_METRIC_NAMES: readonly string[] = Object.freeze(Object.values(DELIVERY_METRIC));

/**
 * What every Herald process (gateway and worker) exports about itself and the shared database,
 * once per process whichever of them registers first (`registerProcessMetrics`).
 */
export const PROCESS_METRIC = {
  /** Gauge: 1 when the database answered a `SELECT 1` within the probe's bound at this scrape, else 0. */
  databaseUp: 'herald_database_up',
  /** Gauge {version, nodejs_version}: always 1. */
  buildInfo: 'herald_build_info',
  /** Gauge: outbox rows not yet routed (cluster-wide, read from the database). */
  outboxDepth: 'herald_outbox_depth',
  /** Gauge: age of the oldest outbox row not yet routed (the routing lag), 0 when the outbox is empty. */
  outboxOldestAge: 'herald_outbox_oldest_age_seconds',
} as const;

export const PROCESS_METRIC_NAMES: readonly string[] = Object.freeze(Object.values(PROCESS_METRIC));
