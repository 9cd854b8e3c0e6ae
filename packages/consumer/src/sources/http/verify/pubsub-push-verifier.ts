import type { JWTPayload } from 'jose';
import type { Clock } from '../../../clock.js';
import { BearerTokenVerifier } from './bearer-token.js';
import { listOf } from './push-verifier.js';

/** Google's OAuth 2.0 signing keys, which sign the OIDC tokens of Pub/Sub push. */
export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
/** Google ID tokens name their issuer either way (Google Identity, "Validating an ID token"). */
export const GOOGLE_ISSUERS: readonly string[] = ['accounts.google.com', 'https://accounts.google.com'];
/** Google ID tokens expire an hour after they are issued. */
const GOOGLE_TOKEN_LIFETIME_SECONDS = 3600;

export interface PubSubPushVerificationOptions {
  /** The `aud` the push subscription's OIDC token carries (by default there, the push endpoint URL). */
  readonly audience: string | readonly string[];
  /**
   * The service account the subscription authenticates as (`email`, with `email_verified` true).
   * Required: any Google account can obtain a token for any audience, so the audience alone
   * proves nothing about who pushed.
   */
  readonly serviceAccountEmail: string | readonly string[];
  /** Default GOOGLE_JWKS_URL. */
  readonly jwksUrl?: string | URL;
  /** Default GOOGLE_ISSUERS. */
  readonly issuers?: readonly string[];
  /** Clock skew allowed on `exp` and `iat`; default 60 s. */
  readonly clockToleranceSeconds?: number;
}

/** Pub/Sub push with authentication: `Authorization: Bearer <Google-signed OIDC ID token>`. */
export function pubSubPushVerifier(options: PubSubPushVerificationOptions, clock: Clock): BearerTokenVerifier {
  const emails = new Set(listOf(options.serviceAccountEmail));
  const audiences = listOf(options.audience);
  if (emails.size === 0 || audiences.length === 0) throw new TypeError('Pub/Sub push verification needs an audience and a service account email');
  const checkClaims = (claims: JWTPayload): string | undefined => {
    if (typeof claims.email !== 'string' || !emails.has(claims.email))
      return `the token's email ${JSON.stringify(claims.email)} is not an accepted service account`;
    if (claims.email_verified !== true) return 'the token says its email is not verified';
    return undefined;
  };
  return new BearerTokenVerifier(
    {
      jwksUrl: new URL(options.jwksUrl ?? GOOGLE_JWKS_URL),
      issuers: options.issuers ?? GOOGLE_ISSUERS,
      audiences,
      clockToleranceSeconds: options.clockToleranceSeconds ?? 60,
      maxTokenAgeSeconds: GOOGLE_TOKEN_LIFETIME_SECONDS,
      checkClaims,
    },
    clock,
  );
}
