/**
 * Pub/Sub push puts the delivery count in the push envelope: `{ message, subscription,
 * deliveryAttempt }` (set when the subscription has a dead-letter policy: 1 on the first delivery,
 * 1 + nacks after). The pull source hands it to the consumer (src/sources/pubsub-source.ts:138), as
 * do SQS and Service Bus; the HTTP push endpoint drops it, so for Pub/Sub push
 * `context.deliveryAttempt` is always undefined and a failing delivery's retry delay never grows
 * (`retry.failureBaseMs × 2^(attempt−1)` is computed with attempt 1 forever).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryDedupStore, type DeliveryContext } from '../../src/index.js';
import { cloudEventOf, messagePayload } from '../support/fixtures.js';
import { nodeEndpoint, pubSubPushBody, type PushEndpoint } from '../support/push-endpoints.js';

describe('Pub/Sub push: the envelope deliveryAttempt reaches the consumer', () => {
  let endpoint: PushEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });

  it('passes deliveryAttempt to the handler as context.deliveryAttempt', async () => {
    const contexts: DeliveryContext[] = [];
    endpoint = await nodeEndpoint({ dedup: new MemoryDedupStore(), handler: (_delivery, context) => void contexts.push(context) });
    const event = cloudEventOf(messagePayload(1, { id: 'attempt-ctx' }));
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: pubSubPushBody(JSON.stringify(event), { deliveryAttempt: 4 }),
    });
    expect(response.status).toBe(204);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.deliveryAttempt).toBe(4);
  });

  it('backs off by the delivery count after a handler failure (Retry-After = base × 2^(attempt−1))', async () => {
    endpoint = await nodeEndpoint({
      dedup: new MemoryDedupStore(),
      retry: { failureBaseMs: 1_000, failureMaxMs: 30_000 },
      handler: () => {
        throw new Error('downstream unavailable');
      },
    });
    const event = cloudEventOf(messagePayload(1, { id: 'attempt-backoff' }));
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: pubSubPushBody(JSON.stringify(event), { deliveryAttempt: 4 }),
    });
    expect(response.status).toBe(503);
    // 1 s × 2^(4−1) = 8 s, as the same failure gets from the SQS / Service Bus / Pub/Sub pull sources.
    expect(response.headers.get('retry-after')).toBe('8');
  });
});
