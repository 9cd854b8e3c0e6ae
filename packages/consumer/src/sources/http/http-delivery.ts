import type { Consumer } from '../../consumer/types.js';
import type { HttpHeaders } from '../../parse/raw-delivery.js';

/**
 * Default largest body of the HTTP endpoint: a Pub/Sub push of the largest message Pub/Sub takes
 * (10 MB, base64-encoded in the envelope: 13.3 MB) with room for the envelope. Event Grid sends at
 * most 1 MB per request. A smaller limit answers 413, which both retry until they dead-letter.
 */
export const DEFAULT_HTTP_BODY_LIMIT_BYTES = 14 * 1024 * 1024;

export interface HttpDeliveryOptions {
  /**
   * CloudEvents webhook validation (HTTP Webhook spec §4, used by Event Grid): origins allowed to
   * push, compared case-insensitively with `WebHook-Request-Origin`. Default `'*'` (any).
   */
  readonly allowedOrigins?: readonly string[] | '*';
  /** `WebHook-Allowed-Rate`: requests per minute granted, or `'*'` (unlimited). Default `'*'`. */
  readonly allowedRate?: number | '*';
}

export interface HttpDeliveryRequest {
  readonly method: string;
  readonly headers: HttpHeaders;
  readonly body: Uint8Array | string | undefined;
}

export interface HttpDeliveryReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

const ALLOW = 'POST, OPTIONS';

function header(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/** The project's error shape (ARCHITECTURE.md, HTTP conventions). */
function errorReply(statusCode: number, code: string, message: string, headers: Record<string, string> = {}): HttpDeliveryReply {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ statusCode, message, errors: [{ code, message }] }),
  };
}

/**
 * Framework-neutral push endpoint for Event Grid (CloudEvents, binary / structured / batch) and
 * Pub/Sub push (`{ message, subscription }`). Status codes are chosen for what each pusher does
 * with them:
 * - 204: done (both treat 2xx as delivered / acked);
 * - 503 + Retry-After: retry later (both retry 5xx with their own backoff);
 * - 400: poison to dead-letter (Event Grid dead-letters 400 at once without retrying; Pub/Sub
 *   push retries it until the subscription's dead-letter policy takes it).
 */
export function createHttpDeliveryHandler(consumer: Consumer, options: HttpDeliveryOptions = {}): (request: HttpDeliveryRequest) => Promise<HttpDeliveryReply> {
  const allowedOrigins = options.allowedOrigins ?? '*';
  const allowedRate = options.allowedRate ?? '*';
  const isAllowed = (origin: string): boolean =>
    allowedOrigins === '*' || allowedOrigins.some((allowed) => allowed.toLowerCase() === origin.toLowerCase());

  return async (request) => {
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') {
      const origin = header(request.headers, 'webhook-request-origin');
      if (origin === undefined) return { statusCode: 204, headers: { allow: ALLOW } };
      // Webhook spec §4.2: grant by answering WebHook-Allowed-Origin (and -Rate); a refusal must
      // not carry them (the status code alone is not relied upon).
      if (!isAllowed(origin)) return { statusCode: 403, headers: { allow: ALLOW } };
      return {
        statusCode: 200,
        headers: { allow: ALLOW, 'webhook-allowed-origin': origin, 'webhook-allowed-rate': String(allowedRate) },
      };
    }
    if (method !== 'POST') return errorReply(405, 'MethodNotAllowed', `${method} is not supported; deliveries are POSTed`, { allow: ALLOW });

    const outcome = await consumer.process({ source: 'http', headers: request.headers, body: request.body });
    switch (outcome.action) {
      case 'ack':
        return { statusCode: 204, headers: {} };
      case 'nack': {
        const retryAfterSeconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
        return errorReply(503, 'ServiceUnavailable', 'not processed yet; retry later', { 'retry-after': String(retryAfterSeconds) });
      }
      case 'dead-letter':
        return errorReply(400, 'InvalidInput', outcome.reason ?? 'not a delivery');
    }
  };
}
