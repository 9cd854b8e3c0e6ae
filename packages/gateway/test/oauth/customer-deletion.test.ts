import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/gateway.js';
import { startGatedGateway, type GatedGateway } from '../support/gated-gateway.js';
import { bootstrap, createClient, createCustomer, get, postForm, postJson, token, type Client } from './helpers.js';

/**
 * Deleting a customer deletes its document, its password and its tokens all or nothing
 * (CustomerService.delete). Found in review: the document was deleted in one transaction and the
 * password and tokens in a second; when the second failed, the request answered 500 but the
 * customer was gone while its tokens kept working (Herald's own tokens are not checked against
 * the customer's existence), e.g. creating carts for a customer that no longer exists.
 */
describe('deleting a customer', () => {
  const P = 'customer-deletion';
  let gateway: GatedGateway;
  let frontend: Client;
  let admin: string;

  beforeAll(async () => {
    gateway = await startGatedGateway([P]);
    frontend = await createClient(gateway, P, `manage_my_profile:${P} manage_my_orders:${P}`);
    admin = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
  });
  afterAll(async () => gateway?.close());

  const signIn = () => postForm(gateway, `/oauth/${P}/customers/token`, frontend, { grant_type: 'password', username: 'doomed@example.com', password: 'pw' });
  const remove = (id: string) => gateway.app.inject({ method: 'DELETE', url: `/${P}/customers/${id}?version=1`, headers: bearer(admin) });

  it('removes its tokens in the same transaction: a failure keeps the customer, never a customer-less token', async () => {
    const customer = await createCustomer(gateway, P, { email: 'doomed@example.com', password: 'pw' });
    const signedIn = await signIn();
    expect(signedIn.statusCode).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = signedIn.json() as { access_token: string; refresh_token: string };

    // The last statement of the deletion fails…
    gateway.failNext((sql) => sql.includes('DELETE FROM oauth_access_tokens WHERE customer_id'));
    const failed = await remove(customer.id);
    expect(failed.statusCode).toBe(500);
    // …so nothing of it happened: the customer, its password and its tokens are all still there.
    expect((await get(gateway, `/${P}/customers/${customer.id}`, admin)).statusCode).toBe(200);
    expect((await get(gateway, `/${P}/me`, accessToken)).statusCode).toBe(200);
    expect((await signIn()).statusCode).toBe(200);

    // Retried, the deletion ends the customer and every token it had, at once.
    expect((await remove(customer.id)).statusCode).toBe(200);
    expect((await get(gateway, `/${P}/customers/${customer.id}`, admin)).statusCode).toBe(404);
    expect((await get(gateway, `/${P}/me`, accessToken)).statusCode).toBe(401);
    expect((await postJson(gateway, `/${P}/me/carts`, accessToken, { currency: 'EUR' })).statusCode).toBe(401);
    expect((await postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: refreshToken })).json().error).toBe(
      'invalid_grant',
    );
    expect((await signIn()).json().error).toBe('invalid_customer_account_credentials');
  });
});
