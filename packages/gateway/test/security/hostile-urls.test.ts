/**
 * Hostile URLs and headers on EVERY registered route (from `gateway.routes`), with a token holding
 * `manage_project` of project A (a customer's for `/me` routes, Basic client credentials for the
 * token endpoints), and otherwise valid requests:
 *
 *   - path parameter values: very long (beyond the router's 512), unicode, `../`, `%00`, broken
 *     percent-encoding, overlong and surrogate UTF-8 sequences, prototype names, raw quotes;
 *   - query strings: every parameter the API reads (`where`, `sort`, `expand`, `limit`, `offset`,
 *     `withTotal`, `version`, `dataErasure`, `var.*`, `ids`) and unknown ones, repeated names,
 *     bracket syntax, `__proto__`, broken percent-encoding, thousands of pairs;
 *   - header abuse: oversized headers (beyond §8's 15 KB → 431), hundreds of headers, duplicates
 *     (content type, correlation id, authorization), odd content types, malformed authorization,
 *     invalid correlation ids, content-length mismatches, chunked or upgrade requests, `host`.
 *
 * The oracle is the one of the body tests (support.ts); `/healthz` answers after each route.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../../src/auth/hook.js';
import { headerAbuse, hostileQuery, hostileSegment, templatesFor } from './arbitraries.js';
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

const A = 'urls-a';
const B = 'urls-b';
const RUNS = Number(process.env.SECURITY_URL_RUNS ?? 30);
/** §8: URL plus headers beyond this are blocked (guards.ts), with a 431 in the error shape. */
const MAX_URL_AND_HEADERS_BYTES = 15 * 1024;

/** URL plus headers as the server sees them (dot segments of the path are resolved by the client). */
function requestBytes(sent: Sent): number {
  const url = new URL(sent.url, 'http://localhost');
  let bytes = Buffer.byteLength(url.pathname + url.search);
  for (const [name, value] of Object.entries(sent.headers)) {
    for (const item of Array.isArray(value) ? value : [value]) bytes += Buffer.byteLength(name) + Buffer.byteLength(item) + 2;
  }
  return bytes;
}

function correlationIdInvalid(sent: Sent): boolean {
  const id = sent.headers['x-correlation-id'];
  return id !== undefined && (typeof id !== 'string' || !/^[A-Za-z0-9_-]{8,256}$/.test(id));
}

describe('hostile path parameters, query strings and headers on every route', { timeout: 120_000 * Math.max(1, RUNS / 30) }, () => {
  let world: MultiWorld;
  let a: ProjectWorld;
  let routes: readonly RouteRecord[];
  const counts = { requests: 0, blocked: 0, byStatus: new Map<number, number>() };

  beforeAll(async () => {
    world = await startWorld({ projects: [A, B], seed: [A] });
    a = world.projects.get(A) as ProjectWorld;
    routes = world.gateway.gateway.routes;
  });
  afterAll(async () => {
    if (process.env.SECURITY_STATS === '1') console.log('hostile-urls', counts.requests, counts.blocked, Object.fromEntries(counts.byStatus));
    await world?.close();
  });

  /** A valid body of the route, so that what is probed is the URL and the headers. */
  function validBody(route: RouteRecord): string | undefined {
    if (!isBodyRoute(route)) return undefined;
    if (isOAuthRoute(route)) return `grant_type=client_credentials&scope=manage_project:${A}`;
    return JSON.stringify(templatesFor(route, a, A)[0] ?? {}).replaceAll('-424242', '1');
  }

  async function runRoute(route: RouteRecord): Promise<string | undefined> {
    const real = realParams(route, A, a);
    const names = paramNames(route.url);
    const params = fc.record(
      Object.fromEntries(
        names.map((name) => [name, fc.oneof({ weight: 1, arbitrary: fc.constant(real[name] ?? 'x') }, { weight: 3, arbitrary: hostileSegment })]),
      ),
    );
    const query = fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 3, arbitrary: hostileQuery });
    const method = fc.constantFrom(route.method, ...(route.method === 'GET' ? ['HEAD'] : []));
    const property = fc.asyncProperty(params, query, headerAbuse, method, async (values, search, abuse, verb) => {
      const body = verb === 'HEAD' ? undefined : validBody(route);
      const base = {
        ...authFor(route, a, world.gateway),
        ...(body === undefined ? {} : { 'content-type': isOAuthRoute(route) ? 'application/x-www-form-urlencoded' : 'application/json' }),
      };
      const sent: Sent = {
        route,
        method: verb,
        url: `${fillTemplate(route.url, values as Record<string, string>)}${search === '' ? '' : `?${search}`}`,
        headers: abuse.apply(base),
        ...(body === undefined ? {} : { payload: body }),
      };
      const mark = world.logs.lines.length;
      const response = await send(world.gateway, sent);
      // Beyond §8's limit: 431, unless an invalid X-Correlation-ID was refused first (400).
      const oversized = requestBytes(sent) > MAX_URL_AND_HEADERS_BYTES + 1_024;
      const expected = correlationIdInvalid(sent) ? (s: number) => s === 431 || s === 400 : 431;
      const status = checkAnswer(sent, response, world.logs, mark, oversized ? { expectStatus: expected } : {});
      if (status === 431) counts.blocked += 1;
      counts.requests += 1;
      counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
    });
    const failure = await runProperty(property, RUNS);
    await expectAlive(world.gateway);
    return failure === undefined ? undefined : `${route.method} ${route.url}: ${failure}`;
  }

  it('answers without a 5xx and in the error shape; URL plus headers beyond 15 KB answer 431', async () => {
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of routes) {
      const failure = await runRoute(route);
      if (failure !== undefined) failures.push(failure);
    }
    expect(failures).toEqual([]);
    expect(counts.blocked).toBeGreaterThan(0);
    expect(counts.requests).toBe(routes.length * RUNS);
  });

  it('refuses a NUL character in a path parameter or a query value with a 400, on every route that has one', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const names = paramNames(route.url).filter((name) => name !== 'projectKey');
      const cases = [
        ...names.map((name) => fillTemplate(route.url, { ...realParams(route, A, a), [name]: `x%00${name}` })),
        `${fillTemplate(route.url, realParams(route, A, a))}?where=${encodeURIComponent('key = "a\u0000"')}`,
      ];
      for (const url of cases) {
        const body = validBody(route);
        const sent: Sent = {
          route,
          method: route.method,
          url,
          headers: {
            ...authFor(route, a, world.gateway),
            ...(body === undefined ? {} : { 'content-type': isOAuthRoute(route) ? 'application/x-www-form-urlencoded' : 'application/json' }),
          },
          ...(body === undefined ? {} : { payload: body }),
        };
        const mark = world.logs.lines.length;
        try {
          checkAnswer(sent, await send(world.gateway, sent), world.logs, mark, { expectStatus: 400 });
        } catch (error) {
          failures.push((error as Error).message.slice(0, 1_500));
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("B's project is untouched", async () => {
    const token = (
      await world.gateway.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          authorization: `Basic ${Buffer.from(`${world.gateway.bootstrapClient.id}:${world.gateway.bootstrapClient.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: `grant_type=client_credentials&scope=manage_project:${B}`,
      })
    ).json() as { access_token: string };
    for (const collection of ['stores', 'customers', 'carts', 'subscriptions', 'business-units']) {
      const page = await world.gateway.app.inject({ method: 'GET', url: `/${B}/${collection}`, headers: { authorization: `Bearer ${token.access_token}` } });
      expect((page.json() as { total: number }).total, collection).toBe(0);
    }
  });
});
