import type { Clock, DestinationType } from '@herald/model';
import type { Database, Queryable } from '@herald/store';
import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { configurationWindowEnd, nextHealth } from './health.js';
import { dropAllPending, lockHealth, writeHealth } from './records.js';
import type { RetryPolicy } from './retry-policy.js';
import type { SubscriptionCache } from './subscription-cache.js';
import { projectEnvironment } from './types.js';

export interface MaintenanceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  policy: RetryPolicy;
  cache?: SubscriptionCache;
  metrics?: DeliveryMetrics;
}

export interface MaintenanceResult {
  /** Subscriptions moved to ConfigurationErrorDeliveryStopped because their window elapsed. */
  stopped: number;
  /** Deliveries dropped with them. */
  dropped: number;
  /** Dropped-delivery records older than the retention removed. */
  purged: number;
}

/**
 * How long after a ConfigurationError window's end the sweep leaves the decision to the sender's
 * last try. The retry policy schedules that try at the window end (retry-policy.ts), and its outcome
 * is what §3.3 asks for: fixed within the window → Healthy, still failing → stopped. Bounded, so a
 * subscription whose deliveries no sender claims (none running, or a long backlog) is still stopped.
 */
export const LAST_TRY_GRACE_MS = 5 * 60_000;

/**
 * Time-driven work that no send triggers: a ConfigurationError window can elapse while nothing is
 * being retried (§3.3 "time passes"), and dropped deliveries expire after their retention (14 days).
 * Safe to run on every worker at once: each transition is made under the health row's lock.
 */
export class Maintenance {
  constructor(private readonly deps: MaintenanceDeps) {}

  async runOnce(): Promise<MaintenanceResult> {
    const { stopped, dropped } = await this.stopElapsedWindows();
    const purged = await this.purgeExpiredDrops();
    return { stopped, dropped, purged };
  }

  async stopElapsedWindows(): Promise<{ stopped: number; dropped: number }> {
    const { db, clock, policy } = this.deps;
    const now = clock.now();
    const shortestWindow = Math.min(...Object.values(policy.windows.configurationMs));
    const candidates = await db.query<{
      project_key: string;
      subscription_id: string;
      environment: string | null;
      destination_type: DestinationType | null;
      subscription_key: string | null;
    }>(
      `SELECT h.project_key, h.subscription_id, p.doc->>'environment' AS environment,
         r.doc->'destination'->>'type' AS destination_type, r.key AS subscription_key
       FROM subscription_health h LEFT JOIN projects p ON p.key = h.project_key
       LEFT JOIN resources r ON r.project_key = h.project_key AND r.type_id = 'subscription' AND r.id = h.subscription_id
       WHERE h.status = 'ConfigurationError' AND h.since <= $1`,
      [new Date(now.getTime() - shortestWindow)],
    );
    let stopped = 0;
    let dropped = 0;
    for (const candidate of candidates.rows) {
      const configurationWindowMs = policy.windows.configurationMs[projectEnvironment(candidate.environment)];
      const result = await db.transaction(async (tx) => {
        const current = await lockHealth(tx, candidate.project_key, candidate.subscription_id, now);
        const transition = nextHealth(current, { type: 'windowElapsed' }, { now, configurationWindowMs });
        if (!transition.dropPending) return undefined;
        const windowEnd = configurationWindowEnd(current, configurationWindowMs);
        if (windowEnd !== undefined && (await lastTryToCome(tx, candidate.project_key, candidate.subscription_id, windowEnd, now))) {
          return undefined; // the sender's outcome decides; a later sweep stops it if the sender does not
        }
        await writeHealth(tx, candidate.project_key, candidate.subscription_id, transition.state, now);
        const count = await dropAllPending(
          tx,
          candidate.project_key,
          candidate.subscription_id,
          'ConfigurationErrorDeliveryStopped',
          transition.state.lastError,
          now,
        );
        return { count, status: transition.state.status };
      });
      if (result === undefined) continue;
      stopped += 1;
      dropped += result.count;
      this.deps.cache?.noteHealth(candidate.project_key, candidate.subscription_id, result.status);
      this.deps.metrics
        ?.meter({
          projectKey: candidate.project_key,
          subscriptionId: candidate.subscription_id,
          key: candidate.subscription_key ?? undefined,
          destinationType: candidate.destination_type ?? 'unknown',
        })
        .dropped('ConfigurationErrorDeliveryStopped', result.count);
      this.deps.logger.warn(
        { projectKey: candidate.project_key, subscriptionId: candidate.subscription_id, dropped: result.count },
        'configuration error window elapsed: delivery stopped (§3.3)',
      );
    }
    return { stopped, dropped };
  }

  /** Removes drop records past the retention, and health rows of subscriptions that no longer exist. */
  async purgeExpiredDrops(): Promise<number> {
    const { db, clock, policy } = this.deps;
    const cutoff = new Date(clock.now().getTime() - policy.droppedRetentionMs);
    const purged = await db.query('DELETE FROM dropped_deliveries WHERE dropped_at <= $1', [cutoff]);
    await db.query(
      `DELETE FROM subscription_health h WHERE NOT EXISTS (
         SELECT 1 FROM resources r WHERE r.project_key = h.project_key AND r.type_id = 'subscription' AND r.id = h.subscription_id)`,
    );
    if (purged.rowCount > 0) this.deps.logger.info({ purged: purged.rowCount }, 'purged expired dropped deliveries');
    return purged.rowCount;
  }
}

/**
 * Whether the sender's last try of a subscription whose window ended at `windowEnd` is still to
 * come, within `LAST_TRY_GRACE_MS` of that end: a delivery due by the window end that became due
 * recently enough to be claimed any moment (one due long ago is evidently not being claimed), or a
 * send in flight right now.
 */
async function lastTryToCome(tx: Queryable, projectKey: string, subscriptionId: string, windowEnd: Date, now: Date): Promise<boolean> {
  if (now.getTime() >= windowEnd.getTime() + LAST_TRY_GRACE_MS) return false;
  const result = await tx.query<{ pending: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM deliveries WHERE project_key = $1 AND subscription_id = $2
         AND ((due_at > $3 AND due_at <= $4) OR (lease_owner IS NOT NULL AND lease_expires_at > $5))
     ) AS pending`,
    [projectKey, subscriptionId, new Date(now.getTime() - LAST_TRY_GRACE_MS), windowEnd, now],
  );
  return result.rows[0]?.pending === true;
}
