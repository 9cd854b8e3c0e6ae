import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from './types.js';

/**
 * Every route must say how it is authorised (`config.auth`): a route without it fails at start-up,
 * so no endpoint can be added that skips the scope matrix.
 */
export function requireAuthDeclaration(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const auth = (route.config as { auth?: unknown } | undefined)?.auth;
    if (auth === undefined && route.method !== 'HEAD') {
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.auth`);
    }
  });
}

/** The one authentication hook: runs before any handler of a route that is not public. */
export function installAuthHook(app: FastifyInstance, authenticator: Authenticator): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined || auth === 'public') return;
    const projectKey = (request.params as { projectKey?: string }).projectKey ?? '';
    request.auth = await authenticator.authenticate(request, projectKey, auth.anyOf);
  });
}
