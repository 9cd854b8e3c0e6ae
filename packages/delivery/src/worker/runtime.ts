import type { Clock } from '@herald/model';
import { parseDatabaseUrl, type Database } from '@herald/store';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createRequire } from 'node:module';
import { createDestinationEnvironment } from '../destinations/environment.js';
import { registerProcessMetrics } from '../metrics/process-metrics.js';
import { DestinationPool } from '../destinations/pool.js';
import { secretBoxFor, type SecretBox } from '../secrets/index.js';
import type { WorkerConfig } from './config.js';
import { outboxSignalOf } from './outbox-signal.js';
import { listenForOutbox, type ListeningOutboxSignal } from './pg-listen.js';
import { startDeliveryWorker, type DeliveryWorker, type OutboxSignal } from './worker.js';

export interface DeliveryRuntime {
  pool: DestinationPool;
  secrets: SecretBox;
  worker: DeliveryWorker;
  stop(): Promise<void>;
}

export interface DeliveryRuntimeDeps {
  db: Database;
  logger: Logger;
  registry: Registry;
  clock?: Clock;
}

/** The destination pool every sender of a process shares, built from the worker configuration. */
export function destinationPoolFor(config: WorkerConfig, logger: Logger): DestinationPool {
  const destinations = config.destinations;
  return new DestinationPool(
    createDestinationEnvironment({
      endpoints: destinations.endpoints,
      ...(destinations.eventBridgePartnerName === undefined ? {} : { eventBridge: { partnerName: destinations.eventBridgePartnerName } }),
      allowInsecureConnections: destinations.allowInsecureConnections,
      timeouts: { sendMs: config.sendTimeoutMs },
      logger: logger.child({ component: 'destinations' }),
    }),
  );
}

/**
 * Everything a process needs to deliver: the adapters' pool, the secret box, the outbox signal
 * (PostgreSQL LISTEN) and the worker. Used by `herald-delivery` and in-process by `herald serve`.
 */
export async function startDeliveryRuntime(config: WorkerConfig, deps: DeliveryRuntimeDeps): Promise<DeliveryRuntime> {
  // Database probe, outbox gauges, build info and process metrics; a gateway that registered them
  // on this registry already (in-process delivery) keeps its own.
  registerProcessMetrics({
    registry: deps.registry,
    db: deps.db,
    version: deliveryPackageVersion(),
    logger: deps.logger.child({ component: 'process-metrics' }),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
  });
  const pool = destinationPoolFor(config, deps.logger);
  const secrets = secretBoxFor(config.secretKey);
  let listening: ListeningOutboxSignal | undefined;
  if (config.listen && parseDatabaseUrl(config.databaseUrl).driver === 'postgres') {
    listening = await listenForOutbox(config.databaseUrl, deps.logger.child({ component: 'outbox-listen' }));
  }
  const worker = startDeliveryWorker(
    {
      db: deps.db,
      logger: deps.logger,
      adapters: pool,
      registry: deps.registry,
      secrets,
      ...(deps.clock === undefined ? {} : { clock: deps.clock }),
      ...withSignal(outboxSignalOf(deps.db.outboxCommits, listening)),
    },
    {
      ...(config.workerId === undefined ? {} : { workerId: config.workerId }),
      routeBatchSize: config.routeBatchSize,
      sendBatchSize: config.sendBatchSize,
      maxLeasesInFlight: config.maxLeasesInFlight,
      stuckSendMs: config.stuckSendMs,
      leaseMs: config.leaseMs,
      sendTimeoutMs: config.sendTimeoutMs,
      pollIntervalMs: config.pollIntervalMs,
      senderPollIntervalMs: config.senderPollIntervalMs,
      routeLingerMs: config.routeLingerMs,
      subscriptionRefreshMs: config.subscriptionRefreshMs,
      gaugeRefreshMs: config.gaugeRefreshMs,
      maintenanceIntervalMs: config.maintenanceIntervalMs,
      shutdownGraceMs: config.shutdownGraceMs,
      healthTimeoutMs: config.healthTimeoutMs,
    },
  );
  return {
    pool,
    secrets,
    worker,
    async stop() {
      await worker.stop();
      await listening?.close();
      await pool.closeAll();
    },
  };
}

function withSignal(outboxSignal: OutboxSignal | undefined): { outboxSignal?: OutboxSignal } {
  return outboxSignal === undefined ? {} : { outboxSignal };
}

function deliveryPackageVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}
