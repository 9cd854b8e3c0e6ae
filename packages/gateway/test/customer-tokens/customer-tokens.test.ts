/**
 * Issue 29, customer tokens (reference: resources/customers.raml, me.raml,
 * in-store/customers-in-store.raml, types/customer/CustomerToken*.raml): e-mail verification and
 * password reset tokens, single use and expiring (an injected clock), stored as hashes only, the
 * official errors for unknown, used and expired tokens, the `/me` and in-store forms, and their
 * messages and change notifications (`customer-email-token`, `customer-password-token`) delivered
 * to an SQS subscription without the token's value.
 */
import { Writable } from 'node:stream';
import type { SqsPeer } from '@herald/testkit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredTokens } from '../../src/resources/customer-tokens/sweep.js';
import { callerWith, Caller, type Json } from '../carts/commerce.js';
import { ManualClock } from '../support/clock.js';
import { customerTokenFor, type TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, sqsDocuments, subscribedQueue, WAIT_MS } from '../subscriptions/support.js';

const P = 'customer-tokens';
const MINUTE = 60_000;

/** Every log line the gateway writes. */
class LogCapture extends Writable {
  readonly text: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text.push(chunk.toString('utf8'));
    done();
  }
}

/** Like deliveriesAbout, for several resources of one queue at once (each receive drops what it does not keep). */
async function deliveriesAboutEither(sqs: SqsPeer, queue: string, ids: readonly string[], count: number): Promise<Json[]> {
  const about: Json[] = [];
  const deadline = Date.now() + WAIT_MS;
  while (about.length < count && Date.now() < deadline) {
    about.push(...sqsDocuments(await sqs.receiveAll(queue)).filter((document) => ids.includes(payloadOf(document).resource?.id as string)));
    if (about.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(labels(about)).toHaveLength(count);
  return about;
}

describe('customer tokens', { timeout: 60_000 }, () => {
  const clock = new ManualClock('2025-03-01T10:00:00.000Z');
  const logs = new LogCapture();
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_customers', 'manage_stores', 'manage_subscriptions'], { clock, logger: pino({ level: 'info' }, logs) });
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_customers']);
  }, 180_000);
  afterAll(() => setup?.close());

  let counter = 0;
  const newCustomer = async (extra: Json = {}, base = `/${P}/customers`): Promise<Json> => {
    counter += 1;
    const { customer } = await admin.ok(base, { email: `Token-${counter}@Example.com`, password: 'old password', ...extra }, 201);
    return customer as Json;
  };
  const emailToken = (customer: Json, extra: Json = {}) => admin.ok(`/${P}/customers/email-token`, { id: customer.id, ttlMinutes: 30, ...extra });
  const passwordToken = (customer: Json, extra: Json = {}) => admin.ok(`/${P}/customers/password-token`, { email: customer.email, ...extra });
  const errorOf = (answer: { status: number; body: Json }, status: number, code: string): Json => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ statusCode: status, errors: [{ code }] });
    return answer.body.errors[0] as Json;
  };

  it('verifies an e-mail with a token that works once and is stored only as a hash', async () => {
    const customer = await newCustomer();
    expect(customer.isEmailVerified).toBe(false);
    const token = await emailToken(customer, { version: 1 });
    expect(token).toMatchObject({
      customerId: customer.id,
      expiresAt: new Date(clock.now().getTime() + 30 * MINUTE).toISOString(),
      invalidateOlderTokens: false,
      createdAt: clock.now().toISOString(),
      lastModifiedAt: clock.now().toISOString(),
    });
    expect(token.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token.id).toEqual(expect.any(String));

    const stored = await gateway.db.query<{ doc: string }>("SELECT doc::text AS doc FROM resources WHERE type_id = 'customer-email-token' AND id = $1", [
      token.id,
    ]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.doc).not.toContain(token.value);

    expect(await viewer.read(`/${P}/customers/email-token=${token.value}`)).toMatchObject({ id: customer.id, email: customer.email });
    const verified = await admin.ok(`/${P}/customers/email/confirm`, { tokenValue: token.value, version: 1 });
    expect(verified).toMatchObject({ id: customer.id, version: 2, isEmailVerified: true });

    // Single use: the token is gone, for reading and for confirming.
    errorOf(await viewer.get(`/${P}/customers/email-token=${token.value}`), 404, 'ResourceNotFound');
    errorOf(await admin.post(`/${P}/customers/email/confirm`, { tokenValue: token.value }), 404, 'ResourceNotFound');
    errorOf(await admin.post(`/${P}/customers/email/confirm`, { tokenValue: 'never-issued' }), 404, 'ResourceNotFound');
    // A password token is no e-mail token.
    const reset = await passwordToken(customer);
    errorOf(await admin.post(`/${P}/customers/email/confirm`, { tokenValue: reset.value }), 404, 'ResourceNotFound');
  });

  it('answers ExpiredCustomerEmailToken and ExpiredCustomerPasswordToken once the validity is over', async () => {
    const customer = await newCustomer();
    const email = await emailToken(customer, { ttlMinutes: 1 });
    const password = await passwordToken(customer, { ttlMinutes: 2 });
    clock.advance(MINUTE);
    errorOf(await viewer.get(`/${P}/customers/email-token=${email.value}`), 400, 'ExpiredCustomerEmailToken');
    errorOf(await admin.post(`/${P}/customers/email/confirm`, { tokenValue: email.value }), 400, 'ExpiredCustomerEmailToken');
    expect(await viewer.read(`/${P}/customers/password-token=${password.value}`)).toMatchObject({ id: customer.id });
    clock.advance(MINUTE);
    errorOf(await viewer.get(`/${P}/customers/password-token=${password.value}`), 400, 'ExpiredCustomerPasswordToken');
    errorOf(await admin.post(`/${P}/customers/password/reset`, { tokenValue: password.value, newPassword: 'x' }), 400, 'ExpiredCustomerPasswordToken');
    expect((await viewer.read(`/${P}/customers/${customer.id}`)).version).toBe(1);

    // A day past expiry the sweep deletes them (each with its ResourceDeleted); then they are unknown.
    clock.advance(24 * 60 * MINUTE);
    expect(await deleteExpiredTokens(gateway.gateway.documents, clock)).toBe(1);
    clock.advance(MINUTE);
    expect(await deleteExpiredTokens(gateway.gateway.documents, clock)).toBe(1);
    errorOf(await viewer.get(`/${P}/customers/email-token=${email.value}`), 404, 'ResourceNotFound');
    errorOf(await viewer.get(`/${P}/customers/password-token=${password.value}`), 404, 'ResourceNotFound');
  });

  it('resets a password once: the new one signs in, the old one and the old sessions no longer work', async () => {
    const customer = await newCustomer();
    const session = await customerTokenFor(gateway, P, ['manage_my_profile'], { email: customer.email, password: 'old password' });
    const me = new Caller(gateway, session.accessToken);
    expect((await me.get(`/${P}/me`)).status).toBe(200);

    // The e-mail is found case-insensitively; ttlMinutes defaults to 1440 (a day).
    const token = await passwordToken(customer, { email: (customer.email as string).toUpperCase() });
    expect(token.expiresAt).toBe(new Date(clock.now().getTime() + 1440 * MINUTE).toISOString());
    const reset = await admin.ok(`/${P}/customers/password/reset`, { tokenValue: token.value, newPassword: 'new password', version: 1 });
    expect(reset).toMatchObject({ id: customer.id, version: 2 });
    expect(reset).not.toHaveProperty('password');

    expect((await me.get(`/${P}/me`)).status).toBe(401);
    await expect(customerTokenFor(gateway, P, ['manage_my_profile'], { email: customer.email, password: 'old password' })).rejects.toThrow(/400/);
    expect((await customerTokenFor(gateway, P, ['manage_my_profile'], { email: customer.email, password: 'new password' })).customerId).toBe(customer.id);
    errorOf(await admin.post(`/${P}/customers/password/reset`, { tokenValue: token.value, newPassword: 'again' }), 404, 'ResourceNotFound');

    // A stale customer version is a 409 and uses nothing up.
    const second = await passwordToken(customer);
    errorOf(await admin.post(`/${P}/customers/password/reset`, { tokenValue: second.value, newPassword: 'other', version: 1 }), 409, 'ConcurrentModification');
    expect(await viewer.read(`/${P}/customers/password-token=${second.value}`)).toMatchObject({ id: customer.id });
    errorOf(await admin.post(`/${P}/customers/email-token`, { id: customer.id, ttlMinutes: 5, version: 1 }), 409, 'ConcurrentModification');
  });

  it('invalidates older tokens when asked, and every token of the kind once one is used', async () => {
    const customer = await newCustomer();
    const first = await emailToken(customer);
    const second = await emailToken(customer);
    const third = await emailToken(customer, { invalidateOlderTokens: true });
    expect(third.invalidateOlderTokens).toBe(true);
    for (const old of [first, second]) errorOf(await viewer.get(`/${P}/customers/email-token=${old.value}`), 404, 'ResourceNotFound');
    const fourth = await emailToken(customer);
    await admin.ok(`/${P}/customers/email/confirm`, { tokenValue: fourth.value });
    errorOf(await viewer.get(`/${P}/customers/email-token=${third.value}`), 404, 'ResourceNotFound');
  });

  it('refuses bad requests with 400s and the official codes', async () => {
    const customer = await newCustomer();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['email token: not an object', 'email-token', ['x'], 400, 'InvalidInput'],
      ['email token: no id', 'email-token', { ttlMinutes: 5 }, 400, 'RequiredField'],
      ['email token: id not a string', 'email-token', { id: 5, ttlMinutes: 5 }, 400, 'InvalidInput'],
      ['email token: no ttlMinutes', 'email-token', { id: customer.id }, 400, 'RequiredField'],
      ['email token: ttlMinutes a string', 'email-token', { id: customer.id, ttlMinutes: '5' }, 400, 'InvalidInput'],
      ['email token: ttlMinutes 0', 'email-token', { id: customer.id, ttlMinutes: 0 }, 400, 'InvalidInput'],
      ['email token: ttlMinutes a fraction', 'email-token', { id: customer.id, ttlMinutes: 1.5 }, 400, 'InvalidInput'],
      ['email token: ttlMinutes over the maximum', 'email-token', { id: customer.id, ttlMinutes: 34_561 }, 400, 'InvalidInput'],
      [
        'email token: invalidateOlderTokens not a boolean',
        'email-token',
        { id: customer.id, ttlMinutes: 5, invalidateOlderTokens: 'yes' },
        400,
        'InvalidInput',
      ],
      ['email token: version not a number', 'email-token', { id: customer.id, ttlMinutes: 5, version: 'one' }, 400, 'InvalidInput'],
      ['email token: unknown customer', 'email-token', { id: 'no-such-customer', ttlMinutes: 5 }, 404, 'ResourceNotFound'],
      ['password token: no email', 'password-token', {}, 400, 'RequiredField'],
      ['password token: email not a string', 'password-token', { email: 7 }, 400, 'InvalidInput'],
      ['password token: ttlMinutes negative', 'password-token', { email: customer.email, ttlMinutes: -1 }, 400, 'InvalidInput'],
      ['password token: unknown e-mail', 'password-token', { email: 'nobody@example.com' }, 404, 'ResourceNotFound'],
      ['confirm: no tokenValue', 'email/confirm', {}, 400, 'RequiredField'],
      ['confirm: tokenValue not a string', 'email/confirm', { tokenValue: 1 }, 400, 'InvalidInput'],
      ['reset: no tokenValue', 'password/reset', { newPassword: 'p' }, 400, 'RequiredField'],
      ['reset: no newPassword', 'password/reset', { tokenValue: 't' }, 400, 'RequiredField'],
      ['reset: empty newPassword', 'password/reset', { tokenValue: 't', newPassword: '' }, 400, 'InvalidInput'],
    ];
    for (const [name, path, body, status, code] of cases) {
      const answer = await admin.post(`/${P}/customers/${path}`, body);
      expect({ name, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ name, status, code });
    }
    // A password is never echoed in an error.
    const refused = await admin.post(`/${P}/customers/password/reset`, { tokenValue: 't', newPassword: 'x'.repeat(300) });
    expect(JSON.stringify(refused.body)).not.toContain('x'.repeat(300));
    // Only manage_customers creates and redeems tokens.
    expect((await viewer.post(`/${P}/customers/email-token`, { id: customer.id, ttlMinutes: 5 })).status).toBe(403);
  });

  it('has /me forms for the token’s own customer only', async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const me = new Caller(
      gateway,
      (await customerTokenFor(gateway, P, ['manage_my_profile'], { email: customer.email, password: 'old password' })).accessToken,
    );
    const othersToken = await emailToken(other);
    errorOf(await me.post(`/${P}/me/email/confirm`, { tokenValue: othersToken.value }), 404, 'ResourceNotFound');
    const own = await emailToken(customer);
    expect(await me.ok(`/${P}/me/email/confirm`, { tokenValue: own.value })).toMatchObject({ id: customer.id, isEmailVerified: true });

    const reset = await passwordToken(customer);
    expect(await me.ok(`/${P}/me/password/reset`, { tokenValue: reset.value, newPassword: 'my new password' })).toMatchObject({ id: customer.id });
    expect((await customerTokenFor(gateway, P, ['manage_my_profile'], { email: customer.email, password: 'my new password' })).customerId).toBe(customer.id);
    // An API client's token names no customer.
    expect((await admin.post(`/${P}/me/email/confirm`, { tokenValue: 'x' })).status).toBe(403);
  });

  it('has in-store forms that reach the store’s customers only', async () => {
    await admin.ok(`/${P}/stores`, { key: 'tokens-store', name: { en: 'Tokens' } }, 201);
    const local = await newCustomer({}, `/${P}/in-store/key=tokens-store/customers`);
    const global = await newCustomer();
    const base = `/${P}/in-store/key=tokens-store/customers`;
    const token = await admin.ok(`${base}/email-token`, { id: local.id, ttlMinutes: 10 });
    expect(await viewer.read(`${base}/email-token=${token.value}`)).toMatchObject({ id: local.id });
    expect(await admin.ok(`${base}/email/confirm`, { tokenValue: token.value })).toMatchObject({ isEmailVerified: true });
    errorOf(await admin.post(`${base}/email-token`, { id: global.id, ttlMinutes: 10 }), 404, 'ResourceNotFound');
    const globalToken = await emailToken(global);
    errorOf(await viewer.get(`${base}/email-token=${globalToken.value}`), 404, 'ResourceNotFound');

    const reset = await admin.ok(`${base}/password-token`, { email: local.email });
    expect(await admin.ok(`${base}/password/reset`, { tokenValue: reset.value, newPassword: 'store password' })).toMatchObject({ id: local.id });
    errorOf(await admin.post(`${base}/password-token`, { email: global.email }), 404, 'ResourceNotFound');
  });

  it('delivers token and customer messages and notifications, never the token value, and logs no token', async () => {
    const tokenQueue = await subscribedQueue(sqs, admin, P, 'customer-email-token');
    const passwordQueue = await subscribedQueue(sqs, admin, P, 'customer-password-token');
    const customerQueue = await subscribedQueue(sqs, admin, P, 'customer');
    const customer = await newCustomer();
    const short = await emailToken(customer, { ttlMinutes: 60 });
    const long = await emailToken(customer, { ttlMinutes: 61 });
    await viewer.read(`/${P}/customers/email-token=${short.value}`);
    await admin.ok(`/${P}/customers/email/confirm`, { tokenValue: short.value });
    const reset = await passwordToken(customer, { ttlMinutes: 15 });
    await viewer.read(`/${P}/customers/password-token=${reset.value}`);
    await admin.ok(`/${P}/customers/password/reset`, { tokenValue: reset.value, newPassword: 'delivered password' });

    const both = await deliveriesAboutEither(sqs, tokenQueue, [short.id, long.id], 6);
    const shortDeliveries = both.filter((document) => payloadOf(document).resource.id === short.id);
    expect(labels(shortDeliveries)).toEqual(
      [
        `customer-email-token:${short.id}:Message:CustomerEmailTokenCreated:1`,
        `customer-email-token:${short.id}:ResourceCreated:1`,
        `customer-email-token:${short.id}:ResourceDeleted:1`,
      ].sort(),
    );
    const created = shortDeliveries.map(payloadOf).find((payload) => payload.type === 'CustomerEmailTokenCreated');
    // Within 60 minutes the reference's message has the value: Herald's is masked.
    expect(created).toMatchObject({
      customerId: customer.id,
      expiresAt: short.expiresAt,
      invalidateOlderTokens: false,
      value: `${'*'.repeat(39)}${short.value.slice(-4)}`,
    });
    // Used up with the other one: the longer-lived token was invalidated by the confirmation.
    const longDeliveries = both.filter((document) => payloadOf(document).resource.id === long.id);
    expect(longDeliveries.map(payloadOf).find((payload) => payload.type === 'CustomerEmailTokenCreated')).not.toHaveProperty('value');
    expect(labels(longDeliveries)).toContain(`customer-email-token:${long.id}:ResourceDeleted:1`);

    const resetDeliveries = await deliveriesAbout(sqs, passwordQueue, reset.id as string, 3);
    expect(labels(resetDeliveries)).toEqual(
      [
        `customer-password-token:${reset.id}:Message:CustomerPasswordTokenCreated:1`,
        `customer-password-token:${reset.id}:ResourceCreated:1`,
        `customer-password-token:${reset.id}:ResourceDeleted:1`,
      ].sort(),
    );

    const customerDeliveries = await deliveriesAbout(sqs, customerQueue, customer.id as string, 6);
    expect(labels(customerDeliveries)).toEqual(
      [
        `customer:${customer.id}:Message:CustomerCreated:1`,
        `customer:${customer.id}:ResourceCreated:1`,
        `customer:${customer.id}:Message:CustomerEmailVerified:2`,
        `customer:${customer.id}:ResourceUpdated:2`,
        `customer:${customer.id}:Message:CustomerPasswordUpdated:3`,
        `customer:${customer.id}:ResourceUpdated:3`,
      ].sort(),
    );
    expect(customerDeliveries.map(payloadOf).find((payload) => payload.type === 'CustomerPasswordUpdated')).toMatchObject({ reset: true, resourceVersion: 3 });

    const delivered = JSON.stringify([...shortDeliveries, ...longDeliveries, ...resetDeliveries, ...customerDeliveries]);
    const logged = logs.text.join('');
    for (const value of [short.value, long.value, reset.value] as string[]) {
      expect(delivered).not.toContain(value);
      expect(logged).not.toContain(value);
    }
    expect(logged).toContain('email-token=[redacted]');
    expect(logged).not.toContain('delivered password');
  });
});
