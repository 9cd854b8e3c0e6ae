import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '@herald/model';
import type { FastifyInstance } from 'fastify';

/** §4.4.10: 8 to 256 letters, digits, underscores and hyphens. */
const CORRELATION_ID = /^[A-Za-z0-9_-]{8,256}$/;
export const CORRELATION_HEADER = 'x-correlation-id';

/**
 * Fastify's request id is the correlation id: the client's when valid, else a new one; it
 * appears on every log line of the request (`correlationId`) and on every response.
 */
export function correlationIdFor(request: IncomingMessage): string {
  const sent = request.headers[CORRELATION_HEADER];
  return typeof sent === 'string' && CORRELATION_ID.test(sent) ? sent : newCorrelationId();
}

/** A correlation id Herald makes up, for requests without a valid one of their own. */
export function newCorrelationId(): string {
  return `herald-${randomUUID()}`;
}

export function installCorrelation(app: FastifyInstance): void {
  // A callback hook, as the other per-request hooks of http/: an async one costs every request a
  // promise and a microtask (issue 30).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Correlation-ID', request.id);
    const sent = request.headers[CORRELATION_HEADER];
    if (sent !== undefined && (typeof sent !== 'string' || !CORRELATION_ID.test(sent))) {
      done(
        new ApiError(400, {
          code: 'InvalidInput',
          message: 'X-Correlation-ID must be 8 to 256 characters of letters, digits, underscores and hyphens.',
        }),
      );
      return;
    }
    done();
  });
}
