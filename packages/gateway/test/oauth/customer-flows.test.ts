import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, bearer, startTestGateway, type TestGateway } from '../support/gateway.js';
import { bootstrap, createClient, createCustomer, get, postForm, postJson, token, type Client } from './helpers.js';

const P = 'flows';
const STORE = 'berlin';

describe('customers, password and anonymous flows, refresh, revocation, introspection', () => {
  let gateway: TestGateway;
  let admin: string;
  let frontend: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
    expect((await postJson(gateway, `/${P}/stores`, admin, { key: STORE })).statusCode).toBe(201);
    frontend = await createClient(gateway, P, `manage_my_profile:${P} create_anonymous_token:${P} view_stores:${P}`);
  });
  afterAll(async () => gateway?.close());

  const passwordToken = (email: string, password: string, url = `/oauth/${P}/customers/token`) =>
    postForm(gateway, url, frontend, { grant_type: 'password', username: email, password, scope: `manage_my_profile:${P}` });

  it('signs customers up without ever answering the password or its hash', async () => {
    const response = await postJson(gateway, `/${P}/customers`, admin, {
      email: 'Ada@Example.com',
      password: 'correct horse',
      firstName: 'Ada',
      key: 'ada',
    });
    expect(response.statusCode).toBe(201);
    const { customer } = response.json();
    expect(customer).toMatchObject({ email: 'Ada@Example.com', firstName: 'Ada', key: 'ada', version: 1, stores: [] });
    expect(customer.createdBy).toEqual({ isPlatformClient: false, clientId: bootstrap(gateway).id });

    const reads = [
      response,
      await get(gateway, `/${P}/customers/${customer.id}`, admin),
      await get(gateway, `/${P}/customers/key=ada`, admin),
      await get(gateway, `/${P}/customers`, admin),
    ];
    for (const read of reads) {
      expect(read.statusCode).toBe(200 + (read === response ? 1 : 0));
      expect(read.body).not.toMatch(/"password"|passwordHash|scrypt|correct horse/);
    }
    const messages = await gateway.db.query<{ doc: Record<string, unknown> }>(`SELECT doc FROM messages WHERE project_key = $1 AND resource_id = $2`, [
      P,
      customer.id,
    ]);
    expect(messages.rows.map((row) => row.doc.type)).toEqual(['CustomerCreated']);
    expect(JSON.stringify(messages.rows)).not.toMatch(/scrypt|correct horse/);

    const duplicate = await postJson(gateway, `/${P}/customers`, admin, { email: 'ada@example.COM', password: 'x' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().errors[0]).toMatchObject({ code: 'DuplicateField', field: 'email' });
  });

  it('updates customers with messages and deletes them with dataErasure', async () => {
    const customer = await createCustomer(gateway, P, { email: 'grace@example.com', password: 'pw-grace' });
    const updated = await postJson(gateway, `/${P}/customers/${customer.id}`, admin, {
      version: 1,
      actions: [
        { action: 'changeEmail', email: 'grace.hopper@example.com' },
        { action: 'setFirstName', firstName: 'Grace' },
        { action: 'setLastName', lastName: 'Hopper' },
        { action: 'setKey', key: 'grace' },
      ],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ version: 2, email: 'grace.hopper@example.com', firstName: 'Grace', lastName: 'Hopper', key: 'grace' });
    const types = await gateway.db.query<{ type: string }>('SELECT type FROM messages WHERE project_key = $1 AND resource_id = $2 ORDER BY sequence_number', [
      P,
      customer.id,
    ]);
    expect(types.rows.map((row) => row.type)).toEqual(['CustomerCreated', 'CustomerEmailChanged', 'CustomerFirstNameSet', 'CustomerLastNameSet']);

    const taken = await postJson(gateway, `/${P}/customers/key=grace`, admin, {
      version: 2,
      actions: [{ action: 'changeEmail', email: 'ADA@example.com' }],
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors[0]).toMatchObject({ code: 'DuplicateField', field: 'email' });

    // The new e-mail signs in; a token of the customer stops working when the customer is deleted.
    const signIn = await passwordToken('grace.hopper@example.com', 'pw-grace');
    expect(signIn.statusCode).toBe(200);
    const customerToken = signIn.json().access_token as string;
    expect((await get(gateway, `/${P}/me`, customerToken)).statusCode).toBe(200);

    const stale = await gateway.app.inject({ method: 'DELETE', url: `/${P}/customers/${customer.id}?version=1`, headers: bearer(admin) });
    expect(stale.statusCode).toBe(409);
    const deleted = await gateway.app.inject({
      method: 'DELETE',
      url: `/${P}/customers/${customer.id}?version=2&dataErasure=true`,
      headers: bearer(admin),
    });
    expect(deleted.statusCode).toBe(200);
    const left = await gateway.db.query('SELECT 1 FROM messages WHERE project_key = $1 AND resource_id = $2', [P, customer.id]);
    expect(left.rows).toHaveLength(0);
    expect((await get(gateway, `/${P}/me`, customerToken)).statusCode).toBe(401);
    expect((await passwordToken('grace.hopper@example.com', 'pw-grace')).statusCode).toBe(400);
  });

  it('password flow: refresh token, customer_id scope, /me, and wrong credentials', async () => {
    const customer = await createCustomer(gateway, P, { email: 'linus@example.com', password: 'penguin' });
    const response = await passwordToken('LINUS@example.com', 'penguin');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 172800,
      token_type: 'Bearer',
      scope: `manage_my_profile:${P} customer_id:${customer.id}`,
    });
    const me = await get(gateway, `/${P}/me`, body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: customer.id, email: 'linus@example.com' });

    // A customer token records the customer as the initiator (§2.1 createdBy).
    const profile = await postJson(gateway, `/${P}/customers/${customer.id}`, admin, { version: 1, actions: [{ action: 'setFirstName', firstName: 'L' }] });
    expect(profile.json().lastModifiedBy).toEqual({ isPlatformClient: false, clientId: bootstrap(gateway).id });

    for (const [email, password] of [
      ['linus@example.com', 'wrong'],
      ['nobody@example.com', 'penguin'],
    ] as const) {
      const failed = await passwordToken(email, password);
      expect(failed.statusCode).toBe(400);
      expect(failed.json()).toMatchObject({ error: 'invalid_customer_account_credentials', errors: [{ code: 'invalid_customer_account_credentials' }] });
    }
    const clientToken = (await token(gateway, frontend, { grant_type: 'client_credentials' })).access_token;
    const notACustomer = await get(gateway, `/${P}/me`, clientToken);
    expect(notACustomer.statusCode).toBe(403);
    expect(notACustomer.json().error).toBe('insufficient_scope');
  });

  it('in-store customers: the store must exist, is recorded, scopes e-mail uniqueness and sign-in', async () => {
    const inStore = `/${P}/in-store/key=${STORE}/customers`;
    expect((await postJson(gateway, `/${P}/in-store/key=nowhere/customers`, admin, { email: 'x@example.com', password: 'p' })).statusCode).toBe(404);

    const local = await createCustomer(gateway, P, { email: 'shared@example.com', password: 'store-pw' }, STORE);
    expect(local).toMatchObject({ stores: [{ typeId: 'store', key: STORE }] });
    const global = await createCustomer(gateway, P, { email: 'shared@example.com', password: 'global-pw' });
    const again = await postJson(gateway, inStore, admin, { email: 'SHARED@example.com', password: 'p' });
    expect(again.statusCode).toBe(400);

    expect((await get(gateway, `${inStore}/${local.id}`, admin)).statusCode).toBe(200);
    expect((await get(gateway, `${inStore}/${global.id}`, admin)).statusCode).toBe(404);
    const listed = (await get(gateway, inStore, admin)).json();
    expect(listed.results.map((c: { id: string }) => c.id)).toEqual([local.id]);

    // In the store, the store's customer signs in; globally only the global one.
    const storeLogin = await passwordToken('shared@example.com', 'store-pw', `/oauth/${P}/in-store/key=${STORE}/customers/token`);
    expect(storeLogin.statusCode).toBe(200);
    expect(storeLogin.json().scope).toContain(`customer_id:${local.id}`);
    expect((await passwordToken('shared@example.com', 'store-pw')).statusCode).toBe(400);
    const globalLogin = await passwordToken('shared@example.com', 'global-pw');
    expect(globalLogin.json().scope).toContain(`customer_id:${global.id}`);

    // A store that does not exist is a 404 here too, as on every in-store route: no global
    // customer signs in "at" it.
    const nowhere = await passwordToken('shared@example.com', 'global-pw', `/oauth/${P}/in-store/key=nowhere/customers/token`);
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toMatchObject({ errors: [{ code: 'ResourceNotFound' }] });
  });

  it('anonymous sessions need create_anonymous_token and an unused anonymous_id', async () => {
    const url = `/oauth/${P}/anonymous/token`;
    const generated = await postForm(gateway, url, frontend, { grant_type: 'client_credentials', scope: `manage_my_profile:${P}` });
    expect(generated.statusCode).toBe(200);
    expect(generated.json()).toMatchObject({
      refresh_token: expect.any(String),
      scope: expect.stringMatching(new RegExp(`^manage_my_profile:${P} anonymous_id:[0-9a-f-]{36}$`)),
    });

    const chosen = await postForm(gateway, url, frontend, { grant_type: 'client_credentials', anonymous_id: 'visitor-42' });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().scope.split(' ')).toContain('anonymous_id:visitor-42');
    const reused = await postForm(gateway, url, frontend, { grant_type: 'client_credentials', anonymous_id: 'visitor-42' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().errors[0].code).toBe('AnonymousIdAlreadyInUse');

    const withoutScope = await createClient(gateway, P, `view_stores:${P}`);
    const refused = await postForm(gateway, url, withoutScope, { grant_type: 'client_credentials' });
    // A token-endpoint error (RFC 6749 §5.2), not the resource servers' 403 insufficient_scope.
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'unauthorized_client', errors: [{ code: 'unauthorized_client' }] });

    // The refresh token renews the session's token, for the same anonymous id.
    const renewed = await token(gateway, frontend, { grant_type: 'refresh_token', refresh_token: chosen.json().refresh_token });
    expect(renewed.scope.split(' ')).toContain('anonymous_id:visitor-42');
    expect(renewed.refresh_token).toBeUndefined();
  });

  it('refresh tokens renew access tokens of their own client only', async () => {
    await createCustomer(gateway, P, { email: 'refresh@example.com', password: 'pw' });
    const first = (await passwordToken('refresh@example.com', 'pw')).json();
    const renewed = await token(gateway, frontend, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(renewed.access_token).not.toBe(first.access_token);
    expect(renewed.scope).toBe(first.scope);
    expect((await get(gateway, `/${P}/me`, renewed.access_token)).statusCode).toBe(200);

    const otherClient = await postForm(gateway, '/oauth/token', bootstrap(gateway), { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(otherClient.statusCode).toBe(400);
    expect(otherClient.json().error).toBe('invalid_grant');
    const unknown = await postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: 'made-up' });
    expect(unknown.json().error).toBe('invalid_grant');
  });

  it('revocation stops an access token at once, even one validated a moment ago (§5.6)', async () => {
    const issued = await token(gateway, frontend, { grant_type: 'client_credentials', scope: `view_stores:${P}` });
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(200);

    // Another client cannot revoke it: 200, and the token still works.
    const foreign = await postForm(gateway, '/oauth/token/revoke', bootstrap(gateway), { token: issued.access_token });
    expect(foreign.statusCode).toBe(200);
    expect((await get(gateway, `/${P}/stores`, issued.access_token)).statusCode).toBe(200);

    const revoked = await postForm(gateway, '/oauth/token/revoke', frontend, { token: issued.access_token, token_type_hint: 'access_token' });
    expect(revoked.statusCode).toBe(200);
    const after = await get(gateway, `/${P}/stores`, issued.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: 'invalid_token', errors: [{ code: 'invalid_token' }] });

    // Invalid requests are 200 too; a failed client authentication is not.
    expect((await postForm(gateway, '/oauth/token/revoke', frontend, {})).statusCode).toBe(200);
    expect((await postForm(gateway, '/oauth/token/revoke', frontend, 'token=a&token=b')).statusCode).toBe(200);
    expect((await postForm(gateway, '/oauth/token/revoke', { id: frontend.id, secret: 'wrong' }, { token: 'x' })).statusCode).toBe(401);
  });

  it('revocation answers bodies the parsers refuse with 200 too, but a failed client authentication with 401 (§5.6)', async () => {
    const send = (client: Client, contentType: string, payload: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/oauth/token/revoke',
        headers: { ...basicAuth(client.id, client.secret), 'content-type': contentType },
        payload,
      });
    const invalid = [
      ['text/plain', 'token=abc'],
      ['application/json', '{'],
      ['application/x-www-form-urlencoded', `token=${'a'.repeat(20_000)}`],
    ] as const;
    for (const [contentType, payload] of invalid) {
      expect((await send(frontend, contentType, payload)).statusCode, contentType).toBe(200);
      const refused = await send({ id: frontend.id, secret: 'wrong' }, contentType, payload);
      expect(refused.statusCode, contentType).toBe(401);
      expect(refused.json().error).toBe('invalid_client');
    }
  });

  it('revoking a refresh token ends it and the access tokens issued from it', async () => {
    await createCustomer(gateway, P, { email: 'revoke@example.com', password: 'pw' });
    const signedIn = (await passwordToken('revoke@example.com', 'pw')).json();
    const renewed = await token(gateway, frontend, { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token });
    for (const access of [signedIn.access_token, renewed.access_token]) expect((await get(gateway, `/${P}/me`, access)).statusCode).toBe(200);

    expect((await postForm(gateway, '/oauth/token/revoke', frontend, { token: signedIn.refresh_token, token_type_hint: 'refresh_token' })).statusCode).toBe(
      200,
    );
    for (const access of [signedIn.access_token, renewed.access_token]) expect((await get(gateway, `/${P}/me`, access)).statusCode).toBe(401);
    const refresh = await postForm(gateway, '/oauth/token', frontend, { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token });
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it('introspection: own tokens always, foreign ones only with introspect_oauth_tokens (§5.5)', async () => {
    const own = await token(gateway, frontend, { grant_type: 'client_credentials', scope: `view_stores:${P}` });
    const self = await postForm(gateway, '/oauth/introspect', frontend, { token: own.access_token });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toEqual({ active: true, scope: `view_stores:${P}`, exp: expect.any(Number), client_id: frontend.id });
    expect(self.json().exp).toBeGreaterThan(Date.now() / 1000 + 172_000);

    const bystander = await createClient(gateway, P, `view_stores:${P}`);
    expect((await postForm(gateway, '/oauth/introspect', bystander, { token: own.access_token })).json()).toEqual({ active: false });

    const auditor = await createClient(gateway, P, `introspect_oauth_tokens:${P}`);
    expect((await postForm(gateway, '/oauth/introspect', auditor, { token: own.access_token })).json()).toMatchObject({ active: true, client_id: frontend.id });
    // manage_project implies introspect_oauth_tokens.
    expect((await postForm(gateway, '/oauth/introspect', bootstrap(gateway), { token: own.access_token })).json().active).toBe(true);

    expect((await postForm(gateway, '/oauth/introspect', frontend, { token: 'unknown' })).json()).toEqual({ active: false });
    await postForm(gateway, '/oauth/token/revoke', frontend, { token: own.access_token });
    expect((await postForm(gateway, '/oauth/introspect', frontend, { token: own.access_token })).json()).toEqual({ active: false });
    expect((await postForm(gateway, '/oauth/introspect', { id: frontend.id, secret: 'nope' }, { token: 'x' })).statusCode).toBe(401);
  });

  it('refuses tokens in URI parameters and malformed Authorization headers', async () => {
    const issued = await token(gateway, frontend, { grant_type: 'client_credentials', scope: `view_stores:${P}` });
    const inQuery = await get(gateway, `/${P}/stores?access_token=${issued.access_token}`);
    expect(inQuery.statusCode).toBe(400);
    expect(inQuery.json().error_description).toMatch(/URI parameters are not supported/);
    const both = await get(gateway, `/${P}/stores?access_token=${issued.access_token}`, issued.access_token);
    expect(both.statusCode).toBe(400);

    for (const authorization of ['', 'Bearer', `Basic ${issued.access_token}`, 'Bearer a b']) {
      const response = await gateway.app.inject({ method: 'GET', url: `/${P}/stores`, headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });
});
