/**
 * Issue 29, password change (reference: resources/customers.raml, me.raml,
 * in-store/customers-in-store.raml and my-carts-orders-shoppinglists-in-store.raml `/password`;
 * types/customer/CustomerChangePassword.raml, MyCustomerChangePassword.raml;
 * types/error/InvalidCurrentPasswordError.raml): the current password is checked (400
 * InvalidCurrentPassword), the version too (409), the new one signs in afterwards, the customer's
 * sessions stay (the reference revokes tokens on reset only), and CustomerPasswordUpdated with
 * `reset: false` reaches a subscription after the version's change notification.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, Caller, type Json } from '../carts/commerce.js';
import { basicAuth, customerTokenFor, type TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const P = 'password-change';
const STORE = 'pw-store';
const OTHER_STORE = 'pw-other-store';

describe('customer password change', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_customers', 'manage_stores', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    await admin.ok(`/${P}/stores`, { key: STORE }, 201);
    await admin.ok(`/${P}/stores`, { key: OTHER_STORE }, 201);
  }, 180_000);
  afterAll(() => setup?.close());

  let counter = 0;
  const newCustomer = async (base = `/${P}/customers`): Promise<Json> => {
    counter += 1;
    const { customer } = await admin.ok(base, { email: `pw-${counter}@example.com`, password: 'old password' }, 201);
    return customer as Json;
  };
  const signIn = (customer: Json, password: string, scopes = ['manage_my_profile']) =>
    customerTokenFor(gateway, P, scopes, { email: customer.email as string, password });
  const myCaller = async (customer: Json, storeKey?: string): Promise<Caller> => {
    if (storeKey === undefined) return new Caller(gateway, (await signIn(customer, 'old password')).accessToken);
    const token = await gateway.app.inject({
      method: 'POST',
      url: `/oauth/${P}/in-store/key=${storeKey}/customers/token`,
      headers: { ...basicAuth(gateway.bootstrapClient.id, gateway.bootstrapClient.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        username: customer.email as string,
        password: 'old password',
        scope: `manage_my_profile:${P}`,
      }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    return new Caller(gateway, (token.json() as Json).access_token as string);
  };
  const errorOf = (answer: { status: number; body: Json }, status: number, code: string): Json => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ statusCode: status, errors: [{ code }] });
    return answer.body.errors[0] as Json;
  };

  it('changes the password at the expected version; the new one signs in, the old one not, and sessions stay', async () => {
    const customer = await newCustomer();
    const session = new Caller(gateway, (await signIn(customer, 'old password')).accessToken);

    const changed = await admin.ok(`/${P}/customers/password`, { id: customer.id, version: 1, currentPassword: 'old password', newPassword: 'new password' });
    expect(changed).toMatchObject({ id: customer.id, version: 2, email: customer.email });
    expect(changed).not.toHaveProperty('password');

    await expect(signIn(customer, 'old password')).rejects.toThrow(/400/);
    expect((await signIn(customer, 'new password')).customerId).toBe(customer.id);
    // A change is no reset: the reference invalidates the customer's tokens on reset only.
    expect((await session.get(`/${P}/me`)).status).toBe(200);
    // The login endpoint (CustomerSignin) agrees with the password flow.
    errorOf(await admin.post(`/${P}/login`, { email: customer.email, password: 'old password' }), 400, 'InvalidCredentials');
    expect((await admin.ok(`/${P}/login`, { email: customer.email, password: 'new password' })).customer.id).toBe(customer.id);
  });

  it('answers InvalidCurrentPassword for a wrong current password, 409 for a stale version, 404 for an unknown customer; nothing changes', async () => {
    const customer = await newCustomer();
    const wrong = errorOf(
      await admin.post(`/${P}/customers/password`, { id: customer.id, version: 1, currentPassword: 'not it', newPassword: 'new password' }),
      400,
      'InvalidCurrentPassword',
    );
    expect(wrong.message).toBe('The given current password does not match.');
    const stale = errorOf(
      await admin.post(`/${P}/customers/password`, { id: customer.id, version: 7, currentPassword: 'old password', newPassword: 'new password' }),
      409,
      'ConcurrentModification',
    );
    expect(stale.currentVersion).toBe(1);
    errorOf(
      await admin.post(`/${P}/customers/password`, { id: 'no-such-customer', version: 1, currentPassword: 'old password', newPassword: 'x' }),
      404,
      'ResourceNotFound',
    );
    expect((await admin.read(`/${P}/customers/${customer.id}`)).version).toBe(1);
    expect((await signIn(customer, 'old password')).customerId).toBe(customer.id);
  });

  it('refuses malformed requests with 400 and the official codes, never echoing a password', async () => {
    const customer = await newCustomer();
    const valid = { id: customer.id, version: 1, currentPassword: 'old password', newPassword: 'new password' };
    const without = (field: string): Json => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== field));
    const cases: Array<[string, unknown, string, string | undefined]> = [
      ['not an object', ['x'], 'InvalidInput', undefined],
      ['no id', without('id'), 'RequiredField', 'id'],
      ['id not a string', { ...valid, id: 5 }, 'InvalidInput', 'id'],
      ['no version', without('version'), 'InvalidInput', 'version'],
      ['version not a number', { ...valid, version: '1' }, 'InvalidInput', 'version'],
      ['version negative', { ...valid, version: -1 }, 'InvalidInput', 'version'],
      ['no currentPassword', without('currentPassword'), 'RequiredField', 'currentPassword'],
      ['currentPassword not a string', { ...valid, currentPassword: 12 }, 'InvalidInput', 'currentPassword'],
      ['no newPassword', without('newPassword'), 'RequiredField', 'newPassword'],
      ['newPassword not a string', { ...valid, newPassword: true }, 'InvalidInput', 'newPassword'],
      ['newPassword empty', { ...valid, newPassword: '' }, 'InvalidInput', 'newPassword'],
      ['newPassword too long', { ...valid, newPassword: 's3cret'.repeat(50) }, 'InvalidInput', 'newPassword'],
    ];
    for (const [name, body, code, field] of cases) {
      const answer = await admin.post(`/${P}/customers/password`, body);
      const error = (answer.body.errors as Json[] | undefined)?.[0];
      expect({ name, status: answer.status, code: error?.code, field: error?.field }).toEqual({ name, status: 400, code, field });
      expect(JSON.stringify(answer.body), name).not.toContain('s3cret');
    }
    expect((await admin.read(`/${P}/customers/${customer.id}`)).version).toBe(1);
  });

  it('needs manage_customers; /me/password needs manage_my_profile and a customer token', async () => {
    const customer = await newCustomer();
    const viewer = await callerWith(gateway, P, ['view_customers']);
    const body = { id: customer.id, version: 1, currentPassword: 'old password', newPassword: 'new password' };
    expect((await viewer.post(`/${P}/customers/password`, body)).status).toBe(403);
    // A client token names no customer; a customer token without manage_my_profile lacks the scope.
    expect((await admin.post(`/${P}/me/password`, body)).status).toBe(403);
    const viewOnly = new Caller(gateway, (await signIn(customer, 'old password', ['view_my_profile'])).accessToken);
    expect((await viewOnly.post(`/${P}/me/password`, body)).status).toBe(403);
    expect((await admin.read(`/${P}/customers/${customer.id}`)).version).toBe(1);
  });

  it("/me/password changes the token's own customer's password, whatever id the body names", async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const me = await myCaller(customer);
    errorOf(await me.post(`/${P}/me/password`, { version: 1, currentPassword: 'wrong', newPassword: 'mine' }), 400, 'InvalidCurrentPassword');
    const changed = await me.ok(`/${P}/me/password`, { id: other.id, version: 1, currentPassword: 'old password', newPassword: 'mine' });
    expect(changed).toMatchObject({ id: customer.id, version: 2 });
    expect((await signIn(customer, 'mine')).customerId).toBe(customer.id);
    expect((await admin.read(`/${P}/customers/${other.id}`)).version).toBe(1);
    errorOf(await me.post(`/${P}/me/password`, { version: 1, currentPassword: 'mine', newPassword: 'again' }), 409, 'ConcurrentModification');
  });

  it("in a store: the store's customers only for API clients; the store's and global customers for /me", async () => {
    const local = await newCustomer(`/${P}/in-store/key=${STORE}/customers`);
    const global = await newCustomer();
    const elsewhere = await newCustomer(`/${P}/in-store/key=${OTHER_STORE}/customers`);
    const change = (customer: Json, version = 1): Json => ({ id: customer.id, version, currentPassword: 'old password', newPassword: 'store password' });

    errorOf(await admin.post(`/${P}/in-store/key=${STORE}/customers/password`, change(global)), 404, 'ResourceNotFound');
    errorOf(await admin.post(`/${P}/in-store/key=no-such-store/customers/password`, change(local)), 404, 'ResourceNotFound');
    expect(await admin.ok(`/${P}/in-store/key=${STORE}/customers/password`, change(local))).toMatchObject({ id: local.id, version: 2 });

    const globalMe = await myCaller(global);
    expect(await globalMe.ok(`/${P}/in-store/key=${STORE}/me/password`, { ...change(global), id: undefined })).toMatchObject({ id: global.id, version: 2 });
    const elsewhereMe = await myCaller(elsewhere, OTHER_STORE);
    // A customer of another store does not reach this one: Herald's in-store `/me` rule for every
    // such route (auth/oauth-authenticator.ts checkStore), a 403 before the body is read.
    errorOf(await elsewhereMe.post(`/${P}/in-store/key=${STORE}/me/password`, change(elsewhere)), 403, 'insufficient_scope');
    expect(await elsewhereMe.ok(`/${P}/in-store/key=${OTHER_STORE}/me/password`, change(elsewhere))).toMatchObject({ id: elsewhere.id, version: 2 });
  });

  it('delivers CustomerPasswordUpdated (reset: false) and the change notification to a subscription, in sequence', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'customer');
    const customer = await newCustomer();
    const id = customer.id as string;
    await admin.ok(`/${P}/customers/password`, { id, version: 1, currentPassword: 'old password', newPassword: 'second' });
    const me = new Caller(gateway, (await signIn(customer, 'second')).accessToken);
    await me.ok(`/${P}/me/password`, { version: 2, currentPassword: 'second', newPassword: 'third' });
    // A refused change produces nothing.
    await admin.post(`/${P}/customers/password`, { id, version: 3, currentPassword: 'wrong', newPassword: 'fourth' });

    const documents = await deliveriesAbout(sqs, queue, id, 6);
    expect(labels(documents)).toEqual(
      [
        `customer:${id}:Message:CustomerCreated:1`,
        `customer:${id}:ResourceCreated:1`,
        `customer:${id}:Message:CustomerPasswordUpdated:2`,
        `customer:${id}:ResourceUpdated:2`,
        `customer:${id}:Message:CustomerPasswordUpdated:3`,
        `customer:${id}:ResourceUpdated:3`,
      ].sort(),
    );
    const updates = documents
      .map(payloadOf)
      .filter((payload) => payload.type === 'CustomerPasswordUpdated')
      .sort((a, b) => (a.sequenceNumber as number) - (b.sequenceNumber as number));
    expect(updates.map((payload) => [payload.sequenceNumber, payload.resourceVersion, payload.reset])).toEqual([
      [2, 2, false],
      [3, 3, false],
    ]);
    expect(JSON.stringify(documents)).not.toMatch(/second|third/);
  });
});
