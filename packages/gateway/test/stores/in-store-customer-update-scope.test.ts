/**
 * An in-store customer route treats customers of other stores (and global ones) as not found, for
 * updates as for GET and DELETE: whatever the version — a stale version's 409 with
 * `currentVersion` would tell that the customer exists, and its version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller } from '../carts/commerce.js';

const P = 'in-store-update-scope';

describe('in-store customer update of a customer of another store', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    await admin.ok(`/${P}/stores`, { key: 'vienna' }, 201);
  });
  afterAll(() => gateway.close());

  it('answers 404 like GET and DELETE, whatever the version, not 409 with currentVersion', async () => {
    const viennese = (await admin.ok(`/${P}/in-store/key=vienna/customers`, { email: 'v@example.com', password: 'pw', key: 'viennese' }, 201)).customer;
    const global = (await admin.ok(`/${P}/customers`, { email: 'g@example.com', password: 'pw' }, 201)).customer;

    for (const customer of [viennese, global]) {
      const url = `/${P}/in-store/key=berlin/customers/${customer.id}`;
      expect((await admin.get(url)).status).toBe(404);
      expect((await admin.delete(`${url}?version=99`)).status).toBe(404);
      const right = await admin.post(url, { version: customer.version, actions: [{ action: 'setFirstName', firstName: 'X' }] });
      expect(right.status).toBe(404);
      const stale = await admin.post(url, { version: 99, actions: [{ action: 'setFirstName', firstName: 'X' }] });
      expect({ status: stale.status, body: stale.body.errors?.[0] }).toMatchObject({ status: 404, body: { code: 'ResourceNotFound' } });
    }
    const byKey = await admin.post(`/${P}/in-store/key=berlin/customers/key=viennese`, { version: 99, actions: [] });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(404);
  });
});
