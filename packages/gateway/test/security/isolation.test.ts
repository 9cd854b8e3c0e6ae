/**
 * Tenant isolation, generated over EVERY registered route (from `gateway.routes`). Projects A and
 * B are both seeded through the API with one resource of each type (store, type, state, customer,
 * carts, business unit, quote requests, a subscription to a fauxqs queue, an API client, messages):
 *
 *   - every project route with B's token (`manage_project:B`; a B customer's for `/me` routes) on
 *     A's URL → 403;
 *   - every route that addresses one resource, on B's URL with A's id or key → 404 (GET, update,
 *     DELETE, the subscription sub-resources, `/me` routes with B's customer, in-store routes);
 *   - every query route of B, plain and with `where` predicates that match A's data (A's ids, keys,
 *     names, `id in (all of A)`), returns nothing of A; HEAD of such a query is a 404;
 *   - drafts and updates in B that reference A's resources by id or key fail and reveal nothing;
 *   - GraphQL in B does not reach A's business units; OAuth: B's API client cannot introspect or
 *     revoke A's tokens, A's customer cannot log in through B;
 *   - deliveries: an in-process worker routes A's events to A's subscription only.
 *
 * Throughout, no answer to B contains any id of A (other than one B itself sent) or A's markers
 * (A's customer e-mail, A's resource names).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../../src/auth/hook.js';
import { templatesFor, VERSION_SENTINEL } from './arbitraries.js';
import {
  collectionOf,
  fillTemplate,
  isBodyRoute,
  paramNames,
  realParams,
  send,
  startWorld,
  type Json,
  type MultiWorld,
  type ProjectWorld,
  type Sent,
} from './support.js';
import { basicAuth, bearer, customerTokenFor } from '../support/gateway.js';

const A = 'iso-a';
const B = 'iso-b';

describe('tenant isolation on every route', { timeout: 120_000 }, () => {
  let world: MultiWorld;
  let a: ProjectWorld;
  let b: ProjectWorld;
  let routes: readonly RouteRecord[];
  /** What must never appear in an answer to B. */
  let markersOfA: string[];
  const checked = { requests: 0 };

  beforeAll(async () => {
    world = await startWorld({ projects: [A, B], seed: [A, B], worker: true });
    a = world.projects.get(A) as ProjectWorld;
    b = world.projects.get(B) as ProjectWorld;
    routes = world.gateway.gateway.routes;
    markersOfA = [a.customer.email, `of ${A}`];
  }, 180_000);
  afterAll(async () => world?.close());

  const keysOfA = () => [...a.seeds.values()].flatMap((seed) => (seed.key === undefined ? [] : [seed.key]));
  const projectRoutes = () => routes.filter((route) => route.auth !== 'public' && route.url.startsWith('/:projectKey'));
  const tokenOf = (route: RouteRecord, world: ProjectWorld) => (route.auth !== 'public' && route.auth.me !== undefined ? world.customer.token : world.admin);

  /** The answer must not reveal A: none of A's ids (except those in `sentIds`), none of its markers. */
  function expectNothingOfA(text: string, context: string, sentIds: readonly string[] = []): void {
    checked.requests += 1;
    for (const id of a.ids) {
      if (sentIds.includes(id)) continue;
      expect(text.includes(id), `A's id ${id} in an answer to B\n${context}\n${text.slice(0, 500)}`).toBe(false);
    }
    for (const marker of markersOfA) expect(text.includes(marker), `A's marker "${marker}" in an answer to B\n${context}\n${text.slice(0, 500)}`).toBe(false);
  }

  /** A valid body for the route (drafts and updates of project `projectKey`), at version 1. */
  function bodyFor(route: RouteRecord, owner: ProjectWorld, projectKey: string): string | undefined {
    if (!isBodyRoute(route)) return undefined;
    return JSON.stringify(templatesFor(route, owner, projectKey)[0] ?? {}).replaceAll(String(VERSION_SENTINEL), '1');
  }

  async function call(route: RouteRecord, method: string, url: string, token: string, payload?: string) {
    const sent: Sent = {
      route,
      method,
      url,
      headers: { ...bearer(token), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload }),
    };
    const response = await send(world.gateway, sent);
    return { status: response.statusCode, body: response.body, context: `${method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}` };
  }

  it("refuses B's token on every project route of A with 403", async () => {
    const failures: string[] = [];
    for (const route of projectRoutes()) {
      const url = fillTemplate(route.url, realParams(route, A, a));
      const query = route.method === 'DELETE' ? '?version=1' : '';
      const answer = await call(route, route.method, `${url}${query}`, tokenOf(route, b), bodyFor(route, b, B));
      if (answer.status !== 403) failures.push(answer.context);
      expectNothingOfA(answer.body, answer.context, [...Object.values(realParams(route, A, a))]);
      if (route.method === 'GET') {
        const head = await call(route, 'HEAD', url, tokenOf(route, b));
        if (head.status !== 403) failures.push(`HEAD ${head.context}`);
      }
    }
    expect(failures).toEqual([]);
    expect(projectRoutes().length).toBeGreaterThan(90);
  });

  it("answers 404 on B's URL with A's id or key, for every route that addresses one resource", async () => {
    const failures: string[] = [];
    let probed = 0;
    for (const route of routes) {
      const names = paramNames(route.url);
      const addressesOne = names.includes('id') || names.includes('key') || names.includes('customerId');
      if (!route.url.startsWith('/:projectKey') || !addressesOne) continue;
      // A customer's active cart is addressed by the customer's id: A's cart is what must not show.
      const seedOfA = a.seeds.get(names.includes('customerId') ? 'carts' : collectionOf(route.url));
      if (seedOfA === undefined) {
        failures.push(`${route.method} ${route.url}: no resource of A to probe with (collection '${collectionOf(route.url)}')`);
        continue;
      }
      if (names.includes('key') && seedOfA.key === undefined) continue;
      // B's project, B's own store for in-store routes, A's id or key; also A's store key.
      for (const storeKey of names.includes('storeKey') ? [b.storeKey, a.storeKey] : [b.storeKey]) {
        const url = fillTemplate(route.url, {
          ...pathValuesOf(b, B),
          storeKey,
          id: seedOfA.id,
          key: encodeURIComponent(seedOfA.key ?? ''),
          customerId: a.customer.id,
        });
        const query = route.method === 'DELETE' ? '?version=1' : '';
        const token = route.auth === 'public' ? b.admin : tokenOf(route, b);
        const answer = await call(route, route.method, `${url}${query}`, token, bodyFor(route, b, B));
        probed += 1;
        const expected = storeKey === a.storeKey ? [400, 403, 404] : [404];
        if (!expected.includes(answer.status)) failures.push(`expected ${expected.join('/')}: ${answer.context}`);
        expectNothingOfA(answer.body, answer.context, [seedOfA.id]);
        if (route.method === 'GET') {
          const head = await call(route, 'HEAD', url, token);
          if (!expected.includes(head.status)) failures.push(`HEAD expected ${expected.join('/')}: ${head.context}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(probed).toBeGreaterThan(60);
    // A's resources are all still there, unchanged by B's updates and deletes.
    for (const [collection, seed] of a.seeds) {
      // Customer tokens (`customers/email-token=:id`) are addressed by their value, not under a collection.
      if (collection === 'messages' || collection.startsWith('me/') || collection.includes('=:')) continue;
      const answer = await world.gateway.app.inject({ method: 'GET', url: `/${A}/${collection}/${seed.id}`, headers: bearer(a.admin) });
      expect(answer.statusCode, `${collection} of A`).toBe(200);
    }
  });

  it("returns nothing of A from B's queries, also with predicates that match A's data", async () => {
    const queryRoutes = routes.filter(
      // Pages only: not the routes of one resource (by id, key, container and key or customer id, `/me`, the active cart).
      (route) =>
        route.method === 'GET' &&
        route.auth !== 'public' &&
        route.url.startsWith('/:projectKey/') &&
        !/(:id|key=:key|:container\/:key|:customerId|\/active-cart$)/.test(route.url) &&
        route.url !== '/:projectKey/me',
    );
    expect(queryRoutes.length).toBeGreaterThan(10);
    const aIds = [...a.ids];
    const aKeys = [...a.seeds.values()].flatMap((seed) => (seed.key === undefined ? [] : [seed.key]));
    const quoted = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');
    const predicates = [
      undefined,
      'id is defined',
      `id in (${quoted(aIds.slice(0, 400))})`,
      `key in (${quoted(aKeys)})`,
      ...aIds.slice(0, 12).map((id) => `id = "${id}"`),
      `not(id in (${quoted([...b.ids].slice(0, 100))}))`,
      `key = "${a.storeKey}" or key is defined or key is not defined`,
      `resource(id in (${quoted(aIds.slice(0, 200))}))`,
      `customerId = "${a.customer.id}"`,
      `customer(id = "${a.customer.id}")`,
      `associates(customer(id = "${a.customer.id}"))`,
      `email = "${a.customer.email}"`,
    ];
    const failures: string[] = [];
    for (const route of queryRoutes) {
      const base = fillTemplate(route.url, pathValuesOf(b, B));
      for (const where of predicates) {
        const url = where === undefined ? `${base}?limit=500` : `${base}?limit=500&where=${encodeURIComponent(where)}`;
        const answer = await call(route, 'GET', url, tokenOf(route, b));
        // A predicate naming a field the resource does not have is a 400; anything else is a page.
        if (answer.status !== 200 && answer.status !== 400) failures.push(answer.context);
        if (answer.status === 200) {
          const page = JSON.parse(answer.body) as Json;
          for (const result of (page.results ?? []) as Json[]) if (a.ids.has(result.id as string)) failures.push(`A's ${result.id} in ${answer.context}`);
        }
        expectNothingOfA(
          answer.body,
          answer.context,
          aIds.filter((id) => (where ?? '').includes(id)),
        );
        if (where !== undefined && answer.status === 200 && ((JSON.parse(answer.body) as Json).count as number) === 0) {
          const head = await call(route, 'HEAD', url, tokenOf(route, b));
          if (head.status !== 404) failures.push(`HEAD of an empty page: ${head.context}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The same queries do find B's own resources (the properties above would hold vacuously otherwise).
    let found = 0;
    for (const route of queryRoutes) {
      const seedOfB = b.seeds.get(collectionOf(route.url));
      // In-store and as-associate pages hold only the store's or the business unit's resources.
      if (seedOfB === undefined || route.url.includes('in-store') || route.url.includes('as-associate')) continue;
      const base = fillTemplate(route.url, pathValuesOf(b, B));
      const answer = await call(route, 'GET', `${base}?where=${encodeURIComponent(`id = "${seedOfB.id}"`)}`, tokenOf(route, b));
      expect(answer.status, answer.context).toBe(200);
      expect(
        ((JSON.parse(answer.body) as Json).results as Json[]).map((r) => r.id),
        answer.context,
      ).toEqual([seedOfB.id]);
      found += 1;
    }
    expect(found).toBeGreaterThanOrEqual(10);
  });

  it("refuses drafts and updates in B that reference A's resources, revealing nothing", async () => {
    const unit = a.seeds.get('business-units');
    const cartOfA = a.seeds.get('carts');
    const myCartOfA = a.seeds.get('me/carts');
    const typeOfA = a.seeds.get('types');
    const stateOfA = a.seeds.get('states');
    const storeOfA = a.seeds.get('stores');
    const subscriptionOfA = a.seeds.get('subscriptions');
    const cases: Array<{ path: string; body: Json; customer?: boolean }> = [
      { path: '/carts', body: { currency: 'EUR', customerId: a.customer.id } },
      { path: '/carts', body: { currency: 'EUR', businessUnit: { key: unit?.key, typeId: 'business-unit' } } },
      { path: '/carts', body: { currency: 'EUR', store: { key: a.storeKey, typeId: 'store' } } },
      { path: '/quote-requests', body: { cart: { id: cartOfA?.id, typeId: 'cart' }, cartVersion: 1 } },
      { path: '/me/quote-requests', body: { cart: { id: myCartOfA?.id, typeId: 'cart' }, cartVersion: 1 }, customer: true },
      {
        path: '/business-units',
        body: { key: `x-${randomUUID().slice(0, 8)}`, name: 'X', unitType: 'Company', associates: [{ roles: ['Admin'], customer: { id: a.customer.id } }] },
      },
      {
        path: '/business-units',
        body: { key: `x-${randomUUID().slice(0, 8)}`, name: 'X', unitType: 'Division', parentUnit: { id: unit?.id, typeId: 'business-unit' } },
      },
      {
        path: '/business-units',
        body: { key: `x-${randomUUID().slice(0, 8)}`, name: 'X', unitType: 'Company', stores: [{ key: a.storeKey, typeId: 'store' }] },
      },
      { path: '/stores', body: { key: `x-${randomUUID().slice(0, 8)}`, custom: { type: { id: typeOfA?.id, typeId: 'type' }, fields: {} } } },
      { path: '/states', body: { key: `x-${randomUUID().slice(0, 8)}`, type: 'QuoteRequestState', transitions: [{ id: stateOfA?.id, typeId: 'state' }] } },
      { path: '/customers', body: { email: `x-${randomUUID()}@example.com`, password: 'xxxxxxxx', stores: [{ key: a.storeKey, typeId: 'store' }] } },
      {
        path: '/subscriptions/' + (b.seeds.get('subscriptions')?.id ?? ''),
        body: { version: 1, actions: [{ action: 'setKey', key: 'x' }], id: subscriptionOfA?.id },
      },
      {
        path: '/stores/' + (b.seeds.get('stores')?.id ?? ''),
        body: { id: storeOfA?.id, version: 1, actions: [{ action: 'setName', name: { en: 'from B' } }] },
      },
    ];
    const failures: string[] = [];
    for (const { path, body, customer } of cases) {
      const token = customer === true ? b.customer.token : b.admin;
      const url = `/${B}${path}`;
      const response = await world.gateway.app.inject({ method: 'POST', url, headers: bearer(token), payload: body });
      const context = `POST ${url} ${JSON.stringify(body)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
      const sentIds = [...a.ids].filter((id) => JSON.stringify(body).includes(id));
      if (path.startsWith('/subscriptions/') || path.startsWith('/stores/')) {
        // An `id` in an update body that differs from the URL's: refused, or ignored (the URL wins).
        if (response.statusCode === 200) expect((response.json() as Json).id, context).not.toBe(storeOfA?.id);
        else if (response.statusCode !== 400 && response.statusCode !== 409) failures.push(context);
      } else if (response.statusCode >= 500) {
        failures.push(context);
      } else if (response.statusCode < 400) {
        // Accepted only if the reference to A was ignored: the new resource names nothing of A.
        for (const key of keysOfA()) if (response.body.includes(key)) failures.push(`linked to A's ${key}: ${context}`);
        if (sentIds.some((id) => response.body.includes(id))) failures.push(`linked to A: ${context}`);
      }
      expectNothingOfA(response.body, context, sentIds);
    }
    expect(failures).toEqual([]);
    // And A's store was not renamed by B.
    const store = await world.gateway.app.inject({ method: 'GET', url: `/${A}/stores/${storeOfA?.id}`, headers: bearer(a.admin) });
    expect(JSON.stringify(store.json())).not.toContain('from B');
  });

  it("does not reach A's business units through B's GraphQL", async () => {
    const unit = a.seeds.get('business-units');
    const gql = async (token: string, query: string, variables: Json = {}) => {
      const response = await world.gateway.app.inject({ method: 'POST', url: `/${B}/graphql`, headers: bearer(token), payload: { query, variables } });
      const context = `${query} ${JSON.stringify(variables)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
      expectNothingOfA(response.body, context, [unit?.id ?? '', a.customer.id]);
      return { status: response.statusCode, body: response.json() as Json, context };
    };
    const byId = await gql(b.admin, 'query ($id: String) { businessUnit(id: $id) { id key } }', { id: unit?.id });
    expect(byId.body.data?.businessUnit, byId.context).toBeNull();
    const byKey = await gql(b.admin, 'query ($key: String) { businessUnit(key: $key) { id key } }', { key: unit?.key });
    expect(byKey.body.data?.businessUnit, byKey.context).toBeNull();
    const query = await gql(b.admin, 'query ($w: String) { businessUnits(where: $w, limit: 500) { total results { id } } }', {
      w: `id = "${unit?.id}" or key is defined`,
    });
    expect(
      (query.body.data?.businessUnits?.results as Json[]).map((r) => r.id).filter((id) => a.ids.has(id as string)),
      query.context,
    ).toEqual([]);
    const update = await gql(b.admin, 'mutation ($id: String) { updateBusinessUnit(id: $id, version: 1, actions: [{changeName: {name: "from B"}}]) { id } }', {
      id: unit?.id,
    });
    expect(update.body.errors?.[0]?.extensions?.code, update.context).toBe('ResourceNotFound');
    const remove = await gql(b.admin, 'mutation ($id: String) { deleteBusinessUnit(id: $id, version: 1) { id } }', { id: unit?.id });
    expect(remove.body.errors?.[0]?.extensions?.code, remove.context).toBe('ResourceNotFound');
    const mine = await gql(b.customer.token, '{ me { businessUnits { total results { id } } } }');
    expect(
      (mine.body.data?.me?.businessUnits?.results as Json[]).every((r) => !a.ids.has(r.id as string)),
      mine.context,
    ).toBe(true);
    const myUpdate = await gql(
      b.customer.token,
      'mutation ($id: String) { updateMyBusinessUnit(id: $id, version: 1, actions: [{changeName: {name: "from B"}}]) { id } }',
      { id: unit?.id },
    );
    expect(myUpdate.body.data?.updateMyBusinessUnit ?? null, myUpdate.context).toBeNull();
    // A's token on B's GraphQL, and B's on A's: refused before GraphQL runs.
    const crossed = await world.gateway.app.inject({
      method: 'POST',
      url: `/${A}/graphql`,
      headers: bearer(b.admin),
      payload: { query: '{ businessUnits { total } }' },
    });
    expect(crossed.statusCode).toBe(403);
  });

  it("keeps tokens per project: B's client cannot introspect or revoke A's tokens, A's customer cannot log in through B", async () => {
    const created = await world.gateway.app.inject({
      method: 'POST',
      url: `/${B}/api-clients`,
      headers: bearer(b.admin),
      payload: { name: 'b-admin', scope: `manage_project:${B}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const clientB = created.json() as { id: string; secret: string };
    const form = (payload: Record<string, string>, client = clientB) => ({
      headers: { ...basicAuth(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(payload).toString(),
    });
    // B's client may not ask for A's scopes.
    const scoped = await world.gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      ...form({ grant_type: 'client_credentials', scope: `manage_project:${A}` }),
    });
    expect(scoped.statusCode, scoped.body).toBeGreaterThanOrEqual(400);
    expect(scoped.statusCode).toBeLessThan(500);
    // Introspection of A's admin and customer tokens: inactive, nothing more.
    for (const token of [a.admin, a.customer.token]) {
      const introspected = await world.gateway.app.inject({ method: 'POST', url: '/oauth/introspect', ...form({ token }) });
      expect(introspected.statusCode).toBe(200);
      expect(introspected.json()).toEqual({ active: false });
    }
    // Revocation of A's token by B's client: 200 (§5.6), but the token still works.
    const revoked = await world.gateway.app.inject({ method: 'POST', url: '/oauth/token/revoke', ...form({ token: a.admin }) });
    expect(revoked.statusCode).toBe(200);
    const still = await world.gateway.app.inject({ method: 'GET', url: `/${A}/stores`, headers: bearer(a.admin) });
    expect(still.statusCode).toBe(200);
    // A's customer through B's token endpoint, and through B's store.
    const password = { grant_type: 'password', username: a.customer.email, password: a.customer.password, scope: `manage_my_orders:${B}` };
    for (const url of [
      `/oauth/${B}/customers/token`,
      `/oauth/${B}/in-store/key=${b.storeKey}/customers/token`,
      `/oauth/${B}/in-store/key=${a.storeKey}/customers/token`,
    ]) {
      const login = await world.gateway.app.inject({ method: 'POST', url, ...form(password, world.gateway.bootstrapClient) });
      expect(login.statusCode, `${url} ${login.body}`).toBeGreaterThanOrEqual(400);
      expect(login.statusCode, `${url} ${login.body}`).toBeLessThan(500);
      expectNothingOfA(login.body, url);
    }
    // A customer token of B does not open A's /me.
    const { accessToken } = await customerTokenFor(world.gateway, B, ['manage_my_profile'], { email: b.customer.email, password: b.customer.password });
    const me = await world.gateway.app.inject({ method: 'GET', url: `/${A}/me`, headers: bearer(accessToken) });
    expect(me.statusCode).toBe(403);
  });

  it("delivers A's events to A's subscription only", async () => {
    const queueOf = async (owner: ProjectWorld, projectKey: string) => {
      const subscription = await world.gateway.app.inject({
        method: 'GET',
        url: `/${projectKey}/subscriptions/${owner.seeds.get('subscriptions')?.id}`,
        headers: bearer(owner.admin),
      });
      return (subscription.json() as Json).destination.queueUrl as string;
    };
    const [queueA, queueB] = [await queueOf(a, A), await queueOf(b, B)];
    const rename = async (owner: ProjectWorld, projectKey: string, name: string) => {
      const url = `/${projectKey}/stores/${owner.seeds.get('stores')?.id}`;
      const current = (await world.gateway.app.inject({ method: 'GET', url, headers: bearer(owner.admin) })).json() as Json;
      const answer = await world.gateway.app.inject({
        method: 'POST',
        url,
        headers: bearer(owner.admin),
        payload: { version: current.version, actions: [{ action: 'setName', name: { en: name } }] },
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    // A's change first, until it arrived (it is routed, to every matching subscription, before B's exists).
    await rename(a, A, 'renamed in A');
    const arrivedA = await world.sqs.waitForMessages(queueA, 2, 20_000); // the test notification, then the change
    expect(arrivedA.some((message) => message.body.includes(a.seeds.get('stores')?.id ?? '-'))).toBe(true);
    await rename(b, B, 'renamed in B');
    const arrivedB = await world.sqs.waitForMessages(queueB, 2, 20_000);
    expect(arrivedB.some((message) => message.body.includes(b.seeds.get('stores')?.id ?? '-'))).toBe(true);
    const inB = (await world.sqs.receiveAll(queueB)).map((message) => message.body).join('\n');
    for (const id of a.ids) expect(inB.includes(id), `A's ${id} delivered to B's queue`).toBe(false);
    expect(inB).not.toContain(`"projectKey":"${A}"`);
    const inA = (await world.sqs.receiveAll(queueA)).map((message) => message.body).join('\n');
    for (const id of b.ids) expect(inA.includes(id), `B's ${id} delivered to A's queue`).toBe(false);
  });

  it('checked hundreds of answers', () => {
    expect(checked.requests).toBeGreaterThan(300);
  });
});

/** The path values of a project's own world: its store, its customer as an associate of its business unit. */
function pathValuesOf(world: ProjectWorld, projectKey: string): Record<string, string> {
  return {
    projectKey,
    storeKey: world.storeKey,
    container: 'isolation',
    associateId: world.customer.id,
    businessUnitKey: encodeURIComponent(world.seeds.get('business-units')?.key ?? ''),
  };
}
