import { ApiError } from '@herald/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** §8: requests whose URL plus headers are longer than about 15 KB are blocked. */
export const MAX_URL_AND_HEADERS_BYTES = 15 * 1024;

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * The HTTP versions the API speaks. Node's parser also takes request lines such as `HTTP/2.0` and
 * `HTTP/0.9` (neither of which is sent as an HTTP/1 text line by a real client of that version).
 */
const KNOWN_HTTP_VERSIONS = new Set(['1.0', '1.1']);

function urlAndHeadersBytes(url: string, rawHeaders: readonly string[]): number {
  let bytes = Buffer.byteLength(url);
  for (const part of rawHeaders) bytes += Buffer.byteLength(part) + 2;
  return bytes;
}

/** §8: the 431 of a request whose URL plus headers are too long, or undefined. */
export function urlAndHeadersLimitError(request: FastifyRequest): ApiError | undefined {
  if (urlAndHeadersBytes(request.url, request.raw.rawHeaders) <= MAX_URL_AND_HEADERS_BYTES) return undefined;
  return new ApiError(431, {
    code: 'InvalidInput',
    message: `The request URL and headers exceed ${MAX_URL_AND_HEADERS_BYTES} bytes.`,
  });
}

/** A decoded path parameter or query value holding NUL (`%00`): nothing stored can match it. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  return Array.isArray(value) && value.some(holdsNul);
}

/**
 * §8 "Also blocked": oversized URL plus headers, an unknown HTTP version, a body where none is
 * allowed, an upgrade header.
 * Also refused: NUL characters in path parameters and query parameters (PostgreSQL cannot take
 * them as text; they would otherwise fail in the database as a 500).
 */
export function installRequestGuards(app: FastifyInstance): void {
  // A callback hook: no promise and microtask per request (issue 30).
  app.addHook('onRequest', (request, _reply, done) => done(guardError(request)));
}

/** The 4xx a request is refused with before routing, or undefined. */
function guardError(request: FastifyRequest): ApiError | undefined {
  const tooLarge = urlAndHeadersLimitError(request);
  if (tooLarge !== undefined) return tooLarge;
  if (!KNOWN_HTTP_VERSIONS.has(request.raw.httpVersion)) {
    // §8 blocks an unknown version as bad input: a 400 in the error shape (a 505 would be a 5xx).
    return new ApiError(400, { code: 'InvalidInput', message: `HTTP/${request.raw.httpVersion} is not supported; use HTTP/1.1.` });
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (Object.values(params).some(holdsNul) || Object.entries(query).some(([name, value]) => name.includes('\u0000') || holdsNul(value))) {
    return new ApiError(400, { code: 'InvalidInput', message: 'The request URL contains a NUL character (%00).' });
  }
  if (request.headers.upgrade !== undefined) {
    return new ApiError(400, { code: 'InvalidInput', message: 'Protocol upgrades are not supported.' });
  }
  if (BODYLESS_METHODS.has(request.method)) {
    const length = request.headers['content-length'];
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (chunked || (length !== undefined && length !== '0')) {
      return new ApiError(400, { code: 'InvalidInput', message: `A ${request.method} request must not have a body.` });
    }
  }
  return undefined;
}
