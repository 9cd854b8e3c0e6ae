import type { Subscription, SubscriptionHealthStatus } from '@herald/model';
import type { Queryable } from '@herald/store';
import { effectiveRoutes, toRouteStarts } from './route-starts.js';
import { projectEnvironment, type ProjectEnvironment } from './types.js';

/** A routing key of one subscription, in the shape the router's SQL join reads (snake case). */
export interface SubscriptionRoute {
  project_key: string;
  subscription_id: string;
  kind: 'message' | 'change';
  resource_type_id: string;
  message_type: string | null;
  /** The key routes the outbox rows this snapshot does not see (`route-starts.ts`). */
  start_snapshot: string;
}

/** What the router and senders need to know about one project, as of `loadedAt`. */
export interface ProjectSubscriptions {
  projectKey: string;
  environment: ProjectEnvironment;
  subscriptions: readonly Subscription[];
  byId: ReadonlyMap<string, Subscription>;
  /** Every route of every subscription (`route-starts.ts`), for the router. */
  routes: readonly SubscriptionRoute[];
  /** Health as last read; absent = Healthy. Senders use it to skip health writes when healthy. */
  health: ReadonlyMap<string, SubscriptionHealthStatus>;
  /** The project's routing epoch (migration 011) as of this read: the router claims events only at it. */
  epoch: string;
  loadedAt: number;
}

export interface SubscriptionCacheOptions {
  /**
   * How long a project's subscriptions are used before they are read again. §4.2 rule 2 allows
   * up to one minute for a create/update/delete to take effect; a few seconds is the aim.
   */
  refreshMs: number;
}

export interface SubscriptionCacheDeps {
  /** Monotonic milliseconds for cache ages (operational timing, not a retry window). */
  monotonicNow?: () => number;
}

export const DEFAULT_SUBSCRIPTION_REFRESH_MS = 2_000;

/**
 * Subscriptions per project (at most 50, §8), read from the `resources` table where the gateway
 * stores them as documents, with the project's environment setting and the health statuses.
 *
 * Loads take the caller's `Queryable` so that the router can load inside its claim transaction
 * (on PGlite a query outside an open transaction would wait for it to end).
 */
export class SubscriptionCache {
  private readonly entries = new Map<string, ProjectSubscriptions>();
  private readonly monotonicNow: () => number;

  constructor(
    deps: SubscriptionCacheDeps = {},
    private readonly options: SubscriptionCacheOptions = { refreshMs: DEFAULT_SUBSCRIPTION_REFRESH_MS },
  ) {
    this.monotonicNow = deps.monotonicNow ?? (() => performance.now());
  }

  /** The project's subscriptions, read again when older than `refreshMs` or when `fresh`. */
  async forProject(projectKey: string, queryable: Queryable, fresh = false): Promise<ProjectSubscriptions> {
    const cached = this.entries.get(projectKey);
    if (!fresh && cached !== undefined && this.monotonicNow() - cached.loadedAt < this.options.refreshMs) return cached;
    const loaded = await this.load(projectKey, queryable);
    this.entries.set(projectKey, loaded);
    return loaded;
  }

  /** A subscription by id; a miss is re-read once (it may be newer than the cache). */
  async subscription(
    projectKey: string,
    subscriptionId: string,
    queryable: Queryable,
  ): Promise<{
    project: ProjectSubscriptions;
    subscription: Subscription | undefined;
  }> {
    let project = await this.forProject(projectKey, queryable);
    if (!project.byId.has(subscriptionId)) project = await this.forProject(projectKey, queryable, true);
    return { project, subscription: project.byId.get(subscriptionId) };
  }

  /** Forgets a project so that its next use reads it again (after changes made in this process). */
  invalidate(projectKey: string): void {
    this.entries.delete(projectKey);
  }

  /** Remembers a status this process just wrote, until the next refresh reads the table again. */
  noteHealth(projectKey: string, subscriptionId: string, status: SubscriptionHealthStatus): void {
    const cached = this.entries.get(projectKey);
    if (cached === undefined) return;
    const health = new Map(cached.health);
    health.set(subscriptionId, status);
    this.entries.set(projectKey, { ...cached, health });
  }

  private async load(projectKey: string, queryable: Queryable): Promise<ProjectSubscriptions> {
    const loadedAt = this.monotonicNow();
    // The epoch before the routes: a route change committed in between is read with the older
    // epoch, which the router then finds stale (read again), never the reverse.
    const project = await queryable.query<{ environment: string | null; epoch: string }>(
      `SELECT (SELECT doc->>'environment' FROM projects WHERE key = $1) AS environment,
         COALESCE((SELECT epoch FROM routing_epochs WHERE project_key = $1), 0)::text AS epoch`,
      [projectKey],
    );
    const subscriptions = await queryable.query<{
      doc: Subscription;
      status: SubscriptionHealthStatus | null;
      routes: Parameters<typeof toRouteStarts>[0] | null;
    }>(
      `SELECT r.doc, h.status,
         (SELECT json_agg(s) FROM (SELECT kind, resource_type_id, message_type, start_snapshot::text AS start_snapshot FROM subscription_routes
           WHERE project_key = r.project_key AND subscription_id = r.id) s) AS routes
       FROM resources r
       LEFT JOIN subscription_health h ON h.project_key = r.project_key AND h.subscription_id = r.id
       WHERE r.project_key = $1 AND r.type_id = 'subscription'
       ORDER BY r.created_at, r.id`,
      [projectKey],
    );
    const docs = subscriptions.rows.map((row) => row.doc);
    const health = new Map<string, SubscriptionHealthStatus>();
    for (const row of subscriptions.rows) if (row.status !== null) health.set(row.doc.id, row.status);
    return {
      projectKey,
      environment: projectEnvironment(project.rows[0]?.environment),
      subscriptions: docs,
      byId: new Map(docs.map((doc) => [doc.id, doc])),
      routes: subscriptions.rows.flatMap(({ doc, routes }) => {
        // The document's filter, from the starts written with it (`effectiveRoutes`).
        return effectiveRoutes(doc, toRouteStarts(routes ?? [])).map((route) => ({
          project_key: projectKey,
          subscription_id: doc.id,
          kind: route.kind,
          resource_type_id: route.resourceTypeId,
          message_type: route.messageType,
          start_snapshot: route.startSnapshot,
        }));
      }),
      health,
      epoch: project.rows[0]?.epoch ?? '0',
      loadedAt,
    };
  }
}
