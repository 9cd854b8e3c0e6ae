import type { SubscriptionHealthStatus } from '@herald/model';
import type { Queryable } from '@herald/store';
import { configurationWindowEnd, type HealthState } from '../health.js';
import { releaseLease } from '../leases.js';
import { lockHealth, sameHealth, writeHealth } from '../records.js';
import { ids, sentToReplacedDestination, withFailuresGivenBack, withStoredAttempts, type BatchOutcome } from './batch.js';
import { configurationWindowMs, type HealthChange, type OutcomeDeps, type RecordedBatch, type SentBatch } from './context.js';
import { isCleanSuccess, recordCleanSuccess, recordDelivered } from './delivered.js';
import { recordFailures } from './failed.js';
import { applyEvents, healthEvents } from './health-events.js';
import { overtakenByRecovery, recoverBacklog } from './recovery.js';
import { recordStopped } from './stopped.js';

/**
 * Records what came of one subscription's batch: acknowledged deliveries are deleted, given-back
 * ones released, failures feed the §3.3 health state machine and are rescheduled or dropped
 * (§6.2 retry windows). A clean success takes one statement; anything else one transaction.
 */
export async function recordBatch(deps: OutcomeDeps, batch: SentBatch): Promise<RecordedBatch> {
  if (isCleanSuccess(batch)) return recordCleanSuccess(deps, batch);
  return deps.db.transaction((tx) => recordInTransaction(tx, deps, batch));
}

async function recordInTransaction(tx: Queryable, deps: OutcomeDeps, batch: SentBatch): Promise<RecordedBatch> {
  const { lease, now, project, subscription, sorted } = batch;
  // The health row first, then delivery rows: the maintenance sweep and forgetSubscription take
  // them in that order too, so two of them never wait for each other (a deadlock).
  const before = touchesHealth(batch) ? await lockHealth(tx, project.projectKey, subscription.id, now) : undefined;
  // Read after the health lock: markDestinationChanged takes that lock after the new destination
  // is stored, so a change it has recorded is seen here, before its Healthy is overwritten.
  const destinationReplaced = sorted.failures.length > 0 && (await sentToReplacedDestination(tx, project.projectKey, subscription));
  const outcome = destinationReplaced ? withFailuresGivenBack(sorted) : await withStoredAttempts(tx, lease, sorted);
  const overtaken = overtakenByRecovery(before, batch.sentAt);
  const news = overtaken ? withoutTemporaryFailures(outcome) : outcome;
  const health = before === undefined ? undefined : await moveHealth(tx, deps, batch, before, news);
  await recordDelivered(tx, outcome);
  // Given back due now, without counting an attempt (shutdown, a replaced destination).
  await releaseLease(tx, lease, ids(outcome.released), now);
  const recorded = { outcome, destinationReplaced, health };
  if (health?.transition.dropPending === true) {
    const lastError = health.transition.state.lastError;
    const drops = await recordStopped(tx, lease, outcome.failures, { projectKey: project.projectKey, subscriptionId: subscription.id, lastError, now });
    return { ...recorded, retries: [], drops, madeDue: 0 };
  }
  const judgement = {
    now,
    retryTemporaryNow: overtaken,
    status: statusOfFailures(outcome, before?.status ?? project.health.get(subscription.id) ?? 'Healthy'),
    configurationWindowEndsAt: health === undefined ? undefined : configurationWindowEnd(health.transition.state, configurationWindowMs(deps, batch)),
  };
  const { retries, drops } = await recordFailures(tx, lease, outcome.failures, judgement, deps);
  return { ...recorded, retries, drops, madeDue: await recoverBacklog(tx, deps, batch, news, health) };
}

/** The outcomes without their temporary failures (those overtaken by a recovery are no health news). */
function withoutTemporaryFailures(outcome: BatchOutcome): BatchOutcome {
  return { ...outcome, failures: outcome.failures.filter((f) => f.failure.class !== 'temporary') };
}

/** Failures other than payload ones are health news; so is a success while not known Healthy. */
function touchesHealth({ sorted, project, subscription }: SentBatch): boolean {
  const cachedStatus = project.health.get(subscription.id) ?? 'Healthy';
  return sorted.failures.some((f) => f.failure.class !== 'payload') || (sorted.delivered.length > 0 && cachedStatus !== 'Healthy');
}

async function moveHealth(tx: Queryable, deps: OutcomeDeps, batch: SentBatch, before: HealthState, outcome: BatchOutcome): Promise<HealthChange> {
  const transition = applyEvents(before, healthEvents(outcome), { now: batch.now, configurationWindowMs: configurationWindowMs(deps, batch) });
  if (!sameHealth(before, transition.state)) await writeHealth(tx, batch.project.projectKey, batch.subscription.id, transition.state, batch.now);
  return { before, transition };
}

/**
 * A success in this batch has already left any error state (§3.3 "new message delivered
 * successfully → Healthy"): the batch's failures are judged by the status after it, so a stopped
 * subscription's failure is retried in the fresh window rather than dropped as stopped.
 */
function statusOfFailures(outcome: BatchOutcome, statusBefore: SubscriptionHealthStatus): SubscriptionHealthStatus {
  return outcome.delivered.length > 0 ? 'Healthy' : statusBefore;
}
