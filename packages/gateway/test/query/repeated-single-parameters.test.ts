/**
 * Single-valued query parameters (`limit`, `offset`, `withTotal`, `version`, `dataErasure`) repeated
 * with the SAME value mean that value. The official SDK's `process()` (ts-client and
 * sdk-client-v2) pages with `sort=id asc&withTotal=false&<the request's own query>`, so a request
 * that already says `withTotal=false` reaches the API with it twice. Repeated with DIFFERENT values
 * the parameter is ambiguous and stays a 400 InvalidInput in the error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken, type Caller } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'repeated-params';

describe('single-valued query parameters sent twice', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let buyer: Caller;

  /** One query endpoint per implementation path of the paging parameters. */
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
    for (const key of ['s-1', 's-2', 's-3']) await admin.ok(`/${P}/stores`, { key }, 201);
  });
  afterAll(() => gateway?.close());

  it('answers the query string of the SDK’s process() (withTotal=false twice) on every query endpoint', async () => {
    for (const { path, caller } of endpoints()) {
      const answer = await caller.get(`${path}?sort=id%20asc&withTotal=false&limit=2&withTotal=false`);
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body.limit, path).toBe(2);
      expect(answer.body, path).not.toHaveProperty('total');
    }
  });

  it('takes limit, offset and withTotal=true repeated with one value each', async () => {
    const answer = await admin.get(`/${P}/stores?limit=1&limit=1&offset=1&offset=1&withTotal=true&withTotal=true&sort=key%20asc`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ limit: 1, offset: 1, count: 1, total: 3, results: [{ key: 's-2' }] });
  });

  it('takes a delete’s version repeated with the same value', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'to-delete' }, 201);
    const deleted = await admin.delete(`/${P}/stores/${store.id as string}?version=${store.version as number}&version=${store.version as number}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ id: store.id, key: 'to-delete' });
  });

  it.each(['withTotal=true&withTotal=false', 'limit=1&limit=2', 'offset=0&offset=1', 'withTotal=false&withTotal=false&withTotal=true'])(
    'refuses %s (different values) with 400 InvalidInput',
    async (query) => {
      for (const { path, caller } of endpoints()) {
        const answer = await caller.get(`${path}?${query}`);
        expect(answer.status, `${path}?${query}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body, path).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code: 'InvalidInput' }] });
      }
    },
  );

  it('refuses a delete whose versions differ', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'kept' }, 201);
    const answer = await admin.delete(`/${P}/stores/${store.id as string}?version=${store.version as number}&version=${(store.version as number) + 1}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: [{ code: 'InvalidInput' }] });
    expect((await admin.get(`/${P}/stores/${store.id as string}`)).status).toBe(200);
  });
});
