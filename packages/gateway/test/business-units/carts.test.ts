import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, Client, customerClient, type Json } from './support.js';

const P = 'bu-carts';

const UPDATE_MY_CART = /* GraphQL */ `
  mutation ($id: String!, $version: Long!, $unit: String!) {
    updateMyCart(id: $id, version: $version, actions: [{ setBusinessUnit: { businessUnit: { key: $unit } } }]) {
      id
      version
      businessUnit {
        typeId
        key
      }
    }
  }
`;

/** §4.3 Cart and My Cart `setBusinessUnit`; §1.4 the acting customer must be an associate of the unit. */
describe('Cart setBusinessUnit (GraphQL)', () => {
  let gateway: TestGateway;
  let admin: Client;
  let buyer: Client;
  let outsider: Client;

  async function cartOf(customer: Client): Promise<Json> {
    return customer.ok('POST', '/me/carts', { currency: 'EUR' }, 201);
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'manage_orders']);
    buyer = await customerClient(gateway, P, ['manage_my_orders']);
    outsider = await customerClient(gateway, P, ['manage_my_orders']);
    await admin.gql(
      `mutation { createBusinessUnit(draft: {key: "acme", name: "ACME", unitType: Company, associates: [{roles: [Buyer], customer: {id: "${buyer.customerId}"}}]}) { id } }`,
    );
  });
  afterAll(() => gateway.close());

  it('sets the business unit of the buyer’s own cart when the buyer is an associate', async () => {
    const cart = await cartOf(buyer);
    const data = await buyer.gql(UPDATE_MY_CART, { id: cart.id, version: cart.version, unit: 'acme' });
    expect(data.updateMyCart).toEqual({ id: cart.id, version: cart.version + 1, businessUnit: { typeId: 'business-unit', key: 'acme' } });
    expect(await buyer.ok('GET', `/me/carts/${cart.id as string}`)).toMatchObject({ businessUnit: { typeId: 'business-unit', key: 'acme' } });
  });

  it('refuses a customer who is not an associate (AssociateMissingPermission) and changes nothing', async () => {
    const cart = await cartOf(outsider);
    const error = await outsider.gqlError(UPDATE_MY_CART, { id: cart.id, version: cart.version, unit: 'acme' });
    expect(error.extensions).toMatchObject({ code: 'AssociateMissingPermission', statusCode: 403, businessUnit: { key: 'acme' } });
    expect(await outsider.ok('GET', `/me/carts/${cart.id as string}`)).toMatchObject({ version: cart.version });
    expect((await outsider.ok('GET', `/me/carts/${cart.id as string}`)).businessUnit).toBeUndefined();
  });

  it('answers another buyer’s cart like a missing one, and a missing unit with ReferencedResourceNotFound', async () => {
    const cart = await cartOf(buyer);
    expect((await outsider.gqlError(UPDATE_MY_CART, { id: cart.id, version: cart.version, unit: 'acme' })).extensions.code).toBe('ResourceNotFound');
    expect((await buyer.gqlError(UPDATE_MY_CART, { id: cart.id, version: cart.version, unit: 'nowhere' })).extensions.code).toBe('ReferencedResourceNotFound');
  });

  it('refuses an anonymous session (nobody’s associate) and an API-client token', async () => {
    const { id, secret } = gateway.bootstrapClient;
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/oauth/${P}/anonymous/token`,
      headers: { ...basicAuth(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', scope: `manage_my_orders:${P}` }).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
    const anonymous = new Client(gateway, P, (response.json() as Json).access_token as string);
    const cart = await cartOf(anonymous);
    expect((await anonymous.gqlError(UPDATE_MY_CART, { id: cart.id, version: cart.version, unit: 'acme' })).extensions.code).toBe('AssociateMissingPermission');

    const client = await apiClient(gateway, P, ['manage_my_orders']);
    expect((await client.gqlError(UPDATE_MY_CART, { id: cart.id, version: cart.version, unit: 'acme' })).extensions.code).toBe('InsufficientScope');
  });

  it('lets an API client with manage_orders set the unit of any cart', async () => {
    const cart = await cartOf(outsider);
    const data = await admin.gql(
      `mutation { updateCart(id: "${cart.id as string}", version: ${cart.version as number}, actions: [{setBusinessUnit: {businessUnit: {key: "acme"}}}]) { businessUnit { key } } }`,
    );
    expect(data.updateCart).toEqual({ businessUnit: { key: 'acme' } });
    const scoped = await buyer.gqlError(
      `mutation { updateCart(id: "${cart.id as string}", version: 2, actions: [{setBusinessUnit: {businessUnit: {key: "acme"}}}]) { id } }`,
    );
    expect(scoped.extensions).toMatchObject({ code: 'InsufficientScope', scope: 'manage_orders' });
  });
});
