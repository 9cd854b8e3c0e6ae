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
      customLineItems: [
        {
          name: { en: 'Engraving' },
          slug: 'engraving',
          money: { currencyCode: 'EUR', centAmount: 500 },
          quantity: 1,
          custom: { type: { key: 'item-fields' }, fields: { nickname: 'x' } },
        },
      ],
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

  describe('field definitions added to a Type in use', () => {
    const update = (key: string, version: number, actions: unknown[]) => post(`/types/key=${key}`, { version, actions });
    const field = (name: string, typeName: string, required = false) => ({ name, type: { name: typeName }, required, label: { en: name } });

    it('refuses a required field (the resources that use the Type have no value for it); an optional one is added', async () => {
      await createType('in-use', ['customer']);
      expect((await post('/customers', { email: 'in-use@example.com', password: 'pw', custom: { type: { key: 'in-use' }, fields: {} } })).statusCode).toBe(201);
      const required = await update('in-use', 1, [{ action: 'addFieldDefinition', fieldDefinition: field('tier', 'String', true) }]);
      expect(required.statusCode, required.body).toBe(400);
      expect(required.json().errors[0]).toMatchObject({ code: 'InvalidOperation', message: expect.stringContaining('required') });
      expect((await update('in-use', 1, [{ action: 'addFieldDefinition', fieldDefinition: field('tier', 'String') }])).statusCode).toBe(200);
      // An unused Type takes a required field.
      await createType('not-used', ['customer']);
      expect((await update('not-used', 1, [{ action: 'addFieldDefinition', fieldDefinition: field('tier', 'String', true) }])).statusCode).toBe(200);
    });

    it('refuses to re-add a removed field name while resources still hold its old values', async () => {
      await createType('renamed', ['customer']);
      const signUp = await post('/customers', {
        email: 'renamed@example.com',
        password: 'pw',
        custom: { type: { key: 'renamed' }, fields: { nickname: 'Ty' } },
      });
      const customer = signUp.json().customer as { id: string; version: number };
      expect((await update('renamed', 1, [{ action: 'removeFieldDefinition', fieldName: 'nickname' }])).statusCode).toBe(200);
      // Re-added as a Number, it would adopt the stored String "Ty".
      const readded = await update('renamed', 2, [{ action: 'addFieldDefinition', fieldDefinition: field('nickname', 'Number') }]);
      expect(readded.statusCode, readded.body).toBe(400);
      expect(readded.json().errors[0]).toMatchObject({ code: 'InvalidOperation', message: expect.stringContaining("'nickname'") });
      // Once the old value is removed, the name is free again.
      const cleared = await post(`/customers/${customer.id}`, { version: customer.version, actions: [{ action: 'setCustomField', name: 'nickname' }] });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect((await update('renamed', 2, [{ action: 'addFieldDefinition', fieldDefinition: field('nickname', 'Number') }])).statusCode).toBe(200);
    });
  });
});
