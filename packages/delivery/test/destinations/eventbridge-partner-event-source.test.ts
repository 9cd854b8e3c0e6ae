import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Destination, Format } from '@herald/model';
import { startEventBridgePeer, type EventBridgePeer } from '@herald/testkit';
import { createDestinationEnvironment, DestinationPool, sendTestNotification } from '../../src/index.js';
import { messagePayload, PROJECT_KEY } from './support/payloads.js';

/**
 * §2.4 EventBridge: "after a successful configuration a partner event source is created on the
 * receiving side, and it must be associated with an event bus". Herald creates it when the
 * subscription is created (verify, before the test notification). `setKey` is an ordinary update
 * action that creates no source, yet later deliveries are encoded with the subscription's current
 * key (engine/sender.ts): so the source must be named after something that never changes, the
 * subscription id, or every delivery after a key change goes to a source that does not exist.
 */
const ACCESS_KEY_ID = 'AKIAHERALDPARTNER001';
const SUBSCRIPTION_ID = '5f0e5a43-0000-4000-8000-0000000000ab';
const PLATFORM: Format = { type: 'Platform' };

/** AWS's CreatePartnerEventSource in front of the peer (which models PutPartnerEvents only). */
async function startCreateSourceFront(peer: EventBridgePeer): Promise<{ endpoint: string; server: Server }> {
  const readBody = async (request: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (request.headers['x-amz-target'] === 'AWSEvents.CreatePartnerEventSource') {
        const { Name } = JSON.parse(body.toString('utf8')) as { Name: string };
        peer.createPartnerEventSource(Name);
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify({ EventSourceArn: `arn:aws:events:eu-central-1::event-source/${Name}` }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
      }
      const forwarded = await fetch(`${peer.endpoint}${request.url ?? '/'}`, { method: request.method ?? 'POST', headers, body });
      response.writeHead(forwarded.status, { 'content-type': forwarded.headers.get('content-type') ?? 'application/x-amz-json-1.1' });
      response.end(Buffer.from(await forwarded.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('EventBridge adapter: the partner event source of a subscription', () => {
  let peer: EventBridgePeer;
  let front: { endpoint: string; server: Server };
  let pool: DestinationPool;
  const destination: Destination = { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' };

  beforeAll(async () => {
    peer = await startEventBridgePeer({ accessKeyId: ACCESS_KEY_ID, partnerEventSources: [] });
    front = await startCreateSourceFront(peer);
    pool = new DestinationPool(
      createDestinationEnvironment({
        endpoints: { eventBridge: front.endpoint },
        eventBridge: { credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: 'partner-secret' }, createPartnerEventSources: true },
        timeouts: { sendMs: 5_000 },
      }),
    );
  });

  afterAll(async () => {
    await pool?.closeAll();
    await new Promise<void>((resolve) => front?.server.close(() => resolve()));
    await peer?.stop();
  });

  it('keeps delivering to the source created for the subscription after setKey changed its key', async () => {
    // Subscription created with key `orders`: its source is created and the test notification arrives.
    const created = await sendTestNotification(pool, destination, PLATFORM, {
      projectKey: PROJECT_KEY,
      subscriptionId: SUBSCRIPTION_ID,
      subscriptionKey: 'orders',
      clock: { now: () => new Date('2025-05-06T07:08:09.000Z') },
    });
    expect(created).toEqual({ status: 'delivered' });
    expect([...peer.partnerEventSources]).toEqual([`aws.partner/herald/${PROJECT_KEY}/${SUBSCRIPTION_ID}`]);

    // setKey { key: 'orders-v2' }: no test notification, no verify; encoding knows only the id.
    const adapter = pool.get(destination);
    const encoded = adapter.encode(messagePayload(1), PLATFORM, { subscriptionId: SUBSCRIPTION_ID });
    if (!encoded.ok) throw new Error(encoded.failure.message);
    const outcomes = await adapter.send([encoded.message]);

    expect(outcomes).toEqual([{ status: 'delivered' }]);
    // ... on the one source the customer has (and associated with an event bus).
    expect(new Set(peer.received.map((event) => event.Source))).toEqual(new Set(peer.partnerEventSources));
  });
});
