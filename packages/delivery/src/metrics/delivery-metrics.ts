import type { DestinationType, SubscriptionHealthStatus } from '@herald/model';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FailureClass } from '../destinations/port.js';
import type { DropReason } from '../engine/types.js';
import { DELIVERY_METRIC } from './names.js';

const HEALTH_STATUSES: readonly SubscriptionHealthStatus[] = [
  'Healthy',
  'ConfigurationError',
  'ConfigurationErrorDeliveryStopped',
  'TemporaryError',
];

/** The database-derived values of the gauges, read once per scrape. */
export interface DeliveryGaugeSnapshot {
  pending: readonly { projectKey: string; subscriptionId: string; count: number; oldestAgeSeconds: number }[];
  health: readonly { projectKey: string; subscriptionId: string; status: SubscriptionHealthStatus }[];
}

export interface DeliveryMetricsDeps {
  registry: Registry;
  /** Reads the gauges' values (pending, oldest age, health) from the database, once per scrape. */
  snapshot?: () => Promise<DeliveryGaugeSnapshot>;
}

export interface DeliveryMetricsOptions {
  /** Latency histogram buckets in seconds; the default resolves 1 ms … 1 h. */
  latencyBuckets?: number[];
}

/** Label for deliveries whose subscription no longer exists. */
export type DestinationLabel = DestinationType | 'unknown';

/**
 * The engine's Prometheus metrics on an injected registry (no global registry). Labels stay low
 * in cardinality: destination type, outcome, failure class, drop reason; only the per-subscription
 * gauges carry project and subscription (at most 50 subscriptions per project, §8).
 */
export class DeliveryMetrics {
  private readonly deliveries: Counter<'destination_type' | 'outcome'>;
  private readonly attempts: Counter<'destination_type' | 'outcome'>;
  private readonly retries: Counter<'destination_type' | 'failure_class'>;
  private readonly dropped: Counter<'reason'>;
  private readonly latency: Histogram<'destination_type'>;
  private readonly routedEvents: Counter;
  private readonly createdDeliveries: Counter;
  private readonly snapshotSource: (() => Promise<DeliveryGaugeSnapshot>) | undefined;
  private snapshotInFlight: Promise<DeliveryGaugeSnapshot> | undefined;

  constructor(deps: DeliveryMetricsDeps, options: DeliveryMetricsOptions = {}) {
    this.snapshotSource = deps.snapshot;
    const registers = [deps.registry];
    this.deliveries = new Counter({
      name: DELIVERY_METRIC.deliveries,
      help: 'Deliveries that reached an end, by destination type and outcome (delivered, dropped).',
      labelNames: ['destination_type', 'outcome'] as const,
      registers,
    });
    this.attempts = new Counter({
      name: DELIVERY_METRIC.attempts,
      help: 'Delivery attempts by destination type and outcome (delivered or the failure class).',
      labelNames: ['destination_type', 'outcome'] as const,
      registers,
    });
    this.retries = new Counter({
      name: DELIVERY_METRIC.retries,
      help: 'Failed attempts rescheduled for a retry, by destination type and failure class.',
      labelNames: ['destination_type', 'failure_class'] as const,
      registers,
    });
    this.dropped = new Counter({
      name: DELIVERY_METRIC.dropped,
      help: 'Deliveries dropped (recorded in dropped_deliveries), by reason.',
      labelNames: ['reason'] as const,
      registers,
    });
    this.latency = new Histogram({
      name: DELIVERY_METRIC.latency,
      help: 'End-to-end delivery latency: outbox commit to destination acknowledgement.',
      labelNames: ['destination_type'] as const,
      buckets: options.latencyBuckets ?? [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600,
      ],
      registers,
    });
    this.routedEvents = new Counter({
      name: DELIVERY_METRIC.routedEvents,
      help: 'Outbox events routed to subscriptions (claimed and removed from the outbox).',
      registers,
    });
    this.createdDeliveries = new Counter({
      name: DELIVERY_METRIC.createdDeliveries,
      help: 'Pending deliveries created by routing (one per matching subscription and event).',
      registers,
    });

    // Gauges read the database on scrape; one snapshot serves all three in a scrape.
    const snapshot = (): Promise<DeliveryGaugeSnapshot> => this.snapshot();
    new Gauge({
      name: DELIVERY_METRIC.pending,
      help: 'Pending deliveries per subscription (cluster-wide, read from the database).',
      labelNames: ['project', 'subscription'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of (await snapshot()).pending) {
          this.set({ project: row.projectKey, subscription: row.subscriptionId }, row.count);
        }
      },
    });
    new Gauge({
      name: DELIVERY_METRIC.oldestPendingAge,
      help: 'Age of the oldest pending delivery per subscription, from its outbox commit.',
      labelNames: ['project', 'subscription'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of (await snapshot()).pending) {
          this.set({ project: row.projectKey, subscription: row.subscriptionId }, row.oldestAgeSeconds);
        }
      },
    });
    new Gauge({
      name: DELIVERY_METRIC.health,
      help: 'Subscription health (§3.3): 1 for the current status, 0 for the others.',
      labelNames: ['project', 'subscription', 'status'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of (await snapshot()).health) {
          for (const status of HEALTH_STATUSES) {
            this.set({ project: row.projectKey, subscription: row.subscriptionId, status }, status === row.status ? 1 : 0);
          }
        }
      },
    });
  }

  routed(events: number, deliveries: number): void {
    this.routedEvents.inc(events);
    this.createdDeliveries.inc(deliveries);
  }

  delivered(destinationType: DestinationLabel, latenciesSeconds: readonly number[]): void {
    if (latenciesSeconds.length === 0) return;
    this.deliveries.inc({ destination_type: destinationType, outcome: 'delivered' }, latenciesSeconds.length);
    this.attempts.inc({ destination_type: destinationType, outcome: 'delivered' }, latenciesSeconds.length);
    for (const seconds of latenciesSeconds) this.latency.observe({ destination_type: destinationType }, seconds);
  }

  failedAttempts(destinationType: DestinationLabel, failureClass: FailureClass, count: number): void {
    if (count > 0) this.attempts.inc({ destination_type: destinationType, outcome: failureClass }, count);
  }

  retried(destinationType: DestinationLabel, failureClass: FailureClass, count: number): void {
    if (count > 0) this.retries.inc({ destination_type: destinationType, failure_class: failureClass }, count);
  }

  droppedDeliveries(destinationType: DestinationLabel, reason: DropReason, count: number): void {
    if (count <= 0) return;
    this.dropped.inc({ reason }, count);
    this.deliveries.inc({ destination_type: destinationType, outcome: 'dropped' }, count);
  }

  /** One database read per scrape, shared by the gauges collected in it. */
  private snapshot(): Promise<DeliveryGaugeSnapshot> {
    const source = this.snapshotSource;
    if (source === undefined) return Promise.resolve({ pending: [], health: [] });
    this.snapshotInFlight ??= source().finally(() => {
      // Released after this scrape's collectors have all read it.
      setImmediate(() => (this.snapshotInFlight = undefined));
    });
    return this.snapshotInFlight;
  }
}
