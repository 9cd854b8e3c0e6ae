import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, RouteAuth } from './types.js';

/** One registered route and how it is authorised. */
export interface RouteRecord {
  method: string;
  url: string;
  auth: RouteAuth;
}

/**
 * Every route must say how it is authorised (`config.auth`): a route without it fails at start-up,
 * so no endpoint can be added that skips the scope matrix. The returned list holds every route
 * as it is registered (HEAD twins of GET routes excepted); the scope-matrix test walks it.
 */
export function requireAuthDeclaration(app: FastifyInstance): readonly RouteRecord[] {
  const routes: RouteRecord[] = [];
  app.addHook('onRoute', (route) => {
    const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => method === 'HEAD')) return;
    if (auth === undefined) {
      throw new Error(`Route ${methods.join(',')} ${route.url} does not declare config.auth`);
    }
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method: String(method), url: route.url, auth });
    }
  });
  return routes;
}

/** The one authentication hook: runs before any handler of a route that is not public. */
export function installAuthHook(app: FastifyInstance, authenticator: Authenticator): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined || auth === 'public') return;
    const projectKey = (request.params as { projectKey?: string }).projectKey ?? '';
    request.auth = await authenticator.authenticate(request, projectKey, auth);
  });
}
