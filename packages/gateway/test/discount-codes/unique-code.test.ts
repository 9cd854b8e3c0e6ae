/**
 * Issue 28/29: a discount code's `code` is unique in the project ("If the value is used by another
 * Discount Code, a DuplicateField error is returned"), claimed by the store in the create itself:
 * racing creates with one code cannot both succeed, and a deleted discount code frees its code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'unique-codes';
const cartDiscounts = [{ typeId: 'cart-discount', key: 'coded' }];

describe('DiscountCode code is unique in the project', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_discount_codes', 'manage_cart_discounts']);
    await admin.ok(
      `/${P}/cart-discounts`,
      {
        key: 'coded',
        name: { en: 'Coded' },
        sortOrder: '0.5',
        value: { type: 'relative', permyriad: 500 },
        cartPredicate: '1 = 1',
        target: { type: 'shipping' },
        requiresDiscountCode: true,
      },
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('lets exactly one of concurrent creates with one code succeed', async () => {
    for (const round of [1, 2, 3]) {
      const code = `RACE-${round}`;
      const answers = await Promise.all([1, 2].map(() => admin.post(`/${P}/discount-codes`, { code, cartDiscounts })));
      expect(answers.map(({ status }) => status).sort()).toEqual([201, 400]);
      expect(answers.find(({ status }) => status === 400)?.body.errors).toEqual([
        { code: 'DuplicateField', message: `A duplicate value "${code}" exists for field 'code'.`, field: 'code', duplicateValue: code },
      ]);
    }
  });

  it('frees the code when the discount code is deleted', async () => {
    const created = await admin.ok(`/${P}/discount-codes`, { code: 'ONCE', cartDiscounts }, 201);
    expect((await admin.post(`/${P}/discount-codes`, { code: 'ONCE', cartDiscounts })).status).toBe(400);
    expect((await admin.delete(`/${P}/discount-codes/${created.id}?version=${created.version}`)).status).toBe(200);
    await admin.ok(`/${P}/discount-codes`, { code: 'ONCE', cartDiscounts }, 201);
  });
});
