import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, type ErrorResponse } from '@herald/model';
import { DatabaseUnavailableError, sqlState } from '@herald/store';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { correlationIdFor, newCorrelationId } from './correlation.js';
import { urlAndHeadersLimitError } from './guards.js';

export function errorBody(error: ApiError): ErrorResponse {
  const body: ErrorResponse = { statusCode: error.statusCode, message: error.message, errors: error.errors };
  const oauth = (error as ApiError & { oauth?: { error: string; error_description: string } }).oauth;
  if (oauth !== undefined) {
    body.error = oauth.error;
    body.error_description = oauth.error_description;
  }
  return body;
}

/** Fastify's own errors that are the client's fault, mapped to the spec's error shape. */
function fromFastifyError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, { code: 'InvalidJsonInput', message: 'Request body does not contain valid JSON.' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, { code: 'RequestEntityTooLarge', message: 'The request body exceeds the size limit.' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, { code: 'InvalidInput', message: 'The Content-Length header does not match the request body.' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, {
        code: 'InvalidInput',
        message: `Unsupported content type; POST requests must send Content-Type: application/json.`,
      });
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ApiError(400, { code: 'InvalidInput', message: 'Invalid Content-Type header.' });
    default:
      break;
  }
  const database = fromDatabaseError(error);
  if (database !== undefined) return database;
  if (error.validation !== undefined) {
    return new ApiError(400, { code: 'InvalidInput', message: error.message });
  }
  const status = error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(status, { code: status === 404 ? 'ResourceNotFound' : 'InvalidInput', message: error.message });
  }
  return undefined;
}

/**
 * SQLSTATEs of values PostgreSQL cannot take, whatever validation let through: a NUL character
 * (22021 "invalid byte sequence", 22P05 "unsupported Unicode escape sequence" in jsonb), an
 * unpaired surrogate (22P02 "invalid input syntax for type json"), a value nested too deeply for
 * the server (54001). They come from the client's input, so they answer 400, never 500.
 */
const UNSTORABLE_INPUT = new Set(['22021', '22P05', '22P02', '54001']);

/** Seconds a client is asked to wait (`Retry-After`) while the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database cannot be reached (stopped, restarting, unreachable, not answering): 503 with the
 * reference's code for "retry with backoff" (errorable.raml lists OverCapacity and PendingOperation
 * under 503; the spec names none) and `Retry-After`. The request changed nothing: every write is
 * one transaction, which the server rolls back when its connection is lost.
 */
export class DatabaseOutageError extends ApiError {
  readonly headers = { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) };

  constructor(cause: DatabaseUnavailableError) {
    super(503, { code: 'OverCapacity', message: 'The service cannot reach its database at the moment; retry later.' });
    this.name = 'DatabaseOutageError';
    this.cause = cause;
  }
}

/**
 * PostgreSQL gave up a transaction for another's sake: a deadlock (40P01, e.g. two updates that
 * each lock the other's documents) or a serialization failure (40001). Nothing was written; the
 * reference's answer to a concurrent write is 409 ConcurrentModification, which clients retry.
 */
const CONCURRENT_WRITE_CONFLICT = new Set(['40P01', '40001']);

export function fromDatabaseError(error: unknown): ApiError | undefined {
  if (error instanceof DatabaseUnavailableError) return new DatabaseOutageError(error);
  if (CONCURRENT_WRITE_CONFLICT.has(sqlState(error) ?? '')) {
    return new ApiError(409, {
      code: 'ConcurrentModification',
      message: 'A concurrent write to the same resources conflicted with this request; nothing was changed. Retry it.',
    });
  }
  if (error instanceof ApiError || !UNSTORABLE_INPUT.has(sqlState(error) ?? '')) return undefined;
  return new ApiError(400, {
    code: 'InvalidInput',
    message: 'The request contains a value that cannot be stored (a NUL character, invalid Unicode or too deep a nesting).',
  });
}

/**
 * The one error boundary: expected failures answer in the spec's shape and log at info; anything
 * else is a bug, answers an opaque 500 and logs the cause at error.
 */
