import type { HttpHeaders, RawBody } from '../../../parse/raw-delivery.js';
import type { HttpDeliveryReply } from '../http-reply.js';

/** A pushed request as the verifiers see it: `url` is the request target (path and query). */
export interface PushRequest {
  readonly url: string;
  readonly headers: HttpHeaders;
  readonly body: Uint8Array | string | undefined;
}

/** What the consumer parses once a verifier accepted the request. */
export interface VerifiedDelivery {
  readonly headers: HttpHeaders;
  readonly body: RawBody | undefined;
}

/**
 * One pusher's check. `absent`: the request carries none of this pusher's credentials;
 * `rejected`: it carries them, and they do not prove the sender; `unavailable`: they could not be
 * checked now (keys or certificates unreachable) — answered 503 so the pusher retries instead of
 * dropping a genuine delivery; `answered`: a control message the verifier handled itself (SNS
 * subscription confirmations), never shown to the handler.
 */
export type PushVerdict =
  | { readonly outcome: 'absent' }
  | { readonly outcome: 'rejected'; readonly reason: string }
  | { readonly outcome: 'unavailable'; readonly reason: string }
  | { readonly outcome: 'accepted'; readonly delivery: VerifiedDelivery }
  | { readonly outcome: 'answered'; readonly reply: HttpDeliveryReply };

export interface PushVerifier {
  verify(request: PushRequest): Promise<PushVerdict>;
}

export const absent: PushVerdict = { outcome: 'absent' };
export const rejected = (reason: string): PushVerdict => ({ outcome: 'rejected', reason });
export const unavailable = (reason: string): PushVerdict => ({ outcome: 'unavailable', reason });

/** The request as received, for verifiers that prove the sender but not the body's fields. */
export function acceptedAsReceived(request: PushRequest): PushVerdict {
  return { outcome: 'accepted', delivery: { headers: request.headers, body: request.body } };
}

/** An option that takes one value or several. */
export function listOf(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}
