/**
 * §8 "SQS queue maximum message size: 262144 bytes (256 KiB)" (§2.4, §6.2) end to end
 * through the gateway's HTTP API:
 *   - a subscription (create or changeDestination) to a queue whose MaximumMessageSize is not the
 *     default 262144 fails with a 4xx in the error shape, and nothing changes;
 *   - a message larger than 256 KiB is delivered to SQS with `payloadNotIncluded` instead of its
 *     payload, at most 262144 bytes; a small one arrives whole.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { sqsDestination, sqsDocuments, WAIT_MS } from '../subscriptions/support.js';

const P = 'limits-sqs-size';

describe('§8 SQS maximum message size (262144 bytes)', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let api: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_subscriptions', 'manage_stores']);
    ({ sqs, admin: api } = setup);
  });
  afterAll(() => setup?.close());

  const total = async () => (await api.read(`/${P}/subscriptions?withTotal=true&limit=1`)).total as number;

  it.each(['1048576', '131072'])('refuses to create a subscription to a queue whose MaximumMessageSize is %s', async (size) => {
    const queue = sqs.createQueue(`size-${size}`, { MaximumMessageSize: size });
    const before = await total();
    const answer = await api.post(`/${P}/subscriptions`, { destination: sqsDestination(queue), changes: [{ resourceTypeId: 'store' }] });
    expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toMatchObject({
      statusCode: answer.status,
      message: expect.stringMatching(/MaximumMessageSize/),
      errors: [{ code: expect.any(String) }],
    });
    expect(await total()).toBe(before);
  });

  it('refuses changeDestination to such a queue, keeping the old destination and version', async () => {
    const good = sqs.createQueue('size-good');
    const created = await api.ok(`/${P}/subscriptions`, { destination: sqsDestination(good), changes: [{ resourceTypeId: 'store' }] }, 201);
    const big = sqs.createQueue('size-big-change', { MaximumMessageSize: '1048576' });
    const answer = await api.post(`/${P}/subscriptions/${created.id}`, {
      version: created.version,
      actions: [{ action: 'changeDestination', destination: sqsDestination(big) }],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors?.[0]?.code).toEqual(expect.any(String));
    const after = await api.read(`/${P}/subscriptions/${created.id}`);
    expect(after.version).toBe(created.version);
    expect(after.destination.queueUrl).toBe(good);
    await api.delete(`/${P}/subscriptions/${created.id}?version=${created.version}`);
  });

  it('delivers a message over 256 KiB with payloadNotIncluded (at most 262144 bytes), a small one whole', async () => {
    const queue = sqs.createQueue('size-messages');
    await api.ok(`/${P}/subscriptions`, { destination: sqsDestination(queue), messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] }, 201);
    // The test notification arrives first.
    await sqs.waitForMessages(queue, 1, WAIT_MS);
    await sqs.receiveAll(queue);

    const small = await api.ok(`/${P}/stores`, { key: 'size-small', name: { en: 'Small' } }, 201);
    // Five locales of 60,000 characters: a StoreCreated message of about 300 kB.
    const name = Object.fromEntries(['en', 'de', 'fr', 'it', 'es'].map((locale) => [locale, locale.repeat(30_000)]));
    const large = await api.ok(`/${P}/stores`, { key: 'size-large', name }, 201);
    expect(Buffer.byteLength(JSON.stringify(large))).toBeGreaterThan(262_144);

    const sent = await sqs.waitForMessages(queue, 3, WAIT_MS);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const message of sent) expect(Buffer.byteLength(message.body)).toBeLessThanOrEqual(262_144);
    const documents = sqsDocuments(await sqs.receiveAll(queue));
    const byId = (id: string) => documents.find((document: Json) => document.resource?.id === id);
    const whole = byId(small.id);
    expect(whole).toMatchObject({ notificationType: 'Message', type: 'StoreCreated', name: { en: 'Small' } });
    expect(whole?.payloadNotIncluded).toBeUndefined();
    const stripped = byId(large.id);
    expect(stripped).toMatchObject({ notificationType: 'Message', payloadNotIncluded: { reason: expect.any(String), payloadType: 'StoreCreated' } });
    expect(stripped?.name).toBeUndefined();
    expect(stripped?.type).toBeUndefined();
  });
});