export function installErrorBoundary(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = error instanceof ApiError ? error : fromFastifyError(error);
    if (apiError !== undefined) {
      logApiError(request, apiError);
      for (const [name, value] of Object.entries(apiErrorHeaders(apiError))) reply.header(name, value);
      return reply.status(apiError.statusCode).send(errorBody(apiError));
    }
    request.log.error({ err: error }, 'unhandled error');
    const internal = new ApiError(500, { code: 'General', message: 'Internal Server Error.' });
    return reply.status(500).send(errorBody(internal));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(404, {
      code: 'ResourceNotFound',
      message: `No endpoint for ${request.method} ${request.url.split('?')[0] ?? ''}.`,
    });
    return reply.status(404).send(errorBody(error));
  });
}

/**
 * Expected answers log at info (client errors, and the 503s of a draining server); the database out
 * of reach is a server-side failure an operator must see: at error, with the driver's cause.
 */
function logApiError(request: FastifyRequest, error: ApiError): void {
  const fields = { code: error.code, statusCode: error.statusCode };
  if (error instanceof DatabaseOutageError) request.log.error({ ...fields, err: error.cause }, error.message);
  else request.log.info(fields, error.message);
}

/** Headers an error asks for (e.g. `Retry-After` on 429 and 503, `WWW-Authenticate` on 401). */
function apiErrorHeaders(error: ApiError): Record<string, string> {
  return (error as ApiError & { headers?: Record<string, string> }).headers ?? {};
}

/**
 * Fastify's `frameworkErrors`: failures before routing (a URL that does not decode, a path
 * parameter beyond `maxParamLength`) answer in the spec's shape like every other error. A path
 * parameter that long addresses nothing (keys are at most 256 characters): 404.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // §8's limit comes first, as it does for routed requests (the guards are not run here).
  const apiError =
    urlAndHeadersLimitError(request) ??
    (error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError(404, { code: 'ResourceNotFound', message: 'No resource matches a path parameter that long.' })
      : error.code === 'FST_ERR_BAD_URL'
        ? new ApiError(400, { code: 'InvalidInput', message: 'The request URL is not validly percent-encoded.' })
        : new ApiError(400, { code: 'InvalidInput', message: 'The request could not be routed.' }));
  request.log.info({ code: apiError.code, statusCode: apiError.statusCode }, apiError.message);
  void reply.header('X-Correlation-ID', request.id).status(apiError.statusCode).send(errorBody(apiError));
}

/**
 * Node's `clientError` (malformed HTTP, headers beyond the server's limit, a request that timed
 * out): answered in the spec's shape, as Fastify's default handler would answer in its own.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request was not received in time.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  // The request never parsed, so it has no correlation id of its own: a new one still ties the
  // answer to the log line, as on every other answer.
  const correlationId = newCorrelationId();
  this.log.debug({ code: error.code, statusCode: status, correlationId }, 'client error');
  writeAndClose(socket, reason, new ApiError(status, { code: status === 408 ? 'RequestTimeout' : 'InvalidInput', message }), correlationId);
  socket.destroy(error);
}

/**
 * Node hands CONNECT requests to the server's `connect` listeners and, without one, closes the
 * socket without a word: the API proxies nothing, so it says so in the spec's shape.
 */
export function refuseConnect(request: IncomingMessage, socket: Duplex): void {
  writeAndClose(
    socket,
    'Method Not Allowed',
    new ApiError(405, { code: 'InvalidInput', message: 'CONNECT is not supported: this is not a proxy.' }),
    correlationIdFor(request),
  );
  // A client that keeps its end open is not waited for.
  setTimeout(() => socket.destroy(), 5_000).unref();
}

/** An answer written straight to a socket Fastify does not handle, and the end of the connection. */
function writeAndClose(socket: Duplex, reason: string, error: ApiError, correlationId: string): void {
  if (!socket.writable) return;
  const body = JSON.stringify(errorBody(error));
  socket.end(
    `HTTP/1.1 ${error.statusCode} ${reason}\r\nX-Correlation-ID: ${correlationId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
  );
}
