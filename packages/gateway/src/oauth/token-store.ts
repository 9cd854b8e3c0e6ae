import type { Clock } from '@herald/model';
import type { Database, Queryable } from '@herald/store';
import { splitScopes } from './scopes.js';

/** What a token grants; the same for an access token and the refresh token it came from. */
export interface GrantRecord {
  clientId: string;
  scopes: readonly string[];
  customerId?: string;
  anonymousId?: string;
}

export interface AccessTokenRecord extends GrantRecord {
  /** Epoch milliseconds. */
  expiresAt: number;
  refreshTokenHash?: string;
}

/** One issuance, written in one transaction. */
export interface Issuance {
  grant: GrantRecord;
  accessTokenHash: string;
  expiresAt: Date;
  refreshTokenHash?: string;
  /** Set when a new refresh token is created (not when an existing one is used). */
  newRefreshToken?: boolean;
  anonymousSession?: { projectKey: string; anonymousId: string };
}

export type RefreshOutcome =
  | { ok: true; grant: GrantRecord }
  | { ok: false; reason: 'unknown' | 'expired' };

export class AnonymousIdTaken extends Error {
  override name = 'AnonymousIdTaken';
}

interface GrantRow {
  client_id: string;
  scope: string;
  customer_id: string | null;
  anonymous_id: string | null;
}

function toGrant(row: GrantRow): GrantRecord {
  const grant: GrantRecord = { clientId: row.client_id, scopes: splitScopes(row.scope) };
  if (row.customer_id !== null) grant.customerId = row.customer_id;
  if (row.anonymous_id !== null) grant.anonymousId = row.anonymous_id;
  return grant;
}

/** §5.4: refresh tokens expire 6 months after their last use. */
export function refreshTokenExpiry(lastUsed: Date): Date {
  const expiry = new Date(lastUsed.getTime());
  expiry.setUTCMonth(expiry.getUTCMonth() + 6);
  return expiry;
}

function sixMonthsBefore(now: Date): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - 6);
  return cutoff;
}

/** Expired rows are swept at most this often, a bounded batch at a time, during issuance. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 500;

async function deleteRefreshTokens(tx: Queryable, condition: string, params: readonly unknown[]): Promise<string[]> {
  const deleted = await tx.query<{ token_hash: string }>(
    `DELETE FROM oauth_refresh_tokens WHERE ${condition} RETURNING token_hash`,
    params,
  );
  if (deleted.rowCount > 0) {
    await tx.query('UPDATE oauth_refresh_token_count SET count = count - $1', [deleted.rowCount]);
  }
  return deleted.rows.map((row) => row.token_hash);
}

/** Deletes every token of a client (the client was deleted); returns the access token hashes. */
export async function deleteTokensOfClient(tx: Queryable, clientId: string): Promise<string[]> {
  await deleteRefreshTokens(tx, 'client_id = $1', [clientId]);
  const access = await tx.query<{ token_hash: string }>(
    'DELETE FROM oauth_access_tokens WHERE client_id = $1 RETURNING token_hash',
    [clientId],
  );
  return access.rows.map((row) => row.token_hash);
}

