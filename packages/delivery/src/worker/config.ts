import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from '@herald/store';
import { MIN_SECRET_KEY_LENGTH } from '../secrets/secret-box.js';

/** pino's levels, the values LOG_LEVEL accepts (here and in the gateway, which imports them). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The `herald-delivery` worker's configuration, parsed once from the environment by main.ts (the
 * only module that reads `process.env`), validated and frozen. Unknown `HERALD_DELIVERY_*` names are
 * rejected so that a typo never silently falls back to a default.
 */
export interface WorkerConfig {
  databaseUrl: string;
  /** `/metrics` and `/healthz`. */
  port: number;
  host: string;
  logLevel: string;
  workerId: string | undefined;
  routeBatchSize: number;
  sendBatchSize: number;
  maxLeasesInFlight: number;
  stuckSendMs: number;
  leaseMs: number;
  sendTimeoutMs: number;
  pollIntervalMs: number;
  senderPollIntervalMs: number;
  routeLingerMs: number;
  listen: boolean;
  subscriptionRefreshMs: number;
  /** The scrape-time gauges are read from the database at most once per this long. */
  gaugeRefreshMs: number;
  maintenanceIntervalMs: number;
  shutdownGraceMs: number;
  secretKey: string | undefined;
  destinations: {
    sqsEndpoint: string | undefined;
    snsEndpoint: string | undefined;
    eventBridgeEndpoint: string | undefined;
    pubsubEndpoint: string | undefined;
    eventBridgePartnerName: string | undefined;
    allowInsecureConnections: boolean;
  };
  /** `/healthz`: bound of a routing or claiming round trip (see WorkerHealth). */
  healthTimeoutMs: number;
}

export interface WorkerVariable {
  name: string;
  description: string;
  default?: string;
}

/** Every variable the worker reads, for the gateway's configuration table. */
export const WORKER_VARIABLES: readonly WorkerVariable[] = [
  { name: 'DATABASE_URL', description: 'The database (PostgreSQL for several workers).', default: DEFAULT_DATABASE_URL },
  { name: 'PORT', description: 'Port of the worker\'s `/metrics` and `/healthz`.', default: '9464' },
  { name: 'HERALD_DELIVERY_HOST', description: 'Interface of `/metrics` and `/healthz`.', default: '0.0.0.0' },
  { name: 'LOG_LEVEL', description: `pino log level: ${LOG_LEVELS.join(', ')}.`, default: 'info' },
  { name: 'HERALD_DELIVERY_WORKER_ID', description: 'Lease owner name; must be unique per process.', default: 'host-pid-random' },
  { name: 'HERALD_DELIVERY_ROUTE_BATCH', description: 'Outbox rows routed per transaction.', default: '500' },
  { name: 'HERALD_DELIVERY_SEND_BATCH', description: 'Deliveries claimed per lease.', default: '100' },
  { name: 'HERALD_DELIVERY_CONCURRENCY', description: 'Leases being sent at once per worker.', default: '8' },
  {
    name: 'HERALD_DELIVERY_STUCK_SEND_MS',
    description: 'A send in flight this long no longer holds a lease place, and its subscription gets nothing more from this worker until it ends.',
    default: '2000',
  },
  { name: 'HERALD_DELIVERY_LEASE_MS', description: 'Lease length; a dead worker\'s deliveries return after it.', default: '30000' },
  { name: 'HERALD_DELIVERY_SEND_TIMEOUT_MS', description: 'Bound of one send to a destination.', default: '10000' },
  { name: 'HERALD_DELIVERY_POLL_MS', description: 'Idle poll of the router without LISTEN (the latency floor).', default: '25' },
  { name: 'HERALD_DELIVERY_SENDER_POLL_MS', description: 'Idle poll of the sender (due retries, other workers\' deliveries).', default: '100' },
  {
    name: 'HERALD_DELIVERY_ROUTE_LINGER_MS',
    description: 'Under load, the least time between two routing statements, so that events committed meanwhile are routed and sent as one batch (0: route each as it commits).',
    default: '25',
  },
  { name: 'HERALD_DELIVERY_LISTEN', description: '`on`: wake the router by PostgreSQL LISTEN/NOTIFY; `off`: poll only.', default: 'on' },
  { name: 'HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS', description: 'How often subscriptions are re-read: a subscription created, changed or deleted in another process applies to events committed after at most this long (§8 allows up to a minute); in the process that made the change, at once.', default: '2000' },
  {
    name: 'HERALD_DELIVERY_GAUGE_REFRESH_MS',
    description:
      'The per-subscription gauges (pending, oldest pending age, health) read every pending delivery: each process reads them at most once per this long, answers scrapes in between from memory (the oldest age still advances) and shares one read between concurrent scrapes. Raise it to spare the database with many workers or a large backlog; 0: every scrape reads.',
    default: '10000',
  },
  { name: 'HERALD_DELIVERY_MAINTENANCE_MS', description: 'Elapsed-window sweep and retention cleanup interval.', default: '30000' },
  { name: 'HERALD_DELIVERY_SHUTDOWN_GRACE_MS', description: 'Time in-flight sends get on SIGTERM before release.', default: '5000' },
  { name: 'HERALD_SECRET_KEY', description: `Opens destination secrets sealed at rest (at least ${MIN_SECRET_KEY_LENGTH} characters).` },
  { name: 'HERALD_SQS_ENDPOINT', description: 'SQS endpoint override (local peers, emulators).' },
  { name: 'HERALD_SNS_ENDPOINT', description: 'SNS endpoint override.' },
  { name: 'HERALD_EVENTBRIDGE_ENDPOINT', description: 'EventBridge endpoint override.' },
  { name: 'HERALD_PUBSUB_ENDPOINT', description: '`host:port` of a Pub/Sub emulator or peer.' },
  { name: 'HERALD_EVENTBRIDGE_PARTNER_NAME', description: 'Herald\'s EventBridge partner name.', default: 'herald' },
  { name: 'HERALD_ALLOW_INSECURE_DESTINATIONS', description: '`true` permits plain-HTTP destinations (local peers only).', default: 'false' },
  {
    name: 'HERALD_DELIVERY_HEALTH_TIMEOUT_MS',
    description:
      'The worker\'s `/healthz` answers 503 when a routing or claiming database round trip has been in flight this long, or a loop has not started its next one this long after its pause (a database that stopped answering).',
    default: '10000',
  },
];

