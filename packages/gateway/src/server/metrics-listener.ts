import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

/** The listener of HERALD_METRICS_PORT: `GET /metrics` only, from the gateway's registry. */
export interface MetricsListener {
  /** The bound port (the configured one, or the one the system chose for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `/metrics` on its own port so it can stay off the public API port (issue 25). Plain HTTP
 * whatever the API's TLS: a scrape port belongs on an internal network (docs/operations.md).
 * Anything else answers in the spec's error shape, as an unknown route of the API does.
 */
export async function startMetricsListener(registry: Registry, options: { port: number; host: string; logger: Logger }): Promise<MetricsListener> {
  const server = createServer((request, response) => answer(registry, options.logger, request, response));
  server.listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => closeServer(server),
  };
}

function answer(registry: Registry, logger: Logger, request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  // Other methods get the 404 an unmatched method gets on the API too.
  if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
    sendError(response, 404, 'ResourceNotFound', `No endpoint for ${request.method ?? 'GET'} ${path}.`);
    return;
  }
  registry.metrics().then(
    (text) => {
      response.writeHead(200, { 'Content-Type': registry.contentType });
      response.end(request.method === 'HEAD' ? undefined : text);
    },
    (error: unknown) => {
      logger.error({ err: error }, 'collecting metrics failed');
      sendError(response, 500, 'General', 'Collecting the metrics failed.');
    },
  );
}

/** The spec's error shape `{statusCode, message, errors:[{code, message}]}`. */
function sendError(response: ServerResponse, statusCode: number, code: string, message: string): void {
  response.writeHead(statusCode, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ statusCode, message, errors: [{ code, message }] }));
}

/** Stops listening and drops the keep-alive connections of scrapers, which would hold it open. */
async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}
