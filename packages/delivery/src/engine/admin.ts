import type { Clock, SubscriptionHealthStatus } from '@herald/model';
import { parsePaging, type Database } from '@herald/store';
import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import type { SubscriptionIdentity, SubscriptionMeter } from '../metrics/subscription-meter.js';
import {
  checkDropIds,
  listProjectDrops,
  purgeDrops,
  replayDropsTo,
  toDroppedDelivery,
  type DroppedFilter,
  type DroppedRow,
  type ProjectDroppedDeliveryPage,
} from './dropped-records.js';
import { INITIAL_HEALTH_STATUS, nextHealth } from './health.js';
import { dropAllPending, lockHealth, readHealth, sameHealth, writeHealth } from './records.js';
import type { SubscriptionCache } from './subscription-cache.js';
import type { DeliveryStatus, DroppedDeliveryPage } from './types.js';

export interface DeliveryAdminDeps {
  db: Database;
  clock: Clock;
  logger?: Logger;
  /** The in-process engine's cache, told about changes so they apply at once here. */
  cache?: SubscriptionCache;
  metrics?: DeliveryMetrics;
}

export interface DroppedPaging {
  limit?: number | string;
  offset?: number | string;
  withTotal?: boolean | string;
}

/** How a deleted subscription's drops are labelled when the caller knows it (its key, its destination). */
export type DeletedSubscriptionName = Pick<SubscriptionIdentity, 'key' | 'destinationType'>;

/**
 * What the gateway needs from the engine for one subscription: its §3.3 health, its delivery
 * backlog, and the inspectable, replayable record of what was dropped. Works without a running
 * worker (the gateway may run with `HERALD_DELIVERY=off` against a shared database). Callers
 * check that the subscription exists in the project first (404 otherwise).
 */
export class DeliveryAdmin {
  constructor(private readonly deps: DeliveryAdminDeps) {}

  /** §4.2 health: the stored status, `Healthy` when the subscription never failed. */
  async getHealth(projectKey: string, subscriptionId: string): Promise<SubscriptionHealthStatus> {
    return (await readHealth(this.deps.db, projectKey, subscriptionId))?.status ?? INITIAL_HEALTH_STATUS;
  }