export class WorkerConfigError extends Error {
  override readonly name = 'WorkerConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new WorkerConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean, on: string, off: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === on) return true;
  if (raw === off) return false;
  throw new WorkerConfigError(`${name} must be "${on}" or "${off}" (got "${raw}")`);
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function logLevel(env: Env): string {
  const raw = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new WorkerConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  }
  return raw;
}

/** Unset or empty: secrets are stored as given. Never echoes the value. */
function secretKey(env: Env): string | undefined {
  const raw = optional(env, 'HERALD_SECRET_KEY');
  if (raw !== undefined && raw.length < MIN_SECRET_KEY_LENGTH) {
    throw new WorkerConfigError(`HERALD_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters (got ${raw.length})`);
  }
  return raw;
}

/** DATABASE_URL, checked here so that an unsupported scheme is a configuration error (exit 2, one line). */
function databaseUrl(env: Env): string {
  const url = optional(env, 'DATABASE_URL') ?? DEFAULT_DATABASE_URL;
  try {
    parseDatabaseUrl(url);
  } catch (error) {
    throw new WorkerConfigError((error as Error).message);
  }
  return url;
}

export function parseWorkerConfig(env: Env): WorkerConfig {
  const known = new Set(WORKER_VARIABLES.map((variable) => variable.name));
  const unknown = Object.keys(env).filter((name) => name.startsWith('HERALD_DELIVERY_') && !known.has(name));
  if (unknown.length > 0) throw new WorkerConfigError(`Unknown variable(s): ${unknown.join(', ')}`);
  const sendTimeoutMs = integer(env, 'HERALD_DELIVERY_SEND_TIMEOUT_MS', 10_000, 100, 600_000);
  const leaseMs = integer(env, 'HERALD_DELIVERY_LEASE_MS', Math.max(30_000, sendTimeoutMs * 2), 1_000, 3_600_000);
  if (leaseMs <= sendTimeoutMs) {
    throw new WorkerConfigError('HERALD_DELIVERY_LEASE_MS must exceed HERALD_DELIVERY_SEND_TIMEOUT_MS');
  }
  const config: WorkerConfig = {
    databaseUrl: databaseUrl(env),
    port: integer(env, 'PORT', 9464, 0, 65_535),
    host: optional(env, 'HERALD_DELIVERY_HOST') ?? '0.0.0.0',
    logLevel: logLevel(env),
    workerId: optional(env, 'HERALD_DELIVERY_WORKER_ID'),
    routeBatchSize: integer(env, 'HERALD_DELIVERY_ROUTE_BATCH', 500, 1, 10_000),
    sendBatchSize: integer(env, 'HERALD_DELIVERY_SEND_BATCH', 100, 1, 10_000),
    maxLeasesInFlight: integer(env, 'HERALD_DELIVERY_CONCURRENCY', 8, 1, 256),
    stuckSendMs: integer(env, 'HERALD_DELIVERY_STUCK_SEND_MS', 2_000, 100, 600_000),
    leaseMs,
    sendTimeoutMs,
    pollIntervalMs: integer(env, 'HERALD_DELIVERY_POLL_MS', 25, 1, 60_000),
    senderPollIntervalMs: integer(env, 'HERALD_DELIVERY_SENDER_POLL_MS', 100, 1, 60_000),
    routeLingerMs: integer(env, 'HERALD_DELIVERY_ROUTE_LINGER_MS', 25, 0, 1_000),
    listen: flag(env, 'HERALD_DELIVERY_LISTEN', true, 'on', 'off'),
    subscriptionRefreshMs: integer(env, 'HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS', 2_000, 0, 60_000),
    gaugeRefreshMs: integer(env, 'HERALD_DELIVERY_GAUGE_REFRESH_MS', 10_000, 0, 300_000),
    maintenanceIntervalMs: integer(env, 'HERALD_DELIVERY_MAINTENANCE_MS', 30_000, 100, 3_600_000),
    shutdownGraceMs: integer(env, 'HERALD_DELIVERY_SHUTDOWN_GRACE_MS', 5_000, 0, 600_000),
    secretKey: secretKey(env),
    destinations: {
      sqsEndpoint: optional(env, 'HERALD_SQS_ENDPOINT'),
      snsEndpoint: optional(env, 'HERALD_SNS_ENDPOINT'),
      eventBridgeEndpoint: optional(env, 'HERALD_EVENTBRIDGE_ENDPOINT'),
      pubsubEndpoint: optional(env, 'HERALD_PUBSUB_ENDPOINT'),
      eventBridgePartnerName: optional(env, 'HERALD_EVENTBRIDGE_PARTNER_NAME'),
      allowInsecureConnections: flag(env, 'HERALD_ALLOW_INSECURE_DESTINATIONS', false, 'true', 'false'),
    },
    healthTimeoutMs: integer(env, 'HERALD_DELIVERY_HEALTH_TIMEOUT_MS', 10_000, 100, 600_000),
  };
  return deepFreeze(config);
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) deepFreeze(child as object);
  return Object.freeze(value);
}
