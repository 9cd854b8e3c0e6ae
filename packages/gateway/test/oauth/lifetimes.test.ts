import { openDatabase, type Database } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStore } from '../../src/oauth/token-store.js';
import { ManualClock } from '../support/clock.js';
import { basicAuth, startTestGateway, type TestGateway } from '../support/gateway.js';
import { bootstrap, createClient, createCustomer, FORM, get, postForm, token, type Client } from './helpers.js';

const P = 'lifetimes';
const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

describe('token lifetimes, caches, the refresh token cap and rate limits (injected clock)', () => {
  const clock = new ManualClock();
  let gateway: TestGateway;
  let frontend: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({
      projects: [P],
      clock,
      config: { oauth: { accessTokenTtlSeconds: 3600, refreshTokenCap: 3, tokenCacheSeconds: 10, tokenRateLimitPerMinute: 0 } },
    });
    frontend = await createClient(gateway, P, `manage_my_profile:${P} view_stores:${P}`);
  });
  afterAll(async () => gateway?.close());

  const signIn = async (email: string) =>
    (await postForm(gateway, `/oauth/${P}/customers/token`, frontend, { grant_type: 'password', username: email, password: 'pw' })).json() as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
    };
  const refresh = (refreshToken: string) => postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: refreshToken });

  it('access tokens expire after the configured lifetime', async () => {
    const issued = await token(gateway, frontend, { grant_type: 'client_credentials', scope: `view_stores:${P}` });
    expect(issued.expires_in).toBe(3600);
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(200);
    clock.advance(3599 * SECOND);
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(200);
    clock.advance(2 * SECOND);
    const expired = await get(gateway, `/${P}/stores`, issued.access_token);
    expect(expired.statusCode).toBe(401);
    // The platform's words (the reference's AuthErrorResponse); Herald's reason in errors[0].detail.
    expect(expired.json()).toMatchObject({ error: 'invalid_token', error_description: 'invalid_token', errors: [{ detail: 'The access token has expired.' }] });
    expect((await postForm(gateway, '/oauth/introspect', frontend, { token: issued.access_token })).json()).toEqual({ active: false });
  });

  it('a validated token is trusted from memory for HERALD_TOKEN_CACHE_SECONDS, as another process would see a revocation', async () => {
    const issued = await token(gateway, frontend, { grant_type: 'client_credentials', scope: `view_stores:${P}` });
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(200);
    // Another gateway process revokes it: only the database changes, this process is not told.
    await gateway.db.query('DELETE FROM oauth_access_tokens WHERE client_id = $1', [frontend.id]);
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(200);
    clock.advance(10 * SECOND);
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(401);
  });

  it('refresh tokens live 6 months after their last use (§5.4)', async () => {
    await createCustomer(gateway, P, { email: 'months@example.com', password: 'pw' });
    const { refresh_token } = await signIn('months@example.com');
    clock.advance(150 * DAY);
    expect((await refresh(refresh_token)).statusCode).toBe(200);
    clock.advance(150 * DAY);
    expect((await refresh(refresh_token)).statusCode).toBe(200);
    clock.advance(185 * DAY);
    const expired = await refresh(refresh_token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'The refresh token was not found. It may have expired.',
      errors: [{ detail: 'The refresh token has expired.' }],
    });
  });

  it('beyond the cap the least recently used refresh tokens go, and new ones keep working (§8)', async () => {
    await gateway.db.query('DELETE FROM oauth_refresh_tokens');
    await gateway.db.query('UPDATE oauth_refresh_token_count SET count = 0');
    const emails = ['cap1@example.com', 'cap2@example.com', 'cap3@example.com', 'cap4@example.com'];
    for (const email of emails) await createCustomer(gateway, P, { email, password: 'pw' });
    const sessions = [];
    for (const email of emails.slice(0, 3)) sessions.push(await signIn(email));
    // Using the first one makes the second the least recently used.
    expect((await refresh(sessions[0]!.refresh_token)).statusCode).toBe(200);
    sessions.push(await signIn(emails[3]!));

    const outcomes = [];
    for (const session of sessions) outcomes.push((await refresh(session.refresh_token)).statusCode);
    expect(outcomes).toEqual([200, 400, 200, 200]);
    const count = await gateway.db.query<{ count: number; actual: number }>(
      'SELECT (SELECT count FROM oauth_refresh_token_count) AS count, (SELECT count(*)::int FROM oauth_refresh_tokens) AS actual',
    );
    expect(count.rows[0]).toEqual({ count: 3, actual: 3 });
  });
});

