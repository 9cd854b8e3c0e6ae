import { systemClock, type Clock, type Subscription, type SubscriptionHealthStatus } from '@herald/model';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DELIVERY_METRIC } from './names.js';
import { ScrapeSnapshot, type FailedRead } from './scrape-snapshot.js';
import { subscriptionCacheKey, SubscriptionMeter, type DestinationLabel, type SubscriptionIdentity, type SubscriptionSeries } from './subscription-meter.js';

const HEALTH_STATUSES: readonly SubscriptionHealthStatus[] = ['Healthy', 'ConfigurationError', 'ConfigurationErrorDeliveryStopped', 'TemporaryError'];

/**
 * The database-derived values of the gauges. The oldest pending delivery is kept as its commit
 * time, not as an age, so that a snapshot served from memory still ages it at each scrape.
 */
export interface DeliveryGaugeSnapshot {
  /** Every subscription that exists, with its §3.3 status (Healthy when it never failed). */
  subscriptions: readonly (SubscriptionIdentity & { status: SubscriptionHealthStatus })[];
  pending: readonly { projectKey: string; subscriptionId: string; count: number; oldestCommittedAt: Date }[];
}

/**
 * Default least time between two reads of the gauges' snapshot by one process (10 s). Below the
 * usual 15 s scrape interval, so that one Prometheus scraping every 15 s gets a fresh read each
 * time (the figures are no older than before); above it, more scrapers of the same process (an HA
 * pair of Prometheus servers, someone's `curl /metrics`, a second scrape job) share reads, and a
 * process reads the whole `deliveries` table at most six times a minute whoever scrapes it.
 */
export const DEFAULT_GAUGE_REFRESH_MS = 10_000;

export interface DeliveryMetricsDeps {
  registry: Registry;
  /** Reads the gauges' values (subscriptions, pending, oldest commit, health) from the database; see `gaugeRefreshMs`. */
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
   * Concurrent scrapes share one read whatever this is. While reads fail, the last snapshot is
   * served, its age in `herald_delivery_gauges_age_seconds`.
   */
  gaugeRefreshMs?: number;
}

export type { DestinationLabel, SubscriptionIdentity };

/**
 * The engine's Prometheus metrics on an injected registry (no global registry). Delivery, attempt,
 * retry, drop and latency series are per subscription (project key, subscription key or id,
 * destination type: `SubscriptionMeter`, which bounds them); the gauges are read from the database.
 */
export class DeliveryMetrics {
  private readonly series: SubscriptionSeries;
  private readonly meters = new Map<string, SubscriptionMeter>();
  private readonly routedEvents: Counter;
  private readonly createdDeliveries: Counter;
  private readonly snapshots: ScrapeSnapshot<DeliveryGaugeSnapshot> | undefined;
  private runningWorkers = 0;

