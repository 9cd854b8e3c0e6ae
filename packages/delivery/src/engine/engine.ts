import { systemClock, type Clock, type DestinationType, type SubscriptionHealthStatus } from '@herald/model';
import type { Database } from '@herald/store';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { DEFAULT_GAUGE_REFRESH_MS, DeliveryMetrics, type DeliveryGaugeSnapshot } from '../metrics/delivery-metrics.js';
import type { SecretBox } from '../secrets/index.js';
import type { DestinationAdapterSource } from './adapters.js';
import { DeliveryAdmin } from './admin.js';
import { definedOnly } from './defined-only.js';
import { defaultWorkerId } from './leases.js';
import { Maintenance } from './maintenance.js';
import { createRetryPolicy, type RetryPolicy, type RetryPolicyOptions } from './retry-policy.js';
import { Router } from './router.js';
import { Sender } from './sender.js';
import { DEFAULT_SUBSCRIPTION_REFRESH_MS, SubscriptionCache } from './subscription-cache.js';

export interface DeliveryEngineDeps {
  db: Database;
  logger: Logger;
  /** Adapters per destination configuration (`DestinationPool`); owned and closed by the caller. */
  adapters: DestinationAdapterSource;
  /** Time of retry windows, leases and due dates. Defaults to the system clock. */
  clock?: Clock;
  /** Metrics go here when given (no global registry). */
  registry?: Registry;
  /** Opens destination secrets sealed at rest. */
  secrets?: SecretBox;
  /** [0, 1) for retry jitter. */
  random?: () => number;
  /** Monotonic ms for cache ages (subscriptions, the metrics' gauge snapshot). */
  monotonicNow?: () => number;
}

export interface DeliveryEngineOptions {
  /** `lease_owner` of this process; unique per process (default: host-pid-random). */
  workerId?: string;
  /** Outbox rows per routing transaction (default 500). */
  routeBatchSize?: number;
  /** Deliveries per lease (default 100; adapters split them into native batches). */
  sendBatchSize?: number;
  /** Lease length (default 30 s); must exceed sendTimeoutMs. */
  leaseMs?: number;
  /** Bound of one adapter send (default 10 s). */
  sendTimeoutMs?: number;
  /** Subscriptions are re-read this often (default 2 s; §4.2 allows up to a minute). */
  subscriptionRefreshMs?: number;
  /**
   * The scrape-time gauges (pending, oldest pending age, health) are read from the database at most
   * once per this long (default 10 s, `DEFAULT_GAUGE_REFRESH_MS`); scrapes in between are served
   * from memory, with the oldest age still measured at the scrape. 0: every scrape reads.
   * Concurrent scrapes share one read regardless. Only with a `registry`.
   */
  gaugeRefreshMs?: number;
  retry?: RetryPolicyOptions;
}

/** The engine's options with every default applied (resolved once, by the engine). */
export interface DeliveryEngineSettings {
  readonly routeBatchSize: number;
  readonly sendBatchSize: number;
  readonly leaseMs: number;
  readonly sendTimeoutMs: number;
  readonly subscriptionRefreshMs: number;
  readonly gaugeRefreshMs: number;
}

export const DEFAULT_ENGINE_OPTIONS: DeliveryEngineSettings = Object.freeze({
  routeBatchSize: 500,
  sendBatchSize: 100,
  leaseMs: 30_000,
  sendTimeoutMs: 10_000,
  subscriptionRefreshMs: DEFAULT_SUBSCRIPTION_REFRESH_MS,
  gaugeRefreshMs: DEFAULT_GAUGE_REFRESH_MS,
});

/**
 * The delivery engine's parts wired together: router (outbox → deliveries), sender (deliveries →
 * destinations), maintenance (elapsed windows, retention) and admin (the gateway's API). A worker
 * drives the first three in loops (`startDeliveryWorker`); tests drive them step by step.
 */
export class DeliveryEngine {
  readonly router: Router;
  readonly sender: Sender;
  readonly maintenance: Maintenance;
  readonly admin: DeliveryAdmin;
  readonly cache: SubscriptionCache;
  readonly policy: RetryPolicy;
  readonly metrics: DeliveryMetrics | undefined;
  readonly workerId: string;
  /** Its options as resolved: what a worker driving it needs to know (batch sizes, lease length). */
  readonly settings: DeliveryEngineSettings;

