import type { Clock } from '@herald/model';
import type { Database } from '@herald/store';
import type { Logger } from 'pino';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { toLeasedDelivery, type Lease, type LeasedRow } from './leases.js';
import type { SubscriptionCache } from './subscription-cache.js';
import type { SubscriptionRef } from './types.js';

export interface RouterOptions {
  /** Outbox rows claimed per statement. */
  batchSize: number;
}

export interface RouterDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  cache: SubscriptionCache;
  metrics?: DeliveryMetrics;
}

/**
 * Lease the deliveries just created to this worker, so its sender sends them at once instead of
 * claiming them in another round trip (the latency path). They are ordinary leases: if the worker
 * dies they become due when `expiresAt` passes.
 */
export interface HandOff {
  owner: string;
  expiresAt: Date;
  /** At most this many (a lease's size, `sendBatchSize`); the rest wait for any sender. */
  limit: number;
  /** None of these subscriptions' deliveries (their sends are stuck at the destination). */
  excluded?: readonly SubscriptionRef[];
}

export interface RouteResult {
  /** Outbox rows claimed (and removed). */
  events: number;
  /** Pending deliveries created. */
  deliveries: number;
  /** With a hand-off: the created deliveries, leased to the caller. */
  lease?: Lease;
}

/**
 * Step 2 of the data flow (ARCHITECTURE.md): claims outbox rows, writes one pending delivery per
 * matching (subscription, event) and removes the rows — in ONE statement, hence one transaction:
 * an outbox row disappears only together with its deliveries. Rows are claimed `FOR UPDATE SKIP
 * LOCKED`, so several routers share the outbox without waiting on each other.
 *
 * The statement claims only rows of projects whose subscriptions are in the cache at the project's
 * current routing epoch (migration 011: an event written after a subscription write committed is
 * never routed with the routes from before it; a stale project is read again), and joins them
 * with their routes (`routingKeys`, §2.4 semantics, each from its start: `route-starts.ts`). Which projects those are comes from the
 * previous statement: each one also answers the projects at the head of the outbox (no lock). So
 * routing is one round trip; a project new at the head costs one more statement, at once. The
 * payload is copied inside the database, so every field the store wrote reaches the sender unchanged.
 */
export class Router {
  /** Projects at the head of the outbox as of the last statement: the next one claims their rows. */
  private headProjects: readonly string[] = [];
  /** Projects whose routes changed since the cache read them (their epoch moved): read again before claiming. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly deps: RouterDeps,
    private readonly options: RouterOptions,
  ) {}

  async routeOnce(handOff?: HandOff): Promise<RouteResult> {
    // A claim with no project to look for would walk the whole outbox to find nothing.
    if (this.headProjects.length === 0) this.headProjects = await this.readHeadProjects();
    if (this.headProjects.length === 0) return { events: 0, deliveries: 0 };
    const projectKeys = this.headProjects;
    const routed = await this.claimAndRoute(projectKeys, handOff);
    // Rows of a project we did not claim for are at the head, or a project's routes changed since
    // they were read (its rows were left): claim now rather than next time.
    if (routed.events === 0 && (this.stale.size > 0 || this.headProjects.some((key) => !projectKeys.includes(key)))) {
      return this.claimAndRoute(this.headProjects, handOff);
    }
    return routed;
  }

  /** The projects of the oldest outbox rows (a batch of them), to claim for. */
  private async readHeadProjects(): Promise<string[]> {
    const result = await this.deps.db.query<{ project_key: string }>(
      'SELECT DISTINCT project_key FROM (SELECT project_key FROM outbox ORDER BY seq LIMIT $1) head',
      [this.options.batchSize],
      { prepare: true },
    );
    return result.rows.map((row) => row.project_key);
  }

