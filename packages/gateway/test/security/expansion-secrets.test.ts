import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { AWS_ACCESS_SECRET, gatewayWithSqsPeer, sqsDestination } from '../subscriptions/support.js';

const P = 'security-expand';

/**
 * §2.4: destination secrets are partially hidden in every response, and only manage_subscriptions
 * may read subscriptions. A custom Reference field can name any resource type (subscriptions
 * included), so reference expansion must never load a subscription (it once returned the stored destination, secret included), nor
 * another customer for a token that may not view customers.
 */
describe('reference expansion of a subscription', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ sqs, gateway, stop } = await gatewayWithSqsPeer([P]));
  });
  afterAll(async () => {
    await stop?.();
  });

  it('does not reveal accessSecret through expand on another resource', async () => {
    const subs = await callerWith(gateway, P, ['manage_subscriptions']);
    const subscription = await subs.ok(
      `/${P}/subscriptions`,
      { destination: sqsDestination(sqs.createQueue('expand-leak')), changes: [{ resourceTypeId: 'store' }] },
      201,
    );

    // A caller WITHOUT manage_subscriptions.
    const other = await callerWith(gateway, P, ['manage_types', 'manage_customers']);
    expect((await other.get(`/${P}/subscriptions/${subscription.id}`)).status).toBe(403);
    await other.ok(
      `/${P}/types`,
      {
        key: 'with-ref',
        name: { en: 'ref' },
        resourceTypeIds: ['customer'],
        fieldDefinitions: [{ name: 'ref', label: { en: 'Ref' }, required: false, type: { name: 'Reference', referenceTypeId: 'subscription' } }],
      },
      201,
    );
    const created = await other.ok(
      `/${P}/customers`,
      {
        email: 'leak@example.com',
        password: 'pw',
        custom: { type: { key: 'with-ref' }, fields: { ref: { typeId: 'subscription', id: subscription.id } } },
      },
      201,
    );
    const read = await other.get(`/${P}/customers/${created.customer.id}?expand=custom.fields.ref`);
    expect(read.status).toBe(200);
    const text = JSON.stringify(read.body);
    expect(text).not.toContain(AWS_ACCESS_SECRET);
    expect(read.body.custom.fields.ref.obj).toBeUndefined();
  });

  it('a customer token cannot read another customer through a Reference custom field on its own cart', async () => {
    const admin = await callerWith(gateway, P, ['manage_project']);
    // A shop's cart Type with a Reference to a customer (a contact person, say).
    await admin.ok(
      `/${P}/types`,
      {
        key: 'cart-pickup',
        name: { en: 'pickup' },
        resourceTypeIds: ['order'],
        fieldDefinitions: [{ name: 'pickup', label: { en: 'Pickup' }, required: false, type: { name: 'Reference', referenceTypeId: 'customer' } }],
      },
      201,
    );
    const victim = (await admin.ok(`/${P}/customers`, { email: 'victim@example.com', password: 'pw', firstName: 'Victoria' }, 201)).customer;
    const attacker = await customerWithToken(gateway, P, admin, ['manage_my_orders']);
    const cart = await attacker.caller.ok(
      `/${P}/me/carts`,
      { currency: 'EUR', custom: { type: { key: 'cart-pickup' }, fields: { pickup: { typeId: 'customer', id: victim.id } } } },
      201,
    );
    const read = await attacker.caller.get(`/${P}/me/carts/${cart.id}?expand=custom.fields.pickup`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('victim@example.com');
  });
});
