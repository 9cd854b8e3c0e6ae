/**
 * Limits on arrays inside business unit documents: a unit lists at most 500 stores and has at most
 * 500 associates. The draft and `setStores` / `setAssociates` refuse 501; `addStore` and
 * `addAssociate` must not grow the list past the limit one action at a time either.
 */
import type { WriteContext } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../src/resources/customers/customer.js';
import type { Store } from '../../src/resources/stores/store.js';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'bu-array-limits';
const LIMIT = 500;
const storeKey = (i: number) => `st-${String(i).padStart(3, '0')}`;

describe('business unit stores and associates stay within 500', () => {
  let gateway: TestGateway;
  let token: string;
  const customerIds: string[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    token = await tokenFor(gateway, P, ['manage_project']);
    // Written through the DocumentStore: 501 of each over HTTP (customers with password hashing)
    // would take most of a minute, and the limits only need the documents to exist.
    const documents = gateway.gateway.documents;
    const write: WriteContext = { projectKey: P };
    for (let i = 0; i <= LIMIT; i++) {
      await documents.create<Store>(write, 'store', {
        key: storeKey(i),
        languages: [],
        countries: [],
        distributionChannels: [],
        supplyChannels: [],
        productSelections: [],
      });
      const customer = await documents.create<Customer>(write, 'customer', {
        email: `associate-${i}@example.com`,
        addresses: [],
        shippingAddressIds: [],
        billingAddressIds: [],
        customerGroupAssignments: [],
        stores: [],
        isEmailVerified: false,
        authenticationMode: 'Password',
      });
      customerIds.push(customer.id);
    }
  }, 60_000);
  afterAll(() => gateway.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    gateway.app.inject({ method, url: `/${P}${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as never }) });
  const stores = (n: number) => Array.from({ length: n }, (_, i) => ({ typeId: 'store', key: storeKey(i) }));
  const associates = (n: number) => customerIds.slice(0, n).map((id) => ({ roles: ['Buyer'], customer: { typeId: 'customer', id } }));

  it('refuses a draft with 501 stores or 501 associates (control)', async () => {
    for (const extra of [{ stores: stores(LIMIT + 1) }, { associates: associates(LIMIT + 1) }]) {
      const response = await call('POST', '/business-units', { key: 'too-many', name: 'Too many', unitType: 'Company', ...extra });
      expect(response.statusCode, response.body.slice(0, 200)).toBe(400);
    }
  });

  it('refuses addStore that would make the 501st store, and changes nothing', async () => {
    const created = await call('POST', '/business-units', { key: 'full-stores', name: 'Full', unitType: 'Company', stores: stores(LIMIT) });
    expect(created.statusCode, created.body.slice(0, 200)).toBe(201);
    const added = await call('POST', '/business-units/key=full-stores', {
      version: 1,
      actions: [{ action: 'addStore', store: { typeId: 'store', key: storeKey(LIMIT) } }],
    });
    expect(added.statusCode, added.body.slice(0, 200)).toBe(400);
    expect(added.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
    const unit = (await call('GET', '/business-units/key=full-stores')).json() as { version: number; stores: unknown[] };
    expect(unit.version).toBe(1);
    expect(unit.stores).toHaveLength(LIMIT);
  });

  it('still answers addStore of a store the full unit already lists (nothing to add)', async () => {
    const added = await call('POST', '/business-units/key=full-stores', {
      version: 1,
      actions: [{ action: 'addStore', store: { typeId: 'store', key: storeKey(0) } }],
    });
    expect(added.statusCode, added.body.slice(0, 200)).toBe(200);
  });

  it('refuses addAssociate that would make the 501st associate, and changes nothing', async () => {
    const created = await call('POST', '/business-units', { key: 'full-associates', name: 'Full', unitType: 'Company', associates: associates(LIMIT) });
    expect(created.statusCode, created.body.slice(0, 200)).toBe(201);
    const added = await call('POST', '/business-units/key=full-associates', {
      version: 1,
      actions: [{ action: 'addAssociate', associate: { roles: ['Buyer'], customer: { typeId: 'customer', id: customerIds[LIMIT] } } }],
    });
    expect(added.statusCode, added.body.slice(0, 200)).toBe(400);
    expect(added.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
    const unit = (await call('GET', '/business-units/key=full-associates')).json() as { version: number; associates: unknown[] };
    expect(unit.version).toBe(1);
    expect(unit.associates).toHaveLength(LIMIT);
  });
});
