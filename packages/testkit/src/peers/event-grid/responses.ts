import type { ServerResponse } from 'node:http';
import type { PeerFault } from '../faults.js';

/** An error answer in Event Grid's shape: the SDK's `RestError.code` is read from `error.code`. */
export interface ErrorAnswer {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export function sendError(response: ServerResponse, answer: ErrorAnswer): void {
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...answer.headers,
  });
  response.end(body);
}

export const unauthorized = (message: string): ErrorAnswer => ({ status: 401, code: 'Unauthorized', message });
export const badRequest = (message: string): ErrorAnswer => ({ status: 400, code: 'BadRequest', message });
export const tooLarge = (message: string): ErrorAnswer => ({ status: 413, code: 'RequestEntityTooLarge', message });
export const notFound = (message: string): ErrorAnswer => ({ status: 404, code: 'NotFound', message });

/** The answer a fault that is expressed as an HTTP error produces (hang and drop are not answers). */
export function faultAnswer(fault: Exclude<PeerFault['kind'], 'hang' | 'drop-connection'>): ErrorAnswer {
  switch (fault) {
    case 'unknown-entity':
      return notFound('The topic was not found.');
    case 'bad-credentials':
      return unauthorized('The request authorization key is not authorized for this topic.');
    case 'throttled':
      // Retry-After tells a well-behaved client when to come back, as the service does.
      return { status: 429, code: 'TooManyRequests', message: 'Too many requests; retry later.', headers: { 'retry-after': '1' } };
    case 'server-error':
      return { status: 500, code: 'InternalServerError', message: 'The service encountered an internal error.' };
    case 'payload-too-large':
      return tooLarge('The request exceeds the maximum allowed size.');
  }
}
