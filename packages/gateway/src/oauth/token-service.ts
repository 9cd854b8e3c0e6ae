import { randomUUID } from 'node:crypto';
import type { Clock } from '@herald/model';
import type { ApiClientRecord } from './api-client-store.js';
import { invalidClient } from './client-auth.js';
import { oauthError } from './errors.js';
import type { FormParameters } from './form-body.js';
import { ANONYMOUS_SUBJECT, CUSTOMER_SUBJECT, implies, parseProjectScope, projectsOf, scopeNamesFor, splitScopes, subjectScope } from './scopes.js';
import { newSecret, tokenHash, UNMATCHABLE_PASSWORD_HASH, verifySecret } from './secrets.js';
import { AnonymousIdTaken, ClientGone, CustomerGone, type GrantRecord, type TokenStore } from './token-store.js';

/** §5.3 token response. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  scope: string;
  token_type: 'Bearer';
  refresh_token?: string;
}

/** §5.5 introspection response: only `active` when the token is inactive or not the caller's to see. */
export type IntrospectionResponse = { active: false } | { active: true; scope: string; exp: number; client_id: string };

/** Finds the customer a password grant signs in (customers module). */
export interface CustomerLogin {
  /**
   * The customer with this e-mail who may sign in here: a global customer, or with `storeKey` a
   * customer of that store (or a global one). Returns their id and scrypt password hash. Throws
   * the 404 of every in-store route when the store does not exist.
   */
  findForLogin(projectKey: string, email: string, storeKey: string | undefined): Promise<{ customerId: string; passwordHash: string } | undefined>;
}

/** Told about revoked access tokens so that in-memory caches forget them at once. */
export interface RevocationListener {
  revoked(accessTokenHashes: readonly string[]): void;
}

export interface TokenServiceDeps {
  tokens: TokenStore;
  customers: CustomerLogin;
  clock: Clock;
  revocations: RevocationListener;
}

export interface TokenServiceOptions {
  accessTokenTtlSeconds: number;
}

const ANONYMOUS_ID = /^[\x21-\x7e]{1,256}$/;

/*
 * The descriptions below are the platform's own wording (§5 does not fix them; clients compare
 * them, e.g. a storefront telling "wrong password" from "misconfigured client"): the official
 * SDKs' test fixtures record them. Herald's explanation goes to `errors[0].detail`.
 */
function required(form: FormParameters, name: string): string {
  const value = form.get(name);
  if (value === undefined || value === '') throw oauthError('invalid_request', `Missing required parameter: ${name}.`);
  return value;
}

function expectGrantType(form: FormParameters, allowed: readonly string[]): string {
  const grantType = required(form, 'grant_type');
  if (!allowed.includes(grantType)) {
    throw oauthError('unsupported_grant_type', `Invalid parameter: grant_type: Invalid grant type: '${grantType.slice(0, 64)}'`, {
      detail: `This endpoint takes grant_type ${allowed.join(' or ')}.`,
    });
  }
  return grantType;
}

/** Every refused `scope` parameter answers alike, as the platform does; `detail` says why. */
const invalidScope = (detail: string) => oauthError('invalid_scope', 'Malformed parameter: scope: Invalid scope.', { detail });

/**
 * The password flow issues a refresh token unless the request says `refresh_token=false`
 * (clients that keep no refresh token ask for none, so none lingers in the store).
 */
function wantsRefreshToken(form: FormParameters): boolean {
  const value = form.get('refresh_token');
  if (value === undefined || value === 'true') return true;
  if (value === 'false') return false;
  throw oauthError('invalid_request', 'Invalid parameter: refresh_token: must be true or false.');
}

const REFRESH_TOKEN_NOT_FOUND = 'The refresh token was not found. It may have expired.';

const invalidCustomerCredentials = () => oauthError('invalid_customer_account_credentials', 'Customer account with the given credentials not found.');

function shown(scope: string): string {
  return scope.length > 120 ? `${scope.slice(0, 120)}…` : scope;
}

/**
 * The scopes a token gets: the requested ones (each implied by the client's scopes of the same
 * project) or, when none are requested, all of the client's scopes; restricted to `projectKey` for
 * the project-specific flows (§5.3).
 */
