import { ApiError } from '@herald/model';

/**
 * The OAuth error codes Herald answers with and their HTTP status (RFC 6749 §5.2, RFC 6750 §3.1;
 * `invalid_customer_account_credentials` is the platform's code for a failed password grant).
 */
export const OAUTH_ERROR_STATUS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  // The authenticated client may not use this grant (RFC 6749 §5.2), e.g. the anonymous flow
  // without `create_anonymous_token`: a token-endpoint error, so 400 — `insufficient_scope` (403)
  // is a resource server's answer to a bearer token (RFC 6750 §3.1).
  unauthorized_client: 400,
  invalid_customer_account_credentials: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  too_many_requests: 429,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERROR_STATUS;

/**
 * An ApiError that also carries the OAuth `error`/`error_description` pair and response headers;
 * the error boundary (http/errors.ts) copies both into the response. `errors[0].code` is the OAuth
 * code too, which is what the official SDK reads.
 */
export class OAuthError extends ApiError {
  readonly oauth: { error: OAuthErrorCode; error_description: string };
  readonly headers: Record<string, string>;

  constructor(error: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}) {
    super(OAUTH_ERROR_STATUS[error], {
      code: options.code ?? error,
      message: description,
      ...(options.detail === undefined ? {} : { detail: options.detail }),
    });
    this.name = 'OAuthError';
    this.oauth = { error, error_description: description };
    this.headers = options.headers ?? {};
  }
}

export interface OAuthErrorOptions {
  headers?: Record<string, string>;
  /** `errors[0].code` when the platform has a more specific one (e.g. `AnonymousIdAlreadyInUse`). */
  code?: string;
  /**
   * Herald's own explanation, as `errors[0].detail`, where the description must be the platform's
   * exact, terse wording (clients compare it) and says less than a developer needs.
   */
  detail?: string;
}

/** RFC 6750 §3 and RFC 6749 §5.2: 401s tell the client which authentication scheme to use. */
function challengeFor(error: OAuthErrorCode): Record<string, string> {
  if (error === 'invalid_client') return { 'WWW-Authenticate': 'Basic realm="herald"' };
  if (error === 'invalid_token') return { 'WWW-Authenticate': 'Bearer realm="herald", error="invalid_token"' };
  if (error === 'insufficient_scope') return { 'WWW-Authenticate': 'Bearer realm="herald", error="insufficient_scope"' };
  return {};
}

/** The factory every OAuth failure goes through. Descriptions must never contain a secret. */
export function oauthError(error: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}): OAuthError {
  return new OAuthError(error, description, { ...options, headers: { ...challengeFor(error), ...options.headers } });
}