  constructor(deps: DeliveryMetricsDeps, options: DeliveryMetricsOptions = {}) {
    const logger = deps.logger;
    this.snapshots =
      deps.snapshot === undefined
        ? undefined
        : new ScrapeSnapshot(
            deps.snapshot,
            deps.monotonicNow ?? (() => performance.now()),
            { refreshMs: options.gaugeRefreshMs ?? DEFAULT_GAUGE_REFRESH_MS },
            logger === undefined ? undefined : (failure) => logFailedRead(logger, failure),
          );
    const registers = [deps.registry];
    // The per-subscription series of every known subscription exist (at 0) before its first event.
    const withKnownSubscriptions = async (): Promise<void> => {
      for (const subscription of (await this.snapshot()).subscriptions) this.meter(subscription);
    };
    const collect = withKnownSubscriptions;
    const subscriptionLabels = ['project', 'subscription', 'destination_type'] as const;
    this.series = {
      deliveries: new Counter({
        name: DELIVERY_METRIC.deliveries,
        help: 'Deliveries that reached an end, per subscription, by outcome (delivered, dropped).',
        labelNames: [...subscriptionLabels, 'outcome'] as const,
        registers,
        collect,
      }),
      attempts: new Counter({
        name: DELIVERY_METRIC.attempts,
        help: 'Delivery attempts per subscription, by outcome (delivered or the failure class).',
        labelNames: [...subscriptionLabels, 'outcome'] as const,
        registers,
        collect,
      }),
      retries: new Counter({
        name: DELIVERY_METRIC.retries,
        help: 'Failed attempts rescheduled for a retry, per subscription, by failure class.',
        labelNames: [...subscriptionLabels, 'failure_class'] as const,
        registers,
        collect,
      }),
      dropped: new Counter({
        name: DELIVERY_METRIC.dropped,
        help: 'Deliveries dropped (recorded in dropped_deliveries), per subscription, by reason.',
        labelNames: [...subscriptionLabels, 'reason'] as const,
        registers,
        collect,
      }),
      latency: new Histogram({
        name: DELIVERY_METRIC.latency,
        help: 'End-to-end delivery latency per subscription: outbox commit to destination acknowledgement.',
        labelNames: subscriptionLabels,
        buckets: options.latencyBuckets ?? [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
        registers,
        collect,
      }),
    };
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
    registerSubscriptionGauges(registers, () => this.snapshot(), deps.clock ?? systemClock);
    const snapshots = this.snapshots;
    new Gauge({
      name: DELIVERY_METRIC.gaugesAge,
      help: 'Age of the database read the per-subscription gauges show: they keep the last values read while reads fail.',
      registers,
      async collect() {
        await snapshots?.get();
        const ageMs = snapshots?.ageMs();
        this.reset();
        if (ageMs !== undefined) this.set(ageMs / 1000);
      },
    });
    const workers = (): number => this.runningWorkers;
    new Gauge({
      name: DELIVERY_METRIC.workers,
      help: 'Delivery workers running in this process; summed over all targets, the live workers.',
      registers,
      collect() {
        this.set(workers());
      },
    });
  }

  /** The series of a subscription as the sender knows it (once per batch, not per delivery). */
  forSubscription(projectKey: string, subscription: Subscription): SubscriptionMeter {
    return this.meter({
      projectKey,
      subscriptionId: subscription.id,
      key: subscription.key,
      destinationType: subscription.destination.type,
    });
  }

  /** The series of a subscription that was deleted: as this process last knew it, else by id. */
  forDeleted(projectKey: string, subscriptionId: string): SubscriptionMeter {
    return this.meters.get(subscriptionCacheKey(projectKey, subscriptionId)) ?? this.meter({ projectKey, subscriptionId, destinationType: 'unknown' });
  }

  /** The series of a subscription; created (every label set at 0) when first named, or renamed. */
  meter(identity: SubscriptionIdentity): SubscriptionMeter {
    const cacheKey = subscriptionCacheKey(identity.projectKey, identity.subscriptionId);
    const existing = this.meters.get(cacheKey);
    if (existing?.names(identity) === true) return existing;
    const meter = new SubscriptionMeter(
      { projectKey: identity.projectKey, subscriptionId: identity.subscriptionId, key: identity.key, destinationType: identity.destinationType },
      this.series,
    );
    this.meters.set(cacheKey, meter);
    return meter;
  }

  routed(events: number, deliveries: number): void {
    this.routedEvents.inc(events);
    this.createdDeliveries.inc(deliveries);
  }

  /** A delivery worker of this process started (`true`) or stopped (`false`). */
  workerRunning(running: boolean): void {
    this.runningWorkers = Math.max(0, this.runningWorkers + (running ? 1 : -1));
  }

  private async snapshot(): Promise<DeliveryGaugeSnapshot> {
    return (await this.snapshots?.get()) ?? { subscriptions: [], pending: [] };
  }
}

/**
 * The gauges read from the database at scrape time; one snapshot serves them all in a scrape, and
 * scrapes within `gaugeRefreshMs` of a read (ScrapeSnapshot). No snapshot yet: no series. Each
 * collector resets and sets without an await in between, so a concurrent scrape never sees it half
 * set. Subscriptions are named by key (id without one), like the counters.
 */
function registerSubscriptionGauges(registers: Registry[], snapshot: () => Promise<DeliveryGaugeSnapshot>, clock: Clock): void {
  const namesOf = (read: DeliveryGaugeSnapshot): Map<string, string> =>
    new Map(read.subscriptions.map((s) => [subscriptionCacheKey(s.projectKey, s.subscriptionId), s.key ?? s.subscriptionId]));
  const pendingLabels = (names: Map<string, string>, row: DeliveryGaugeSnapshot['pending'][number]) => ({
    project: row.projectKey,
    subscription: names.get(subscriptionCacheKey(row.projectKey, row.subscriptionId)) ?? row.subscriptionId,
  });
  new Gauge({
    name: DELIVERY_METRIC.pending,
    help: 'Pending deliveries per subscription (cluster-wide, read from the database).',
    labelNames: ['project', 'subscription'] as const,
    registers,
    async collect() {
      const read = await snapshot();
      const names = namesOf(read);
      this.reset();
      for (const row of read.pending) this.set(pendingLabels(names, row), row.count);
    },
  });
  new Gauge({
    name: DELIVERY_METRIC.oldestPendingAge,
    help: 'Age of the oldest pending delivery per subscription, from its outbox commit.',
    labelNames: ['project', 'subscription'] as const,
    registers,
    async collect() {
      const read = await snapshot();
      const names = namesOf(read);
      this.reset();
      // Against the time of this scrape, so that the age keeps growing while a snapshot is reused.
      const now = clock.now().getTime();
      for (const row of read.pending) {
        this.set(pendingLabels(names, row), Math.max(0, (now - row.oldestCommittedAt.getTime()) / 1000));
      }
    },
  });
  new Gauge({
    name: DELIVERY_METRIC.health,
    help: 'Subscription health (§3.3): 1 for the current status, 0 for the others.',
    labelNames: ['project', 'subscription', 'status'] as const,
    registers,
    async collect() {
      const { subscriptions } = await snapshot();
      this.reset();
      for (const row of subscriptions) {
        const labels = { project: row.projectKey, subscription: row.key ?? row.subscriptionId };
        for (const status of HEALTH_STATUSES) this.set({ ...labels, status }, status === row.status ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: DELIVERY_METRIC.subscriptionInfo,
    help: 'One series per subscription (value 1): its key (subscription) with its id and destination type.',
    labelNames: ['project', 'subscription', 'subscription_id', 'destination_type'] as const,
    registers,
    async collect() {
      const { subscriptions } = await snapshot();
      this.reset();
      for (const row of subscriptions) {
        this.set(
          {
            project: row.projectKey,
            subscription: row.key ?? row.subscriptionId,
            subscription_id: row.subscriptionId,
            destination_type: row.destinationType,
          },
          1,
        );
      }
    },
  });
}

function logFailedRead(logger: Logger, { error, servedAgeMs }: FailedRead): void {
  if (servedAgeMs === undefined) {
    logger.error({ err: error }, 'reading the delivery gauges failed: they have no series until a read succeeds');
  } else {
    logger.warn({ err: error, snapshotAgeSeconds: servedAgeMs / 1000 }, 'reading the delivery gauges failed: serving the last snapshot');
  }
}