export function resolveScopes(client: ApiClientRecord, requested: string | undefined, projectKey?: string): string[] {
  const ofProject = (scope: string) => projectKey === undefined || parseProjectScope(scope)?.projectKey === projectKey;
  if (requested === undefined || requested.trim() === '') {
    const all = client.scopes.filter(ofProject);
    if (all.length === 0) throw invalidScope(`The client has no scope for the project '${projectKey ?? ''}'.`);
    return all;
  }
  return splitScopes(requested).map((scope) => {
    const parsed = parseProjectScope(scope);
    if (parsed === undefined) throw invalidScope(`'${shown(scope)}' is not a scope of the form <scope>:<projectKey>.`);
    if (!ofProject(scope)) throw invalidScope(`'${shown(scope)}' is not a scope of the project '${projectKey ?? ''}'.`);
    if (!implies(scopeNamesFor(client.scopes, parsed.projectKey), parsed.name)) {
      throw invalidScope(`The client may not request the scope '${shown(scope)}'.`);
    }
    return scope;
  });
}

/** The OAuth 2.0 flows of §5.3–5.6 over the token store. Client authentication happens before. */
export class TokenService {
  constructor(
    private readonly deps: TokenServiceDeps,
    private readonly options: TokenServiceOptions,
  ) {}

  /** `POST /oauth/token`: client credentials or refresh token. */
  async token(client: ApiClientRecord, form: FormParameters): Promise<TokenResponse> {
    const grantType = expectGrantType(form, ['client_credentials', 'refresh_token']);
    if (grantType === 'refresh_token') return this.refresh(client, required(form, 'refresh_token'));
    return this.issue({ clientId: client.id, scopes: resolveScopes(client, form.get('scope')) }, { refresh: false });
  }

  /** `POST /oauth/{projectKey}[/in-store/key={storeKey}]/customers/token`: the password flow. */
  async password(client: ApiClientRecord, projectKey: string, storeKey: string | undefined, form: FormParameters): Promise<TokenResponse> {
    expectGrantType(form, ['password']);
    const email = required(form, 'username');
    const password = required(form, 'password');
    const scopes = resolveScopes(client, form.get('scope'), projectKey);
    const refresh = wantsRefreshToken(form);
    const customer = await this.deps.customers.findForLogin(projectKey, email, storeKey);
    // Verify against a dummy hash when the e-mail is unknown: the answer takes as long either way.
    const matches = await verifySecret(password, customer?.passwordHash ?? UNMATCHABLE_PASSWORD_HASH);
    if (customer === undefined || !matches) throw invalidCustomerCredentials();
    const grant: GrantRecord = {
      clientId: client.id,
      scopes: [...scopes, subjectScope(CUSTOMER_SUBJECT, customer.customerId)],
      customerId: customer.customerId,
    };
    try {
      return await this.issue(grant, { refresh, customer: { projectKey, customerId: customer.customerId } });
    } catch (error) {
      // Deleted while its password was being checked: as if it had never been found.
      if (error instanceof CustomerGone) throw invalidCustomerCredentials();
      throw error;
    }
  }

  /** `POST /oauth/{projectKey}/anonymous/token` (§5.3): needs `create_anonymous_token`. */
  async anonymous(client: ApiClientRecord, projectKey: string, form: FormParameters): Promise<TokenResponse> {
    expectGrantType(form, ['client_credentials']);
    if (!implies(scopeNamesFor(client.scopes, projectKey), 'create_anonymous_token')) {
      // A token-endpoint error (RFC 6749 §5.2): 400 unauthorized_client, not the resource
      // servers' 403 insufficient_scope.
      throw oauthError('unauthorized_client', `The client needs the scope create_anonymous_token:${projectKey}.`);
    }
    const requestedId = form.get('anonymous_id');
    if (requestedId !== undefined && !ANONYMOUS_ID.test(requestedId)) {
      throw oauthError('invalid_request', 'anonymous_id must be 1 to 256 printable characters without spaces.');
    }
    const anonymousId = requestedId ?? randomUUID();
    const scopes = resolveScopes(client, form.get('scope'), projectKey);
    const grant: GrantRecord = { clientId: client.id, scopes: [...scopes, subjectScope(ANONYMOUS_SUBJECT, anonymousId)], anonymousId };
    try {
      return await this.issue(grant, { refresh: true, anonymousSession: { projectKey, anonymousId } });
    } catch (error) {
      if (error instanceof AnonymousIdTaken) {
        throw oauthError('invalid_request', 'The given anonymous ID is already in use.', { code: 'AnonymousIdAlreadyInUse' });
      }
      throw error;
    }
  }

