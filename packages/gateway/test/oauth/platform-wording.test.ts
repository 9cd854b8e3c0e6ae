/**
 * Token-endpoint and bearer-token failures answer in the platform's own words where §5 and §7 do
 * not fix them: storefronts and tools compare `message` / `error_description` (e.g. to tell a
 * wrong password from a misconfigured client). The wording is the one the official SDKs' test
 * fixtures record for the platform (`Malformed parameter: scope: Invalid scope.`, …) and the
 * reference's AuthErrorResponse and InsufficientScopeError. Herald's own explanation, where it
 * says more, is `errors[0].detail`.
 *
 * And the password flow with `refresh_token=false` issues no refresh token and stores none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { bootstrap, createClient, createCustomer, get, postForm, token, type Client } from './helpers.js';

const P = 'platform-wording';

/** The whole OAuth error body: `message`, `errors[0].message` and `error_description` agree. */
function oauthBody(statusCode: number, error: string, description: string) {
  return {
    statusCode,
    message: description,
    errors: [expect.objectContaining({ code: error, message: description })],
    error,
    error_description: description,
  };
}

describe('OAuth errors in the platform’s wording', () => {
  let gateway: TestGateway;
  let storefront: Client;
  const customer = { email: 'wording@example.com', password: 'correct horse' };

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    storefront = await createClient(gateway, P, `manage_my_orders:${P} view_stores:${P}`);
    await createCustomer(gateway, P, customer);
  });
  afterAll(() => gateway?.close());

  it.each([
    ['an unknown scope name', 'invalid_scope'],
    ['a scope of another project', `view_stores:elsewhere`],
    ['a scope the client does not hold', `manage_project:${P}`],
    ['a malformed scope', 'view_stores'],
  ])('answers %s with 400 "Malformed parameter: scope: Invalid scope."', async (_case, scope) => {
    const response = await postForm(gateway, '/oauth/token', storefront, { grant_type: 'client_credentials', scope });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(oauthBody(400, 'invalid_scope', 'Malformed parameter: scope: Invalid scope.'));
    expect(response.json().errors[0].detail).toEqual(expect.any(String));
  });

  it('answers an unknown scope in the password flow the same way', async () => {
    const response = await postForm(gateway, `/oauth/${P}/customers/token`, storefront, {
      grant_type: 'password',
      username: customer.email,
      password: customer.password,
      scope: `no_such_scope:${P}`,
    });
    expect(response.json()).toEqual(oauthBody(400, 'invalid_scope', 'Malformed parameter: scope: Invalid scope.'));
  });

  it('answers an unsupported grant type with "Invalid parameter: grant_type: Invalid grant type: \'…\'"', async () => {
    const response = await postForm(gateway, '/oauth/token', storefront, { grant_type: 'invalid_type' });
    expect(response.json()).toEqual(oauthBody(400, 'unsupported_grant_type', "Invalid parameter: grant_type: Invalid grant type: 'invalid_type'"));
  });

  it('answers a missing parameter with "Missing required parameter: <name>."', async () => {
    expect((await postForm(gateway, '/oauth/token', storefront, {})).json()).toEqual(
      oauthBody(400, 'invalid_request', 'Missing required parameter: grant_type.'),
    );
    const noRefreshToken = await postForm(gateway, '/oauth/token', storefront, { grant_type: 'refresh_token' });
    expect(noRefreshToken.json()).toEqual(oauthBody(400, 'invalid_request', 'Missing required parameter: refresh_token.'));
  });

  it('answers wrong customer credentials and wrong client credentials as the platform does', async () => {
    const wrongPassword = await postForm(gateway, `/oauth/${P}/customers/token`, storefront, {
      grant_type: 'password',
      username: customer.email,
      password: 'wrong',
    });
    expect(wrongPassword.json()).toEqual(oauthBody(400, 'invalid_customer_account_credentials', 'Customer account with the given credentials not found.'));
    const wrongSecret = await postForm(gateway, '/oauth/token', { id: storefront.id, secret: 'wrong' }, { grant_type: 'client_credentials' });
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json()).toEqual(oauthBody(401, 'invalid_client', 'Please provide valid client credentials using HTTP Basic Authentication.'));
  });

  it('answers an unknown refresh token with invalid_grant "The refresh token was not found. It may have expired."', async () => {
    const response = await postForm(gateway, '/oauth/token', storefront, { grant_type: 'refresh_token', refresh_token: 'no-such-token' });
    expect(response.json()).toEqual(oauthBody(400, 'invalid_grant', 'The refresh token was not found. It may have expired.'));
  });

  it('answers a request without a token, and with an unknown one, in the reference’s AuthErrorResponse words', async () => {
    const missing = await get(gateway, `/${P}/stores`);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual(oauthBody(401, 'invalid_token', 'This endpoint requires an access token. You can get one from the authorization server.'));
    const unknown = await get(gateway, `/${P}/stores`, 'not-a-token-herald-issued');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(oauthBody(401, 'invalid_token', 'invalid_token'));
  });

  it('answers a missing scope with InsufficientScopeError’s message and the scopes that would do', async () => {
    const issued = await token(gateway, storefront, { grant_type: 'client_credentials', scope: `view_stores:${P}` });
    const response = await get(gateway, `/${P}/subscriptions`, issued.access_token);
    expect(response.statusCode).toBe(403);
    const description = `Insufficient scope. One of the following scopes is missing: manage_subscriptions:${P}`;
    expect(response.json()).toEqual(oauthBody(403, 'insufficient_scope', description));
  });
});

describe('password flow with refresh_token=false', () => {
  let gateway: TestGateway;
  const customer = { email: 'no-refresh@example.com', password: 'correct horse' };
  const form = (extra: Record<string, string>) => ({ grant_type: 'password', username: customer.email, password: customer.password, ...extra });
  const refreshTokensStored = async () => Number((await gateway.db.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_refresh_tokens')).rows[0]?.n);

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    await createCustomer(gateway, P, customer);
  });
  afterAll(() => gateway?.close());

  it('issues an access token without a refresh token, and stores none', async () => {
    const before = await refreshTokensStored();
    const issued = await token(gateway, bootstrap(gateway), form({ refresh_token: 'false', scope: `manage_my_orders:${P}` }), `/oauth/${P}/customers/token`);
    expect(issued).not.toHaveProperty('refresh_token');
    expect(issued.scope).toMatch(new RegExp(`^manage_my_orders:${P} customer_id:\\S+$`));
    expect(await refreshTokensStored()).toBe(before);
    // The access token works for the customer's own endpoints.
    expect((await get(gateway, `/${P}/me/carts`, issued.access_token)).statusCode).toBe(200);
  });

  it('issues a refresh token by default and with refresh_token=true', async () => {
    const before = await refreshTokensStored();
    const byDefault = await token(gateway, bootstrap(gateway), form({}), `/oauth/${P}/customers/token`);
    const asked = await token(gateway, bootstrap(gateway), form({ refresh_token: 'true' }), `/oauth/${P}/customers/token`);
    expect(byDefault.refresh_token).toEqual(expect.any(String));
    expect(asked.refresh_token).toEqual(expect.any(String));
    expect(await refreshTokensStored()).toBe(before + 2);
  });

  it('refuses another value of refresh_token with 400 invalid_request', async () => {
    const response = await postForm(gateway, `/oauth/${P}/customers/token`, bootstrap(gateway), form({ refresh_token: 'maybe' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request', errors: [{ code: 'invalid_request' }] });
  });
});
