/**
 * §8 rows 1–3 (and §4.4.2–4.4.4) through the HTTP interface:
 *   - page size `limit`: 1 to 500, default 20;
 *   - `offset`: default 0, maximum 10000;
 *   - `total` with a query predicate: capped at the maximum offset 10000.
 * Every refusal must be a 4xx in the §7 shape (`{statusCode, message, errors: [{code, message}]}`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerWithToken, type Caller, callerWith, type Json } from '../carts/commerce.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'limits-paging';

function expectErrorShape(status: number, body: Json, expectedStatus: number, code: string): void {
  expect(status, JSON.stringify(body)).toBe(expectedStatus);
  expect(body).toMatchObject({ statusCode: expectedStatus, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
}

describe('§8 paging limits over HTTP', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let buyer: Caller;

  /** The query endpoints of Herald that take limit/offset (one per implementation path). */
  const endpoints = () => [
    { path: `/${P}/stores`, caller: admin },
    { path: `/${P}/quote-requests`, caller: admin },
    { path: `/${P}/subscriptions`, caller: admin },
    { path: `/${P}/messages`, caller: admin },
    { path: `/${P}/api-clients`, caller: admin },
    { path: `/${P}/customers`, caller: admin },
    { path: `/${P}/carts`, caller: admin },
    { path: `/${P}/business-units`, caller: admin },
    { path: `/${P}/me/carts`, caller: buyer },
  ];

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    buyer = (await customerWithToken(gateway, P, admin, ['manage_my_orders'])).caller;
    // 21 stores: more than a default page.
    for (let i = 0; i < 21; i++) await admin.ok(`/${P}/stores`, { key: `page-store-${String(i).padStart(2, '0')}` }, 201);
  });
  afterAll(() => gateway?.close());

  it('accepts limit=1 and limit=500 (inclusive bounds) on every query endpoint', async () => {
    for (const { path, caller } of endpoints()) {
      for (const limit of [1, 500]) {
        const answer = await caller.get(`${path}?limit=${limit}`);
        expect(answer.status, `${path}?limit=${limit}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(answer.body.limit, path).toBe(limit);
      }
    }
  });

  it('refuses limit=0 and limit=501 with 400 InvalidInput in the error shape on every query endpoint', async () => {
    for (const { path, caller } of endpoints()) {
      for (const limit of ['0', '501', '-1', '1.5']) {
        const answer = await caller.get(`${path}?limit=${limit}`);
        expectErrorShape(answer.status, answer.body, 400, 'InvalidInput');
      }
    }
  });

  it('HEAD (the SDK existence check) refuses the same out-of-range values with 400', async () => {
    for (const query of ['limit=0', 'limit=501', 'offset=10001']) {
      const response = await gateway.app.inject({ method: 'HEAD', url: `/${P}/stores?${query}`, headers: bearer(admin.token) });
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('defaults to limit 20 and offset 0', async () => {
    const page = await admin.read(`/${P}/stores?sort=key%20asc`);
    expect(page).toMatchObject({ limit: 20, offset: 0, count: 20, total: 21 });
    expect(page.results[0].key).toBe('page-store-00');
    for (const { path, caller } of endpoints()) {
      const answer = await caller.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.body, path).toMatchObject({ limit: 20, offset: 0 });
    }
  });

  it('accepts offset=10000 and refuses offset=10001 with 400 InvalidInput in the error shape on every query endpoint', async () => {
    for (const { path, caller } of endpoints()) {
      const max = await caller.get(`${path}?offset=10000`);
      expect(max.status, `${path}?offset=10000: ${JSON.stringify(max.body)}`).toBe(200);
      expect(max.body).toMatchObject({ offset: 10000, count: 0, results: [] });
      for (const offset of ['10001', '-1']) {
        const answer = await caller.get(`${path}?offset=${offset}`);
        expectErrorShape(answer.status, answer.body, 400, 'InvalidInput');
      }
    }
  });

  it('GraphQL businessUnits: limit 1..500 and offset ..10000 are accepted, beyond them an InvalidInput error (never General)', async () => {
    const query = async (args: string) => {
      const response = await gateway.app.inject({
        method: 'POST',
        url: `/${P}/graphql`,
        headers: bearer(admin.token),
        payload: { query: `{ businessUnits(${args}) { offset count total results { id } } }` },
      });
      expect(response.statusCode, response.body).toBeLessThan(500);
      return response.json() as Json;
    };
    for (const ok of ['limit: 1', 'limit: 500', 'offset: 10000']) {
      const answer = await query(ok);
      expect(answer.errors, `${ok}: ${JSON.stringify(answer)}`).toBeUndefined();
    }
    for (const bad of ['limit: 0', 'limit: 501', 'offset: 10001', 'offset: -1']) {
      const answer = await query(bad);
      expect(answer.errors?.[0]?.extensions?.code, `${bad}: ${JSON.stringify(answer)}`).toBe('InvalidInput');
    }
  });

  describe('total with a query predicate (capped at 10000)', () => {
    const COUNT = 10_005;

    beforeAll(async () => {
      // 10,005 stores written straight into the table (creating them through the API would take
      // minutes); each is a copy of one created through the API, with its own id and key.
      const template = await admin.ok(`/${P}/stores`, { key: 'bulk-template' }, 201);
      await gateway.db.query(
        `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, doc)
         SELECT project_key, type_id, 'bulk-' || n, 'bulk-' || n, version, created_at, last_modified_at,
                doc || jsonb_build_object('id', 'bulk-' || n, 'key', 'bulk-' || n)
         FROM resources, generate_series(1, $3::int) AS n
         WHERE project_key = $1 AND type_id = 'store' AND id = $2`,
        [P, template.id, COUNT - 1],
      );
    });

    it('answers total 10000 for a predicate matching more, and the exact total without one', async () => {
      const filtered = await admin.read(`/${P}/stores?where=${encodeURIComponent('key is defined')}&limit=1`);
      expect(filtered.total).toBe(10_000);
      const unfiltered = await admin.read(`/${P}/stores?limit=1`);
      expect(unfiltered.total).toBe(COUNT + 21);
      // A predicate matching fewer than 10000 counts exactly.
      const few = await admin.read(`/${P}/stores?where=${encodeURIComponent('key = "bulk-7"')}&limit=1`);
      expect(few.total).toBe(1);
    });

    it('offset 10000 pages past the cap to the last results', async () => {
      const last = await admin.read(`/${P}/stores?offset=10000&limit=500&sort=id%20asc`);
      expect(last.count).toBe(COUNT + 21 - 10_000);
    });
  });
});
