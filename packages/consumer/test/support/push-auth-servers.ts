import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import {
  createConsumer,
  createNodeHttpHandler,
  heraldConsumerPlugin,
  MemoryDedupStore,
  type Delivery,
  type PushAuthenticationOptions,
} from '../../src/index.js';
import type { TestCertificates } from './push-auth-keys.js';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A loopback server that records the path of every request and answers from a route table (404 otherwise). */
export interface RecordingServer {
  readonly origin: string;
  readonly requests: string[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<Pick<RecordingServer, 'origin' | 'close'>> {
  // Longer than any pause of a loaded test machine: fetch() reuses kept-alive sockets, and one the
  // server closes at its default 5 s just as a request goes out fails that request.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function recordingListener(state: { requests: string[]; routes: Map<string, Route> }): Route {
  return (request, response) => {
    const url = request.url ?? '/';
    state.requests.push(url);
    const route = state.routes.get(url.split('?')[0] ?? '/');
    if (route === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    route(request, response);
  };
}

export const text =
  (body: string, contentType = 'text/plain'): Route =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': contentType }).end(body);
  };

/** HTTPS on 127.0.0.1 with a certificate of the test CA (stands in for sns.<region>.amazonaws.com). */
export async function startHttpsPeer(certificates: TestCertificates, routes: Record<string, Route>): Promise<RecordingServer> {
  const state = { requests: [] as string[], routes: new Map(Object.entries(routes)) };
  const server = createHttpsServer({ key: certificates.serverKeyPem, cert: certificates.serverCertPem }, recordingListener(state));
  const { origin, close } = await listen(server, 'https');
  return Object.assign(state, { origin, close });
}

/** Plain HTTP on 127.0.0.1 (a JWKS endpoint: jose fetches it with the global fetch). */
export async function startHttpPeer(routes: Record<string, Route>): Promise<RecordingServer> {
  const state = { requests: [] as string[], routes: new Map(Object.entries(routes)) };
  const server = createHttpServer(recordingListener(state));
  const { origin, close } = await listen(server, 'http');
  return Object.assign(state, { origin, close });
}

/** One front end of the consumer with authentication on, and what its handler was given. */
export interface AuthenticatedEndpoint {
  readonly name: string;
  readonly url: string;
  readonly handled: Delivery[];
  close(): Promise<void>;
}

function recordingConsumer(handled: Delivery[]) {
  return createConsumer({ dedup: new MemoryDedupStore(), handler: (delivery) => void handled.push(delivery) });
}

export async function authenticatedNodeEndpoint(authentication: PushAuthenticationOptions): Promise<AuthenticatedEndpoint> {
  const handled: Delivery[] = [];
  const consumer = recordingConsumer(handled);
  const server = createHttpServer(createNodeHttpHandler(consumer, { path: '/events', authentication }));
  const { origin, close } = await listen(server, 'http');
  return { name: 'node:http handler', url: `${origin}/events`, handled, close: async () => (await close(), await consumer.close()) };
}

async function fastifyFrontEnd(authentication: PushAuthenticationOptions): Promise<AuthenticatedEndpoint> {
  const handled: Delivery[] = [];
  const consumer = recordingConsumer(handled);
  const app = Fastify();
  await app.register(heraldConsumerPlugin, { consumer, prefix: '/events', authentication });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { name: 'Fastify plugin', url: `${address}/events/`, handled, close: async () => (await app.close(), await consumer.close()) };
}

/** The same authentication behind both front ends. */
export async function authenticatedEndpoints(authentication: PushAuthenticationOptions): Promise<AuthenticatedEndpoint[]> {
  return [await authenticatedNodeEndpoint(authentication), await fastifyFrontEnd(authentication)];
}

/** The error body's first code, for assertions. */
export async function errorCodeOf(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { errors?: { code?: string }[] };
  return body.errors?.[0]?.code;
}
