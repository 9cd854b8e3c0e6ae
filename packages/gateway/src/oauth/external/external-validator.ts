import type { SecretBox } from '@herald/delivery';
import type { Clock } from '@herald/model';
import { oauthError } from '../errors.js';
import { ANONYMOUS_SUBJECT, CUSTOMER_SUBJECT, parseProjectScope, splitScopes, subjectOf } from '../scopes.js';
import { tokenHash } from '../secrets.js';
import { ExpiringCache } from '../token-cache.js';
import type { TokenGrant } from '../token-grant.js';
import type { IntrospectionCall } from './introspection-client.js';
import type { ExternalOAuthSettings, StoredExternalOAuth } from './settings.js';

/** §5.7, §8: a result may be cached until `exp`, at most one hour. */
const MAX_CACHE_MS = 60 * 60 * 1000;

/** Who the external token is for when the endpoint names no client. */
const EXTERNAL_CLIENT = 'external-oauth';

/**
 * Validates bearer tokens Herald did not issue at the project's introspection endpoint (§5.7).
 * Only Herald's own scopes of this project (`<scope>:{projectKey}`) and the subject markers
 * (`customer_id:`, `anonymous_id:`) in the answer count; anything else the endpoint returns is
 * ignored. Active answers are cached per project, endpoint and token hash; inactive ones are not,
 * so a token activated later works at once.
 */
export class ExternalTokenValidator {
  private readonly cache: ExpiringCache<TokenGrant>;

  constructor(
    private readonly clock: Clock,
    private readonly call: IntrospectionCall,
    /** Opens the stored authorization header (the box that sealed it, HERALD_SECRET_KEY). */
    private readonly secrets: SecretBox,
  ) {
    this.cache = new ExpiringCache<TokenGrant>(clock, 10_000);
  }

  async validate(token: string, projectKey: string, stored: StoredExternalOAuth, correlationId: string): Promise<TokenGrant> {
    const key = `${projectKey}\n${stored.url}\n${tokenHash(token)}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;

    const answer = await this.call(this.opened(stored, projectKey), token, correlationId);
    const now = this.clock.now().getTime();
    const expiresAt = answer.exp === undefined ? now + MAX_CACHE_MS : answer.exp * 1000;
    if (!answer.active || expiresAt <= now) throw oauthError('invalid_token', 'The access token is invalid or has expired.');

    const scopes = splitScopes(answer.scope ?? '').filter(
      (scope) => parseProjectScope(scope)?.projectKey === projectKey || scope.startsWith(`${CUSTOMER_SUBJECT}:`) || scope.startsWith(`${ANONYMOUS_SUBJECT}:`),
    );
    const grant: TokenGrant = { clientId: answer.client_id ?? EXTERNAL_CLIENT, scopes, expiresAt, source: 'external', ...subjectOf(scopes) };
    this.cache.set(key, grant, Math.min(expiresAt, now + MAX_CACHE_MS));
    return grant;
  }

  /**
   * The header in plain text, only for the call. A header sealed with another HERALD_SECRET_KEY
   * (or with the key since removed) cannot be sent: that is Herald's misconfiguration, so it is an
   * internal error whose logged cause names the project, not the endpoint's failure (502/504).
   */
  private opened(stored: StoredExternalOAuth, projectKey: string): ExternalOAuthSettings {
    try {
      return { url: stored.url, authorizationHeader: this.secrets.open(stored.authorizationHeader) };
    } catch (cause) {
      throw new Error(`The external OAuth authorization header of project '${projectKey}' is sealed, and HERALD_SECRET_KEY is not set or is another key.`, {
        cause,
      });
    }
  }
}
