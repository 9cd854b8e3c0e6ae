/**
 * §8 "Quote request key: 2 to 256 characters, pattern ^[A-Za-z0-9_-]+$" (§2.3) on both
 * create paths (`/quote-requests` for sellers, `/me/quote-requests` for buyers): bounds, pattern
 * edges (a trailing newline, non-ASCII letters, non-strings), and
 * that nothing is created by a refused draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, buyerCart } from '../quote-requests/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'limits-qr-key';

const INVALID_KEYS: Array<[string, unknown]> = [
  ['1 character', 'a'],
  ['257 characters', 'k'.repeat(257)],
  ['empty', ''],
  ['a trailing newline', 'ab\n'],
  ['a leading newline', '\nab'],
  ['a non-ASCII letter', 'äb'],
  ['a slash', 'a/b'],
  ['a number', 12],
  ['an array', ['ab']],
  ['an object', { key: 'ab' }],
];

describe('§8 quote request key', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let seller: Caller;
  let buyer: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    seller = await callerWith(gateway, P, ['manage_quote_requests']);
    buyer = await customerWithToken(gateway, P, admin, BUYER_SCOPES);
  });
  afterAll(() => gateway?.close());

  const count = async () => (await admin.read(`/${P}/quote-requests?withTotal=true&limit=1`)).total as number;

  it.each(['seller', 'buyer'] as const)('%s: refuses invalid keys with 400 InvalidInput in the error shape, creating nothing', async (who) => {
    const cart = await buyerCart(P, buyer);
    const before = await count();
    for (const [what, key] of INVALID_KEYS) {
      const draft: Json = { cart: { id: cart.id }, cartVersion: cart.version, key };
      const answer = who === 'seller' ? await seller.post(`/${P}/quote-requests`, draft) : await buyer.caller.post(`/${P}/me/quote-requests`, draft);
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body, what).toMatchObject({
        statusCode: 400,
        message: expect.any(String),
        errors: [{ code: 'InvalidInput', message: expect.any(String) }],
      });
    }
    expect(await count()).toBe(before);
  });

  it.each(['seller', 'buyer'] as const)('%s: accepts 2 and 256 characters of every allowed class', async (who) => {
    for (const key of [`${who.slice(0, 1)}-`, `${who}_${'Az09-_'.repeat(50)}`.slice(0, 256)]) {
      expect([2, 256]).toContain(key.length);
      const cart = await buyerCart(P, buyer);
      const draft: Json = { cart: { id: cart.id }, cartVersion: cart.version, key };
      const answer = who === 'seller' ? await seller.post(`/${P}/quote-requests`, draft) : await buyer.caller.post(`/${P}/me/quote-requests`, draft);
      expect(answer.status, `${key.length}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect(answer.body.key).toBe(key);
    }
  });
});
