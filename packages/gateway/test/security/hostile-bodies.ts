/**
 * Hostile bodies on EVERY registered route (enumerated from `gateway.routes`, so a new route joins
 * automatically), with a token holding `manage_project` of project A (a customer's token with it
 * for `/me` routes, the bootstrap client's Basic credentials for the token endpoints):
 *
 *   - JSON bodies built from a valid draft or update of the route's resource with one or two fields
 *     replaced by a wrong type, a 100 KB string, a 10k-item array or object, 1,000 to 10,000
 *     levels of nesting, `__proto__`/`constructor` keys, NUL and lone-surrogate escapes; truncated
 *     JSON; random JSON and text; invalid UTF-8 sequences and raw NUL bytes in the raw body;
 *   - GraphQL documents that are deep, wide, cyclic or carry NUL escapes (`/graphql`);
 *   - OAuth form bodies with hostile values, repeated names, broken percent-encoding, raw bytes;
 *   - odd content types.
 *
 * The oracle (support.ts): never a 5xx or a hang, every 4xx in the error shape, nothing logged at
 * error level, no stack overflow. A body beyond the body limit answers 413 on every body route.
 * `/healthz` answers after each route's property run. Updates are sent at the resource's current
 * version (read just before), so that they get past the version check into the update actions.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../../src/auth/hook.js';
import {
  BODY_LIMIT_BYTES,
  hostileFormBody,
  hostileGraphqlBody,
  hostileJsonBody,
  hostileSegment,
  JSON_CONTENT_TYPES,
  KNOWN_HOSTILE_GRAPHQL,
  knownHostileBodies,
  ODD_CONTENT_TYPES,
  templatesFor,
  VERSION_SENTINEL,
  type Body,
} from './arbitraries.js';
import {
  authFor,
  checkAnswer,
  expectAlive,
  fillTemplate,
  isBodyRoute,
  isOAuthRoute,
  paramNames,
  realParams,
  runProperty,
  send,
  startWorld,
  type MultiWorld,
  type ProjectWorld,
  type Sent,
} from './support.js';

const A = 'hostile-a';
const B = 'hostile-b';

/** The routes of shard `shard` of `shards` (by registration order), so that files run in parallel. */
export function shardOf<T>(items: readonly T[], shard: number, shards: number): T[] {
  return items.filter((_, index) => index % shards === shard);
}
const FORM = 'application/x-www-form-urlencoded';

/** Runs per route: bodies matter on POST routes; GET and DELETE must refuse any body. */
const RUNS_BODY_ROUTE = Number(process.env.SECURITY_RUNS ?? 60);
const RUNS_BODYLESS_ROUTE = Math.max(3, Math.round(RUNS_BODY_ROUTE / 8));

/**
 * The suite over shard `shard` (0-based) of `shards` of the routes; the 413 and integrity checks
 * run with shard 0.
 */
