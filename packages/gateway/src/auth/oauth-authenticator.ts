import type { Clock } from '@herald/model';
import type { Project } from '@herald/store';
import type { FastifyRequest } from 'fastify';
import { oauthError } from '../oauth/errors.js';
import type { ExternalTokenValidator } from '../oauth/external/external-validator.js';
import { externalOAuthOf } from '../oauth/external/settings.js';
import { impliesAny, scopeNamesFor } from '../oauth/scopes.js';
import { tokenHash } from '../oauth/secrets.js';
import { ExpiringCache } from '../oauth/token-cache.js';
import type { TokenGrant } from '../oauth/token-grant.js';
import type { RevocationListener } from '../oauth/token-service.js';
import type { AccessTokenRecord } from '../oauth/token-store.js';
import type { AuthContext, Authenticator, ProjectRouteAuth } from './types.js';

export interface OAuthAuthenticatorDeps {
  tokens: {
    findAccessToken(hash: string): Promise<AccessTokenRecord | undefined>;
    anonymousSessionExists(projectKey: string, anonymousId: string): Promise<boolean>;
  };
  external: ExternalTokenValidator;
  projects: { get(key: string): Promise<Project | undefined> };
  customers: {
    exists(projectKey: string, customerId: string): Promise<boolean>;
    /** Whether the customer may act in the store: the rule of the in-store password flow. */
    mayActInStore(projectKey: string, customerId: string, storeKey: string): Promise<boolean>;
  };
  clock: Clock;
}

export interface OAuthAuthenticatorOptions {
  /** How long a validated token is trusted from memory (HERALD_TOKEN_CACHE_SECONDS). */
  cacheSeconds: number;
}

interface ValidatedToken {
  grant: TokenGrant;
  /** AuthContexts already built from this token, per project key. */
  contexts: Map<string, AuthContext>;
}

const MAX_CACHED_TOKENS = 100_000;

/*
 * Where the platform's wording is known it is used as it is (clients compare it): a request
 * without a token, an unknown or expired token (`invalid_token`, the reference's AuthErrorResponse
 * example), a missing scope (InsufficientScopeError's message). Herald's explanation goes to
 * `errors[0].detail`.
 */
const invalidToken = (detail: string) => oauthError('invalid_token', 'invalid_token', { detail });
const insufficientScope = (description: string) => oauthError('insufficient_scope', description);
const MISSING_TOKEN = 'This endpoint requires an access token. You can get one from the authorization server.';

/** §5.1: only `Authorization: Bearer <token>`. */
function bearerToken(header: string | undefined): string {
  if (header === undefined || header === '') throw oauthError('invalid_token', MISSING_TOKEN);
  const match = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i.exec(header);
  if (match?.[1] === undefined) throw invalidToken('The Authorization header must be "Bearer <token>".');
  return match[1];
}

/** §5.1: tokens in URI parameters are unsupported; refusing them keeps them out of URL logs' reach. */
function refuseTokenInUri(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query !== undefined && Object.hasOwn(query, 'access_token')) {
    throw oauthError('invalid_request', 'Access tokens in URI parameters are not supported; send Authorization: Bearer <token> instead (§5.1).');
  }
}

function contextFor(validated: ValidatedToken, projectKey: string): AuthContext {
  const known = validated.contexts.get(projectKey);
  if (known !== undefined) return known;
  const { grant } = validated;
  const context: AuthContext = { projectKey, scopes: scopeNamesFor(grant.scopes, projectKey), clientId: grant.clientId };
  if (grant.customerId !== undefined) context.customerId = grant.customerId;
  if (grant.anonymousId !== undefined) context.anonymousId = grant.anonymousId;
  validated.contexts.set(projectKey, context);
  return context;
}

/**
 * The Authenticator of every project route: Herald's own tokens (looked up by hash, then kept in
 * memory for a short time), else the project's external introspection endpoint (§5.7).
 *
 * The in-memory cache is what keeps token validation cheap (benchmark: bench/oauth.ts). Revoking
 * evicts at once (`revoked`), so in this process revocation takes effect immediately; other gateway
 * processes keep trusting a token they validated for at most HERALD_TOKEN_CACHE_SECONDS (and never
 * beyond its expiry). Operators who need strict cross-process revocation set it to 0.
 */
export class OAuthAuthenticator implements Authenticator, RevocationListener {
  private readonly validated: ExpiringCache<ValidatedToken>;
  /**
   * Counts evictions (revocations, deleted clients and customers). A lookup that an eviction
   * overtook may have read a row that is deleted by now, after the eviction ran: it answers its
   * own request (which began before the revocation) but is not cached.
   */
  private evictions = 0;

