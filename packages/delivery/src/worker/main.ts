#!/usr/bin/env node
/**
 * `herald-delivery`: a delivery worker process. Run N of them against one PostgreSQL; they share
 * the outbox and the deliveries (SKIP LOCKED + leases). The only module that reads `process.env`.
 * SIGTERM/SIGINT: stop claiming, finish or release in-flight sends, exit 0.
 */
import { createRequire } from 'node:module';
import { DatabaseUnavailableError, describeDatabaseUrl, openDatabase } from '@herald/store';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { parseWorkerConfig, WorkerConfigError } from './config.js';
import { startWorkerHttp } from './http.js';
import { startDeliveryRuntime } from './runtime.js';

// The AWS SDK warns once per process on Node 20; Herald supports Node >= 20.19 on purpose, and the
// SDKs are imported lazily, after this line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: herald-delivery [-h | --help] [-v | --version]

Runs a delivery worker: routes the outbox to subscriptions and sends deliveries. Run several
against one PostgreSQL. Configured by DATABASE_URL, PORT (/metrics and /healthz), LOG_LEVEL and
HERALD_DELIVERY_* variables (docs/configuration.md). Stops on SIGTERM or SIGINT.
`;

/** `--help` and `--version` are answered before the environment is read or anything is opened. */
function answerFlags(args: readonly string[]): number | undefined {
  if (args.length === 0) return undefined;
  const [flag] = args;
  if (args.length === 1 && (flag === '-h' || flag === '--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length === 1 && (flag === '-v' || flag === '--version')) {
    const manifest = createRequire(import.meta.url)('../../package.json') as { version: string };
    process.stdout.write(`herald-delivery ${manifest.version}\n`);
    return 0;
  }
  process.stderr.write(`herald-delivery: unexpected argument(s): ${args.join(' ')}\n${USAGE}`);
  return 2;
}

async function main(): Promise<void> {
  const answered = answerFlags(process.argv.slice(2));
  if (answered !== undefined) {
    process.exitCode = answered;
    return;
  }
  const config = parseWorkerConfig(process.env);
  const logger = pino({ level: config.logLevel, base: { service: 'herald-delivery' } });
  // Where it connects (never the password): a start that fails or takes long shows what it waits for.
  logger.info({ database: describeDatabaseUrl(config.databaseUrl) }, 'opening the database');
  const db = await openDatabase(config.databaseUrl);
  const registry = new Registry();
  const runtime = await startDeliveryRuntime(config, { db, logger, registry });
  const worker = runtime.worker;
  const http = await startWorkerHttp({ registry, healthy: worker.healthy, logger }, { port: config.port, host: config.host });
  logger.info({ port: http.port, workerId: worker.workerId }, 'herald-delivery listening for /metrics and /healthz');

  let exiting = false;
  const shutdown = (signal: string): void => {
    if (exiting) return;
    exiting = true;
    logger.info({ signal }, 'shutting down');
    void (async () => {
      await runtime.stop();
      await http.close();
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
  if (error instanceof DatabaseUnavailableError) {
    // Its message names the server and the cause; a stack trace would add nothing.
    process.stderr.write(`herald-delivery: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`herald-delivery: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
