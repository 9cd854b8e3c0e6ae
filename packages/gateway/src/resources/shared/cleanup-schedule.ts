import type { FastifyInstance } from 'fastify';

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs a background cleanup (expired messages, expired carts) once the app is ready and then every
 * `intervalMs` while it runs, one run at a time. `close()` aborts the run's signal, at which a long
 * run stops between two steps, and waits for the statement in progress, so that none is left
 * running against a database about to be closed. Failures are logged and the next run tries again.
 * `run` answers how many rows it removed.
 */
export function scheduleCleanup(app: FastifyInstance, what: string, run: (signal: AbortSignal) => Promise<number>, intervalMs = CLEANUP_INTERVAL_MS): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const closing = new AbortController();
  const next = (): void => {
    running = running
      .then(() => run(closing.signal))
      .then(
        (deleted) => {
          if (deleted > 0) app.log.info({ deleted }, `expired ${what} deleted`);
        },
        (error: unknown) => app.log.error({ err: error }, `${what} cleanup failed`),
      );
  };
  app.addHook('onReady', async () => {
    next();
    timer = setInterval(next, intervalMs);
    timer.unref();
  });
  // preClose: as soon as closing starts (onClose comes after the server's connections have ended).
  app.addHook('preClose', async () => {
    clearInterval(timer);
    closing.abort();
  });
  app.addHook('onClose', async () => {
    await running;
  });
}