  constructor(
    private readonly deps: OAuthAuthenticatorDeps,
    private readonly options: OAuthAuthenticatorOptions,
  ) {
    this.validated = new ExpiringCache<ValidatedToken>(deps.clock, MAX_CACHED_TOKENS);
  }

  async authenticate(request: FastifyRequest, projectKey: string, required: ProjectRouteAuth): Promise<AuthContext> {
    refuseTokenInUri(request);
    const token = bearerToken(request.headers.authorization);
    const validated = await this.validate(token, projectKey, request.id);
    const context = contextFor(validated, projectKey);
    if (context.scopes.size === 0) throw insufficientScope(`The access token grants no scope for the project '${projectKey}'.`);
    if (!impliesAny(context.scopes, required.anyOf)) {
      throw insufficientScope(
        `Insufficient scope. One of the following scopes is missing: ${required.anyOf.map((scope) => `${scope}:${projectKey}`).join(', ')}`,
      );
    }
    if (required.me !== undefined) {
      await this.checkSubject(validated.grant, context, required.me);
      await this.checkStore(context, (request.params as { storeKey?: string } | undefined)?.storeKey);
    }
    return context;
  }

  /** Called after the revocation committed (as `forgetWhere`), so later lookups miss the rows. */
  revoked(accessTokenHashes: readonly string[]): void {
    this.evictions++;
    for (const hash of accessTokenHashes) this.validated.delete(hash);
  }

  /** A deleted API client's or customer's tokens must stop working at once here too. */
  forgetWhere(matches: (grant: TokenGrant) => boolean): void {
    this.evictions++;
    this.validated.deleteWhere((entry) => matches(entry.grant));
  }

  private async validate(token: string, projectKey: string, correlationId: string): Promise<ValidatedToken> {
    const hash = tokenHash(token);
    const cached = this.validated.get(hash);
    if (cached !== undefined) return cached;

    const now = this.deps.clock.now().getTime();
    const evictionsBefore = this.evictions;
    const record = await this.deps.tokens.findAccessToken(hash);
    if (record !== undefined) {
      if (record.expiresAt <= now) throw invalidToken('The access token has expired.');
      const validated: ValidatedToken = { grant: { ...record, source: 'herald' }, contexts: new Map() };
      if (this.evictions === evictionsBefore) {
        this.validated.set(hash, validated, Math.min(record.expiresAt, now + this.options.cacheSeconds * 1000));
      }
      return validated;
    }

    // Not one of ours: the project's external introspection endpoint decides, if it has one (§5.7).
    const settings = externalOAuthOf(await this.deps.projects.get(projectKey));
    if (settings === undefined) throw invalidToken('The access token is invalid, has expired or was revoked.');
    const grant = await this.deps.external.validate(token, projectKey, settings, correlationId);
    return { grant, contexts: new Map() };
  }

  /** `/me` routes (§5.7): the token must name a customer (or anonymous session) that exists. */
  private async checkSubject(grant: TokenGrant, context: AuthContext, me: NonNullable<ProjectRouteAuth['me']>): Promise<void> {
    const { customerId, anonymousId } = context;
    if (customerId === undefined && (me === 'customer' || anonymousId === undefined)) {
      throw insufficientScope(
        me === 'customer' ? 'This endpoint needs a customer token (password flow).' : 'This endpoint needs a customer or anonymous session token.',
      );
    }
    // Herald's own tokens name subjects Herald created (and revokes with the customer); external
    // ones must be checked.
    if (grant.source === 'herald') return;
    const exists =
      customerId !== undefined
        ? await this.deps.customers.exists(context.projectKey, customerId)
        : await this.deps.tokens.anonymousSessionExists(context.projectKey, anonymousId ?? '');
    if (!exists) throw insufficientScope('The customer or anonymous session named by the token does not exist.');
  }

  /**
   * In-store `/me` routes (`/in-store/key={storeKey}/me/…`): a customer of another store cannot
   * sign in at this store (§5.3, customers/credentials.ts findForLogin), so its token must not act
   * here either; checked here, for every `/me` route with a `:storeKey`, so no such route can skip
   * it. Global customers and anonymous sessions belong to no store and may act in any. A 403
   * `insufficient_scope` like the other subject checks above: the token is valid, but does not
   * reach this store (RFC 6750 §3.1), and a 404 would deny that a store everyone may name exists.
   */
  private async checkStore(context: AuthContext, storeKey: string | undefined): Promise<void> {
    if (storeKey === undefined || context.customerId === undefined) return;
    if (!(await this.deps.customers.mayActInStore(context.projectKey, context.customerId, storeKey))) {
      throw insufficientScope(`The customer of this access token does not belong to the store '${storeKey}'.`);
    }
  }
}
