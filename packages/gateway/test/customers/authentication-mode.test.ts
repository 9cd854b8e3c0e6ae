/**
 * Issue 29: a customer's authentication mode (reference: types/customer/AuthenticationMode.raml,
 * CustomerDraft.authenticationMode, CustomerSetAuthenticationModeAction): an `ExternalAuth`
 * customer has no password, so every password route refuses it with the official error
 * (InvalidCredentials for the sign-ins, the password flow's invalid_customer_account_credentials,
 * InvalidCurrentPassword for a change, ResourceNotFound for a password token, InvalidOperation for
 * a reset with a token issued before the switch); switching to `Password` needs a password, which
 * then signs in; switching to `ExternalAuth` deletes the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, Caller, type Answer, type Json } from '../carts/commerce.js';
import { basicAuth, customerTokenFor, startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'customer-authentication-mode';
const STORE = 'auth-store';

function expectError(answer: Answer, status: number, code: string, fields: Json = {}): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.errors[0]).toMatchObject({ code, ...fields });
}

describe('customer authentication mode', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let frontend: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_customers', 'manage_stores']);
    frontend = await callerWith(gateway, P, ['manage_my_profile']);
    await admin.ok(`/${P}/stores`, { key: STORE }, 201);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  let counter = 0;
  const email = () => {
    counter += 1;
    return `auth-mode-${counter}@example.com`;
  };
  const create = async (draft: Json, base = `/${P}/customers`): Promise<Json> => (await admin.ok(base, { email: email(), ...draft }, 201)).customer as Json;
  const setMode = (customer: Json, action: Json, base = `/${P}/customers`): Promise<Answer> =>
    admin.post(`${base}/${customer.id}`, { version: customer.version, actions: [{ action: 'setAuthenticationMode', ...action }] });

  /** The password flow (§5.3): the status and the OAuth error code of the token request. */
  async function passwordGrant(customerEmail: string, password: string): Promise<{ status: number; error?: string }> {
    const { id, secret } = gateway.bootstrapClient;
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/oauth/${P}/customers/token`,
      headers: { ...basicAuth(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', username: customerEmail, password, scope: `manage_my_profile:${P}` }).toString(),
    });
    return { status: response.statusCode, error: (response.json() as { error?: string }).error };
  }

  /** Every sign-in route with `password` answers 400 InvalidCredentials, and the password flow refuses it. */
  async function expectNoPasswordSignIn(customerEmail: string, password: string): Promise<void> {
    for (const [caller, url] of [
      [admin, `/${P}/login`],
      [frontend, `/${P}/me/login`],
      [admin, `/${P}/in-store/key=${STORE}/login`],
      [frontend, `/${P}/in-store/key=${STORE}/me/login`],
    ] as const) {
      expectError(await caller.post(url, { email: customerEmail, password }), 400, 'InvalidCredentials');
    }
    expect(await passwordGrant(customerEmail, password)).toEqual({ status: 400, error: 'invalid_customer_account_credentials' });
  }

  it('creates an ExternalAuth customer without a password; Password (the default) needs one', async () => {
    const external = await create({ authenticationMode: 'ExternalAuth' });
    expect(external.authenticationMode).toBe('ExternalAuth');
    expect(external).not.toHaveProperty('password');
    // A password sent with ExternalAuth is not stored: it signs nobody in.
    const withPassword = await create({ authenticationMode: 'ExternalAuth', password: 'ignored' });
    await expectNoPasswordSignIn(withPassword.email as string, 'ignored');

    expect((await create({ password: 'pw' })).authenticationMode).toBe('Password');
    expect((await create({ authenticationMode: 'Password', password: 'pw' })).authenticationMode).toBe('Password');
    expectError(await admin.post(`/${P}/customers`, { email: email() }), 400, 'RequiredField', { field: 'password' });
    expectError(await admin.post(`/${P}/customers`, { email: email(), authenticationMode: 'Password' }), 400, 'RequiredField', { field: 'password' });
    expectError(await admin.post(`/${P}/customers`, { email: email(), password: 'pw', authenticationMode: 'Magic' }), 400, 'InvalidInput', {
      field: 'authenticationMode',
    });
  });

  it('switching to ExternalAuth deletes the password: no sign-in, change, token or reset with it', async () => {
    const customer = await create({ password: 'old password' });
    const session = await customerTokenFor(gateway, P, ['manage_my_profile'], { email: customer.email as string, password: 'old password' });
    const resetToken = await admin.ok(`/${P}/customers/password-token`, { email: customer.email });

    const switched = await setMode(customer, { authMode: 'ExternalAuth' });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body).toMatchObject({ version: 2, authenticationMode: 'ExternalAuth' });
    await expectNoPasswordSignIn(customer.email as string, 'old password');

    const change = { id: customer.id, version: 2, currentPassword: 'old password', newPassword: 'new password' };
    expectError(await admin.post(`/${P}/customers/password`, change), 400, 'InvalidCurrentPassword');
    const me = new Caller(gateway, session.accessToken);
    expectError(
      await me.post(`/${P}/me/password`, { version: 2, currentPassword: 'old password', newPassword: 'new password' }),
      400,
      'InvalidCurrentPassword',
    );
    expectError(await admin.post(`/${P}/customers/password-token`, { email: customer.email }), 404, 'ResourceNotFound');
    expectError(await admin.post(`/${P}/customers/password/reset`, { tokenValue: resetToken.value, newPassword: 'new password' }), 400, 'InvalidOperation');
    await expectNoPasswordSignIn(customer.email as string, 'new password');
    expect((await admin.read(`/${P}/customers/${customer.id}`)).version).toBe(2);
  });

  it('switching to Password needs a password, which then signs in; the same mode changes nothing', async () => {
    const customer = await create({ authenticationMode: 'ExternalAuth' });
    expectError(await setMode(customer, { authMode: 'Password' }), 400, 'RequiredField', { field: 'password' });
    expectError(await setMode(customer, { authMode: 'Password', password: '' }), 400, 'InvalidInput', { field: 'password' });
    expectError(await setMode(customer, {}), 400, 'RequiredField', { field: 'authMode' });
    expectError(await setMode(customer, { authMode: 'password' }), 400, 'InvalidInput', { field: 'authMode' });

    const unchanged = await setMode(customer, { authMode: 'ExternalAuth' });
    expect(unchanged.body.version).toBe(1);
    const switched = await setMode(customer, { authMode: 'Password', password: 'chosen password' });
    expect(switched.body).toMatchObject({ version: 2, authenticationMode: 'Password' });
    const signedIn = await admin.ok(`/${P}/login`, { email: customer.email, password: 'chosen password' });
    expect(signedIn.customer.id).toBe(customer.id);
    expect(await passwordGrant(customer.email as string, 'chosen password')).toMatchObject({ status: 200 });

    // Setting Password again never replaces the password (the password change does, with the current one).
    const again = await setMode(switched.body, { authMode: 'Password', password: 'other password' });
    expect(again.body.version).toBe(2);
    expectError(await admin.post(`/${P}/login`, { email: customer.email, password: 'other password' }), 400, 'InvalidCredentials');

    // A refused update keeps the password: the switch and a failing action are one transaction.
    const refused = await admin.post(`/${P}/customers/${customer.id}`, {
      version: 2,
      actions: [
        { action: 'setAuthenticationMode', authMode: 'ExternalAuth' },
        { action: 'setCustomerGroup', customerGroup: { key: 'no-such-group' } },
      ],
    });
    expectError(refused, 400, 'ReferencedResourceNotFound');
    await admin.ok(`/${P}/login`, { email: customer.email, password: 'chosen password' });
  });

  it("applies setAuthenticationMode in a store to the store's customers", async () => {
    const base = `/${P}/in-store/key=${STORE}/customers`;
    const customer = await create({ password: 'store password' }, base);
    const switched = await setMode(customer, { authMode: 'ExternalAuth' }, base);
    expect(switched.body).toMatchObject({ version: 2, authenticationMode: 'ExternalAuth' });
    expectError(await admin.post(`/${P}/in-store/key=${STORE}/login`, { email: customer.email, password: 'store password' }), 400, 'InvalidCredentials');
    const global = await create({ password: 'pw' });
    expect((await setMode(global, { authMode: 'ExternalAuth' }, base)).status).toBe(404);
  });
});