  /**
   * §5.5: a client may introspect its own tokens; with `introspect_oauth_tokens` (implied by
   * `manage_project`) for every project a token names, anyone's. Otherwise: inactive, no details.
   */
  async introspect(client: ApiClientRecord, form: FormParameters): Promise<IntrospectionResponse> {
    const token = form.get('token');
    if (token === undefined || token === '') return { active: false };
    const record = await this.deps.tokens.findAccessToken(tokenHash(token));
    if (record === undefined || record.expiresAt <= this.deps.clock.now().getTime()) return { active: false };
    const projects = projectsOf(record.scopes);
    const mayIntrospect =
      record.clientId === client.id ||
      (projects.size > 0 && [...projects].every((project) => implies(scopeNamesFor(client.scopes, project), 'introspect_oauth_tokens')));
    if (!mayIntrospect) return { active: false };
    return { active: true, scope: record.scopes.join(' '), exp: Math.floor(record.expiresAt / 1000), client_id: record.clientId };
  }

  /**
   * §5.6 / RFC 7009: revokes an access or refresh token issued to the calling client; a token of
   * another client, an unknown token or a missing parameter are all answered 200 by the route.
   * `token_type_hint` only decides which kind is tried first.
   */
  async revoke(client: ApiClientRecord, form: FormParameters): Promise<void> {
    const token = form.get('token');
    if (token === undefined || token === '') return;
    const hash = tokenHash(token);
    const revokeAccess = async () => {
      const revoked = await this.deps.tokens.revokeAccessToken(hash, client.id);
      if (revoked) this.deps.revocations.revoked([hash]);
      return revoked;
    };
    const revokeRefresh = async () => {
      const accessHashes = await this.deps.tokens.revokeRefreshToken(hash, client.id);
      if (accessHashes !== undefined) this.deps.revocations.revoked(accessHashes);
      return accessHashes !== undefined;
    };
    if (form.get('token_type_hint') === 'refresh_token') {
      if (!(await revokeRefresh())) await revokeAccess();
    } else if (!(await revokeAccess())) {
      await revokeRefresh();
    }
  }

  private async refresh(client: ApiClientRecord, refreshToken: string): Promise<TokenResponse> {
    const accessToken = newSecret();
    const outcome = await this.deps.tokens.useRefreshToken(tokenHash(refreshToken), client.id, {
      accessTokenHash: tokenHash(accessToken),
      expiresAt: this.accessTokenExpiry(),
    });
    if (!outcome.ok) {
      throw oauthError('invalid_grant', REFRESH_TOKEN_NOT_FOUND, outcome.reason === 'expired' ? { detail: 'The refresh token has expired.' } : {});
    }
    return this.response(outcome.grant, accessToken, undefined);
  }

  private async issue(
    grant: GrantRecord,
    how: { refresh: boolean; anonymousSession?: { projectKey: string; anonymousId: string }; customer?: { projectKey: string; customerId: string } },
  ): Promise<TokenResponse> {
    const accessToken = newSecret();
    const refreshToken = how.refresh ? newSecret() : undefined;
    try {
      await this.deps.tokens.save({
        grant,
        accessTokenHash: tokenHash(accessToken),
        expiresAt: this.accessTokenExpiry(),
        ...(refreshToken !== undefined ? { refreshTokenHash: tokenHash(refreshToken) } : {}),
        ...(how.anonymousSession !== undefined ? { anonymousSession: how.anonymousSession } : {}),
        ...(how.customer !== undefined ? { customer: how.customer } : {}),
      });
    } catch (error) {
      // Deleted after it authenticated: as if its credentials had been wrong.
      if (error instanceof ClientGone) throw invalidClient();
      throw error;
    }
    return this.response(grant, accessToken, refreshToken);
  }

  private accessTokenExpiry(): Date {
    return new Date(this.deps.clock.now().getTime() + this.options.accessTokenTtlSeconds * 1000);
  }

  private response(grant: GrantRecord, accessToken: string, refreshToken: string | undefined): TokenResponse {
    const response: TokenResponse = {
      access_token: accessToken,
      expires_in: this.options.accessTokenTtlSeconds,
      scope: grant.scopes.join(' '),
      token_type: 'Bearer',
    };
    if (refreshToken !== undefined) response.refresh_token = refreshToken;
    return response;
  }
}
