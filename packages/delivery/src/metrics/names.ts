/**
 * Every metric the delivery engine exports, so that dashboards and alerts can be validated against
 * this list in a test. Base units (`_seconds`), `_total` counters, `herald_` prefix.
 */
export const DELIVERY_METRIC = {
  /** Counter {destination_type, outcome = delivered | dropped}: deliveries that reached an end. */
  deliveries: 'herald_deliveries_total',
  /** Counter {destination_type, outcome = delivered | configuration | temporary | payload}. */
  attempts: 'herald_delivery_attempts_total',
  /** Counter {destination_type, failure_class = configuration | temporary}: rescheduled attempts. */
  retries: 'herald_delivery_retries_total',
  /** Counter {reason}: dropped deliveries by DropReason. */
  dropped: 'herald_deliveries_dropped_total',
  /** Histogram {destination_type}: outbox commit → destination acknowledgement. */
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
} as const;

export const DELIVERY_METRIC_NAMES: readonly string[] = Object.freeze(Object.values(DELIVERY_METRIC));