/** Access tokens, refresh tokens and anonymous sessions, stored by hash only (secrets.ts). */
export class TokenStore {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly refreshTokenCap: number,
  ) {}

  async save(issuance: Issuance): Promise<void> {
    const now = this.clock.now();
    if (issuance.anonymousSession === undefined && issuance.newRefreshToken !== true) {
      // One row (client credentials, refresh grant): no transaction round trips needed.
      await this.insertAccessToken(this.db, issuance, now);
    } else {
      await this.db.transaction((tx) => this.saveWithSession(tx, issuance, now));
    }
    await this.sweepExpired(now);
  }

  private async saveWithSession(tx: Queryable, issuance: Issuance, now: Date): Promise<void> {
    const { grant } = issuance;
    if (issuance.anonymousSession !== undefined) {
      const { projectKey, anonymousId } = issuance.anonymousSession;
      const inserted = await tx.query(
        `INSERT INTO anonymous_sessions (project_key, anonymous_id, client_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [projectKey, anonymousId, grant.clientId, now.toISOString()],
      );
      if (inserted.rowCount === 0) throw new AnonymousIdTaken();
    }
    if (issuance.newRefreshToken === true && issuance.refreshTokenHash !== undefined) {
      await tx.query(
        `INSERT INTO oauth_refresh_tokens (token_hash, client_id, scope, customer_id, anonymous_id, created_at, last_used_at, last_use_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $6, nextval('oauth_refresh_token_use_seq'))`,
        [issuance.refreshTokenHash, grant.clientId, grant.scopes.join(' '), grant.customerId ?? null, grant.anonymousId ?? null, now.toISOString()],
      );
      await this.enforceRefreshTokenCap(tx);
    }
    await this.insertAccessToken(tx, issuance, now);
  }

  private async insertAccessToken(target: Queryable, issuance: Issuance, now: Date): Promise<void> {
    const { grant } = issuance;
    await target.query(
      `INSERT INTO oauth_access_tokens (token_hash, client_id, scope, customer_id, anonymous_id, refresh_token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        issuance.accessTokenHash,
        grant.clientId,
        grant.scopes.join(' '),
        grant.customerId ?? null,
        grant.anonymousId ?? null,
        issuance.refreshTokenHash ?? null,
        now.toISOString(),
        issuance.expiresAt.toISOString(),
      ],
    );
  }

  async findAccessToken(hash: string): Promise<AccessTokenRecord | undefined> {
    const result = await this.db.query<GrantRow & { expires_at: Date | string; refresh_token_hash: string | null }>(
      `SELECT client_id, scope, customer_id, anonymous_id, expires_at, refresh_token_hash
       FROM oauth_access_tokens WHERE token_hash = $1`,
      [hash],
    );
    const row = result.rows[0];
    if (row === undefined) return undefined;
    const record: AccessTokenRecord = { ...toGrant(row), expiresAt: new Date(row.expires_at).getTime() };
    if (row.refresh_token_hash !== null) record.refreshTokenHash = row.refresh_token_hash;
    return record;
  }

  /** Uses a refresh token of `clientId`: checks its age (§5.4) and marks it used now. */
  async useRefreshToken(hash: string, clientId: string): Promise<RefreshOutcome> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const result = await tx.query<GrantRow & { last_used_at: Date | string }>(
        `SELECT client_id, scope, customer_id, anonymous_id, last_used_at FROM oauth_refresh_tokens
         WHERE token_hash = $1 FOR UPDATE`,
        [hash],
      );
      const row = result.rows[0];
      // A refresh token of another client is "unknown" to this one (RFC 6749 §6).
      if (row === undefined || row.client_id !== clientId) return { ok: false, reason: 'unknown' } as const;
      if (refreshTokenExpiry(new Date(row.last_used_at)) <= now) {
        await deleteRefreshTokens(tx, 'token_hash = $1', [hash]);
        return { ok: false, reason: 'expired' } as const;
      }
      await tx.query(
        `UPDATE oauth_refresh_tokens SET last_used_at = $2, last_use_seq = nextval('oauth_refresh_token_use_seq')
         WHERE token_hash = $1`,
        [hash, now.toISOString()],
      );
      return { ok: true, grant: toGrant(row) } as const;
    });
  }

  /** Revokes an access token of `clientId`; returns whether one was deleted. */
  async revokeAccessToken(hash: string, clientId: string): Promise<boolean> {
    const deleted = await this.db.query('DELETE FROM oauth_access_tokens WHERE token_hash = $1 AND client_id = $2', [hash, clientId]);
    return deleted.rowCount > 0;
  }

  /**
   * Revokes a refresh token of `clientId` and the access tokens issued with or from it; returns
   * the hashes of those access tokens (to evict them from memory), or undefined if none matched.
   */
  async revokeRefreshToken(hash: string, clientId: string): Promise<string[] | undefined> {
    return this.db.transaction(async (tx) => {
      const deleted = await deleteRefreshTokens(tx, 'token_hash = $1 AND client_id = $2', [hash, clientId]);
      if (deleted.length === 0) return undefined;
      const access = await tx.query<{ token_hash: string }>(
        'DELETE FROM oauth_access_tokens WHERE refresh_token_hash = $1 RETURNING token_hash',
        [hash],
      );
      return access.rows.map((row) => row.token_hash);
    });
  }

  /** A deleted customer's tokens stop working (their ids are project-unique UUIDs). */
  async revokeCustomerTokens(customerId: string): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      await deleteRefreshTokens(tx, 'customer_id = $1', [customerId]);
      const access = await tx.query<{ token_hash: string }>(
        'DELETE FROM oauth_access_tokens WHERE customer_id = $1 RETURNING token_hash',
        [customerId],
      );
      return access.rows.map((row) => row.token_hash);
    });
  }

  async anonymousSessionExists(projectKey: string, anonymousId: string): Promise<boolean> {
    const result = await this.db.query('SELECT 1 FROM anonymous_sessions WHERE project_key = $1 AND anonymous_id = $2', [
      projectKey,
      anonymousId,
    ]);
    return result.rows.length > 0;
  }

  async refreshTokenCount(): Promise<number> {
    const result = await this.db.query<{ count: number }>('SELECT count FROM oauth_refresh_token_count');
    return result.rows[0]?.count ?? 0;
  }

  /**
   * §8: beyond the cap the least recently used refresh tokens are deleted, and creating new ones
   * keeps working. The counter row serialises refresh token inserts; that is the price of not
   * counting millions of rows per issuance. The new token has the highest use sequence, so it is
   * never its own victim.
   */
  private async enforceRefreshTokenCap(tx: Queryable): Promise<void> {
    const counted = await tx.query<{ count: number }>(
      'UPDATE oauth_refresh_token_count SET count = count + 1 RETURNING count',
    );
    const excess = (counted.rows[0]?.count ?? 0) - this.refreshTokenCap;
    if (excess <= 0) return;
    await deleteRefreshTokens(
      tx,
      'token_hash IN (SELECT token_hash FROM oauth_refresh_tokens ORDER BY last_use_seq LIMIT $1)',
      [excess],
    );
  }

  /** Removes expired access tokens and refresh tokens unused for 6 months, in bounded batches. */
  private async sweepExpired(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    await this.db.query(
      `DELETE FROM oauth_access_tokens WHERE token_hash IN
         (SELECT token_hash FROM oauth_access_tokens WHERE expires_at <= $1 LIMIT ${SWEEP_BATCH})`,
      [now.toISOString()],
    );
    await this.db.transaction((tx) =>
      deleteRefreshTokens(
        tx,
        `token_hash IN (SELECT token_hash FROM oauth_refresh_tokens WHERE last_used_at <= $1 LIMIT ${SWEEP_BATCH})`,
        [sixMonthsBefore(now).toISOString()],
      ),
    );
  }
}
