import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

export interface WorkerHttpDeps {
  registry: Registry;
  /** `/healthz` answers 200 while this is true, 503 otherwise. */
  healthy: () => boolean;
  logger: Logger;
}

export interface WorkerHttpServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The worker's only HTTP surface: `GET /metrics` (Prometheus text) and `GET /healthz`. */
export async function startWorkerHttp(deps: WorkerHttpDeps, options: { port: number; host: string }): Promise<WorkerHttpServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      const healthy = deps.healthy();
      response.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: healthy ? 'ok' : 'unavailable' }));
      return;
    }
    if (path === '/metrics') {
      deps.registry.metrics().then(
        (text) => response.writeHead(200, { 'Content-Type': deps.registry.contentType }).end(text),
        (error: unknown) => {
          deps.logger.error({ err: error }, 'collecting metrics failed');
          response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
      return;
    }
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
