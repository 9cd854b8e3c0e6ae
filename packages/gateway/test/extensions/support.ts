/**
 * A real HTTP server on loopback playing an API Extension's endpoint: it records what Herald sends
 * (headers and the ExtensionInput) and answers as the test's function says.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from '../carts/commerce.js';

export interface ExtensionRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Json;
}

/** What the endpoint answers: a status and a body (an object is sent as JSON, a string as it is); `hang` never answers. */
export type ExtensionReply = { status: number; body?: unknown } | 'hang';

export interface ExtensionEndpoint {
  url: string;
  readonly requests: readonly ExtensionRequest[];
  /** Sets how the next requests are answered (default: 200 with no actions). */
  answer(reply: (request: ExtensionRequest) => ExtensionReply): void;
  /** The requests received at `path` (each extension gets its own path). */
  at(path: string): ExtensionRequest[];
  stop(): Promise<void>;
}

export async function startExtensionEndpoint(): Promise<ExtensionEndpoint> {
  const requests: ExtensionRequest[] = [];
  let reply: (request: ExtensionRequest) => ExtensionReply = () => ({ status: 200, body: {} });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ExtensionRequest = {
        path: request.url ?? '/',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json,
      };
      requests.push(received);
      const answer = reply(received);
      if (answer === 'hang') return;
      const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body);
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      reply = next;
    },
    at: (path) => requests.filter((request) => request.path === path),
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
