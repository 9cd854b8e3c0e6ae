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
      for (const body of [{ email: 'grace@example.com', password: 'wrong' }, { email: 'nobody@example.com', password: 'pw-grace' }]) {
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

  it('in a store: its own customers and global ones sign in, customers of other stores do not; the cart is the store\'s', async () => {
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
