import { postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../support/gateway.js';
import { startGatedGateway, type GatedGateway } from '../support/gated-gateway.js';
import { bootstrap, createClient, createCustomer, get, postForm, token, type Client } from './helpers.js';

/**
 * Two requests racing over the same token or customer, replayed deterministically: one is held at
 * a chosen query (support/gated-gateway.ts) while the other runs as far as it can. On PGlite
 * statements run one at a time, so "as far as it can" may be the queue behind the held
 * transaction; on PostgreSQL it may be a row lock. Whichever request wins, no token may work
 * afterwards that the other request meant to end.
 */

type Driver = 'PGlite' | 'PostgreSQL';

/** Whether some request waits behind the held one (queued on PGlite, on a row lock on PostgreSQL). */
async function someoneWaits(gateway: GatedGateway, driver: Driver): Promise<boolean> {
  if (driver === 'PGlite') return gateway.inFlight() > 1;
  const waiting = await gateway.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
  );
  return (waiting.rows[0]?.n ?? 0) > 0;
}

/** Waits until `other` has finished or waits behind the held request. */
async function runAsFarAsItCan(gateway: GatedGateway, driver: Driver, other: Promise<unknown>): Promise<void> {
  let settled = false;
  other.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.waitFor(async () => expect(settled || (await someoneWaits(gateway, driver))).toBe(true), { timeout: 10_000, interval: 10 });
}

describe.each([
  { driver: 'PGlite' as const, skip: false },
  { driver: 'PostgreSQL' as const, skip: !postgresAvailable() },
])('OAuth races on $driver', { timeout: 60_000 }, ({ driver, skip }) => {
  const P = 'races';
  let server: RunningService | undefined;
  let gateway: GatedGateway;
  let frontend: Client;
  let admin: string;

  const signIn = (email: string) => postForm(gateway, `/oauth/${P}/customers/token`, frontend, { grant_type: 'password', username: email, password: 'pw' });
  const refresh = (refreshToken: string) => postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: refreshToken });
  const revoke = (tokenValue: string, hint: string) => postForm(gateway, '/oauth/token/revoke', frontend, { token: tokenValue, token_type_hint: hint });
  const expectInactive = async (accessToken: string) => {
    expect((await postForm(gateway, '/oauth/introspect', frontend, { token: accessToken })).json()).toEqual({ active: false });
    expect((await get(gateway, `/${P}/stores`, accessToken)).statusCode).toBe(401);
  };

  beforeAll(async () => {
    if (skip) return;
    if (driver === 'PostgreSQL') server = await startPostgres();
    gateway = await startGatedGateway([P], server === undefined ? {} : { serverUrl: server.url });
    frontend = await createClient(gateway, P, `manage_my_profile:${P} view_stores:${P}`);
    admin = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it.skipIf(skip)('a refresh grant racing the revocation of its refresh token leaves no working access token', async () => {
    await createCustomer(gateway, P, { email: 'refresh-revoke@example.com', password: 'pw' });
    const refreshToken = (await signIn('refresh-revoke@example.com')).json().refresh_token as string;

    // The refresh grant has marked the refresh token used and is about to write the access token…
    const gate = gateway.holdBefore((sql, params) => sql.includes('INSERT INTO oauth_access_tokens') && params[5] !== null);
    const refreshing = refresh(refreshToken);
    await gate.reached;
    // …while the revocation runs: it must wait for the refresh grant, not slip in before the write.
    const revoking = revoke(refreshToken, 'refresh_token');
    await runAsFarAsItCan(gateway, driver, revoking);
    gate.open();

    const [refreshed, revoked] = await Promise.all([refreshing, revoking]);
    expect(revoked.statusCode).toBe(200);
    expect(refreshed.statusCode).toBe(200);
    await expectInactive(refreshed.json().access_token as string);
    expect((await refresh(refreshToken)).json().error).toBe('invalid_grant');
  });

  it.skipIf(skip)('a customer deleted while their password is checked gets no tokens', async () => {
    const customer = await createCustomer(gateway, P, { email: 'deleted-during-check@example.com', password: 'pw' });

    const gate = gateway.holdAfter((sql) => sql.includes('JOIN customer_passwords'));
    const signingIn = signIn('deleted-during-check@example.com');
    await gate.reached;
    const deleted = await gateway.app.inject({ method: 'DELETE', url: `/${P}/customers/${customer.id}?version=1`, headers: bearer(admin) });
    expect(deleted.statusCode).toBe(200);
    gate.open();

    const signedIn = await signingIn;
    expect(signedIn.statusCode).toBe(400);
    expect(signedIn.json().error).toBe('invalid_customer_account_credentials');
  });

  it.skipIf(skip)('deleting a customer while their tokens are being written deletes those tokens too', async () => {
    const customer = await createCustomer(gateway, P, { email: 'deleted-during-issuance@example.com', password: 'pw' });

    // The sign-in holds the customer's password row in the transaction that writes its tokens…
    const gate = gateway.holdAfter((sql, _params, inTransaction) => inTransaction && sql.includes('FROM customer_passwords'));
    const signingIn = signIn('deleted-during-issuance@example.com');
    await gate.reached;
    // …so the deletion waits for it, and then deletes what it wrote.
    const deleting = gateway.app.inject({ method: 'DELETE', url: `/${P}/customers/${customer.id}?version=1`, headers: bearer(admin) });
    await runAsFarAsItCan(gateway, driver, deleting);
    gate.open();

    const [signedIn, deleted] = await Promise.all([signingIn, deleting]);
    expect(deleted.statusCode).toBe(200);
    expect(signedIn.statusCode).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = signedIn.json() as { access_token: string; refresh_token: string };
    await expectInactive(accessToken);
    expect((await refresh(refreshToken)).json().error).toBe('invalid_grant');
  });

  it.skipIf(skip)('an API client deleted after it authenticated gets no token', async () => {
    const doomed = await createClient(gateway, P, `view_stores:${P}`);
    // Client credentials: the secret checked out, the token is about to be written…
    const gate = gateway.holdBefore((sql, params) => sql.includes('INSERT INTO oauth_access_tokens') && params[1] === doomed.id);
    const asking = postForm(gateway, '/oauth/token', doomed, { grant_type: 'client_credentials' });
    await gate.reached;
    // …when the client is deleted, with every token it has.
    expect((await gateway.app.inject({ method: 'DELETE', url: `/${P}/api-clients/${doomed.id}`, headers: bearer(admin) })).statusCode).toBe(200);
    gate.open();

    const refused = await asking;
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'invalid_client' });
    const left = await gateway.db.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_access_tokens WHERE client_id = $1', [doomed.id]);
    expect(left.rows[0]?.n).toBe(0);
  });

  it.skipIf(skip)('deleting an API client while its tokens are being written deletes those tokens too', async () => {
    const doomed = await createClient(gateway, P, `manage_my_profile:${P} view_stores:${P}`);
    await createCustomer(gateway, P, { email: 'client-deleted-during-issuance@example.com', password: 'pw' });

    // The sign-in holds the client's row in the transaction that writes its tokens…
    const gate = gateway.holdAfter(
      (sql, params, inTransaction) => inTransaction && sql.includes('FROM api_clients WHERE id = $1 FOR KEY SHARE') && params[0] === doomed.id,
    );
    const signingIn = postForm(gateway, `/oauth/${P}/customers/token`, doomed, {
      grant_type: 'password',
      username: 'client-deleted-during-issuance@example.com',
      password: 'pw',
    });
    await gate.reached;
    // …so the deletion waits for it, and then deletes what it wrote.
    const deleting = gateway.app.inject({ method: 'DELETE', url: `/${P}/api-clients/${doomed.id}`, headers: bearer(admin) });
    await runAsFarAsItCan(gateway, driver, deleting);
    gate.open();

    const [signedIn, deleted] = await Promise.all([signingIn, deleting]);
    expect(deleted.statusCode).toBe(200);
    expect(signedIn.statusCode).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = signedIn.json() as { access_token: string; refresh_token: string };
    expect((await get(gateway, `/${P}/stores`, accessToken)).statusCode).toBe(401);
    const left = await gateway.db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM oauth_access_tokens WHERE client_id = $1)::int + (SELECT count(*) FROM oauth_refresh_tokens WHERE client_id = $1)::int AS n',
      [doomed.id],
    );
    expect(left.rows[0]?.n).toBe(0);
    expect(refreshToken).toEqual(expect.any(String));
  });

  it.skipIf(skip)('a token revoked while its first validation reads it is not kept in memory', async () => {
    const issued = await token(gateway, frontend, { grant_type: 'client_credentials', scope: `view_stores:${P}` });

    const gate = gateway.holdAfter((sql, _params, inTransaction) => !inTransaction && sql.includes('FROM oauth_access_tokens WHERE token_hash = $1'));
    const validating = get(gateway, `/${P}/stores`, issued.access_token);
    await gate.reached;
    expect((await revoke(issued.access_token, 'access_token')).statusCode).toBe(200);
    gate.open();
    await validating; // began before the revocation: either answer is right

    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(401);
  });
});

