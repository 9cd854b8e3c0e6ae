import type { DestinationType } from '@herald/model';
import type { Counter, Histogram } from 'prom-client';
import type { FailureClass } from '../destinations/port.js';
import { DROP_REASONS, type DropReason } from '../engine/types.js';

/** Label for deliveries whose subscription no longer exists and was never seen by this process. */
export type DestinationLabel = DestinationType | 'unknown';

/** A subscription as its series name it: what a dashboard shows instead of a UUID. */
export interface SubscriptionIdentity {
  projectKey: string;
  subscriptionId: string;
  /** The subscription's key (§4.1); the series use the id when it has none. */
  key?: string | undefined;
  destinationType: DestinationLabel;
}

type SubscriptionLabel = 'project' | 'subscription' | 'destination_type';

/** The per-subscription counters and histogram, as `DeliveryMetrics` registers them. */
export interface SubscriptionSeries {
  deliveries: Counter<SubscriptionLabel | 'outcome'>;
  attempts: Counter<SubscriptionLabel | 'outcome'>;
  retries: Counter<SubscriptionLabel | 'failure_class'>;
  dropped: Counter<SubscriptionLabel | 'reason'>;
  latency: Histogram<SubscriptionLabel>;
}

/** Failure classes a delivery can be rescheduled for (payload failures are dropped at once). */
const RETRIED_CLASSES = ['configuration', 'temporary'] as const;
const ATTEMPT_OUTCOMES = ['delivered', 'configuration', 'temporary', 'payload'] as const;
const END_OUTCOMES = ['delivered', 'dropped'] as const;

/**
 * The series of one subscription, with its label values built once (not per delivery). Every label
 * set it can ever increment exists at 0 from its creation (issue 25 "the first event counts"): a
 * counter series that first appeared at 1 read 0 in `increase()` and `rate()`, so the first drop or
 * retry of a subscription showed nowhere. `DeliveryMetrics` creates the meters of every known
 * subscription at scrape time, so the zeros are scraped before the first event happens.
 *
 * Cardinality: per subscription 2 + 4 + 2 + 4 counter series and one histogram (21 series with the
 * default buckets): 33 series per subscription and process, at most 1,650 per project (50
 * subscriptions, §8).
 */
export class SubscriptionMeter {
  private readonly labels: Readonly<Record<SubscriptionLabel, string>>;

  constructor(
    readonly identity: SubscriptionIdentity,
    private readonly series: SubscriptionSeries,
  ) {
    this.labels = Object.freeze({
      project: identity.projectKey,
      subscription: identity.key ?? identity.subscriptionId,
      destination_type: identity.destinationType,
    });
    for (const outcome of END_OUTCOMES) series.deliveries.inc({ ...this.labels, outcome }, 0);
    for (const outcome of ATTEMPT_OUTCOMES) series.attempts.inc({ ...this.labels, outcome }, 0);
    for (const failure_class of RETRIED_CLASSES) series.retries.inc({ ...this.labels, failure_class }, 0);
    for (const reason of DROP_REASONS) series.dropped.inc({ ...this.labels, reason }, 0);
    series.latency.zero(this.labels);
  }

  /** Whether this meter still names the subscription as it is now (its key or destination may change). */
  names(identity: SubscriptionIdentity): boolean {
    return identity.key === this.identity.key && (identity.destinationType === this.identity.destinationType || identity.destinationType === 'unknown');
  }

  delivered(latenciesSeconds: readonly number[]): void {
    if (latenciesSeconds.length === 0) return;
    this.series.deliveries.inc({ ...this.labels, outcome: 'delivered' }, latenciesSeconds.length);
    this.series.attempts.inc({ ...this.labels, outcome: 'delivered' }, latenciesSeconds.length);
    for (const seconds of latenciesSeconds) this.series.latency.observe(this.labels, seconds);
  }

  failedAttempts(failureClass: FailureClass, count: number): void {
    if (count > 0) this.series.attempts.inc({ ...this.labels, outcome: failureClass }, count);
  }

  retried(failureClass: FailureClass, count: number): void {
    if (count > 0) this.series.retries.inc({ ...this.labels, failure_class: failureClass }, count);
  }

  dropped(reason: DropReason, count: number): void {
    if (count <= 0) return;
    this.series.dropped.inc({ ...this.labels, reason }, count);
    this.series.deliveries.inc({ ...this.labels, outcome: 'dropped' }, count);
  }
}

/** `project\0subscription id`: one meter per subscription. */
export function subscriptionCacheKey(projectKey: string, subscriptionId: string): string {
  return `${projectKey}\0${subscriptionId}`;
}
