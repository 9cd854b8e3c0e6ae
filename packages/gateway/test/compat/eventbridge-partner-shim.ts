/**
 * The AWS side of Herald's EventBridge destination, for a Herald configured only through its
 * environment (`herald serve`): in that mode Herald creates the subscription's partner event source
 * (`CreatePartnerEventSource`) before it sends the test notification (§2.4), and the testkit's
 * EventBridge peer models `PutPartnerEvents` only. This front answers `CreatePartnerEventSource`
 * the way AWS does (registering the source on the peer, so that the peer then accepts events for
 * it and only for it) and passes every other request to the peer unchanged.
 *
 * This is a model of AWS, not a workaround in Herald: Herald's requests are the real AWS SDK's.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventBridgePeer } from '@herald/testkit';

export interface EventBridgePartnerShim {
  /** Give this to Herald as `HERALD_EVENTBRIDGE_ENDPOINT`. */
  readonly endpoint: string;
  /** `Name` of every CreatePartnerEventSource call, in order. */
  readonly createdSources: readonly string[];
  stop(): Promise<void>;
}

const CREATE_PARTNER_EVENT_SOURCE = 'AWSEvents.CreatePartnerEventSource';

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startEventBridgePartnerShim(peer: EventBridgePeer): Promise<EventBridgePartnerShim> {
  const createdSources: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (request.headers['x-amz-target'] === CREATE_PARTNER_EVENT_SOURCE) {
        const { Name, Account } = JSON.parse(body.toString('utf8')) as { Name: string; Account: string };
        const exists = peer.partnerEventSources.has(Name);
        if (!exists) peer.createPartnerEventSource(Name);
        createdSources.push(Name);
        const answer = exists
          ? { __type: 'ResourceAlreadyExistsException', message: `Event source ${Name} already exists.` }
          : { EventSourceArn: `arn:aws:events:us-east-1::event-source/${Name}`, Account };
        response.writeHead(exists ? 400 : 200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify(answer));
        return;
      }
      // Everything else (PutPartnerEvents) goes to the peer as it came.
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection' && name !== 'content-length') headers[name] = value;
      }
      const forwarded = await fetch(`${peer.endpoint}${request.url ?? '/'}`, { method: request.method ?? 'POST', headers, body });
      const answer = Buffer.from(await forwarded.arrayBuffer());
      response.writeHead(forwarded.status, { 'content-type': forwarded.headers.get('content-type') ?? 'application/x-amz-json-1.1' });
      response.end(answer);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify({ __type: 'InternalException', message: `shim: ${String(error)}` }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    createdSources,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
