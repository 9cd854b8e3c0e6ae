import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../../clock.js';
import { headerValue } from '../http-reply.js';
import { absent, acceptedAsReceived, rejected, unavailable, type PushRequest, type PushVerdict, type PushVerifier } from './push-verifier.js';

/** What a pusher's OIDC / OAuth bearer token must show (RFC 7519 §4.1 registered claims, plus the pusher's own). */
export interface BearerTokenRules {
  /** The issuer's JSON Web Key Set (RFC 7517 §5). */
  readonly jwksUrl: URL;
  readonly issuers: readonly string[];
  readonly audiences: readonly string[];
  readonly clockToleranceSeconds: number;
  /** Oldest `iat` accepted (the issuer's token lifetime), when the issuer always sets `iat`. */
  readonly maxTokenAgeSeconds?: number;
  /** The pusher's own claims (Google: `email`, `email_verified`); a reason when they do not match. */
  readonly checkClaims: (claims: JWTPayload) => string | undefined;
}

// RFC 6750 §2.1; the token's own syntax is jose's to check.
const BEARER = /^Bearer +(\S+) *$/i;

/** jose errors that say the keys could not be had, not that the token is wrong. */
function isKeySetUnavailable(error: unknown): boolean {
  if (!(error instanceof errors.JOSEError)) return true; // fetch() itself failed (network, DNS, TLS)
  return error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error.code === errors.JOSEError.code;
}

/**
 * `Authorization: Bearer <JWT>` signed RS256 with a key of the issuer's JWKS (fetched once, then
 * again when a token names an unknown key: jose's remote key set caches and rate-limits reloads).
 */
export class BearerTokenVerifier implements PushVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    private readonly rules: BearerTokenRules,
    private readonly clock: Clock,
  ) {
    this.keys = createRemoteJWKSet(rules.jwksUrl);
  }

  async verify(request: PushRequest): Promise<PushVerdict> {
    const authorization = headerValue(request.headers, 'authorization');
    const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    if (token === undefined) return absent;
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, this.keys, {
        algorithms: ['RS256'],
        issuer: [...this.rules.issuers],
        audience: [...this.rules.audiences],
        clockTolerance: this.rules.clockToleranceSeconds,
        requiredClaims: ['exp'],
        currentDate: new Date(this.clock.now()),
        ...(this.rules.maxTokenAgeSeconds === undefined ? {} : { maxTokenAge: this.rules.maxTokenAgeSeconds }),
      }));
    } catch (error) {
      if (isKeySetUnavailable(error)) return unavailable(`the signing keys could not be fetched: ${(error as Error).message}`);
      return rejected(`the bearer token is not valid: ${(error as Error).message}`);
    }
    const problem = this.rules.checkClaims(claims);
    return problem === undefined ? acceptedAsReceived(request) : rejected(problem);
  }
}
