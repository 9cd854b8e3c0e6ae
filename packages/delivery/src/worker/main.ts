#!/usr/bin/env node
/**
 * `herald-delivery`: a delivery worker process. Run N of them against one PostgreSQL; they share
 * the outbox and the deliveries (SKIP LOCKED + leases). The only module that reads `process.env`.
 * SIGTERM/SIGINT: stop claiming, finish or release in-flight sends, exit 0. They are caught from the
 * first line: a stop during start-up lets the step in progress complete (within
 * HERALD_DELIVERY_SHUTDOWN_GRACE_MS, else exit 1), closes what was opened and exits 0.
 */
import { createRequire } from 'node:module';

type StopSignal = 'SIGTERM' | 'SIGINT';

/** Signals received before the worker could act on them, and the one place that acts. */
const stop: { signal: StopSignal | undefined; listener: ((signal: StopSignal) => void) | undefined } = {
  signal: undefined,
  listener: undefined,
};
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    // A second signal, the same or the other, must not start a second stop.
    if (stop.signal !== undefined) return;
    stop.signal = signal;
    stop.listener?.(signal);
  });
}

// The AWS SDK warns once per process on Node 20; Herald supports Node >= 20.19 on purpose, and the
// SDKs are imported lazily, after this line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Loaded after the signals are caught: loading them takes seconds on a busy machine.
const { ConfigurationError } = await import('@herald/model');
const { DatabaseUnavailableError, describeDatabaseUrl, openDatabase } = await import('@herald/store');
const { pino } = await import('pino');
const { Registry } = await import('prom-client');
const { parseWorkerConfig } = await import('./config.js');
const { startWorkerHttp } = await import('./http.js');
const { startDeliveryRuntime } = await import('./runtime.js');

type Logger = import('pino').Logger;
type Database = import('@herald/store').Database;
type DeliveryRuntime = import('./runtime.js').DeliveryRuntime;
type WorkerHttp = Awaited<ReturnType<typeof startWorkerHttp>>;

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

/** What has been started so far, stopped in this order: sends first, the database last. */
interface Started {
  db?: Database;
  runtime?: DeliveryRuntime;
  http?: WorkerHttp;
}

async function stopStarted(started: Started): Promise<void> {
  await started.runtime?.stop();
  await started.http?.close();
  await started.db?.close();
}

async function stopThenExit(started: Started, logger: Logger): Promise<never> {
  try {
    await stopStarted(started);
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
  process.exit(0);
}

async function main(): Promise<void> {
  const answered = answerFlags(process.argv.slice(2));
  if (answered !== undefined) {
    process.exitCode = answered;
    return;
  }
  const config = parseWorkerConfig(process.env);
  // Synchronous: pino's default asynchronous destination flushes synchronously on exit and retries a
  // failed write every 100 ms for ever, so with a standard output whose reader had gone (EPIPE) the
  // worker never exited after SIGTERM. A synchronous one has no exit flush, and pino turns its
  // writes into no-ops at the first EPIPE.
  const logger = pino({ level: config.logLevel, base: { service: 'herald-delivery' } }, pino.destination({ dest: 1, sync: true }));
  const started: Started = {};
  let starting = true;
  let startUpDeadline: NodeJS.Timeout | undefined;
  stop.listener = (signal) => {
    logger.info({ signal }, 'shutting down');
    if (!starting) {
      void stopThenExit(started, logger);
      return;
    }
    // The step in progress completes, then start-up stops at its next checkpoint; unless it hangs.
    startUpDeadline = setTimeout(() => {
      logger.error({ signal, timeoutMs: config.shutdownGraceMs }, 'start-up did not complete within the shutdown grace; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
  };
  /** Between two start-up steps: true (and the worker stops) when a signal came meanwhile. */
  const stopRequested = (): boolean => {
    if (stop.signal === undefined) return false;
    clearTimeout(startUpDeadline);
    logger.info({ signal: stop.signal }, 'stopping during start-up');
    void stopThenExit(started, logger);
    return true;
  };
  if (stopRequested()) return;

  // Where it connects (never the password): a start that fails or takes long shows what it waits for.
  logger.info({ database: describeDatabaseUrl(config.databaseUrl) }, 'opening the database');
  started.db = await openDatabase(config.databaseUrl);
  if (stopRequested()) return;
  const registry = new Registry();
  started.runtime = await startDeliveryRuntime(config, { db: started.db, logger, registry });
  if (stopRequested()) return;
  const worker = started.runtime.worker;
  started.http = await startWorkerHttp({ registry, healthy: worker.healthy, logger }, { port: config.port, host: config.host });
  if (stopRequested()) return;
  starting = false;
  logger.info({ port: started.http.port, workerId: worker.workerId }, 'herald-delivery listening for /metrics and /healthz');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigurationError) {
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