  private async claimAndRoute(projectKeys: readonly string[], handOff: HandOff | undefined): Promise<RouteResult> {
    const { db, cache, clock } = this.deps;
    const started = performance.now();
    const routes = [];
    const epochs: string[] = [];
    for (const key of projectKeys) {
      const routesChanged = this.stale.has(key);
      this.stale.delete(key);
      const project = await cache.forProject(key, db, routesChanged);
      routes.push(...project.routes);
      epochs.push(project.epoch);
    }

    const now = clock.now();
    // Unique (project, subscription, event) + DO NOTHING: routing a row twice (impossible under the
    // row lock, but a replayed outbox could) never duplicates a delivery. DISTINCT: a subscription
    // may match one event through several keys.
    const result = await db.query<{ events: number; deliveries: number; leased: LeasedRow[] | null; heads: string[] | null; stale: string[] }>(
      `WITH cached AS (
         SELECT c.project_key, c.epoch = COALESCE(e.epoch, 0) AS current
         FROM unnest($1::text[], $10::bigint[]) AS c(project_key, epoch)
         LEFT JOIN routing_epochs e ON e.project_key = c.project_key),
       claimed AS (
         DELETE FROM outbox WHERE seq IN (
           SELECT seq FROM outbox WHERE project_key = ANY(ARRAY(SELECT project_key FROM cached WHERE current))
           ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING seq, project_key, event_id, kind, resource_type_id, message_type, payload, message_stored, committed_at, xact_id),
       routed AS (
         SELECT DISTINCT ON (c.seq, r.subscription_id) c.*, r.subscription_id
         FROM claimed c
         JOIN jsonb_to_recordset($3::jsonb) AS r(project_key text, subscription_id text, kind text, resource_type_id text, message_type text,
           start_snapshot text)
           ON r.project_key = c.project_key AND r.kind = c.kind AND r.resource_type_id = c.resource_type_id
          AND (r.message_type IS NULL OR r.message_type = c.message_type)
          -- Committed after the route started (rows written before migration 008 have no xact_id:
          -- they reach only routes from the start, whose snapshot sees nothing).
          AND NOT pg_visible_in_snapshot(COALESCE(c.xact_id, '2'::xid8), r.start_snapshot::pg_snapshot)),
       flagged AS (
         SELECT routed.*, (project_key, subscription_id) IN (SELECT * FROM unnest($8::text[], $9::text[])) AS excluded FROM routed),
       numbered AS (
         SELECT flagged.*, NOT excluded AND row_number() OVER (PARTITION BY excluded ORDER BY seq, subscription_id) <= $7 AS handed
         FROM flagged),
       inserted AS (
         INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at,
           created_at, due_at, lease_owner, lease_expires_at)
         SELECT project_key, subscription_id, event_id, seq, payload, message_stored, committed_at, $4,
           CASE WHEN handed THEN $6::timestamptz ELSE $4 END,
           CASE WHEN handed THEN $5::text END,
           CASE WHEN handed THEN $6::timestamptz END
         FROM numbered
         ON CONFLICT (project_key, subscription_id, event_id) DO NOTHING
         RETURNING id, project_key, subscription_id, event_id, committed_at, lease_owner, message_stored,
           CASE WHEN lease_owner IS NOT NULL THEN payload END AS payload)
       SELECT (SELECT count(*) FROM claimed)::int AS events, (SELECT count(*) FROM inserted)::int AS deliveries,
         (SELECT json_agg(inserted) FROM inserted WHERE lease_owner IS NOT NULL) AS leased,
         -- The statement still sees the rows it deleted: they are left out of the next heads (else a
         -- run of one project's rows just claimed would make the next claim walk the backlog).
         ARRAY(SELECT DISTINCT project_key FROM (SELECT project_key FROM outbox o
           WHERE NOT EXISTS (SELECT 1 FROM claimed c WHERE c.seq = o.seq) ORDER BY seq LIMIT $2) head) AS heads,
         ARRAY(SELECT project_key FROM cached WHERE NOT current) AS stale`,
      [
        projectKeys,
        this.options.batchSize,
        JSON.stringify(routes),
        now,
        handOff?.owner ?? null,
        handOff?.expiresAt ?? null,
        handOff?.limit ?? 0,
        handOff?.excluded?.map((ref) => ref.projectKey) ?? [],
        handOff?.excluded?.map((ref) => ref.subscriptionId) ?? [],
        epochs,
      ],
      { prepare: true },
    );
    const row = result.rows[0];
    this.headProjects = row?.heads ?? [];
    for (const key of row?.stale ?? []) this.stale.add(key);
    const routed: RouteResult = { events: row?.events ?? 0, deliveries: row?.deliveries ?? 0 };
    if (handOff !== undefined && row?.leased !== null && row?.leased !== undefined && row.leased.length > 0) {
      routed.lease = { owner: handOff.owner, expiresAt: handOff.expiresAt, deliveries: row.leased.map(toLeasedDelivery) };
    }
    if (routed.events > 0) {
      this.deps.metrics?.routed(routed.events, routed.deliveries);
      this.deps.logger.debug({ events: routed.events, deliveries: routed.deliveries, ms: Math.round(performance.now() - started) }, 'routed outbox events');
    }
    return routed;
  }
}
