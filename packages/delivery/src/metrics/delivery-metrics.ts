import { systemClock, type Clock, type DestinationType, type SubscriptionHealthStatus } from '@herald/model';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FailureClass } from '../destinations/port.js';
import type { DropReason } from '../engine/types.js';
import { DELIVERY_METRIC } from './names.js';
import { ScrapeSnapshot, type FailedRead } from './scrape-snapshot.js';

const HEALTH_STATUSES: readonly SubscriptionHealthStatus[] = [
  'Healthy',
  'ConfigurationError',
  'ConfigurationErrorDeliveryStopped',
  'TemporaryError',
];

/**
 * The database-derived values of the gauges. The oldest pending delivery is kept as its commit
 * time, not as an age, so that a snapshot served from memory still ages it at each scrape.
 */
export interface DeliveryGaugeSnapshot {
  pending: readonly { projectKey: string; subscriptionId: string; count: number; oldestCommittedAt: Date }[];
  health: readonly { projectKey: string; subscriptionId: string; status: SubscriptionHealthStatus }[];
}

/**
 * Default least time between two reads of the gauges' snapshot by one process (10 s). Below the
 * usual 15 s scrape interval, so that one Prometheus scraping every 15 s gets a fresh read each
 * time (the figures are no older than before); above it, more scrapers of the same process (an HA
 * pair of Prometheus servers, someone's `curl /metrics`, a second scrape job) share reads, and a
 * process reads the whole `deliveries` table at most six times a minute whoever scrapes it.
 */
export const DEFAULT_GAUGE_REFRESH_MS = 10_000;

/** After a failed read, the last snapshot is served until it is this old (at least; see options). */
export const DEFAULT_GAUGE_MAX_STALE_MS = 60_000;

export interface DeliveryMetricsDeps {
  registry: Registry;
  /** Reads the gauges' values (pending, oldest commit, health) from the database; see `gaugeRefreshMs`. */
  snapshot?: () => Promise<DeliveryGaugeSnapshot>;
  /** Wall clock the oldest pending delivery's age is measured on at each scrape (default: system). */
  clock?: Clock;
  /** Monotonic milliseconds for the snapshot's age (default `performance.now()`). */
  monotonicNow?: () => number;
  /** Failed snapshot reads are logged here. */
  logger?: Logger;
}

export interface DeliveryMetricsOptions {
  /** Latency histogram buckets in seconds; the default resolves 1 ms … 1 h. */
  latencyBuckets?: number[];
  /**
   * A gauge snapshot read less than this long ago (from the end of its read, monotonic clock) is
   * served from memory (default `DEFAULT_GAUGE_REFRESH_MS`, 10 s); 0 reads on every scrape.
   * Concurrent scrapes share one read whatever this is.
   */
  gaugeRefreshMs?: number;
  /**
   * While reads fail, the last good snapshot is served until it is this old; after that the gauges
   * have no series until a read succeeds (default: the larger of 60 s and twice `gaugeRefreshMs`).
   */
  gaugeMaxStaleMs?: number;
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
  private readonly snapshots: ScrapeSnapshot<DeliveryGaugeSnapshot> | undefined;

  constructor(deps: DeliveryMetricsDeps, options: DeliveryMetricsOptions = {}) {
    const refreshMs = options.gaugeRefreshMs ?? DEFAULT_GAUGE_REFRESH_MS;
    const logger = deps.logger;
    this.snapshots =
      deps.snapshot === undefined
        ? undefined
        : new ScrapeSnapshot(
            deps.snapshot,
            deps.monotonicNow ?? (() => performance.now()),
            { refreshMs, maxStaleMs: options.gaugeMaxStaleMs ?? Math.max(DEFAULT_GAUGE_MAX_STALE_MS, 2 * refreshMs) },
            logger === undefined ? undefined : (failure) => logFailedRead(logger, failure),
          );
    const clock = deps.clock ?? systemClock;
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

    // Gauges read the database on scrape; one snapshot serves all three in a scrape, and scrapes
    // within `gaugeRefreshMs` of a read (ScrapeSnapshot). No snapshot: no series. Each collector
    // resets and sets without an await in between, so a concurrent scrape never sees it half set.
    const snapshot = async (): Promise<DeliveryGaugeSnapshot> => (await this.snapshots?.get()) ?? { pending: [], health: [] };
    new Gauge({
      name: DELIVERY_METRIC.pending,
      help: 'Pending deliveries per subscription (cluster-wide, read from the database).',
      labelNames: ['project', 'subscription'] as const,
      registers,
      async collect() {
        const { pending } = await snapshot();
        this.reset();
        for (const row of pending) {
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
        const { pending } = await snapshot();
        this.reset();
        // Against the time of this scrape, so that the age keeps growing while a snapshot is reused.
        const now = clock.now().getTime();
        for (const row of pending) {
          const ageSeconds = Math.max(0, (now - row.oldestCommittedAt.getTime()) / 1000);
          this.set({ project: row.projectKey, subscription: row.subscriptionId }, ageSeconds);
        }
      },
    });
    new Gauge({
      name: DELIVERY_METRIC.health,
      help: 'Subscription health (§3.3): 1 for the current status, 0 for the others.',
      labelNames: ['project', 'subscription', 'status'] as const,
      registers,
      async collect() {
        const { health } = await snapshot();
        this.reset();
        for (const row of health) {
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
}

function logFailedRead(logger: Logger, { error, servedAgeMs }: FailedRead): void {
  if (servedAgeMs === undefined) {
    logger.error({ err: error }, 'reading the delivery gauges failed: they have no series until a read succeeds');
  } else {
    logger.warn({ err: error, snapshotAgeSeconds: servedAgeMs / 1000 }, 'reading the delivery gauges failed: serving the last snapshot');
  }
}