/**
 * §8 refresh token cap: every transaction that inserts or deletes refresh tokens takes the counter
 * row first. With a revocation taking a token row first and a sign-in at the cap taking the
 * counter first and then deleting that (least recently used) row, PostgreSQL aborted one (500).
 */
describe.skipIf(!postgresAvailable())('refresh token cap on PostgreSQL: one lock order', { timeout: 60_000 }, () => {
  const P = 'cap-locks';
  let server: RunningService;
  let gateway: GatedGateway;
  let frontend: Client;
  const signIn = (email: string) => postForm(gateway, `/oauth/${P}/customers/token`, frontend, { grant_type: 'password', username: email, password: 'pw' });

  beforeAll(async () => {
    server = await startPostgres();
    gateway = await startGatedGateway([P], { serverUrl: server.url, oauth: { refreshTokenCap: 2 } });
    frontend = await createClient(gateway, P, `manage_my_profile:${P}`);
    for (const email of ['c1@example.com', 'c2@example.com', 'c3@example.com']) await createCustomer(gateway, P, { email, password: 'pw' });
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('a sign-in at the cap and a revocation of the least recently used token both succeed', async () => {
    const first = (await signIn('c1@example.com')).json().refresh_token as string; // the least recently used
    expect((await signIn('c2@example.com')).statusCode).toBe(200);

    // The revocation has deleted the least recently used row…
    const gate = gateway.holdAfter(
      (sql, _params, inTransaction) => inTransaction && sql.includes('DELETE FROM oauth_refresh_tokens WHERE token_hash = $1 AND client_id = $2'),
    );
    const revoking = postForm(gateway, '/oauth/token/revoke', frontend, { token: first, token_type_hint: 'refresh_token' });
    await gate.reached;
    // …while a sign-in at the cap wants to delete it too.
    const signingIn = signIn('c3@example.com');
    await runAsFarAsItCan(gateway, 'PostgreSQL', signingIn);
    gate.open();

    const [revoked, signedIn] = await Promise.all([revoking, signingIn]);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(revoked.statusCode).toBe(200);
    const count = await gateway.db.query<{ count: number; actual: number }>(
      'SELECT (SELECT count FROM oauth_refresh_token_count) AS count, (SELECT count(*)::int FROM oauth_refresh_tokens) AS actual',
    );
    expect(count.rows[0]).toEqual({ count: 2, actual: 2 });
  });
});
