import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../../metrics/delivery-metrics.js';
import { recordedError } from '../records.js';
import type { SubscriptionCache } from '../subscription-cache.js';
import type { RecordedBatch, SentBatch } from './context.js';

export interface ReportDeps {
  cache: SubscriptionCache;
  logger: Logger;
  metrics?: DeliveryMetrics;
}

/** After the record: the cache, the metrics and the logs learn what was written. */
export function reportBatch(deps: ReportDeps, batch: SentBatch, recorded: RecordedBatch): void {
  const { projectKey } = batch.project;
  const subscriptionId = batch.subscription.id;
  if (recorded.destinationReplaced) {
    // This worker sent with a subscription older than its document: read it again before the
    // given-back deliveries are claimed, so that they go to the new destination.
    deps.cache.invalidate(projectKey);
    deps.logger.debug({ projectKey, subscriptionId, givenBack: batch.sorted.failures.length }, 'failures at a replaced destination given back');
  }
  observe(deps, batch, recorded);
  const firstFailure = batch.sorted.failures[0];
  if (firstFailure !== undefined) {
    deps.logger.debug(
      { projectKey, subscriptionId, failed: batch.sorted.failures.length, error: recordedError(firstFailure.failure) },
      'delivery attempts failed',
    );
  }
  if (recorded.health !== undefined) reportHealth(deps, batch, recorded.health);
  if (recorded.madeDue > 0) {
    deps.logger.info({ projectKey, subscriptionId, madeDue: recorded.madeDue }, 'destination accepts again: backed-off deliveries made due');
  }
}

function observe(deps: ReportDeps, batch: SentBatch, recorded: RecordedBatch): void {
  const meter = deps.metrics?.forSubscription(batch.project.projectKey, batch.subscription);
  if (meter === undefined) return;
  const { sorted, now } = batch;
  meter.delivered(sorted.delivered.map((d) => Math.max(0, (now.getTime() - d.committedAt.getTime()) / 1000)));
  for (const cls of ['configuration', 'temporary', 'payload'] as const) {
    meter.failedAttempts(cls, sorted.failures.filter((f) => f.failure.class === cls).length);
    meter.retried(cls, recorded.retries.filter((r) => r.error.class === cls).length);
  }
  for (const [reason, count] of recorded.drops) meter.dropped(reason, count);
}

function reportHealth(deps: ReportDeps, batch: SentBatch, { before, transition }: NonNullable<RecordedBatch['health']>): void {
  const { projectKey } = batch.project;
  const subscriptionId = batch.subscription.id;
  const to = transition.state;
  deps.cache.noteHealth(projectKey, subscriptionId, to.status);
  if (!transition.statusChanged) return;
  const fields = { projectKey, subscriptionId, from: before.status, to: to.status, error: to.lastError };
  // Recovery is good news; entering an error state is what operators are paged for.
  if (to.status === 'Healthy') deps.logger.info(fields, 'subscription health changed');
  else deps.logger.warn(fields, 'subscription health changed');
}
