import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { settlesWithin } from '@herald/model';
import { registerProcessMetrics, startDeliveryRuntime, type DeliveryRuntime } from '@herald/delivery';
import { DEFAULT_DATABASE_URL, describeDatabaseUrl, openDatabase, ProjectStore, type Database } from '@herald/store';
import { Registry } from 'prom-client';
import { pino, type DestinationStream, type Logger } from 'pino';
import { buildGateway, type Gateway } from '../app.js';
import type { HeraldConfig } from '../config/config.js';
import { startMetricsListener, type MetricsListener } from './metrics-listener.js';
import { plainHttpRefuser } from './tls.js';

export interface RunningHerald {
  gateway: Gateway;
  db: Database;
  /** The address the API listens on, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The port of the `/metrics` listener with HERALD_METRICS_PORT (bound, also for port 0); else undefined. */
  metricsPort: number | undefined;
  stop(): Promise<void>;
}

/** Redacts every place a secret can appear in a request log line. */
export const LOG_REDACT_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'];

export function createLogger(config: Pick<HeraldConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** `herald serve`: database, migrations, projects, the API (and its plain-HTTP refuser with TLS). */
export async function startHerald(config: HeraldConfig, logger: Logger = createLogger(config)): Promise<RunningHerald> {
  logger.info({ database: describeDatabaseUrl(config.databaseUrl ?? DEFAULT_DATABASE_URL) }, 'opening the database');
  const db = await openDatabase(config.databaseUrl);
  const projects = new ProjectStore(db);
  for (const key of config.projects) await projects.ensure(key);
  const registry = new Registry();
  // herald_database_up, the outbox gauges, build info and process metrics, also with HERALD_DELIVERY=off
  // (an idle API with a dead database must still show it: issue 25).
  registerProcessMetrics({ registry, db, version: gatewayVersion(), logger: logger.child({ component: 'process-metrics' }) });
  // In-process delivery (the default): the worker shares the database, the registry and /metrics.
  let delivery: DeliveryRuntime | undefined;
  if (config.deliveryMode === 'in-process') {
    // Not a child with a `component`: the delivery components name themselves, and a second
    // `component` key on every line would leave log pipelines keeping one value or the other.
    delivery = await startDeliveryRuntime(config.delivery, { db, logger, registry });
  }
  const gateway = await buildGateway(config, {
    db,
    logger,
    registry,
    ...(delivery === undefined ? {} : { delivery: { pool: delivery.pool, admin: delivery.worker.admin, secrets: delivery.secrets } }),
  });
  const address = await gateway.app.listen({ port: config.port, host: config.host });

  let refuser: Server | undefined;
  if (config.tls?.plainHttpPort !== undefined) {
    refuser = plainHttpRefuser();
    refuser.listen(config.tls.plainHttpPort, config.host);
    await once(refuser, 'listening');
  }
  const metrics = await listenForMetrics(config, registry, logger);
  logger.info(
    { address, metricsPort: metrics?.port, database: db.driver, projects: config.projects, delivery: config.deliveryMode },
    'herald gateway listening',
  );

  return {
    gateway,
    db,
    url: address,
    metricsPort: metrics?.port,
    async stop() {
      refuser?.close();
      // The API and the worker stop in parallel: a slow client must not use up the time the worker
      // needs to finish its sends and release its leases. app.close() stops listening and closes
      // idle connections; installDraining (server/draining.ts) closes each other one after its
      // response. The runtime's destination clients, which a request in flight may still use for a
      // test notification, close once the API has (worker.stop() is idempotent), the database last.
      const stopped = Promise.all([gateway.app.close(), delivery?.worker.stop(), metrics?.close()])
        .then(() => delivery?.stop())
        .then(() => db.close());
      if (await settlesWithin(stopped, config.shutdownTimeoutMs)) return stopped;
      // A client that never finishes its request would hold its connection until requestTimeout
      // (2 min): past the deadline, drop what is left so the process exits before it is killed.
      logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown deadline reached; closing remaining connections');
      gateway.app.server.closeAllConnections();
      if (await settlesWithin(stopped, FORCED_CLOSE_MS)) return stopped;
      throw new Error(`shutdown did not finish within ${config.shutdownTimeoutMs + FORCED_CLOSE_MS} ms`);
    },
  };
}

/** HERALD_METRICS_PORT: `/metrics` on its own listener (the API port then has none). */
async function listenForMetrics(config: HeraldConfig, registry: Registry, logger: Logger): Promise<MetricsListener | undefined> {
  if (config.metricsPort === undefined) return undefined;
  return startMetricsListener(registry, { port: config.metricsPort, host: config.host, logger: logger.child({ component: 'metrics' }) });
}

/**
 * After the deadline, the time closing the destroyed connections and the database may still take.
 * With the default deadline (8 s) a stop that fails still ends within Docker's 10 s, by itself.
 */
const FORCED_CLOSE_MS = 1_000;

function gatewayVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}
