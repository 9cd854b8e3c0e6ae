/**
 * A Store is not deleted while resources still reference it: 400 ReferenceExists, as for a Type in
 * use. Every reference to a Store holds its key (a KeyReference), so a Store deleted under them and
 * created again with the same key would silently take over the old one's in-store customers (and
 * their passwords), carts, quote requests and business units; until then in-store customers would be
 * unreachable (their routes 404 for a missing store). Customers (`stores`), business units
 * (`stores`), carts and quote requests (`store`) all block; once they are gone, the delete succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';

const P = 'store-delete-referenced';

describe('deleting a Store that other resources reference', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  const deleteStore = (store: Json) => admin.delete(`/${P}/stores/${store.id}?version=${store.version}`);
  const refusal = (answer: { status: number; body: Json }) => ({ status: answer.status, error: answer.body.errors?.[0] });

  it('is refused with 400 ReferenceExists while an in-store customer belongs to it', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    const customer = (await admin.ok(`/${P}/in-store/key=berlin/customers`, { email: 'b@example.com', password: 'pw' }, 201)).customer;
    expect(refusal(await deleteStore(store))).toMatchObject({ status: 400, error: { code: 'ReferenceExists', referencedBy: 'customer' } });

    // Without its customers it can be deleted, and a new Store with the key starts empty.
    expect((await admin.delete(`/${P}/in-store/key=berlin/customers/${customer.id}?version=${customer.version}`)).status).toBe(200);
    expect((await deleteStore(store)).status).toBe(200);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    expect((await admin.read(`/${P}/in-store/key=berlin/customers?withTotal=true`)).total).toBe(0);
  });

  it('is refused with 400 ReferenceExists while a business unit lists it', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'vienna' }, 201);
    const unit = await admin.ok(
      `/${P}/business-units`,
      { key: 'vienna-co', name: 'Vienna Co', unitType: 'Company', stores: [{ typeId: 'store', key: 'vienna' }] },
      201,
    );
    expect(refusal(await deleteStore(store))).toMatchObject({ status: 400, error: { code: 'ReferenceExists', referencedBy: 'business-unit' } });

    await admin.update(`/${P}/business-units/${unit.id}`, unit.version, [{ action: 'removeStore', store: { typeId: 'store', key: 'vienna' } }]);
    expect((await deleteStore(store)).status).toBe(200);
  });

  it('is refused while a cart or a quote request has it as its store', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'paris' }, 201);
    const buyer = (await admin.ok(`/${P}/customers`, { email: 'buyer@example.com', password: 'pw' }, 201)).customer;
    const cart = await admin.ok(`/${P}/in-store/key=paris/carts`, { currency: 'EUR', customerId: buyer.id }, 201);
    expect(refusal(await deleteStore(store))).toMatchObject({ status: 400, error: { code: 'ReferenceExists', referencedBy: 'cart' } });

    // The quote request copies the cart's store, and blocks on its own once the cart is gone.
    const quoteRequest = await admin.ok(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: cart.version }, 201);
    expect(quoteRequest.store).toEqual({ typeId: 'store', key: 'paris' });
    expect((await admin.delete(`/${P}/carts/${cart.id}?version=${cart.version}`)).status).toBe(200);
    expect(refusal(await deleteStore(store))).toMatchObject({ status: 400, error: { code: 'ReferenceExists', referencedBy: 'quote-request' } });

    expect((await admin.delete(`/${P}/quote-requests/${quoteRequest.id}?version=${quoteRequest.version}`)).status).toBe(200);
    expect((await deleteStore(store)).status).toBe(200);
  });
});
