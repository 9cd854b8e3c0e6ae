import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';
import { get, post } from './fixtures.js';

const P = 'value-budget';
let gateway: TestGateway;
let token: string;

beforeAll(async () => {
  const clock = new ManualClock('2025-01-01T00:00:00.000Z');
  gateway = await startTestGateway({ projects: [P], clock });
  token = await tokenFor(gateway, P, ['manage_project']);
  expect((await post(gateway, token, `/${P}/stores`, { key: 'k7', name: { en: 'Seven' } })).createdAt).toBe('2025-01-01T00:00:00.000Z');
  clock.advance(1);
  await post(gateway, token, `/${P}/stores`, { key: 'later', name: { en: 'Later' } });
});
afterAll(async () => gateway?.close());

const keys = async (where: string): Promise<string[]> => {
  const answer = await get(gateway, token, `/${P}/stores`, [
    ['where', where],
    ['sort', 'key asc'],
  ]);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.results.map((store: { key: string }) => store.key);
};

describe('values per query (store MAX_QUERY_VALUES)', () => {
  const values = Array.from({ length: 500 }, (_, i) => `k${i}`);
  const variables = values.map((value) => ['var.v', value] as const);

  it('refuses, as a 400, a short URL whose variable is reused until it would outgrow what PostgreSQL can bind', async () => {
    // 7.5 KB of URL, 70,000 values once the variable is expanded at each of its 140 uses: was a 500.
    const where = Array.from({ length: 140 }, () => 'key in :v').join(' or ');
    const answer = await get(gateway, token, `/${P}/stores`, [['where', where], ...variables]);
    expect(answer.url.length).toBeLessThan(15 * 1024);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining('more than 32000 values') });
  });

  it('counts every where parameter of the request, and the same on document fields', async () => {
    const answer = await get(gateway, token, `/${P}/stores`, [
      ...Array.from({ length: 22 }, () => ['where', 'name(en in :v or en in :v or en in :v)'] as const),
      ...variables,
    ]);
    expect(answer.status).toBe(400);
  });

  it('runs a query at the ceiling: two full lists in each of 32 where parameters (32,000 values)', async () => {
    const answer = await get(gateway, token, `/${P}/stores`, [...Array.from({ length: 32 }, () => ['where', 'key in :v or key in :v'] as const), ...variables]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.results.map((store: { key: string }) => store.key)).toEqual(['k7']);
  });
});

describe('createdAt compared with instants between two microseconds (timestamptz holds whole microseconds)', () => {
  const between = '"2025-01-01T00:00:00.0000001Z"';

  it('orders them exactly: k7 (at .000000) is before, later (at .001) after', async () => {
    expect(await keys(`createdAt < ${between}`)).toEqual(['k7']);
    expect(await keys(`createdAt <= ${between}`)).toEqual(['k7']);
    expect(await keys(`createdAt > ${between}`)).toEqual(['later']);
    expect(await keys(`createdAt >= ${between}`)).toEqual(['later']);
  });

  it('equals no stored instant', async () => {
    expect(await keys(`createdAt = ${between}`)).toEqual([]);
    expect(await keys(`createdAt != ${between}`)).toEqual(['k7', 'later']);
    expect(await keys(`createdAt in (${between})`)).toEqual([]);
    expect(await keys(`createdAt in (${between}, "2025-01-01T00:00:00.000Z")`)).toEqual(['k7']);
    expect(await keys(`createdAt not in (${between})`)).toEqual(['k7', 'later']);
    expect(await keys(`createdAt contains all (${between}, "2025-01-01T00:00:00.000Z")`)).toEqual([]);
  });

  it('takes zeros beyond microseconds as the same instant (seven digits, as .NET writes them)', async () => {
    expect(await keys('createdAt = "2025-01-01T00:00:00.0000000Z"')).toEqual(['k7']);
    expect(await keys('createdAt < "2025-01-01T00:00:00.000000100Z"')).toEqual(['k7']);
  });
});
