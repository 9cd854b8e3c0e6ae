/**
 * A destination type named like an Object.prototype member ("toString", "__proto__", …) is an
 * unknown type: 400 InvalidInput on create and on changeDestination, never a 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../support/gateway.js';
import { gatewayWithSqsPeer, sqsDestination } from './support.js';
import type { SqsPeer } from '@herald/testkit';
import type { TestGateway } from '../support/gateway.js';

const P = 'subs-proto-types';
const INHERITED_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];

describe('subscription destination types named like Object.prototype members', () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let stop: () => Promise<void>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    ({ sqs, gateway, stop } = await gatewayWithSqsPeer([P]));
    admin = bearer(await tokenFor(gateway, P, ['manage_subscriptions']));
  });
  afterAll(async () => {
    await stop?.();
  });

  it.each(INHERITED_NAMES)('POST /subscriptions with destination.type %j answers 400 InvalidInput, not 500', async (type) => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/subscriptions`,
      headers: admin,
      payload: { destination: { type }, changes: [{ resourceTypeId: 'store' }] },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', field: 'destination' }] });
  });

  it.each(INHERITED_NAMES)('changeDestination to destination.type %j answers 400 InvalidInput, not 500', async (type) => {
    const created = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/subscriptions`,
      headers: admin,
      payload: { destination: sqsDestination(sqs.createQueue(`proto-${type.replace(/_/g, 'u')}`)), changes: [{ resourceTypeId: 'store' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, version } = created.json() as { id: string; version: number };
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/${P}/subscriptions/${id}`,
      headers: admin,
      payload: { version, actions: [{ action: 'changeDestination', destination: { type } }] },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
  });
});
