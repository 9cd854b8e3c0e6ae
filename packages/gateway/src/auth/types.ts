import type { FastifyRequest } from 'fastify';

/**
 * What a project route needs: one of the listed scopes of the project in the URL
 * (`<scope>:{projectKey}`, §5.1). `me` marks the `/me` routes, which act for the token's own
 * customer (`'customer'`) or its customer or anonymous session (`'customer-or-anonymous'`).
 */
export interface ProjectRouteAuth {
  anyOf: readonly string[];
  me?: 'customer' | 'customer-or-anonymous';
}

/** `public`: no token (health, metrics, the OAuth endpoints themselves); otherwise a project scope. */
export type RouteAuth = 'public' | ProjectRouteAuth;

/** Who is calling, as established from the bearer token. */
export interface AuthContext {
  projectKey: string;
  /** Scope names granted for this project, without the `:{projectKey}` suffix. */
  scopes: ReadonlySet<string>;
  clientId: string;
  customerId?: string;
  anonymousId?: string;
}

/**
 * Turns a request into an AuthContext or throws the 401/403 ApiError. The OAuth module provides
 * the real one; the hook that calls it is the single entry every project route goes through.
 */
export interface Authenticator {
  authenticate(request: FastifyRequest, projectKey: string, required: ProjectRouteAuth): Promise<AuthContext>;
}
