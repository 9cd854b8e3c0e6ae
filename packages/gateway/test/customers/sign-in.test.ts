/**
 * Sign-in endpoints of the reference (login.raml, me.raml, in-store.raml): `POST /login`,
 * `POST /me/login` and their in-store variants answer a CustomerSignInResult `{customer, cart?}`
 * with the customer's active cart; wrong credentials are 400 InvalidCredentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { anonymousWithToken, callerWith, lineItem, type Caller } from '../carts/commerce.js';

const P = 'customer-sign-in';

describe('customer sign-in', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let frontend: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    frontend = await callerWith(gateway, P, ['manage_my_profile']);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    await admin.ok(`/${P}/stores`, { key: 'paris' }, 201);
  });
  afterAll(() => gateway.close());

  it('POST /login answers the customer and its most recently modified active cart', async () => {
    const { customer } = await admin.ok(`/${P}/customers`, { email: 'ada@example.com', password: 'pw-ada' }, 201);
    const alone = await admin.ok(`/${P}/login`, { email: 'ADA@example.com', password: 'pw-ada' });
    expect(alone).toEqual({ customer: expect.objectContaining({ id: customer.id, addresses: [] }) });

    await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: customer.id, lineItems: [lineItem('OLD', 100)] }, 201);
    const newer = await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: customer.id }, 201);
    await admin.ok(`/${P}/carts`, { currency: 'EUR', customerId: customer.id, origin: 'Merchant' }, 201);
    const signedIn = await admin.ok(`/${P}/login`, { email: 'ada@example.com', password: 'pw-ada' });
    expect(signedIn.customer.id).toBe(customer.id);
    expect(signedIn.cart).toMatchObject({ id: newer.id, cartState: 'Active', origin: 'Customer' });

    const mine = await frontend.ok(`/${P}/me/login`, { email: 'ada@example.com', password: 'pw-ada' });
    expect(mine.cart.id).toBe(newer.id);
  });

  it('wrong credentials are 400 InvalidCredentials, for every variant', async () => {
    await admin.ok(`/${P}/customers`, { email: 'grace@example.com', password: 'pw-grace' }, 201);
    for (const [caller, url] of [
      [admin, `/${P}/login`],
      [frontend, `/${P}/me/login`],
      [admin, `/${P}/in-store/key=berlin/login`],
      [frontend, `/${P}/in-store/key=berlin/me/login`],
    ] as const) {
      for (const body of [
        { email: 'grace@example.com', password: 'wrong' },
        { email: 'nobody@example.com', password: 'pw-grace' },
      ]) {
        const answer = await caller.post(url, body);
        expect({ url, status: answer.status, errors: answer.body.errors }).toEqual({
          url,
          status: 400,
          errors: [{ code: 'InvalidCredentials', message: 'Account with the given credentials not found.' }],
        });
      }
    }
    const missing = await admin.post(`/${P}/login`, { email: 'grace@example.com' });
    expect(missing.body.errors[0]).toMatchObject({ code: 'RequiredField', field: 'password' });
  });

  it("in a store: its own customers and global ones sign in, customers of other stores do not; the cart is the store's", async () => {
    const { customer } = await admin.ok(`/${P}/in-store/key=berlin/customers`, { email: 'local@example.com', password: 'pw' }, 201);
    const cart = await admin.ok(`/${P}/in-store/key=berlin/carts`, { currency: 'EUR', customerId: customer.id }, 201);
    const inBerlin = await admin.ok(`/${P}/in-store/key=berlin/login`, { email: 'local@example.com', password: 'pw' });
    expect(inBerlin).toMatchObject({ customer: { id: customer.id }, cart: { id: cart.id } });
    const inParis = await admin.post(`/${P}/in-store/key=paris/login`, { email: 'local@example.com', password: 'pw' });
    expect(inParis.body.errors[0].code).toBe('InvalidCredentials');
    // Customer.stores: a customer of a store can only sign in through that store.
    expect((await admin.post(`/${P}/login`, { email: 'local@example.com', password: 'pw' })).body.errors[0].code).toBe('InvalidCredentials');
    await admin.ok(`/${P}/customers`, { email: 'global@example.com', password: 'pw' }, 201);
    const global = await frontend.ok(`/${P}/in-store/key=paris/me/login`, { email: 'global@example.com', password: 'pw' });
    expect(global.cart).toBeUndefined();
  });

  it('an anonymous session with manage_my_profile may sign in through /me/login', async () => {
    await admin.ok(`/${P}/customers`, { email: 'anon-login@example.com', password: 'pw' }, 201);
    const { caller } = await anonymousWithToken(gateway, P, ['manage_my_profile']);
    const signedIn = await caller.ok(`/${P}/me/login`, { email: 'anon-login@example.com', password: 'pw' });
    expect(signedIn.customer.email).toBe('anon-login@example.com');
  });
});

describe('sign-in with an anonymous cart', () => {
  const Q = 'customer-sign-in-anonymous';
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [Q] });
    admin = await callerWith(gateway, Q, ['manage_project']);
  });
  afterAll(() => gateway.close());

  it("/me/login: the session's cart becomes the customer's when it has none", async () => {
    const { customer } = await admin.ok(`/${Q}/customers`, { email: 'first@example.com', password: 'pw' }, 201);
    const anonymous = await anonymousWithToken(gateway, Q, ['manage_my_profile', 'manage_my_orders']);
    // The session's cart with a priced item: made by the merchant for the session (a buyer cannot set an externalPrice).
    const cart = await admin.ok(`/${Q}/carts`, { currency: 'EUR', anonymousId: anonymous.anonymousId, lineItems: [lineItem('A', 100)] }, 201);
    expect((await anonymous.caller.read(`/${Q}/me/carts/${cart.id as string}`)).id).toBe(cart.id);
    const signedIn = await anonymous.caller.ok(`/${Q}/me/login`, { email: 'first@example.com', password: 'pw' });
    expect(signedIn.cart).toMatchObject({ id: cart.id, customerId: customer.id, cartState: 'Active' });
    expect((await admin.read(`/${Q}/carts/customer-id=${customer.id}`)).id).toBe(cart.id);
  });

  it("/login with anonymousCart: merged into the customer's active cart (same products add up), the anonymous cart is Merged and frozen", async () => {
    const { customer } = await admin.ok(`/${Q}/customers`, { email: 'second@example.com', password: 'pw' }, 201);
    const own = await admin.ok(`/${Q}/carts`, { currency: 'EUR', customerId: customer.id, lineItems: [lineItem('A', 100, 1)] }, 201);
    const anonymousCart = await admin.ok(
      `/${Q}/carts`,
      { currency: 'EUR', anonymousId: 'anon-2', lineItems: [lineItem('A', 100, 2), lineItem('B', 50, 1)] },
      201,
    );
    const signedIn = await admin.ok(`/${Q}/login`, { email: 'second@example.com', password: 'pw', anonymousCart: { id: anonymousCart.id, typeId: 'cart' } });
    expect(signedIn.cart).toMatchObject({ id: own.id, totalLineItemQuantity: 4, totalPrice: { centAmount: 350 } });
    const merged = await admin.read(`/${Q}/carts/${anonymousCart.id}`);
    expect(merged.cartState).toBe('Merged');
    const refused = await admin.post(`/${Q}/carts/${anonymousCart.id}`, { version: merged.version, actions: [{ action: 'setLocale', locale: 'en' }] });
    expect({ status: refused.status, code: refused.body.errors[0].code }).toEqual({ status: 400, code: 'InvalidOperation' });
  });

  it('UseAsNewActiveCustomerCart: the anonymous cart (found by anonymousId) becomes the active one', async () => {
    const { customer } = await admin.ok(`/${Q}/customers`, { email: 'third@example.com', password: 'pw' }, 201);
    await admin.ok(`/${Q}/carts`, { currency: 'EUR', customerId: customer.id }, 201);
    const anonymousCart = await admin.ok(`/${Q}/carts`, { currency: 'EUR', anonymousId: 'anon-3' }, 201);
    const signedIn = await admin.ok(`/${Q}/login`, {
      email: 'third@example.com',
      password: 'pw',
      anonymousId: 'anon-3',
      anonymousCartSignInMode: 'UseAsNewActiveCustomerCart',
    });
    expect(signedIn.cart).toMatchObject({ id: anonymousCart.id, customerId: customer.id });
    const bad = await admin.post(`/${Q}/login`, { email: 'third@example.com', password: 'pw', anonymousCartSignInMode: 'Whatever' });
    expect(bad.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'anonymousCartSignInMode' });
  });
});
