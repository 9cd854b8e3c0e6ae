import type { Clock } from '@herald/model';
import type { Database, Queryable } from '@herald/store';
import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { subscriptionMatches } from './matching.js';
import type { SubscriptionCache } from './subscription-cache.js';

export interface RouterOptions {
  /** Outbox rows claimed per transaction. */
  batchSize: number;
}

export interface RouterDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  cache: SubscriptionCache;
  metrics?: DeliveryMetrics;
}

export interface RouteResult {
  /** Outbox rows claimed (and removed). */
  events: number;
  /** Pending deliveries created. */
  deliveries: number;
}

interface OutboxHead {
  seq: number;
  project_key: string;
  kind: 'message' | 'change';
  resource_type_id: string;
  message_type: string | null;
}

/**
 * Step 2 of the data flow (ARCHITECTURE.md): claims outbox rows, writes one pending delivery per
 * matching (subscription, event) and removes the rows, all in ONE transaction — an outbox row
 * disappears only together with its deliveries. Rows are claimed `FOR UPDATE SKIP LOCKED`, so
 * several routers share the outbox without waiting on each other. The payload is copied inside the
 * database (INSERT … SELECT), so every field the store wrote reaches the sender unchanged.
 */
export class Router {
  constructor(
    private readonly deps: RouterDeps,
    private readonly options: RouterOptions,
  ) {}

  async routeOnce(): Promise<RouteResult> {
    const result = await this.deps.db.transaction((tx) => this.route(tx));
    if (result.events > 0) {
      this.deps.metrics?.routed(result.events, result.deliveries);
      this.deps.logger.debug(result, 'routed outbox events');
    }
    return result;
  }

  private async route(tx: Queryable): Promise<RouteResult> {
    const claimed = await tx.query<OutboxHead>(
      `SELECT seq, project_key, kind, resource_type_id, message_type FROM outbox
       ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [this.options.batchSize],
    );
    if (claimed.rows.length === 0) return { events: 0, deliveries: 0 };

    const routes: { seq: number; subscription_id: string }[] = [];
    const projects = new Map<string, Awaited<ReturnType<SubscriptionCache['forProject']>>>();
    for (const row of claimed.rows) {
      let project = projects.get(row.project_key);
      if (project === undefined) {
        project = await this.deps.cache.forProject(row.project_key, tx);
        projects.set(row.project_key, project);
      }
      const event = { kind: row.kind, resourceTypeId: row.resource_type_id, messageType: row.message_type };
      for (const subscription of project.subscriptions) {
        if (subscriptionMatches(subscription, event)) routes.push({ seq: row.seq, subscription_id: subscription.id });
      }
    }

    // One statement (a data-modifying CTE always runs): both parts see the same snapshot, so the
    // INSERT still reads the outbox rows the DELETE removes. Unique (project, subscription, event) + DO NOTHING: routing a row twice
    // (impossible under the row lock, but a replayed outbox could) never duplicates a delivery.
    const result = await tx.query<{ deliveries: number }>(
      `WITH inserted AS (
         INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, committed_at, created_at, due_at)
         SELECT o.project_key, r.subscription_id, o.event_id, o.seq, o.payload, o.committed_at, $2, $2
         FROM jsonb_to_recordset($1::jsonb) AS r(seq bigint, subscription_id text)
         JOIN outbox o ON o.seq = r.seq
         ON CONFLICT (project_key, subscription_id, event_id) DO NOTHING
         RETURNING 1),
       removed AS (DELETE FROM outbox WHERE seq = ANY($3::bigint[]))
       SELECT count(*)::int AS deliveries FROM inserted`,
      [JSON.stringify(routes), this.deps.clock.now(), claimed.rows.map((row) => row.seq)],
    );
    const deliveries = result.rows[0]?.deliveries ?? 0;
    return { events: claimed.rows.length, deliveries };
  }
}
