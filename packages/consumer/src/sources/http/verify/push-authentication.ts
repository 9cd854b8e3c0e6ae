import { systemClock, type Clock } from '../../../clock.js';
import { errorReply, type HttpDeliveryReply } from '../http-reply.js';
import { eventGridVerifiers, type EventGridVerificationOptions } from './event-grid-verifier.js';
import { pubSubPushVerifier, type PubSubPushVerificationOptions } from './pubsub-push-verifier.js';
import type { PushRequest, PushVerdict, PushVerifier, VerifiedDelivery } from './push-verifier.js';
import { SnsVerifier, type SnsVerificationOptions } from './sns-verifier.js';

/**
 * Who may push to the endpoint. Once any pusher is named here, every POST must be proven by one
 * of the named pushers' checks; requests from pushers not named (or with no credentials) are
 * refused. Without this option the endpoint is unauthenticated.
 */
export interface PushAuthenticationOptions {
  /** SNS over HTTP/S: message signatures, subscription confirmation. */
  readonly sns?: SnsVerificationOptions;
  /** Event Grid webhooks: a shared key and/or a Microsoft Entra bearer token. */
  readonly eventGrid?: EventGridVerificationOptions;
  /** Pub/Sub push with authentication: Google-signed OIDC token. */
  readonly pubSubPush?: PubSubPushVerificationOptions;
  /** Time for certificate validity and token expiry; default the system clock. */
  readonly clock?: Clock;
}

export type AuthenticationResult =
  { readonly kind: 'verified'; readonly delivery: VerifiedDelivery } | { readonly kind: 'answered'; readonly reply: HttpDeliveryReply };

/** Seconds a pusher is asked to wait when keys or certificates could not be fetched. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 10;

function verifiersOf(options: PushAuthenticationOptions, clock: Clock): PushVerifier[] {
  const verifiers: PushVerifier[] = [];
  if (options.sns !== undefined) verifiers.push(new SnsVerifier(options.sns, clock));
  if (options.eventGrid !== undefined) verifiers.push(...eventGridVerifiers(options.eventGrid, clock));
  if (options.pubSubPush !== undefined) verifiers.push(pubSubPushVerifier(options.pubSubPush, clock));
  return verifiers;
}

/** The reply when no verifier accepted: 503 if one could not check, else 403 if one found bad credentials, else 401. */
function refusal(verdicts: readonly PushVerdict[], offersBearer: boolean): HttpDeliveryReply {
  const unavailable = verdicts.find((verdict) => verdict.outcome === 'unavailable');
  if (unavailable !== undefined) {
    return errorReply(503, 'ServiceUnavailable', `the sender could not be verified now: ${unavailable.reason}`, {
      'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
  const rejections = verdicts.flatMap((verdict) => (verdict.outcome === 'rejected' ? [verdict.reason] : []));
  if (rejections.length > 0) return errorReply(403, 'Unauthorized', `the request does not prove its sender: ${rejections.join('; ')}`);
  // RFC 6750 §3: a 401 names the scheme expected.
  const challenge: Record<string, string> = offersBearer ? { 'www-authenticate': 'Bearer' } : {};
  return errorReply(401, 'invalid_token', 'the request carries no credentials this endpoint accepts', challenge);
}

/** Undefined when no pusher is configured (the endpoint stays unauthenticated). */
export function createPushAuthenticator(options: PushAuthenticationOptions | undefined): ((request: PushRequest) => Promise<AuthenticationResult>) | undefined {
  if (options === undefined) return undefined;
  const verifiers = verifiersOf(options, options.clock ?? systemClock);
  if (verifiers.length === 0) throw new TypeError('authentication names no pusher: configure sns, eventGrid or pubSubPush, or leave it out');
  const offersBearer = options.pubSubPush !== undefined || options.eventGrid?.entra !== undefined;
  return async (request) => {
    const verdicts: PushVerdict[] = [];
    for (const verifier of verifiers) {
      const verdict = await verifier.verify(request);
      if (verdict.outcome === 'accepted') return { kind: 'verified', delivery: verdict.delivery };
      if (verdict.outcome === 'answered') return { kind: 'answered', reply: verdict.reply };
      verdicts.push(verdict);
    }
    return { kind: 'answered', reply: refusal(verdicts, offersBearer) };
  };
}
