import { pino, type Logger } from 'pino';
import { loadConfig, type HeraldConfig } from '../config/config.js';
import { createLogger, startHerald, type RunningHerald } from '../server/start.js';
import type { StopSignal, StopSignals } from './stop-signals.js';

/**
 * createLogger's logger, writing synchronously. pino's default asynchronous destination flushes
 * synchronously on exit and retries a failed write every 100 ms for ever: on a standard output
 * whose reader has gone (EPIPE) the process never exited. A synchronous destination has no exit
 * flush, and pino turns its writes into no-ops at the first EPIPE.
 */
function serveLogger(config: Pick<HeraldConfig, 'logLevel'>): Logger {
  return createLogger(config, pino.destination({ dest: 1, sync: true }));
}

/**
 * `herald serve`. SIGTERM/SIGINT stop it within HERALD_SHUTDOWN_TIMEOUT_MS: exit 0 when everything
 * stopped in time, 1 when it failed. A stop during start-up lets the start-up complete within that
 * time too, then stops what it started (exit 0); a start-up that does not complete in time exits 1.
 */
export async function serve(env: NodeJS.ProcessEnv, signals: StopSignals): Promise<undefined> {
  const config = loadConfig(env);
  const logger = serveLogger(config);
  const starting = startHerald(config, logger);
  signals.handle((signal) => void stopThenExit(starting, signal, { logger, timeoutMs: config.shutdownTimeoutMs }));
  await starting;
  return undefined;
}

async function stopThenExit(starting: Promise<RunningHerald>, signal: StopSignal, options: { logger: Logger; timeoutMs: number }): Promise<void> {
  const { logger, timeoutMs } = options;
  logger.info({ signal }, 'shutting down');
  // A start-up that fails is reported by the entry point (exit 1 or 2), not here.
  const started = starting.then(
    (herald) => herald,
    () => 'failed' as const,
  );
  const herald = await Promise.race([started, delay(timeoutMs).then(() => 'late' as const)]);
  if (herald === 'failed') return;
  if (herald === 'late') {
    logger.error({ signal, timeoutMs }, 'start-up did not complete within the shutdown timeout; exiting');
    process.exit(1);
  }
  const code = await herald.stop().then(
    () => 0,
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      return 1;
    },
  );
  process.exit(code);
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref());
}
