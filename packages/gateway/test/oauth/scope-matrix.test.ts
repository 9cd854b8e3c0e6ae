/**
 * The scope matrix: EVERY registered route (collected as routes register, `gateway.routes`), so a
 * new route joins automatically. A project route must answer
 *   - no token                        → 401 invalid_token (HEAD of a GET route too)
 *   - a token without its scope       → 403 insufficient_scope
 *   - its scope, but another project  → 403 insufficient_scope
 *   - its scope                       → neither 401 nor 403 (a 400 or 404 for the probe's empty
 *                                        body or missing id is fine), and no 5xx
 * Public routes must be on the reviewed list below: making a route public is a decision.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../../src/auth/hook.js';
import type { ProjectRouteAuth } from '../../src/auth/types.js';
import { bearer, customerTokenFor, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'matrix';
const OTHER = 'matrix-other';
const STORE = 'matrix-store';

/** Reviewed public routes (§5.3 token endpoints, §4.2 subscription health, operations). */
const PUBLIC_ROUTES = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'POST /oauth/token',
  'POST /oauth/:projectKey/customers/token',
  'POST /oauth/:projectKey/in-store/key=:storeKey/customers/token',
  'POST /oauth/:projectKey/anonymous/token',
  'POST /oauth/introspect',
  'POST /oauth/token/revoke',
  'GET /:projectKey/subscriptions/:id/health',
  'GET /:projectKey/subscriptions/key=:key/health',
]);

/** A scope name no route asks for and nothing implies. */
const UNRELATED_SCOPE = 'view_matrix_probe';

function probeUrl(template: string, projectKey: string): string {
  const path = template
    .replace(':projectKey', projectKey)
    .replace(':storeKey', STORE)
    .replace(':id', randomUUID())
    .replace(':key', 'matrix-missing-key')
    .replace(/:[A-Za-z]+/g, 'matrix-probe');
  return path;
}

interface Probe {
  route: string;
  case: string;
  expected: string;
  status: number;
  error: string | undefined;
  body: string;
}

describe('scope matrix over every registered route', () => {
  let gateway: TestGateway;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P, OTHER] });
    const admin = await tokenFor(gateway, P, ['manage_project']);
    const store = await gateway.app.inject({ method: 'POST', url: `/${P}/stores`, headers: bearer(admin), payload: { key: STORE } });
    expect(store.statusCode).toBe(201);
  });
  afterAll(async () => gateway?.close());

  /** Tokens are cached per (project, scope, customer or not): one real token each. */
  async function tokenWith(projectKey: string, scope: string, customer: boolean): Promise<string> {
    const cacheKey = `${projectKey} ${scope} ${customer}`;
    const known = tokens.get(cacheKey);
    if (known !== undefined) return known;
    const issued = customer ? (await customerTokenFor(gateway, projectKey, [scope])).accessToken : await tokenFor(gateway, projectKey, [scope]);
    tokens.set(cacheKey, issued);
    return issued;
  }

  async function probe(route: RouteRecord, accessToken: string | undefined): Promise<{ status: number; error: string | undefined; body: string }> {
    const url = probeUrl(route.url, P);
    const response = await gateway.app.inject({
      method: route.method as 'GET' | 'POST' | 'DELETE',
      url: route.method === 'DELETE' ? `${url}?version=1` : url,
      headers: accessToken === undefined ? {} : bearer(accessToken),
      ...(route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH' ? { payload: {} } : {}),
    });
    const error = String(response.headers['content-type'] ?? '').includes('json') ? (response.json() as { error?: string }).error : undefined;
    return { status: response.statusCode, error, body: response.body.slice(0, 300) };
  }

  it('covers every route, and every non-public route is a project route with scopes', () => {
    const routes = gateway.gateway.routes;
    expect(routes.length).toBeGreaterThan(30);
    const unreviewed = routes.filter((route) => route.auth === 'public' && !PUBLIC_ROUTES.has(`${route.method} ${route.url}`));
    expect(
      unreviewed.map((route) => `${route.method} ${route.url}`),
      'public routes must be reviewed into PUBLIC_ROUTES',
    ).toEqual([]);
    for (const route of routes) {
      if (route.auth === 'public') continue;
      expect(route.url.startsWith('/:projectKey'), `${route.url} must be under /:projectKey`).toBe(true);
      expect(route.auth.anyOf.length, `${route.method} ${route.url} names no scope`).toBeGreaterThan(0);
      expect(route.auth.anyOf).not.toContain(UNRELATED_SCOPE);
      // `/me/login` signs a customer in: any token with manage_my_profile may call it, an
      // anonymous session's too (me.raml), so it is no route of a token's own customer.
      const isMeRoute = /\/me(\/|$)/.test(route.url) && !route.url.endsWith('/me/login');
      expect(route.auth.me !== undefined, `${route.method} ${route.url}: /me routes declare auth.me, others do not`).toBe(isMeRoute);
    }
  });

  it('answers 401, 403, 403 and success for no token, wrong scope, other project, right scope', async () => {
    const failures: Probe[] = [];
    const check = (
      route: RouteRecord,
      name: string,
      expected: string,
      ok: (status: number, error: string | undefined) => boolean,
      result: { status: number; error: string | undefined; body: string },
    ) => {
      if (!ok(result.status, result.error)) failures.push({ route: `${route.method} ${route.url}`, case: name, expected, ...result });
    };
    let probed = 0;
    for (const route of gateway.gateway.routes) {
      if (route.auth === 'public') continue;
      const auth: ProjectRouteAuth = route.auth;
      const customer = auth.me !== undefined;
      const required = auth.anyOf[0] ?? '';

      const anonymous = await probe(route, undefined);
      check(route, 'no token', '401 invalid_token', (s, e) => s === 401 && e === 'invalid_token', anonymous);

      if (route.method === 'GET') {
        // Fastify answers HEAD for every GET route: it must not be a way around the token.
        const head = await gateway.app.inject({ method: 'HEAD', url: probeUrl(route.url, P) });
        check(route, 'HEAD without token', '401', (s) => s === 401, { status: head.statusCode, error: undefined, body: '' });
      }

      const wrongScope = await probe(route, await tokenWith(P, UNRELATED_SCOPE, customer));
      check(route, 'wrong scope', '403 insufficient_scope', (s, e) => s === 403 && e === 'insufficient_scope', wrongScope);

      const otherProject = await probe(route, await tokenWith(OTHER, required, customer));
      check(route, 'other project', '403 insufficient_scope', (s, e) => s === 403 && e === 'insufficient_scope', otherProject);

      const right = await probe(route, await tokenWith(P, required, customer));
      check(route, `scope ${required}`, 'not 401/403, not 5xx', (s) => s !== 401 && s !== 403 && s < 500, right);
      probed += 1;
    }
    expect(failures).toEqual([]);
    expect(probed).toBe(gateway.gateway.routes.filter((route) => route.auth !== 'public').length);
  });
});
