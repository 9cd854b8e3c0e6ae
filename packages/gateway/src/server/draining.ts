import { ApiError } from '@herald/model';
import type { FastifyInstance } from 'fastify';

/**
 * Keeps keep-alive connections from holding a closing gateway open. `app.close()` stops listening,
 * and Node's `server.close()` closes the connections that are idle at that moment, but a request
 * still in flight would be answered `Connection: keep-alive` and its connection then kept idle
 * until Fastify's keep-alive timeout (about 72 s) — longer than a container's stop timeout.
 * Requests that arrive on open connections while closing are answered 503 here, in the spec's
 * error shape (Fastify's own `return503OnClosing` answer has another shape, so it is off).
 */
export function installDraining(app: FastifyInstance): void {
  let closing = false;
  // preClose runs before Fastify calls server.close(), so every response from here on closes.
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks: they run on every request, and an async one costs a promise and a microtask
  // each time (issue 30).
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new ApiError(503, { code: 'ServiceUnavailable', message: 'The server is shutting down; retry on another instance.' }) : undefined);
  });
  // Node ends the connection after a response it sent with `Connection: close`; the client knows
  // not to reuse it. (Herald serves HTTP/1.1 only, where this header is allowed.)
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // A safety net for a response sent without that header (a hook that failed, a future raw
  // reply): its connection is idle once answered; close it now rather than at the deadline.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
}
