/**
 * Issue 29: carts of buyers with several customer groups (reference: carts.raml "If using the
 * customerGroupAssignments field (for multiple Customer Groups), the Cart no longer keeps a direct
 * reference to a Customer Group. If a Customer's group assignments change, the Cart and its Line
 * Item prices are not updated automatically. Prices are only updated when the Cart is changed via a
 * direct update action"; BusinessUnit.customerGroupAssignments "are considered during line Item
 * price selection, if provided"). Line item prices are selected with the customer's or the business
 * unit's groups (the lowest among prices of several of them), through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller, type Json } from './commerce.js';

const P = 'cart-group-assignments';
const CARTS = `/${P}/carts`;

const eur = (centAmount: number): Json => ({ currencyCode: 'EUR', centAmount });
const assignment = (group: Json): Json => ({ customerGroup: { typeId: 'customer-group', id: group.id } });

describe('carts priced with customer group assignments', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let gold: Json;
  let silver: Json;
  let counter = 0;

  const customer = async (draft: Json = {}): Promise<Json> => {
    counter += 1;
    return (await admin.ok(`/${P}/customers`, { email: `grouped-${counter}@example.com`, password: 'pw', ...draft }, 201)).customer as Json;
  };
  const cart = (draft: Json): Promise<Json> => admin.ok(CARTS, { currency: 'EUR', taxMode: 'Disabled', lineItems: [{ sku: 'tea-1' }], ...draft }, 201);
  const priceOf = (body: Json): number => body.lineItems[0].price.value.centAmount as number;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_products',
      'manage_product_types',
      'manage_customer_groups',
      'manage_customers',
      'manage_orders',
      'manage_business_units',
    ]);
    gold = await admin.ok(`/${P}/customer-groups`, { key: 'gold', groupName: 'Gold' }, 201);
    silver = await admin.ok(`/${P}/customer-groups`, { key: 'silver', groupName: 'Silver' }, 201);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'Plain' }, 201);
    await admin.ok(
      `/${P}/products`,
      {
        key: 'tea',
        productType: { typeId: 'product-type', key: 'plain' },
        name: { en: 'Tea' },
        slug: { en: 'tea' },
        publish: true,
        masterVariant: {
          sku: 'tea-1',
          prices: [{ value: eur(1000) }, { value: eur(900), ...assignment(gold) }, { value: eur(850), ...assignment(silver) }],
        },
      },
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it("prices a customer's cart with the lowest price of its groups and keeps no customerGroup", async () => {
    const both = await customer({ customerGroupAssignments: [assignment(gold), assignment(silver)] });
    const created = await cart({ customerId: both.id });
    expect(created).not.toHaveProperty('customerGroup');
    expect(created.lineItems[0].price).toMatchObject({ value: { centAmount: 850 }, customerGroup: { id: silver.id } });
    expect(created.totalPrice.centAmount).toBe(850);

    // A single customerGroup still prices as before, and a named group wins over assignments.
    const single = await customer({ customerGroup: { typeId: 'customer-group', id: gold.id } });
    const singleCart = await cart({ customerId: single.id });
    expect(singleCart.customerGroup).toEqual({ typeId: 'customer-group', id: gold.id });
    expect(priceOf(singleCart)).toBe(900);
    const named = await cart({ customerId: both.id, customerGroup: { typeId: 'customer-group', key: 'gold' } });
    expect(named.customerGroup.id).toBe(gold.id);
    expect(priceOf(named)).toBe(900);
  });

  it('follows changed assignments at the next direct update action only', async () => {
    const buyer = await customer({ customerGroupAssignments: [assignment(gold), assignment(silver)] });
    const created = await cart({ customerId: buyer.id });
    expect(priceOf(created)).toBe(850);
    await admin.update(`/${P}/customers/${buyer.id}`, buyer.version as number, [
      { action: 'removeCustomerGroupAssignment', customerGroup: assignment(silver).customerGroup },
    ]);
    expect(priceOf(await admin.read(`${CARTS}/${created.id}`))).toBe(850);
    const updated = await admin.update(`${CARTS}/${created.id}`, created.version as number, [
      { action: 'changeLineItemQuantity', lineItemId: created.lineItems[0].id, quantity: 2 },
    ]);
    expect(priceOf(updated)).toBe(900);
    expect(updated.totalPrice.centAmount).toBe(1800);
  });

  it('takes the groups of a customer assigned later with setCustomerId', async () => {
    const buyer = await customer({ customerGroupAssignments: [assignment(silver)] });
    const anonymous = await cart({});
    expect(priceOf(anonymous)).toBe(1000);
    const assigned = await admin.update(`${CARTS}/${anonymous.id}`, anonymous.version as number, [{ action: 'setCustomerId', customerId: buyer.id }]);
    expect(assigned).not.toHaveProperty('customerGroup');
    expect(priceOf(assigned)).toBe(850);
  });

  it("prices with the business unit's assignments when it provides them", async () => {
    const unit = await admin.ok(
      `/${P}/business-units`,
      { key: 'acme', name: 'Acme', unitType: 'Company', customerGroupAssignments: [assignment(silver)] },
      201,
    );
    const buyer = await customer({ customerGroup: { typeId: 'customer-group', id: gold.id } });
    const created = await cart({ customerId: buyer.id, businessUnit: { typeId: 'business-unit', key: unit.key } });
    expect(created).not.toHaveProperty('customerGroup');
    expect(priceOf(created)).toBe(850);
    // setBusinessUnit to that unit drops the customer's group and reprices with the unit's.
    const before = await cart({ customerId: buyer.id });
    expect(before.customerGroup.id).toBe(gold.id);
    const moved = await admin.update(`${CARTS}/${before.id}`, before.version as number, [
      { action: 'setBusinessUnit', businessUnit: { typeId: 'business-unit', key: unit.key } },
    ]);
    expect(moved).not.toHaveProperty('customerGroup');
    expect(priceOf(moved)).toBe(850);
    // Provided but empty: no group at all.
    const none = await admin.ok(`/${P}/business-units`, { key: 'none', name: 'None', unitType: 'Company', customerGroupAssignments: [] }, 201);
    expect(priceOf(await cart({ customerId: buyer.id, businessUnit: { typeId: 'business-unit', key: none.key } }))).toBe(1000);
  });
});
