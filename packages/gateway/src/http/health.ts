import { settlesWithin } from '@herald/model';
import type { Database } from '@herald/store';
import type { FastifyInstance } from 'fastify';

/**
 * How long `/readyz` waits for the database: a `SELECT 1` answers in milliseconds, so 2 s means the
 * database (or the way to it) is not answering. It stays below the usual probe timeouts of load
 * balancers and orchestrators, so they see a 503 rather than a probe timeout.
 */
export const READY_TIMEOUT_MS = 2_000;

export interface HealthRouteOptions {
  /** Bound of the `/readyz` database check (default READY_TIMEOUT_MS). */
  readyTimeoutMs?: number;
}

/** For containers: `/healthz` says the process runs, `/readyz` that the database answers. */
export function installHealthRoutes(app: FastifyInstance, db: Database, options: HealthRouteOptions = {}): void {
  const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  app.get('/healthz', { config: { auth: 'public' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { auth: 'public' } }, async (request, reply) => {
    // The statement's own timeout discards a connection that stopped answering (instead of keeping
    // it busy until the driver's much longer bound); the timer bounds the wait for a connection too.
    const check = db.query('SELECT 1', [], { timeoutMs });
    try {
      if (await settlesWithin(check, timeoutMs)) {
        await check; // settled: answers at once, or throws the database's error
        return { status: 'ready' };
      }
      // The check goes on in the background; settlesWithin handles its eventual failure.
      request.log.warn({ err: new Error(`the database did not answer within ${timeoutMs} ms`) }, 'readiness check failed');
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
    }
    return reply.status(503).send({ status: 'database unreachable' });
  });
}
