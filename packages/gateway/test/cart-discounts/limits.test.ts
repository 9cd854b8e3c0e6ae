/**
 * Issue 29: the platform's limits on active cart discounts (CartDiscount: "The number of active
 * CartDiscounts that do not require a Discount Code (isActive=true and requiresDiscountCode=false)
 * is limited to 100", and 100 more per Store): MaxCartDiscountsReached on create, changeIsActive
 * and changeRequiresDiscountCode; StoreCartDiscountsLimitReached on create, addStore and setStores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'cart-discount-limits';
const LIMIT = 100;
let nextOrder = 0;
/** A fresh unique sortOrder (no trailing zero). */
const sortOrder = (): string => `0.${String((nextOrder += 1)).padStart(4, '0')}1`;
const draft = (extra: Json = {}): Json => ({
  name: { en: 'Limited' },
  value: { type: 'relative', permyriad: 100 },
  cartPredicate: '1 = 1',
  target: { type: 'lineItems', predicate: '1 = 1' },
  sortOrder: sortOrder(),
  ...extra,
});
const berlin = { typeId: 'store', key: 'berlin' };
const paris = { typeId: 'store', key: 'paris' };

describe('the limits on active cart discounts without a discount code', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  /** Creates `count` discounts of `extra`, ten at a time. */
  async function createMany(count: number, extra: Json): Promise<void> {
    for (let done = 0; done < count; done += 10) {
      const batch = Array.from({ length: Math.min(10, count - done) }, () => admin.ok(`/${P}/cart-discounts`, draft(extra), 201));
      await Promise.all(batch);
    }
  }

  async function refused(url: string, payload: Json, code: string): Promise<Json> {
    const answer = await admin.post(url, payload);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code });
    return answer.body;
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_cart_discounts', 'manage_stores']);
    for (const store of [berlin, paris]) await admin.ok(`/${P}/stores`, { key: store.key, name: { en: store.key } }, 201);
    await createMany(LIMIT, {});
    await createMany(LIMIT, { stores: [berlin] });
  }, 300_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('refuses the 101st active discount of the project (400 MaxCartDiscountsReached), not an inactive or coded one', async () => {
    const body = await refused(`/${P}/cart-discounts`, draft(), 'MaxCartDiscountsReached');
    expect(body.errors[0].message).toBe('Maximum number of active cart discounts reached (100).');
    await admin.ok(`/${P}/cart-discounts`, draft({ isActive: false, key: 'inactive' }), 201);
    await admin.ok(`/${P}/cart-discounts`, draft({ requiresDiscountCode: true, key: 'coded' }), 201);
    // A Store's discounts have limits of their own: paris still has room.
    await admin.ok(`/${P}/cart-discounts`, draft({ stores: [paris], key: 'in-paris' }), 201);
  });

  it('refuses activating one more, or dropping its code requirement, with MaxCartDiscountsReached', async () => {
    const inactive = await admin.read(`/${P}/cart-discounts/key=inactive`);
    const activate = { version: inactive.version, actions: [{ action: 'changeIsActive', isActive: true }] };
    await refused(`/${P}/cart-discounts/${inactive.id}`, activate, 'MaxCartDiscountsReached');
    const coded = await admin.read(`/${P}/cart-discounts/key=coded`);
    const uncode = { version: coded.version, actions: [{ action: 'changeRequiresDiscountCode', requiresDiscountCode: false }] };
    await refused(`/${P}/cart-discounts/${coded.id}`, uncode, 'MaxCartDiscountsReached');
    // Deactivating counts off: then the other one can be activated.
    const page = await admin.read(
      `/${P}/cart-discounts?where=${encodeURIComponent('isActive = true and requiresDiscountCode = false')}&limit=1&sort=sortOrder+asc`,
    );
    const counted = page.results[0] as Json;
    expect(counted.stores).toEqual([]);
    await admin.update(`/${P}/cart-discounts/${counted.id}`, counted.version, [{ action: 'changeIsActive', isActive: false }]);
    const activated = await admin.update(`/${P}/cart-discounts/${inactive.id}`, inactive.version, [{ action: 'changeIsActive', isActive: true }]);
    expect(activated.isActive).toBe(true);
  });

  it('refuses the 101st active discount of a Store (400 StoreCartDiscountsLimitReached naming it)', async () => {
    const body = await refused(`/${P}/cart-discounts`, draft({ stores: [paris, berlin] }), 'StoreCartDiscountsLimitReached');
    expect(body.errors[0]).toMatchObject({ message: 'Maximum number of active cart discounts reached for berlin.', stores: [berlin] });
    await admin.ok(`/${P}/cart-discounts`, draft({ stores: [berlin], requiresDiscountCode: true }), 201);
  });

  it('refuses adding a full Store by addStore or setStores, and allows it to a discount that needs a code', async () => {
    const inParis = await admin.read(`/${P}/cart-discounts/key=in-paris`);
    const add = { version: inParis.version, actions: [{ action: 'addStore', store: berlin }] };
    expect((await refused(`/${P}/cart-discounts/${inParis.id}`, add, 'StoreCartDiscountsLimitReached')).errors[0].stores).toEqual([berlin]);
    const set = { version: inParis.version, actions: [{ action: 'setStores', stores: [paris, berlin] }] };
    await refused(`/${P}/cart-discounts/${inParis.id}`, set, 'StoreCartDiscountsLimitReached');
    const coded = await admin.update(`/${P}/cart-discounts/${inParis.id}`, inParis.version, [
      { action: 'changeRequiresDiscountCode', requiresDiscountCode: true },
      { action: 'addStore', store: berlin },
    ]);
    expect(coded.stores).toEqual([paris, berlin]);
  });
});
