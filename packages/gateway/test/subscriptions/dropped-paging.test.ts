/**
 * Paging parameters of `GET /{projectKey}/subscriptions/{id}/dropped` are read like those of every
 * other list: each at most once. A repeated one (`withTotal=true&withTotal=false`, an array in the
 * parsed query) is a 400 in the error shape, not a TypeError in the paging parser and a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../support/gateway.js';
import { gatewayWithSqsPeer, sqsDestination } from './support.js';

const P = 'subs-dropped-paging';

describe('paging parameters of the dropped-deliveries list', () => {
  let world: Awaited<ReturnType<typeof gatewayWithSqsPeer>>;
  let token: string;
  let id: string;
  beforeAll(async () => {
    world = await gatewayWithSqsPeer([P]);
    token = await tokenFor(world.gateway, P, ['manage_subscriptions']);
    const queue = await world.sqs.createQueue('dropped-paging-queue');
    const created = await world.gateway.app.inject({
      method: 'POST',
      url: `/${P}/subscriptions`,
      headers: bearer(token),
      payload: { destination: sqsDestination(queue), changes: [{ resourceTypeId: 'store' }] },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
    id = (created.json() as { id: string }).id;
  }, 60_000);
  afterAll(() => world.stop());

  const get = (query: string) => world.gateway.app.inject({ method: 'GET', url: `/${P}/subscriptions/${id}/dropped?${query}`, headers: bearer(token) });

  it.each(['withTotal=false', 'limit=1&offset=0&withTotal=true'])('answers %s (control)', async (query) => {
    const response = await get(query);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ results: [] });
  });

  it.each(['withTotal=true&withTotal=false', 'limit=1&limit=2', 'offset=0&offset=1', 'withTotal=maybe'])(
    'answers %s with a 400 in the error shape',
    async (query) => {
      const response = await get(query);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
    },
  );
});
