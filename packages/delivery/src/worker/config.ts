import { ConfigurationError, EnvironmentReader, HERALD_VARIABLES, LOG_LEVELS, variablesReadBy, type Environment } from '@herald/model';
import { parseDatabaseUrl } from '@herald/store';
import type { DestinationEnvironment } from '../destinations/environment.js';
import { allDestinations } from '../destinations/registry.js';

export { LOG_LEVELS };

/**
 * A configuration error of the worker: the model's one ConfigurationError (exit code 2, one line),
 * under the name this package has always exported.
 */
export { ConfigurationError as WorkerConfigError };

/**
 * The `herald-delivery` worker's configuration, parsed once from the environment by main.ts (the
 * only module that reads `process.env`), validated and frozen. `herald serve` parses it too, for its
 * in-process worker. The variables, their rules and the refusal of unknown `HERALD_*` names are the
 * model's configuration table (@herald/model, configuration/), the same for every process.
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
    /** The endpoint overrides that are set, by the option each destination's descriptor declares. */
    endpoints: DestinationEnvironment['endpoints'];
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

/** What `herald-delivery` reads, as documented (derived from the configuration table). */
export const WORKER_VARIABLES: readonly WorkerVariable[] = Object.freeze(
  variablesReadBy('herald-delivery').map((variable) => ({
    name: variable.name,
    description: variable.description,
    ...(variable.shownDefault === undefined ? {} : { default: variable.shownDefault }),
  })),
);

const V = HERALD_VARIABLES;

/** DATABASE_URL's scheme, checked here so that an unsupported one is a configuration error (exit 2). */
function databaseUrl(reader: EnvironmentReader): string {
  const url = reader.read(V.databaseUrl);
  try {
    parseDatabaseUrl(url);
  } catch (error) {
    // The store's message names the scheme only, never the rest of the URL (a password).
    throw new ConfigurationError((error as Error).message);
  }
  return url;
}

/** A live worker must never lose a lease in the middle of a send: the lease outlasts the send timeout. */
function leaseTimes(reader: EnvironmentReader): { leaseMs: number; sendTimeoutMs: number } {
  const sendTimeoutMs = reader.read(V.sendTimeoutMs);
  const leaseMs = reader.read(V.leaseMs) ?? Math.max(30_000, sendTimeoutMs * 2);
  if (leaseMs <= sendTimeoutMs) {
    throw new ConfigurationError(`${V.leaseMs.name} must exceed ${V.sendTimeoutMs.name}`);
  }
  return { leaseMs, sendTimeoutMs };
}

/** Each destination's endpoint override variable, as its descriptor names it; unset ones are left out. */
function endpointOverrides(reader: EnvironmentReader): DestinationEnvironment['endpoints'] {
  const endpoints: Partial<Record<string, string>> = {};
  for (const { endpointOverride } of allDestinations()) {
    const value = endpointOverride === undefined ? undefined : reader.read(endpointOverride.variable);
    if (endpointOverride !== undefined && value !== undefined) endpoints[endpointOverride.option] = value;
  }
  return endpoints;
}

export function parseWorkerConfig(env: Environment): WorkerConfig {
  const reader = new EnvironmentReader(env, 'herald-delivery');
  const config: WorkerConfig = {
    databaseUrl: databaseUrl(reader),
    port: reader.read(V.workerPort),
    host: reader.read(V.workerHost),
    logLevel: reader.read(V.logLevel),
    workerId: reader.read(V.workerId),
    routeBatchSize: reader.read(V.routeBatchSize),
    sendBatchSize: reader.read(V.sendBatchSize),
    maxLeasesInFlight: reader.read(V.maxLeasesInFlight),
    stuckSendMs: reader.read(V.stuckSendMs),
    ...leaseTimes(reader),
    pollIntervalMs: reader.read(V.pollIntervalMs),
    senderPollIntervalMs: reader.read(V.senderPollIntervalMs),
    routeLingerMs: reader.read(V.routeLingerMs),
    listen: reader.read(V.listen),
    subscriptionRefreshMs: reader.read(V.subscriptionRefreshMs),
    gaugeRefreshMs: reader.read(V.gaugeRefreshMs),
    maintenanceIntervalMs: reader.read(V.maintenanceIntervalMs),
    shutdownGraceMs: reader.read(V.shutdownGraceMs),
    secretKey: reader.read(V.secretKey),
    destinations: {
      endpoints: endpointOverrides(reader),
      eventBridgePartnerName: reader.read(V.eventBridgePartnerName),
      allowInsecureConnections: reader.read(V.allowInsecureConnections),
    },
    healthTimeoutMs: reader.read(V.healthTimeoutMs),
  };
  return deepFreeze(config);
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) deepFreeze(child as object);
  return Object.freeze(value);
}
