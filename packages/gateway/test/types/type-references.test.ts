/**
 * A Type that resources use cannot be deleted (400 ReferenceExists, as business units with
 * Divisions): `custom.type` of any resource of the project, and of the line items and custom line
 * items of carts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'type-references';

describe('deleting a Type that resources still use', () => {
  let gateway: TestGateway;
  let headers: Record<string, string>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    headers = bearer(await tokenFor(gateway, P, ['manage_project']));
  });
  afterAll(() => gateway?.close());

  const post = (url: string, payload: unknown) => gateway.app.inject({ method: 'POST', url: `/${P}${url}`, headers, payload: payload as object });
  const get = (url: string) => gateway.app.inject({ method: 'GET', url: `/${P}${url}`, headers });
  const del = (url: string) => gateway.app.inject({ method: 'DELETE', url: `/${P}${url}`, headers });

  const createType = async (key: string, resourceTypeIds: string[]) => {
    const type = await post('/types', {
      key,
      name: { en: 'Profile' },
      resourceTypeIds,
      fieldDefinitions: [{ name: 'nickname', type: { name: 'String' }, required: false, label: { en: 'Nickname' } }],
    });
    expect(type.statusCode, type.body).toBe(201);
    return type.json() as { id: string; version: number };
  };

  it('refuses to delete a Type that a customer still uses (400 ReferenceExists, as business units do)', async () => {
    await createType('profile', ['customer']);
    const signUp = await post('/customers', { email: 'typed@example.com', password: 'pw', custom: { type: { key: 'profile' }, fields: { nickname: 'Ty' } } });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const customer = signUp.json().customer as { id: string; version: number };

    const deleted = await del('/types/key=profile?version=1');
    expect(deleted.statusCode, deleted.body).toBe(400);
    expect(deleted.json().errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'customer' });
    expect((await get('/types/key=profile')).statusCode).toBe(200);

    // Once no resource uses it any more, it can go.
    const unset = await post(`/customers/${customer.id}`, { version: customer.version, actions: [{ action: 'setCustomType' }] });
    expect(unset.statusCode, unset.body).toBe(200);
    const again = await del('/types/key=profile?version=1');
    expect(again.statusCode, again.body).toBe(200);
    expect((await get('/types/key=profile')).statusCode).toBe(404);
  });

  it('refuses while a custom line item of a cart uses the Type', async () => {
    await createType('item-fields', ['custom-line-item']);
    const cart = await post('/carts', {
      currency: 'EUR',
      customLineItems: [{
        name: { en: 'Engraving' },
        slug: 'engraving',
        money: { currencyCode: 'EUR', centAmount: 500 },
        quantity: 1,
        custom: { type: { key: 'item-fields' }, fields: { nickname: 'x' } },
      }],
    });
    expect(cart.statusCode, cart.body).toBe(201);
    const deleted = await del('/types/key=item-fields?version=1');
    expect(deleted.statusCode, deleted.body).toBe(400);
    expect(deleted.json().errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'cart' });
  });

  it('deletes an unused Type, and answers a wrong version with 409 first', async () => {
    await createType('unused', ['customer']);
    expect((await del('/types/key=unused?version=2')).statusCode).toBe(409);
    const deleted = await del('/types/key=unused?version=1');
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
});
