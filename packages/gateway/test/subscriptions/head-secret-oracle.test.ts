import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith } from '../carts/commerce.js';
import { bearer, type TestGateway } from '../support/gateway.js';
import { AWS_ACCESS_SECRET, gatewayWithSqsPeer, sqsDestination } from './support.js';

const P = 'subs-head-oracle';

/**
 * §2.4: secrets are partially hidden; subscriptions/secret-queries.ts refuses `where`/`sort` on
 * hidden destination fields so that a predicate cannot recover the hidden value by bisection. HEAD
 * on the query endpoint is an existence check (http/head.ts: 200 if anything matches, else 404),
 * the same oracle: it is refused like GET.
 */
describe('HEAD on the subscriptions query with a predicate on accessSecret', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ sqs, gateway, stop } = await gatewayWithSqsPeer([P]));
  });
  afterAll(async () => {
    await stop?.();
  });

  it('is refused like GET', async () => {
    const api = await callerWith(gateway, P, ['manage_subscriptions']);
    await api.ok(`/${P}/subscriptions`, { destination: sqsDestination(sqs.createQueue('head-oracle')), changes: [{ resourceTypeId: 'store' }] }, 201);
    const head = (predicate: string) =>
      gateway.app.inject({ method: 'HEAD', url: `/${P}/subscriptions?where=${encodeURIComponent(predicate)}`, headers: bearer(api.token) });

    const get = await api.get(`/${P}/subscriptions?where=${encodeURIComponent(`destination(accessSecret > "a")`)}`);
    expect(get.status).toBe(400); // the guard works for GET

    const above = await head(`destination(accessSecret > "${AWS_ACCESS_SECRET.slice(0, 5)}")`);
    const below = await head(`destination(accessSecret > "${AWS_ACCESS_SECRET.slice(0, 4)}z")`);
    expect([above.statusCode, below.statusCode]).toEqual([400, 400]);
  });
});
