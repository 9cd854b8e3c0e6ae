import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken, eur, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'graphql-cart-updates';

/**
 * Issue 29: GraphQL's CartUpdateAction and MyCartUpdateAction have every REST cart action, applied
 * by the same handlers. The inputs whose GraphQL form differs from REST's arrive as REST's: a
 * LocalizedString as [{locale, value}], ShippingRateInputDraft as {Score: {score}}, a
 * CustomFieldsDraft by typeKey with JSON-encoded values. The cart is read back through REST.
 */
describe('GraphQL: updateCart and updateMyCart with the REST cart actions', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let seller: Caller;
  let buyer: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    seller = await callerWith(gateway, P, ['manage_orders', 'manage_customers', 'manage_types']);
    buyer = await customerWithToken(gateway, P, seller, ['manage_my_orders']);
    const fieldDefinitions = [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }];
    await seller.ok(`/${P}/types`, { key: 'cart-fields', name: { en: 'Cart fields' }, resourceTypeIds: ['order', 'custom-line-item'], fieldDefinitions }, 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  async function graphql(token: string, query: string, variables: Json): Promise<Json> {
    const response = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(token), payload: { query, variables } });
    return response.json() as Json;
  }

  const UPDATE_CART = `mutation ($id: String!, $version: Long!, $actions: [CartUpdateAction!]!) {
    updateCart(id: $id, version: $version, actions: $actions) { id version key }
  }`;

  it('sets the cart fields, adds a custom line item, freezes and unfreezes the cart through updateCart', async () => {
    const cart = await seller.ok(`/${P}/carts`, { currency: 'EUR', country: 'DE' }, 201);
    const actions = [
      { setKey: { key: 'gql-cart' } },
      { setCustomerEmail: { email: 'buyer@example.com' } },
      { setShippingRateInput: { shippingRateInput: { Score: { score: 3 } } } },
      { changeTaxRoundingMode: { taxRoundingMode: 'HalfDown' } },
      {
        addCustomLineItem: {
          key: 'wrap',
          name: [{ locale: 'en', value: 'Gift wrap' }],
          slug: 'wrap',
          money: eur(250),
          quantity: 2,
          custom: { typeKey: 'cart-fields', fields: [{ name: 'note', value: '"red"' }] },
        },
      },
      { setCustomType: { typeKey: 'cart-fields', fields: [{ name: 'note', value: '"rush"' }] } },
      { freezeCart: { strategy: 'SoftFreeze' } },
      { unfreezeCart: {} },
    ];
    const answer = await graphql(seller.token, UPDATE_CART, { id: cart.id, version: cart.version, actions });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.updateCart.key).toBe('gql-cart');
    const after = await seller.read(`/${P}/carts/${cart.id as string}`);
    expect(after).toMatchObject({
      customerEmail: 'buyer@example.com',
      shippingRateInput: { type: 'Score', score: 3 },
      taxRoundingMode: 'HalfDown',
      cartState: 'Active',
      custom: { fields: { note: 'rush' } },
    });
    expect(after.customLineItems[0]).toMatchObject({ key: 'wrap', name: { en: 'Gift wrap' }, quantity: 2, custom: { fields: { note: 'red' } } });
    expect(after.totalPrice.centAmount).toBe(500);
  });

  it("updateMyCart takes the buyer's actions; MyCartUpdateAction has no member for a merchant's action (setKey)", async () => {
    const cart = await buyer.caller.ok(`/${P}/me/carts`, { currency: 'EUR', country: 'DE' }, 201);
    const query = `mutation ($id: String!, $version: Long!, $actions: [MyCartUpdateAction!]!) { updateMyCart(id: $id, version: $version, actions: $actions) { id version } }`;
    const answer = await graphql(buyer.caller.token, query, {
      id: cart.id,
      version: cart.version,
      actions: [{ setLocale: { locale: 'de' } }, { setCountry: { country: 'AT' } }],
    });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(await buyer.caller.read(`/${P}/me/carts/${cart.id as string}`)).toMatchObject({ locale: 'de', country: 'AT' });

    const merchantOnly = await graphql(buyer.caller.token, query, {
      id: cart.id,
      version: answer.data.updateMyCart.version,
      actions: [{ setKey: { key: 'x' } }],
    });
    expect(merchantOnly.errors?.[0]?.message).toMatch(/setKey/);
  });
});