export function hostileBodySuite(shard: number, shards: number): void {
  describe(`hostile bodies on every route (shard ${shard + 1} of ${shards})`, { timeout: 240_000 * Math.max(1, RUNS_BODY_ROUTE / 60) }, () => {
    let world: MultiWorld;
    let a: ProjectWorld;
    let routes: readonly RouteRecord[];
    const counts = { requests: 0, byStatus: new Map<number, number>() };

    beforeAll(async () => {
      world = await startWorld({ projects: [A, B], seed: [A] });
      a = world.projects.get(A) as ProjectWorld;
      routes = world.gateway.gateway.routes;
    }, 180_000);
    afterAll(async () => {
      if (process.env.SECURITY_STATS === '1') console.log('hostile-routes', counts.requests, Object.fromEntries(counts.byStatus));
      await world?.close();
    });

    function count(status: number): void {
      counts.requests += 1;
      counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
    }

    /** The current version of what an update route addresses (1 when it is gone). */
    async function currentVersion(url: string, headers: Record<string, string>): Promise<number> {
      const response = await world.gateway.app.inject({ method: 'GET', url, headers: { authorization: headers.authorization ?? '' } });
      if (response.statusCode !== 200) return 1;
      const version = (response.json() as { version?: unknown }).version;
      return typeof version === 'number' ? version : 1;
    }

    function bodyArbitrary(route: RouteRecord): fc.Arbitrary<Body> {
      if (isOAuthRoute(route)) return hostileFormBody(A, a);
      const templates = templatesFor(route, a, A);
      return route.url.endsWith('/graphql') ? hostileGraphqlBody(templates) : hostileJsonBody(templates);
    }

    function contentTypeArbitrary(route: RouteRecord): fc.Arbitrary<string | undefined> {
      const usual = isOAuthRoute(route) ? [FORM] : JSON_CONTENT_TYPES;
      return fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(...usual) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES, ...(isOAuthRoute(route) ? JSON_CONTENT_TYPES : [FORM])) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );
    }

    /** Runs the property of one route; returns its failure, if any. */
    async function runRoute(route: RouteRecord): Promise<string | undefined> {
      const auth = authFor(route, a, world.gateway);
      const real = realParams(route, A, a);
      const names = paramNames(route.url);
      const params = fc.record(
        Object.fromEntries(
          names.map((name) => [name, fc.oneof({ weight: 5, arbitrary: fc.constant(real[name] ?? 'x') }, { weight: 1, arbitrary: hostileSegment })]),
        ),
      );
      const property = fc.asyncProperty(params, bodyArbitrary(route), contentTypeArbitrary(route), async (values, body, contentType) => {
        const path = fillTemplate(route.url, values as Record<string, string>);
        const query = route.method === 'DELETE' ? '?version=1' : '';
        let payload: Body = body;
        if (payload.includes(String(VERSION_SENTINEL))) {
          const version = String(await currentVersion(path, auth));
          // Buffers (invalid UTF-8) are edited byte for byte through latin1, which maps bytes 1:1.
          payload =
            typeof payload === 'string'
              ? payload.replaceAll(String(VERSION_SENTINEL), version)
              : Buffer.from(payload.toString('latin1').replaceAll(String(VERSION_SENTINEL), version), 'latin1');
        }
        const sent: Sent = {
          route,
          method: route.method,
          url: `${path}${query}`,
          headers: { ...auth, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
          payload,
        };
        const mark = world.logs.lines.length;
        const response = await send(world.gateway, sent);
        count(checkAnswer(sent, response, world.logs, mark));
      });
      const failure = await runProperty(property, isBodyRoute(route) ? RUNS_BODY_ROUTE : RUNS_BODYLESS_ROUTE);
      await expectAlive(world.gateway);
      return failure === undefined ? undefined : `${route.method} ${route.url}: ${failure}`;
    }

    it('enumerates every registered route', () => {
      expect(routes.length).toBeGreaterThan(100);
      expect(routes.filter(isBodyRoute).length).toBeGreaterThan(40);
    });

    it('answers hostile bodies without a 5xx and in the error shape', async () => {
      const failures: string[] = [];
      // Body routes and bodyless ones are dealt out separately, so the shards weigh the same.
      const mine = [
        ...shardOf(routes.filter(isBodyRoute), shard, shards),
        ...shardOf(
          routes.filter((route) => !isBodyRoute(route)),
          shard,
          shards,
        ),
      ];
      expect(mine.length).toBeGreaterThan(0);
      for (const route of mine) {
        const failure = await runRoute(route);
        if (failure !== undefined) failures.push(failure);
      }
      expect(failures).toEqual([]);
    });

    it('answers the known hostile bodies (one per class) on every body route without a 5xx', async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const route of shardOf(routes.filter(isBodyRoute), shard, shards)) {
        const auth = authFor(route, a, world.gateway);
        const url = fillTemplate(route.url, realParams(route, A, a));
        const template = isOAuthRoute(route) ? { grant_type: 'client_credentials' } : (templatesFor(route, a, A)[0] ?? {});
        const bodies: Array<[string, Body]> = [
          ...knownHostileBodies(template),
          ...(route.url.endsWith('/graphql')
            ? KNOWN_HOSTILE_GRAPHQL.map((query): [string, Body] => [`GraphQL ${query.slice(0, 40)}`, JSON.stringify({ query })])
            : []),
        ];
        for (const [what, body] of bodies) {
          const version = String(await currentVersion(url, auth));
          const payload =
            typeof body === 'string'
              ? body.replaceAll(String(VERSION_SENTINEL), version)
              : Buffer.from(body.toString('latin1').replaceAll(String(VERSION_SENTINEL), version), 'latin1');
          const request: Sent = { route, method: route.method, url, headers: { ...auth, 'content-type': 'application/json' }, payload };
          const mark = world.logs.lines.length;
          try {
            count(checkAnswer(request, await send(world.gateway, request), world.logs, mark));
          } catch (error) {
            failures.push(`${what}: ${(error as Error).message.slice(0, 1_500)}`);
          }
          sent += 1;
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(300);
      await expectAlive(world.gateway);
    });

    it.runIf(shard === 0)('answers 413 in the error shape for a body beyond the limit, on every body route', async () => {
      const oversized = Buffer.alloc(BODY_LIMIT_BYTES + 1, 0x20);
      oversized.write('{"key":"');
      const failures: string[] = [];
      for (const route of routes) {
        const auth = authFor(route, a, world.gateway);
        const sent: Sent = {
          route,
          method: route.method,
          url: fillTemplate(route.url, realParams(route, A, a)),
          headers: { ...auth, 'content-type': isOAuthRoute(route) ? FORM : 'application/json' },
          payload: oversized,
        };
        const mark = world.logs.lines.length;
        try {
          const response = await send(world.gateway, sent);
          // A body where none is allowed (GET, DELETE) is refused before its size matters (§8).
          // Revocation answers every invalid request 200 once the client authenticated (§5.6).
          const expectStatus = route.url === '/oauth/token/revoke' ? 200 : isBodyRoute(route) ? 413 : (s: number) => s === 400 || s === 413;
          count(checkAnswer(sent, response, world.logs, mark, { expectStatus }));
        } catch (error) {
          failures.push((error as Error).message.slice(0, 2_000));
        }
      }
      expect(failures).toEqual([]);
      await expectAlive(world.gateway);
    });

    it('has kept both projects intact: B holds nothing and A still has its seeds', async () => {
      const adminB = await world.gateway.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          authorization: `Basic ${Buffer.from(`${world.gateway.bootstrapClient.id}:${world.gateway.bootstrapClient.secret}`).toString('base64')}`,
          'content-type': FORM,
        },
        payload: `grant_type=client_credentials&scope=manage_project:${B}`,
      });
      const tokenB = (adminB.json() as { access_token: string }).access_token;
      for (const collection of ['stores', 'types', 'states', 'customers', 'carts', 'quote-requests', 'business-units', 'subscriptions']) {
        const page = await world.gateway.app.inject({ method: 'GET', url: `/${B}/${collection}`, headers: { authorization: `Bearer ${tokenB}` } });
        expect(page.statusCode, collection).toBe(200);
        expect((page.json() as { total: number }).total, `${collection} of B`).toBe(0);
      }
      const stores = await world.gateway.app.inject({ method: 'GET', url: `/${A}/stores/key=${a.storeKey}`, headers: { authorization: `Bearer ${a.admin}` } });
      expect(stores.statusCode).toBe(200);
      expect(counts.requests).toBeGreaterThan((routes.length / shards) * 5);
    });
  });
}
