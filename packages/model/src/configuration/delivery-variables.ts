/**
 * The delivery worker's variables: `herald-delivery` reads them, and so does `herald serve` for its
 * in-process worker, except the worker's own HTTP surface (its PORT and HERALD_DELIVERY_HOST; the
 * gateway exports delivery metrics on the API's /metrics).
 */
import { flag, integer, text } from './rules.js';
import { defineVariable, optionalVariable, type HeraldProcess } from './variable.js';

const WORKER: readonly HeraldProcess[] = ['herald-delivery'];
const BOTH: readonly HeraldProcess[] = ['herald serve', 'herald-delivery'];

export const DELIVERY_VARIABLES = {
  workerPort: defineVariable({
    name: 'PORT',
    readBy: WORKER,
    description: "Port of the worker's `/metrics` and `/healthz`.",
    rule: integer(0, 65_535),
    fallback: 9464,
  }),
  workerHost: defineVariable({
    name: 'HERALD_DELIVERY_HOST',
    readBy: WORKER,
    description: 'Interface of `/metrics` and `/healthz`.',
    rule: text(),
    fallback: '0.0.0.0',
  }),
  workerId: optionalVariable({
    name: 'HERALD_DELIVERY_WORKER_ID',
    readBy: BOTH,
    description: 'Lease owner name; must be unique per process.',
    rule: text(),
    shownDefault: 'host-pid-random',
  }),
  routeBatchSize: defineVariable({
    name: 'HERALD_DELIVERY_ROUTE_BATCH',
    readBy: BOTH,
    description: 'Outbox rows routed per transaction.',
    rule: integer(1, 10_000),
    fallback: 500,
  }),
  sendBatchSize: defineVariable({
    name: 'HERALD_DELIVERY_SEND_BATCH',
    readBy: BOTH,
    description: 'Deliveries claimed per lease.',
    rule: integer(1, 10_000),
    fallback: 100,
  }),
  maxLeasesInFlight: defineVariable({
    name: 'HERALD_DELIVERY_CONCURRENCY',
    readBy: BOTH,
    description: 'Leases being sent at once per worker.',
    rule: integer(1, 256),
    fallback: 8,
  }),
  stuckSendMs: defineVariable({
    name: 'HERALD_DELIVERY_STUCK_SEND_MS',
    readBy: BOTH,
    description: 'A send in flight this long no longer holds a lease place, and its subscription gets nothing more from this worker until it ends.',
    rule: integer(100, 600_000),
    fallback: 2_000,
  }),
  leaseMs: optionalVariable({
    name: 'HERALD_DELIVERY_LEASE_MS',
    readBy: BOTH,
    description:
      "Lease length; a dead worker's deliveries return after it. Default: 30000 or twice HERALD_DELIVERY_SEND_TIMEOUT_MS, whichever is larger; it must exceed the send timeout.",
    rule: integer(1_000, 3_600_000),
    // Computed from the send timeout at start (parseWorkerConfig).
    shownDefault: '30000',
  }),
  sendTimeoutMs: defineVariable({
    name: 'HERALD_DELIVERY_SEND_TIMEOUT_MS',
    readBy: BOTH,
    description: 'Bound of one send to a destination.',
    rule: integer(100, 600_000),
    fallback: 10_000,
  }),
  pollIntervalMs: defineVariable({
    name: 'HERALD_DELIVERY_POLL_MS',
    readBy: BOTH,
    description: 'Idle poll of the router without LISTEN (the latency floor).',
    rule: integer(1, 60_000),
    fallback: 25,
  }),
  senderPollIntervalMs: defineVariable({
    name: 'HERALD_DELIVERY_SENDER_POLL_MS',
    readBy: BOTH,
    description: "Idle poll of the sender (due retries, other workers' deliveries).",
    rule: integer(1, 60_000),
    fallback: 100,
  }),
  routeLingerMs: defineVariable({
    name: 'HERALD_DELIVERY_ROUTE_LINGER_MS',
    readBy: BOTH,
    description:
      'Under load, the least time between two routing statements, so that events committed meanwhile are routed and sent as one batch (0: route each as it commits).',
    rule: integer(0, 1_000),
    fallback: 25,
  }),
  listen: defineVariable({
    name: 'HERALD_DELIVERY_LISTEN',
    readBy: BOTH,
    description: '`on`: wake the router by PostgreSQL LISTEN/NOTIFY; `off`: poll only.',
    rule: flag('on', 'off'),
    fallback: true,
  }),
  subscriptionRefreshMs: defineVariable({
    name: 'HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS',
    readBy: BOTH,
    description:
      'How often subscriptions are re-read: a subscription created, changed or deleted in another process applies to events committed after at most this long (§8 allows up to a minute); in the process that made the change, at once.',
    rule: integer(0, 60_000),
    fallback: 2_000,
  }),
  gaugeRefreshMs: defineVariable({
    name: 'HERALD_DELIVERY_GAUGE_REFRESH_MS',
    readBy: BOTH,
    description:
      'The per-subscription gauges (pending, oldest pending age, health) read every pending delivery: each process reads them at most once per this long, answers scrapes in between from memory (the oldest age still advances) and shares one read between concurrent scrapes. Raise it to spare the database with many workers or a large backlog; 0: every scrape reads.',
    rule: integer(0, 300_000),
    fallback: 10_000,
  }),
  maintenanceIntervalMs: defineVariable({
    name: 'HERALD_DELIVERY_MAINTENANCE_MS',
    readBy: BOTH,
    description: 'Elapsed-window sweep and retention cleanup interval.',
    rule: integer(100, 3_600_000),
    fallback: 30_000,
  }),
  shutdownGraceMs: defineVariable({
    name: 'HERALD_DELIVERY_SHUTDOWN_GRACE_MS',
    readBy: BOTH,
    description:
      'Time in-flight sends get on SIGTERM before release; `herald-delivery` also lets a start-up in progress complete this long before it gives up (exit 1).',
    rule: integer(0, 600_000),
    fallback: 5_000,
  }),
  sqsEndpoint: optionalVariable({
    name: 'HERALD_SQS_ENDPOINT',
    readBy: BOTH,
    description: 'SQS endpoint override (local peers, emulators).',
    rule: text({ accepts: 'a URL' }),
  }),
  snsEndpoint: optionalVariable({
    name: 'HERALD_SNS_ENDPOINT',
    readBy: BOTH,
    description: 'SNS endpoint override.',
    rule: text({ accepts: 'a URL' }),
  }),
  eventBridgeEndpoint: optionalVariable({
    name: 'HERALD_EVENTBRIDGE_ENDPOINT',
    readBy: BOTH,
    description: 'EventBridge endpoint override.',
    rule: text({ accepts: 'a URL' }),
  }),
  pubsubEndpoint: optionalVariable({
    name: 'HERALD_PUBSUB_ENDPOINT',
    readBy: BOTH,
    description: '`host:port` of a Pub/Sub emulator or peer.',
    rule: text({ accepts: 'host:port' }),
  }),
  eventBridgePartnerName: optionalVariable({
    name: 'HERALD_EVENTBRIDGE_PARTNER_NAME',
    readBy: BOTH,
    description: "Herald's EventBridge partner name.",
    rule: text(),
    // The EventBridge adapter's own default applies when unset.
    shownDefault: 'herald',
  }),
  allowInsecureConnections: defineVariable({
    name: 'HERALD_ALLOW_INSECURE_DESTINATIONS',
    readBy: BOTH,
    description: '`true` permits plain-HTTP destinations (local peers only).',
    rule: flag('true', 'false'),
    fallback: false,
  }),
  healthTimeoutMs: defineVariable({
    name: 'HERALD_DELIVERY_HEALTH_TIMEOUT_MS',
    readBy: BOTH,
    description:
      "The worker's `/healthz` answers 503 when a routing or claiming database round trip has been in flight this long, or a loop has not started its next one this long after its pause (a database that stopped answering).",
    rule: integer(100, 600_000),
    fallback: 10_000,
  }),
} as const;
