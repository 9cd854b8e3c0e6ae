/**
 * §4.4.7 / §8 and "nothing is written when a request is refused": an `expand` list the store
 * refuses (more than MAX_EXPAND_PATHS paths) is refused before the request writes. A create,
 * update or delete answered with that 400 has not happened: no document changed and nothing went
 * to the outbox (messages and change notifications). Checked on every kind of route that writes
 * and expands: the resource template (stores), scoped routes (in-store carts), business units and
 * customers.
 */
import { MAX_EXPAND_PATHS } from '@herald/store';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'expand-before-write';
const expands = (n: number) => Array.from({ length: n }, (_, i) => `expand=f${i}`).join('&');
const TOO_MANY = expands(MAX_EXPAND_PATHS + 1);

type Method = 'GET' | 'POST' | 'DELETE';

describe('a refused expand parameter list leaves no write behind', () => {
  let gateway: TestGateway;
  let token: string;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    token = await tokenFor(gateway, P, ['manage_project']);
    await ok('POST', '/stores', { key: 'cart-store' }, 201);
  });
  afterAll(() => gateway.close());

  const call = (method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    gateway.app.inject({ method, url: `/${P}${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as never }) });
  /** Answers `status`; returns the id of the resource answered (a customer comes as `{customer}`). */
  async function ok(method: Method, url: string, payload: unknown, status = 200): Promise<string> {
    const response = await call(method, url, payload);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
    const body = response.json() as { id: string; customer?: { id: string } };
    return body.customer?.id ?? body.id;
  }
  const outboxRows = async () => Number((await gateway.db.query<{ count: string }>('SELECT count(*) AS count FROM outbox')).rows[0]?.count);

  /** The request answers the expand 400, and neither the document at `readUrl` nor the outbox changed. */
  async function expectRefusedWithoutWrite(method: Method, url: string, payload: unknown, readUrl: string): Promise<void> {
    const before = await call('GET', readUrl);
    const outbox = await outboxRows();
    const refused = await call(method, url, payload);
    expect(refused.statusCode, refused.body.slice(0, 300)).toBe(400);
    expect(refused.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', parameter: 'expand' }] });
    const after = await call('GET', readUrl);
    expect(after.statusCode).toBe(before.statusCode);
    expect(after.body).toBe(before.body);
    expect(await outboxRows()).toBe(outbox);
  }

  const routes = [
    {
      what: 'stores (the resource template)',
      base: '/stores',
      draft: (key: string) => ({ key, name: { en: 'before' } }),
      action: { action: 'setName', name: { en: 'after' } },
    },
    {
      what: 'in-store carts (scoped routes)',
      base: '/in-store/key=cart-store/carts',
      draft: () => ({ currency: 'EUR' }),
      action: { action: 'setCountry', country: 'DE' },
    },
    {
      what: 'business units',
      base: '/business-units',
      draft: (key: string) => ({ key, name: 'Before', unitType: 'Company' }),
      action: { action: 'changeName', name: 'After' },
    },
    {
      what: 'customers',
      base: '/customers',
      draft: (key: string) => ({ key, email: `${key}@example.com`, password: 'secret-password' }),
      action: { action: 'setFirstName', firstName: 'After' },
    },
  ];

  describe.each(routes)('$what', ({ base, draft, action }) => {
    const key = (operation: string) => `${base.split('/').at(-1) ?? 'x'}-${operation}`;

    it('create: 400 and no resource', async () => {
      await expectRefusedWithoutWrite('POST', `${base}?${TOO_MANY}`, draft(key('create')), `${base}?withTotal=true&limit=500`);
    });

    it('update: 400 and the actions not applied', async () => {
      const id = await ok('POST', base, draft(key('update')), 201);
      await expectRefusedWithoutWrite('POST', `${base}/${id}?${TOO_MANY}`, { version: 1, actions: [action] }, `${base}/${id}`);
    });

    it('delete: 400 and the resource still there', async () => {
      const id = await ok('POST', base, draft(key('delete')), 201);
      await expectRefusedWithoutWrite('DELETE', `${base}/${id}?version=1&${TOO_MANY}`, undefined, `${base}/${id}`);
    });

    it(`still writes and answers with ${MAX_EXPAND_PATHS} expand paths (control)`, async () => {
      await ok('POST', `${base}?${expands(MAX_EXPAND_PATHS)}`, draft(key('control')), 201);
    });
  });

  it('refuses the same list on reads (the check is the store’s own)', async () => {
    const response = await call('GET', `/stores?${TOO_MANY}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ code: 'InvalidInput', parameter: 'expand' }] });
  });
});
