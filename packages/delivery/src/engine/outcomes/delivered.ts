import type { Queryable } from '@herald/store';
import { deleteDelivered, deleteDeliveredSeeingHealth, lockHealth, writeHealth } from '../records.js';
import { ids, type BatchOutcome } from './batch.js';
import { configurationWindowMs, type HealthChange, type OutcomeDeps, type RecordedBatch, type SentBatch } from './context.js';
import { applyEvents } from './health-events.js';
import { recoverBacklog } from './recovery.js';

/** Acknowledged by the destination: gone, whoever holds the lease now (it was delivered). */
export async function recordDelivered(tx: Queryable, outcome: BatchOutcome): Promise<void> {
  await deleteDelivered(tx, ids(outcome.delivered));
}

/**
 * The common case: everything acknowledged, nothing to give back, the subscription healthy as far
 * as this worker knows — and so no health row to lock.
 */
export function isCleanSuccess(batch: SentBatch): boolean {
  const { sorted, project, subscription } = batch;
  return sorted.failures.length === 0 && sorted.released.length === 0 && (project.health.get(subscription.id) ?? 'Healthy') === 'Healthy';
}

/**
 * Records a clean success in one statement, no transaction; the statement also tells whether
 * another worker recorded a failure since this worker's subscriptions were read, in which case
 * this success heals it.
 */
export async function recordCleanSuccess(deps: OutcomeDeps, batch: SentBatch): Promise<RecordedBatch> {
  const { project, subscription, sorted } = batch;
  const unhealthy = await deleteDeliveredSeeingHealth(deps.db, ids(sorted.delivered), project.projectKey, subscription.id);
  const healed = unhealthy ? await healAfterSuccess(deps, batch) : undefined;
  return { outcome: sorted, destinationReplaced: false, health: healed?.health, retries: [], drops: new Map(), madeDue: healed?.madeDue ?? 0 };
}

/**
 * §3.3 "configuration fixed → Healthy" for a success sent on a stale cached status. Only a state
 * whose last failure is not newer than this success is healed: a failure another worker recorded
 * after it is news this success does not answer. Healed, the subscription has recovered.
 */
async function healAfterSuccess(deps: OutcomeDeps, batch: SentBatch): Promise<{ health: HealthChange; madeDue: number } | undefined> {
  const { now, project, subscription } = batch;
  return deps.db.transaction(async (tx) => {
    const before = await lockHealth(tx, project.projectKey, subscription.id, now);
    const lastNews = before.lastErrorAt ?? before.since;
    if (before.status === 'Healthy' || lastNews.getTime() > now.getTime()) return undefined;
    const transition = applyEvents(before, [{ type: 'delivered' }], { now, configurationWindowMs: configurationWindowMs(deps, batch) });
    await writeHealth(tx, project.projectKey, subscription.id, transition.state, now);
    const health = { before, transition };
    return { health, madeDue: await recoverBacklog(tx, deps, batch, batch.sorted, health) };
  });
}
