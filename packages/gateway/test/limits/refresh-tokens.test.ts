/**
 * §8 "Refresh tokens: 10 million; beyond it the least recently used are deleted" and
 * "Refresh token lifetime: 6 months after last use" (§5.4), through the token endpoint, with an
 * injected clock: the exact edge of the lifetime, and that every refusal is a 4xx in the §7 shape
 * (plus the OAuth `error`/`error_description`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createCustomer, postForm, type Client } from '../oauth/helpers.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'limits-refresh';
const MINUTE = 60_000;

function expectInvalidGrant(response: { statusCode: number; json(): unknown; body: string }): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toMatchObject({
    statusCode: 400,
    message: expect.any(String),
    errors: [{ code: 'invalid_grant', message: expect.any(String) }],
    error: 'invalid_grant',
    error_description: expect.any(String),
  });
}

describe('§8 refresh token lifetime and cap', () => {
  const clock = new ManualClock('2025-01-31T12:00:00.000Z');
  let gateway: TestGateway;
  let frontend: Client;
  let customers = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({
      projects: [P],
      clock,
      config: { oauth: { refreshTokenCap: 3, tokenCacheSeconds: 0, tokenRateLimitPerMinute: 0 } },
    });
    frontend = await createClient(gateway, P, `manage_my_profile:${P} create_anonymous_token:${P}`);
  });
  afterAll(() => gateway?.close());

  const signIn = async (): Promise<string> => {
    const email = `refresh-${++customers}@example.com`;
    await createCustomer(gateway, P, { email, password: 'pw' });
    const response = await postForm(gateway, `/oauth/${P}/customers/token`, frontend, { grant_type: 'password', username: email, password: 'pw' });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { refresh_token: string }).refresh_token;
  };
  const anonymous = async (): Promise<string> => {
    const response = await postForm(gateway, `/oauth/${P}/anonymous/token`, frontend, { grant_type: 'client_credentials', scope: `manage_my_profile:${P}` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { refresh_token: string }).refresh_token;
  };
  const refresh = (token: string) => postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: token });

  /** `months` calendar months after `from`, as §5.4 counts them (clamped to the month's end). */
  const monthsAfter = (from: Date, months: number): Date => {
    const date = new Date(from.getTime());
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + months);
    const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, last));
    return date;
  };
  const moveTo = (date: Date) => clock.advance(date.getTime() - clock.now().getTime());

  it('a refresh token works until 6 months after its last use, and each use starts the 6 months again', async () => {
    await gateway.db.query('DELETE FROM oauth_refresh_tokens');
    await gateway.db.query('UPDATE oauth_refresh_token_count SET count = 0');
    const token = await signIn();
    const issuedAt = clock.now();
    // One minute before 6 months: still valid; this use is the new "last use".
    moveTo(new Date(monthsAfter(issuedAt, 6).getTime() - MINUTE));
    expect((await refresh(token)).statusCode).toBe(200);
    const usedAt = clock.now();
    // 6 months after the FIRST use have passed, but not after the last: still valid.
    moveTo(new Date(monthsAfter(usedAt, 6).getTime() - MINUTE));
    expect((await refresh(token)).statusCode).toBe(200);
    const lastUse = clock.now();
    // One minute past 6 months after the last use: expired, a 400 invalid_grant in the error shape.
    moveTo(new Date(monthsAfter(lastUse, 6).getTime() + MINUTE));
    expectInvalidGrant(await refresh(token));
  });

  it('a token unused for much less than 6 months (5 months) still works; one unused for 7 does not', async () => {
    const fresh = await signIn();
    clock.advance(0);
    moveTo(monthsAfter(clock.now(), 5));
    expect((await refresh(fresh)).statusCode).toBe(200);
    moveTo(monthsAfter(clock.now(), 7));
    expectInvalidGrant(await refresh(fresh));
  });

  it('beyond the cap the least recently used go, across password and anonymous flows; new ones keep working', async () => {
    await gateway.db.query('DELETE FROM oauth_refresh_tokens');
    await gateway.db.query('UPDATE oauth_refresh_token_count SET count = 0');
    const a = await signIn();
    clock.advance(MINUTE);
    const b = await anonymous();
    clock.advance(MINUTE);
    const c = await signIn();
    clock.advance(MINUTE);
    // Using `a` makes `b` the least recently used.
    expect((await refresh(a)).statusCode).toBe(200);
    clock.advance(MINUTE);
    const d = await anonymous();
    clock.advance(MINUTE);
    expectInvalidGrant(await refresh(b));
    for (const token of [a, c, d]) expect((await refresh(token)).statusCode).toBe(200);
    // Two more: the two least recently used of a, c, d (a, c — refreshed before d) go.
    const e = await signIn();
    const f = await signIn();
    expectInvalidGrant(await refresh(a));
    expectInvalidGrant(await refresh(c));
    for (const token of [d, e, f]) expect((await refresh(token)).statusCode).toBe(200);
    const count = await gateway.db.query<{ count: number; actual: number }>(
      'SELECT (SELECT count FROM oauth_refresh_token_count) AS count, (SELECT count(*)::int FROM oauth_refresh_tokens) AS actual',
    );
    expect(count.rows[0]).toEqual({ count: 3, actual: 3 });
  });
});