  async deliveryStatus(projectKey: string, subscriptionId: string): Promise<DeliveryStatus> {
    const now = this.deps.clock.now();
    const pending = await this.deps.db.query<{ count: number; oldest: Date | string | null }>(
      `SELECT count(*)::int AS count, min(committed_at) AS oldest FROM deliveries WHERE project_key = $1 AND subscription_id = $2`,
      [projectKey, subscriptionId],
    );
    const row = pending.rows[0];
    const health = await readHealth(this.deps.db, projectKey, subscriptionId);
    const oldest = row?.oldest === null || row?.oldest === undefined ? undefined : new Date(row.oldest);
    const status: DeliveryStatus = {
      pendingCount: row?.count ?? 0,
      oldestPendingAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000),
    };
    if (health?.lastError !== undefined) status.lastError = health.lastError;
    if (health?.lastErrorAt !== undefined) status.lastErrorAt = health.lastErrorAt.toISOString();
    return status;
  }

  /** Dropped deliveries in the order they were dropped, paged like §4.4.2 (limit 1–500, offset ≤ 10000). */
  async listDropped(projectKey: string, subscriptionId: string, paging: DroppedPaging = {}): Promise<DroppedDeliveryPage> {
    const { limit, offset, withTotal } = parsePaging(paging);
    const page = await this.deps.db.query<Omit<DroppedRow, 'subscription_id'>>(
      `SELECT id, event_id, reason, error_class, error_code, error_message, attempts, committed_at, first_failure_at,
         dropped_at, payload
       FROM dropped_deliveries WHERE project_key = $1 AND subscription_id = $2
       ORDER BY id LIMIT $3 OFFSET $4`,
      [projectKey, subscriptionId, limit, offset],
    );
    const results = page.rows.map(toDroppedDelivery);
    const response: DroppedDeliveryPage = { limit, offset, count: results.length, results };
    if (!withTotal) return response;
    // A short page ends the list, so its total is known without counting.
    const lastPage = results.length < limit && (results.length > 0 || offset === 0);
    if (lastPage) {
      response.total = offset + results.length;
    } else {
      const counted = await this.deps.db.query<{ total: number }>(
        'SELECT count(*)::int AS total FROM dropped_deliveries WHERE project_key = $1 AND subscription_id = $2',
        [projectKey, subscriptionId],
      );
      response.total = counted.rows[0]?.total ?? 0;
    }
    return response;
  }

  /**
   * Moves dropped deliveries back to pending, due now (`ids` from `listDropped`, or `'all'`). An
   * event that is pending again already is not duplicated. Answers how many became pending.
   */
  async replayDropped(projectKey: string, subscriptionId: string, ids: readonly string[] | 'all'): Promise<{ replayed: number }> {
    if (ids !== 'all') {
      checkDropIds(ids);
      if (ids.length === 0) return { replayed: 0 };
    }
    const now = this.deps.clock.now();
    const selected = ids === 'all' ? '' : 'AND id = ANY($4::bigint[])';
    const params: unknown[] = [projectKey, subscriptionId, now];
    if (ids !== 'all') params.push(ids.map(Number));
    const result = await this.deps.db.query(
      `WITH moved AS (
         DELETE FROM dropped_deliveries WHERE project_key = $1 AND subscription_id = $2 ${selected}
         RETURNING project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at)
       INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at,
         created_at, due_at)
       SELECT project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, $3, $3 FROM moved
       ON CONFLICT (project_key, subscription_id, event_id) DO NOTHING`,
      params,
    );
    this.deps.logger?.info({ projectKey, subscriptionId, replayed: result.rowCount }, 'replaying dropped deliveries');
    return { replayed: result.rowCount };
  }

  /**
   * §3.3 last row / §4.2 rule 3: `changeDestination` succeeded (its test message was delivered),
   * so the subscription is Healthy, and what is pending is due now at the new destination, its
   * attempts counted afresh there.
   */
  async markDestinationChanged(projectKey: string, subscriptionId: string): Promise<SubscriptionHealthStatus> {
    const now = this.deps.clock.now();
    const status = await this.deps.db.transaction(async (tx) => {
      const current = await lockHealth(tx, projectKey, subscriptionId, now);
      const transition = nextHealth(current, { type: 'destinationChanged' }, { now, configurationWindowMs: 0 });
      if (!sameHealth(current, transition.state)) await writeHealth(tx, projectKey, subscriptionId, transition.state, now);
      // The new destination starts with a clean slate: its backoff and temporary-error window count
      // its own failures, not the old destination's (leased rows too: a send to the old destination
      // in flight now is given back uncounted, outcomes/batch.ts `withFailuresGivenBack`).
      await tx.query(`UPDATE deliveries SET attempts = 0, first_failure_at = NULL WHERE project_key = $1 AND subscription_id = $2 AND attempts > 0`, [
        projectKey,
        subscriptionId,
      ]);
      await tx.query(`UPDATE deliveries SET due_at = $3 WHERE project_key = $1 AND subscription_id = $2 AND lease_owner IS NULL AND due_at > $3`, [
        projectKey,
        subscriptionId,
        now,
      ]);
      return transition.state.status;
    });
    this.deps.cache?.invalidate(projectKey);
    return status;
  }

  /**
   * A subscription was created or changed: the in-process router reads the project's subscriptions
   * again before routing its next events. Other processes see it at their next refresh (§4.2 rule 2:
   * up to one minute; `HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS`, default 2 s).
   */
  subscriptionsChanged(projectKey: string): void {
    this.deps.cache?.invalidate(projectKey);
  }

  /**
   * The subscription was deleted. Its pending deliveries are recorded as dropped with reason
   * `SubscriptionDeleted` (never removed silently; the records expire with the 14-day retention)
   * and its health row is removed. Idempotent. The drops are counted here, in the process that
   * deleted it, whether or not it runs a worker (issue 25), under `name` when the caller gives it.
   */
  async forgetSubscription(projectKey: string, subscriptionId: string, name?: DeletedSubscriptionName): Promise<{ dropped: number }> {
    const now = this.deps.clock.now();
    const dropped = await this.deps.db.transaction(async (tx) => {
      // The health row before delivery rows, the order every writer takes them in (no deadlock).
      await tx.query('DELETE FROM subscription_health WHERE project_key = $1 AND subscription_id = $2', [projectKey, subscriptionId]);
      return dropAllPending(tx, projectKey, subscriptionId, 'SubscriptionDeleted', undefined, now);
    });
    this.deps.cache?.invalidate(projectKey);
    this.deletedMeter(projectKey, subscriptionId, name)?.dropped('SubscriptionDeleted', dropped);
    if (dropped > 0) this.deps.logger?.info({ projectKey, subscriptionId, dropped }, 'subscription deleted: pending deliveries dropped');
    return { dropped };
  }

  /** Drop records of a project, by the subscription they were dropped from and their reason. */
  listProjectDropped(projectKey: string, filter: DroppedFilter, paging: DroppedPaging = {}): Promise<ProjectDroppedDeliveryPage> {
    return listProjectDrops(this.deps.db, projectKey, filter, paging);
  }

  /**
   * Moves a subscription's drop records (all, or `filter.reason` / `filter.ids` of them) into the
   * pending deliveries of another subscription of the project, due now: how the deliveries of a
   * deleted subscription reach its replacement. Callers check that the target exists.
   */
  async replayDroppedTo(projectKey: string, filter: DroppedFilter & { subscriptionId: string }, targetSubscriptionId: string): Promise<{ replayed: number }> {
    if (filter.ids !== undefined) checkDropIds(filter.ids);
    const outcome = await replayDropsTo(this.deps.db, projectKey, filter, targetSubscriptionId, this.deps.clock.now());
    this.deps.logger?.info({ projectKey, from: filter.subscriptionId, to: targetSubscriptionId, ...outcome }, 'replaying dropped deliveries');
    return outcome;
  }

  /** Removes a subscription's drop records (all, or those of `filter.reason` / `filter.ids`) for good. */
  async purgeDropped(projectKey: string, filter: DroppedFilter & { subscriptionId: string }): Promise<{ purged: number }> {
    if (filter.ids !== undefined) checkDropIds(filter.ids);
    const outcome = await purgeDrops(this.deps.db, projectKey, filter);
    this.deps.logger?.info({ projectKey, subscriptionId: filter.subscriptionId, ...outcome }, 'purging dropped deliveries');
    return outcome;
  }

  /** The deleted subscription's series: as named by the caller, else as this process knew it, else by id. */
  private deletedMeter(projectKey: string, subscriptionId: string, name: DeletedSubscriptionName | undefined): SubscriptionMeter | undefined {
    const metrics = this.deps.metrics;
    if (metrics === undefined) return undefined;
    return name === undefined ? metrics.forDeleted(projectKey, subscriptionId) : metrics.meter({ projectKey, subscriptionId, ...name });
  }
}