describe('token request rate limit (§5.9)', () => {
  const clock = new ManualClock();
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P], clock, config: { oauth: { tokenRateLimitPerMinute: 3 } } });
  });
  afterAll(async () => gateway?.close());

  it('answers 429 with Retry-After per client, and recovers as time passes', async () => {
    const client = bootstrap(gateway);
    const request = () => postForm(gateway, '/oauth/token', client, { grant_type: 'client_credentials' });
    for (let i = 0; i < 3; i++) expect((await request()).statusCode).toBe(200);
    const limited = await request();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('20');
    expect(limited.json()).toMatchObject({ statusCode: 429, errors: [{ code: 'too_many_requests' }], error: 'too_many_requests' });

    // Other clients (here: unknown ones, which fail authentication) have their own budget.
    expect((await postForm(gateway, '/oauth/token', { id: 'someone-else', secret: 'x' }, { grant_type: 'client_credentials' })).statusCode).toBe(401);
    clock.advance(20 * SECOND);
    expect((await request()).statusCode).toBe(200);
    expect((await request()).statusCode).toBe(429);
  });

  it("wrong secrets from another address do not use up the client's budget, and are limited there", async () => {
    clock.advance(60 * SECOND); // every bucket is full again
    const victim = await createClient(gateway, P, `view_stores:${P}`);
    // Client ids are not secret: anyone can claim one.
    const fromElsewhere = (secret: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress: '203.0.113.7',
        headers: { ...basicAuth(victim.id, secret), ...FORM },
        payload: 'grant_type=client_credentials',
      });
    for (let i = 0; i < 3; i++) expect((await fromElsewhere(`wrong-${i}`)).statusCode).toBe(401);
    expect((await fromElsewhere('wrong-3')).statusCode).toBe(429);
    // Limited before the secret is checked, so a right guess learns nothing there either.
    expect((await fromElsewhere(victim.secret)).statusCode).toBe(429);

    const own = () => postForm(gateway, '/oauth/token', victim, { grant_type: 'client_credentials' });
    for (let i = 0; i < 3; i++) expect((await own()).statusCode).toBe(200);
    expect((await own()).statusCode).toBe(429);
  });
});

describe('the sweep of expired tokens', () => {
  const clock = new ManualClock('2025-03-01T12:00:00.000Z');
  const moveTo = (instant: string) => clock.advance(Date.parse(instant) - clock.now().getTime());
  let gateway: TestGateway;
  let frontend: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P], clock });
    frontend = await createClient(gateway, P, `manage_my_profile:${P}`);
  });
  afterAll(async () => gateway?.close());

  it('deletes a refresh token when the refresh grant calls it expired, not days before (§5.4)', async () => {
    await createCustomer(gateway, P, { email: 'sweep@example.com', password: 'pw' });
    const signedIn = await postForm(gateway, `/oauth/${P}/customers/token`, frontend, {
      grant_type: 'password',
      username: 'sweep@example.com',
      password: 'pw',
    });
    const refreshToken = signedIn.json().refresh_token as string;
    const stored = async () => (await gateway.db.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_refresh_tokens')).rows[0]?.n;
    // Issuances sweep, at most once a minute.
    const sweep = () => token(gateway, frontend, { grant_type: 'client_credentials' });

    moveTo('2025-08-31T12:00:00.000Z'); // six months before is 28 February, not 3 March
    await sweep();
    expect(await stored()).toBe(1);

    moveTo('2025-09-01T12:00:00.000Z');
    const expired = await postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(expired.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'The refresh token was not found. It may have expired.',
      errors: [{ detail: 'The refresh token has expired.' }],
    });
    await sweep();
    expect(await stored()).toBe(0);
  });

  it('is best effort: a sweep that fails is logged, and the issuance that ran it succeeds', async () => {
    const db = await openDatabase('pglite://memory');
    try {
      const failing: Database = {
        ...db,
        query: (sql, params, options) =>
          sql.includes('expires_at <= $1') ? Promise.reject(new Error('canceling statement due to lock timeout')) : db.query(sql, params, options),
      };
      const logged: unknown[] = [];
      const store = new TokenStore(failing, new ManualClock(), 10, { error: (details) => logged.push(details) });
      // Tokens are issued only to clients that exist.
      await db.query("INSERT INTO api_clients (id, project_key, name, scope, secret_hash, created_at) VALUES ('c', $1, 'c', '', 'x', now())", [P]);
      await store.save({ grant: { clientId: 'c', scopes: [`view_stores:${P}`] }, accessTokenHash: 'hash', expiresAt: new Date('2030-01-01') });
      expect(await store.findAccessToken('hash')).toMatchObject({ clientId: 'c' });
      expect(logged).toEqual([{ err: expect.objectContaining({ message: 'canceling statement due to lock timeout' }) }]);
    } finally {
      await db.close();
    }
  });
});
