import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, eur, type Answer, type Caller, type Customer } from './commerce.js';

const P = 'cart-custom-updates';

/** The answer, or 'timeout' when the gateway does not answer within `ms` (a hang must fail, not stall the file). */
async function within(ms: number, answer: Promise<Answer>): Promise<Answer | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Scoped cart routes (`/me/carts`, `/in-store/key=…/carts`) apply update actions in a locked
 * transaction. Line items with `custom` look their Type up: that read must run in the same
 * transaction (on PGlite, one statement at a time, a read outside it waited for the transaction
 * forever and every later request queued behind it).
 */
describe('custom fields on items added by update actions, in every cart route', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let bea: Customer;
  let hung = false;
  const custom = { type: { key: 'item-fields' }, fields: { gift: true } };
  const customLineItem = { name: { en: 'Engraving' }, money: eur(500), slug: 'engraving', quantity: 1, custom };

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_orders', 'manage_customers', 'manage_stores', 'manage_types', 'manage_products']);
    bea = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'item-fields',
        name: { en: 'Item fields' },
        resourceTypeIds: ['line-item', 'custom-line-item'],
        fieldDefinitions: [{ name: 'gift', label: { en: 'Gift' }, required: false, type: { name: 'Boolean' } }],
      },
      201,
    );
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    // A catalogue product: a buyer's line items come from the catalogue (MyLineItemDraft has no externalPrice).
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
    await admin.ok(
      `/${P}/products`,
      {
        key: 'item',
        productType: { typeId: 'product-type', key: 'plain' },
        name: { en: 'Item' },
        slug: { en: 'item' },
        publish: true,
        masterVariant: { sku: 'SKU-C', prices: [{ value: eur(100) }] },
      },
      201,
    );
  });
  afterAll(async () => {
    // A hung transaction keeps PGlite busy: closing would wait for it forever.
    if (!hung) await gateway.close();
  });

  const routes = () => [
    { name: '/me/carts', caller: bea.caller, path: `/${P}/me/carts`, buyer: true },
    { name: '/in-store/key=berlin/carts', caller: admin, path: `/${P}/in-store/key=berlin/carts`, buyer: false },
    { name: '/carts', caller: admin, path: `/${P}/carts`, buyer: false },
  ];

  it('addLineItem and addCustomLineItem with custom fields answer 200 and keep the fields', async () => {
    for (const { name, caller, path, buyer } of routes()) {
      const cart = await caller.ok(path, { currency: 'EUR' }, 201);
      // MyCartUpdateAction has no addCustomLineItem: on /me/carts it is an unknown action (below).
      const addCustom = { action: 'addCustomLineItem', ...customLineItem };
      const answer = await within(
        5_000,
        caller.post(`${path}/${cart.id}`, {
          version: cart.version,
          actions: [{ action: 'addLineItem', sku: 'SKU-C', custom }, ...(buyer ? [] : [addCustom])],
        }),
      );
      if (answer === 'timeout') hung = true;
      expect(answer, `${name}: the update never answered`).not.toBe('timeout');
      expect((answer as Answer).status, name).toBe(200);
      expect((answer as Answer).body.lineItems[0].custom.fields, name).toEqual({ gift: true });
      if (!buyer) {
        expect((answer as Answer).body.customLineItems[0].custom.fields, name).toEqual({ gift: true });
        continue;
      }
      const refused = await within(5_000, caller.post(`${path}/${cart.id}`, { version: (answer as Answer).body.version, actions: [addCustom] }));
      if (refused === 'timeout') hung = true;
      expect(refused, `${name}: the update never answered`).not.toBe('timeout');
      expect((refused as Answer).status, name).toBe(400);
      expect((refused as Answer).body.errors[0], name).toMatchObject({ code: 'InvalidInput', action: 'addCustomLineItem' });
    }
  });

  it('an unknown Type in an update is a 400, and the cart is unchanged', async () => {
    for (const { name, caller, path } of routes()) {
      const cart = await caller.ok(path, { currency: 'EUR' }, 201);
      const answer = await within(
        5_000,
        caller.post(`${path}/${cart.id}`, {
          version: cart.version,
          actions: [{ action: 'addLineItem', sku: 'SKU-C', custom: { type: { key: 'nope' } } }],
        }),
      );
      if (answer === 'timeout') hung = true;
      expect(answer, `${name}: the update never answered`).not.toBe('timeout');
      expect((answer as Answer).status, name).toBe(400);
      expect((await caller.read(`${path}/${cart.id}`)).version, name).toBe(cart.version);
    }
  });
});
