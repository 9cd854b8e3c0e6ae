#!/usr/bin/env node
/**
 * `herald-delivery`: a delivery worker process. Run N of them against one PostgreSQL; they share
 * the outbox and the deliveries (SKIP LOCKED + leases). The only module that reads `process.env`.
 * SIGTERM/SIGINT: stop claiming, finish or release in-flight sends, exit 0.
 */
import { parseDatabaseUrl, openDatabase } from '@herald/store';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createDestinationEnvironment } from '../destinations/environment.js';
import { DestinationPool } from '../destinations/pool.js';
import { secretBoxFor } from '../secrets/index.js';
import { parseWorkerConfig, WorkerConfigError } from './config.js';
import { startWorkerHttp } from './http.js';
import { listenForOutbox, type ListeningOutboxSignal } from './pg-listen.js';
import { startDeliveryWorker } from './worker.js';

async function main(): Promise<void> {
  const config = parseWorkerConfig(process.env);
  const logger = pino({ level: config.logLevel, base: { service: 'herald-delivery' } });
  const db = await openDatabase(config.databaseUrl);
  const registry = new Registry();
  const destinations = config.destinations;
  const pool = new DestinationPool(
    createDestinationEnvironment({
      endpoints: {
        ...(destinations.sqsEndpoint === undefined ? {} : { sqs: destinations.sqsEndpoint }),
        ...(destinations.snsEndpoint === undefined ? {} : { sns: destinations.snsEndpoint }),
        ...(destinations.eventBridgeEndpoint === undefined ? {} : { eventBridge: destinations.eventBridgeEndpoint }),
        ...(destinations.pubsubEndpoint === undefined ? {} : { pubsub: destinations.pubsubEndpoint }),
      },
      ...(destinations.eventBridgePartnerName === undefined ? {} : { eventBridge: { partnerName: destinations.eventBridgePartnerName } }),
      allowInsecureConnections: destinations.allowInsecureConnections,
      timeouts: { sendMs: config.sendTimeoutMs },
      logger: logger.child({ component: 'destinations' }),
    }),
  );
  let outboxSignal: ListeningOutboxSignal | undefined;
  if (config.listen && parseDatabaseUrl(config.databaseUrl).driver === 'postgres') {
    outboxSignal = await listenForOutbox(config.databaseUrl, logger.child({ component: 'outbox-listen' }));
  }
  const worker = startDeliveryWorker(
    {
      db,
      logger,
      adapters: pool,
      registry,
      secrets: secretBoxFor(config.secretKey),
      ...(outboxSignal === undefined ? {} : { outboxSignal }),
    },
    {
      ...(config.workerId === undefined ? {} : { workerId: config.workerId }),
      routeBatchSize: config.routeBatchSize,
      sendBatchSize: config.sendBatchSize,
      maxLeasesInFlight: config.maxLeasesInFlight,
      leaseMs: config.leaseMs,
      sendTimeoutMs: config.sendTimeoutMs,
      pollIntervalMs: config.pollIntervalMs,
      senderPollIntervalMs: config.senderPollIntervalMs,
      subscriptionRefreshMs: config.subscriptionRefreshMs,
      maintenanceIntervalMs: config.maintenanceIntervalMs,
      shutdownGraceMs: config.shutdownGraceMs,
    },
  );
  const http = await startWorkerHttp({ registry, healthy: worker.healthy, logger }, { port: config.port, host: config.host });
  logger.info({ port: http.port, workerId: worker.workerId }, 'herald-delivery listening for /metrics and /healthz');

  let exiting = false;
  const shutdown = (signal: string): void => {
    if (exiting) return;
    exiting = true;
    logger.info({ signal }, 'shutting down');
    void (async () => {
      await worker.stop();
      await outboxSignal?.close();
      await http.close();
      await pool.closeAll();
      await db.close();
      process.exit(0);
    })().catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof WorkerConfigError) {
    process.stderr.write(`herald-delivery: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`herald-delivery: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