  constructor(
    private readonly deps: DeliveryEngineDeps,
    options: DeliveryEngineOptions = {},
  ) {
    const settings = Object.freeze({ ...DEFAULT_ENGINE_OPTIONS, ...definedOnly(options) });
    this.settings = settings;
    const clock = deps.clock ?? systemClock;
    this.workerId = options.workerId ?? defaultWorkerId();
    this.policy = createRetryPolicy(options.retry);
    this.cache = new SubscriptionCache(deps.monotonicNow === undefined ? {} : { monotonicNow: deps.monotonicNow }, {
      refreshMs: settings.subscriptionRefreshMs,
    });
    const logger = deps.logger;
    this.metrics =
      deps.registry === undefined
        ? undefined
        : new DeliveryMetrics(
            {
              registry: deps.registry,
              snapshot: () => this.gaugeSnapshot(),
              clock,
              logger: logger.child({ component: 'delivery-metrics' }),
              ...(deps.monotonicNow === undefined ? {} : { monotonicNow: deps.monotonicNow }),
            },
            { gaugeRefreshMs: settings.gaugeRefreshMs },
          );
    const common = { db: deps.db, clock, cache: this.cache, ...(this.metrics === undefined ? {} : { metrics: this.metrics }) };
    this.router = new Router({ ...common, logger: logger.child({ component: 'delivery-router' }) }, { batchSize: settings.routeBatchSize });
    this.sender = new Sender(
      {
        ...common,
        logger: logger.child({ component: 'delivery-sender' }),
        adapters: deps.adapters,
        policy: this.policy,
        ...(deps.secrets === undefined ? {} : { secrets: deps.secrets }),
        ...(deps.random === undefined ? {} : { random: deps.random }),
      },
      {
        workerId: this.workerId,
        batchSize: settings.sendBatchSize,
        leaseMs: settings.leaseMs,
        sendTimeoutMs: settings.sendTimeoutMs,
      },
    );
    this.maintenance = new Maintenance({ ...common, logger: logger.child({ component: 'delivery-maintenance' }), policy: this.policy });
    this.admin = new DeliveryAdmin({ ...common, logger: logger.child({ component: 'delivery-admin' }) });
  }

  /**
   * Pending deliveries per subscription and every subscription (key, destination type, health),
   * cluster-wide, for the scrape-time gauges and the per-subscription series' zeros: one
   * read, uncached. It walks every row of `deliveries` (no index has `committed_at`, and counting
   * needs every row anyway), so scrapes reach it through `DeliveryMetrics`, which shares one read
   * between concurrent scrapes and reuses it for `gaugeRefreshMs`.
   */
  async gaugeSnapshot(): Promise<DeliveryGaugeSnapshot> {
    const pending = await this.deps.db.query<{ project_key: string; subscription_id: string; count: number; oldest: Date | string }>(
      `SELECT project_key, subscription_id, count(*)::int AS count, min(committed_at) AS oldest
       FROM deliveries GROUP BY project_key, subscription_id`,
    );
    const subscriptions = await this.deps.db.query<{
      project_key: string;
      id: string;
      key: string | null;
      destination_type: DestinationType | null;
      status: SubscriptionHealthStatus;
    }>(
      `SELECT r.project_key, r.id, r.key, r.doc->'destination'->>'type' AS destination_type, COALESCE(h.status, 'Healthy') AS status
       FROM resources r
       LEFT JOIN subscription_health h ON h.project_key = r.project_key AND h.subscription_id = r.id
       WHERE r.type_id = 'subscription'`,
    );
    return {
      pending: pending.rows.map((row) => ({
        projectKey: row.project_key,
        subscriptionId: row.subscription_id,
        count: row.count,
        oldestCommittedAt: new Date(row.oldest),
      })),
      subscriptions: subscriptions.rows.map((row) => ({
        projectKey: row.project_key,
        subscriptionId: row.id,
        ...(row.key === null ? {} : { key: row.key }),
        destinationType: row.destination_type ?? 'unknown',
        status: row.status,
      })),
    };
  }
}
