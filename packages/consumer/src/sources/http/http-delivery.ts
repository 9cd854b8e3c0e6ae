import type { Consumer } from '../../consumer/types.js';
import type { HttpHeaders, RawBody } from '../../parse/raw-delivery.js';
import { errorReply, headerValue, type HttpDeliveryReply } from './http-reply.js';
import { createPushAuthenticator, type PushAuthenticationOptions } from './verify/push-authentication.js';

export type { HttpDeliveryReply } from './http-reply.js';

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
  /**
   * Pushers that must prove who sent each POST (SNS signatures, Event Grid shared key or Entra
   * token, Pub/Sub OIDC token). Without it the endpoint accepts any POST: put it behind a network
   * boundary that does the proving, or configure this.
   */
  readonly authentication?: PushAuthenticationOptions;
}

export interface HttpDeliveryRequest {
  readonly method: string;
  /** The request target (path and query); default `/`. Event Grid's shared key may travel in the query. */
  readonly url?: string;
  readonly headers: HttpHeaders;
  readonly body: Uint8Array | string | undefined;
}

const ALLOW = 'POST, OPTIONS';

/**
 * Framework-neutral push endpoint for Event Grid (CloudEvents, binary / structured / batch),
 * Pub/Sub push (`{ message, subscription }`) and SNS over HTTP/S (its JSON envelope). Status codes
 * are chosen for what each pusher does with them:
 * - 204: done (all treat 2xx as delivered / acked);
 * - 503 + Retry-After: retry later (all retry 5xx with their own backoff);
 * - 400: poison to dead-letter (Event Grid dead-letters 400 at once without retrying; Pub/Sub
 *   push retries it until the subscription's dead-letter policy takes it);
 * - 401 / 403 (with `authentication`): no credentials / credentials that do not prove the sender;
 *   the consumer never sees such a request.
 */
export function createHttpDeliveryHandler(consumer: Consumer, options: HttpDeliveryOptions = {}): (request: HttpDeliveryRequest) => Promise<HttpDeliveryReply> {
  const allowedOrigins = options.allowedOrigins ?? '*';
  const allowedRate = options.allowedRate ?? '*';
  const authenticate = createPushAuthenticator(options.authentication);
  const isAllowed = (origin: string): boolean => allowedOrigins === '*' || allowedOrigins.some((allowed) => allowed.toLowerCase() === origin.toLowerCase());

  return async (request) => {
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') {
      const origin = headerValue(request.headers, 'webhook-request-origin');
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

    let delivery: { headers: HttpHeaders; body: RawBody | undefined } = request;
    if (authenticate !== undefined) {
      // Before anything is parsed or handled: a refused request never reaches the consumer.
      const result = await authenticate({ url: request.url ?? '/', headers: request.headers, body: request.body });
      if (result.kind === 'answered') return result.reply;
      delivery = result.delivery;
    }
    const outcome = await consumer.process({ source: 'http', headers: delivery.headers, body: delivery.body });
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
