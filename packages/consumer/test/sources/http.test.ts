import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer, createNodeHttpHandler, heraldConsumerPlugin, MemoryDedupStore, type Delivery } from '../../src/index.js';
import { cloudEventOf, messagePayload } from '../support/fixtures.js';

interface Endpoint {
  url: string;
  readonly handled: Delivery[];
  failNext: boolean;
}

function consumerFor(endpoint: { handled: Delivery[]; failNext: boolean }) {
  return createConsumer({
    dedup: new MemoryDedupStore(),
    retry: { failureBaseMs: 2_500 },
    handler: (delivery) => {
      if (endpoint.failNext) {
        endpoint.failNext = false;
        throw new Error('downstream unavailable');
      }
      endpoint.handled.push(delivery);
    },
  });
}

function sequenceNumbers(deliveries: readonly Delivery[]): number[] {
  return deliveries.map((delivery) => (delivery.notificationType === 'Message' ? delivery.payload.sequenceNumber : -1));
}

/** The same behaviour through both front ends. */
function pushEndpointContract(name: string, start: () => Promise<{ endpoint: Endpoint; stop: () => Promise<void> }>): void {
  describe(name, () => {
    let endpoint: Endpoint;
    let stop: () => Promise<void>;

    beforeAll(async () => {
      ({ endpoint, stop } = await start());
    });
    afterAll(async () => {
      await stop();
    });

    it('grants the CloudEvents webhook validation handshake to an allowed origin', async () => {
      const response = await fetch(endpoint.url, { method: 'OPTIONS', headers: { 'WebHook-Request-Origin': 'eventgrid.azure.net' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('webhook-allowed-origin')).toBe('eventgrid.azure.net');
      expect(response.headers.get('webhook-allowed-rate')).toBe('120');
      expect(response.headers.get('allow')).toContain('POST');
    });

    it('refuses the handshake to another origin, without the grant headers', async () => {
      const response = await fetch(endpoint.url, { method: 'OPTIONS', headers: { 'WebHook-Request-Origin': 'evil.example.com' } });
      expect(response.status).toBe(403);
      expect(response.headers.get('webhook-allowed-origin')).toBeNull();
    });

    it('acknowledges an Event Grid batch with 204 after handling every event', async () => {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/cloudevents-batch+json; charset=utf-8', 'aeg-delivery-count': '0' },
        body: JSON.stringify([cloudEventOf(messagePayload(1, { id: 'eg' })), cloudEventOf(messagePayload(2, { id: 'eg' }))]),
      });
      expect(response.status).toBe(204);
      expect(sequenceNumbers(endpoint.handled.filter((delivery) => delivery.payload.resource.id === 'eg'))).toEqual([1, 2]);
    });

    it('accepts a structured and a binary-mode CloudEvent', async () => {
      const structured = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/cloudevents+json' },
        body: JSON.stringify(cloudEventOf(messagePayload(1, { id: 'single' }))),
      });
      const event = cloudEventOf(messagePayload(2, { id: 'single' }));
      const binary = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'ce-specversion': '1.0', 'ce-id': event.id, 'ce-type': event.type, 'ce-source': event.source },
        body: JSON.stringify(event.data),
      });
      expect([structured.status, binary.status]).toEqual([204, 204]);
      const single = endpoint.handled.filter((delivery) => delivery.payload.resource.id === 'single');
      expect(single.map((delivery) => delivery.origin.cloudEventsMode)).toEqual(['structured', 'binary']);
    });

    it('acknowledges a Pub/Sub push with 204', async () => {
      const data = Buffer.from(JSON.stringify(cloudEventOf(messagePayload(1, { id: 'push' })))).toString('base64');
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: { data, attributes: { 'content-type': 'application/cloudevents+json' }, messageId: '77', publishTime: '2025-01-01T00:00:00Z' },
          subscription: 'projects/p/subscriptions/s',
        }),
      });
      expect(response.status).toBe(204);
      expect(endpoint.handled.find((delivery) => delivery.payload.resource.id === 'push')?.origin).toMatchObject({
        envelope: 'pubsub-push',
        transportMessageId: '77',
      });
    });

    it('answers 503 with Retry-After when the handler fails (the pusher retries)', async () => {
      endpoint.failNext = true;
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/cloudevents+json' },
        body: JSON.stringify(cloudEventOf(messagePayload(1, { id: 'fail' }))),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('3');
      expect(await response.json()).toMatchObject({ statusCode: 503, errors: [{ code: 'ServiceUnavailable' }] });
    });

    it('answers 400 in the project error shape for a poison body (Event Grid dead-letters it)', async () => {
      const response = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/cloudevents+json' }, body: '{"specversion":"0.3"' });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { statusCode: number; message: string; errors: { code: string }[] };
      expect(body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
      expect(body.message).toMatch(/^invalid-json/);
    });

    it('answers 405 to other methods', async () => {
      expect((await fetch(endpoint.url, { method: 'GET' })).status).toBe(405);
    });
  });
}

pushEndpointContract('node:http request handler', async () => {
  const endpoint: Endpoint = { url: '', handled: [], failNext: false };
  const server: Server = createServer(
    createNodeHttpHandler(consumerFor(endpoint), { path: '/events', allowedOrigins: ['EventGrid.azure.net'], allowedRate: 120, bodyLimitBytes: 64 * 1024 }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  endpoint.url = `http://127.0.0.1:${port}/events`;
  return { endpoint, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
});

pushEndpointContract('Fastify plugin', async () => {
  const endpoint: Endpoint = { url: '', handled: [], failNext: false };
  const app: FastifyInstance = Fastify();
  await app.register(heraldConsumerPlugin, { consumer: consumerFor(endpoint), prefix: '/events', allowedOrigins: ['eventgrid.azure.net'], allowedRate: 120 });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  endpoint.url = `${address}/events/`;
  return { endpoint, stop: () => app.close() };
});

describe('node:http request handler limits', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer(createNodeHttpHandler(consumerFor({ handled: [], failNext: false }), { path: '/events', bodyLimitBytes: 1_024 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 404 off its path and 413 above the body limit', async () => {
    expect((await fetch(`${base}/other`, { method: 'POST', body: '{}' })).status).toBe(404);
    const tooLarge = await fetch(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2_048) });
    expect(tooLarge.status).toBe(413);
  });

  it('grants any origin by default, and serves only / by default (as the README and the Fastify plugin say)', async () => {
    const open = createServer(createNodeHttpHandler(consumerFor({ handled: [], failNext: false })));
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(open.address() as AddressInfo).port}`;
      const response = await fetch(`${base}/`, { method: 'OPTIONS', headers: { 'WebHook-Request-Origin': 'anyone.example.com' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('webhook-allowed-origin')).toBe('anyone.example.com');
      expect(response.headers.get('webhook-allowed-rate')).toBe('*');
      expect((await fetch(`${base}/?x=1`, { method: 'OPTIONS' })).status).toBe(204);
      expect((await fetch(`${base}/anything`, { method: 'POST', body: '{}' })).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => open.close(() => resolve()));
    }
  });
});
