import type { Database } from '@herald/store';
import type { FastifyInstance } from 'fastify';

/** For containers: `/healthz` says the process runs, `/readyz` that the database answers. */
export function installHealthRoutes(app: FastifyInstance, db: Database): void {
  app.get('/healthz', { config: { auth: 'public' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { auth: 'public' } }, async (_request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'database unreachable' });
    }
  });
}
