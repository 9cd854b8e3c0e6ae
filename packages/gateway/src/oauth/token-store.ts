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
  /** A new refresh token issued with the access token (password and anonymous flows). */
  refreshTokenHash?: string;
  anonymousSession?: { projectKey: string; anonymousId: string };
  /** Password flow: the customer whose tokens these are, who must still exist when they are written. */
  customer?: { projectKey: string; customerId: string };
}

/** The access token a refresh grant issues. */
export interface RefreshedAccessToken {
  accessTokenHash: string;
  expiresAt: Date;
}

export type RefreshOutcome = { ok: true; grant: GrantRecord } | { ok: false; reason: 'unknown' | 'expired' };

export class AnonymousIdTaken extends Error {
  override name = 'AnonymousIdTaken';
}

/** The customer of a password grant was deleted while it signed in. */
export class CustomerGone extends Error {
  override name = 'CustomerGone';
}

/** The API client was deleted while its request was being answered: no token for it. */
export class ClientGone extends Error {
  override name = 'ClientGone';
}

/**
 * Holds the client's row until the issuance commits. Deleting a client deletes its row and then its
 * tokens, in one transaction (api-client-store.ts): held first, the deletion waits and then deletes
 * the new tokens too; found gone, nothing is issued. KEY SHARE does not block a `last_used_at` update.
 */
const LOCK_CLIENT = 'SELECT 1 FROM api_clients WHERE id = $1 FOR KEY SHARE';

/** Where the logs of the token store go (the gateway's logger). */
export interface TokenStoreLog {
  error(details: object, message: string): void;
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

/**
 * §5.4: refresh tokens expire 6 months after their last use, so those last used at or before this
 * instant have expired. The one computation of the refresh grant and the sweep, so that both agree
 * on every day of the year. Six calendar months back, clamped to the end of a shorter month
 * (31 August → 28 February, not rolled over to 3 March).
 */
export function refreshTokenCutoff(now: Date): Date {
  const cutoff = new Date(now.getTime());
  const day = cutoff.getUTCDate();
  cutoff.setUTCDate(1);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - 6);
  const daysInMonth = new Date(Date.UTC(cutoff.getUTCFullYear(), cutoff.getUTCMonth() + 1, 0)).getUTCDate();
  cutoff.setUTCDate(Math.min(day, daysInMonth));
  return cutoff;
}

/** Expired rows are swept at most this often, a bounded batch at a time, during issuance. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 500;

/**
 * The one lock order of every transaction that inserts or deletes refresh tokens: the counter row
 * FIRST, then token rows. (A revocation that deleted a row and then wanted the counter, and an
 * issuance at the cap that held the counter and wanted to delete that same least recently used
 * row, waited for each other until PostgreSQL aborted one.) A sign-in locks its customer's
 * password row before the counter, as does deleting the customer; a refresh grant locks only its
 * token's row and waits for nothing while holding it.
 */
const LOCK_COUNTER = 'SELECT count FROM oauth_refresh_token_count FOR UPDATE';

/** Deletes refresh tokens and counts them off; the caller holds the counter lock. */
async function deleteCountedRefreshTokens(tx: Queryable, condition: string, params: readonly unknown[]): Promise<string[]> {
  const deleted = await tx.query<{ token_hash: string }>(`DELETE FROM oauth_refresh_tokens WHERE ${condition} RETURNING token_hash`, params);
  if (deleted.rowCount > 0) {
    await tx.query('UPDATE oauth_refresh_token_count SET count = count - $1', [deleted.rowCount]);
  }
  return deleted.rows.map((row) => row.token_hash);
}

async function deleteRefreshTokens(tx: Queryable, condition: string, params: readonly unknown[]): Promise<string[]> {
  await tx.query(LOCK_COUNTER);
  return deleteCountedRefreshTokens(tx, condition, params);
}

function accessTokenRow(issuance: Issuance, now: Date): unknown[] {
  const { grant } = issuance;
  return [
    issuance.accessTokenHash,
    grant.clientId,
    grant.scopes.join(' '),
    grant.customerId ?? null,
    grant.anonymousId ?? null,
    issuance.refreshTokenHash ?? null,
    now.toISOString(),
    issuance.expiresAt.toISOString(),
  ];
}

const ACCESS_TOKEN_COLUMNS = 'token_hash, client_id, scope, customer_id, anonymous_id, refresh_token_hash, created_at, expires_at';

async function insertAccessToken(target: Queryable, issuance: Issuance, now: Date): Promise<void> {
  await target.query(`INSERT INTO oauth_access_tokens (${ACCESS_TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, accessTokenRow(issuance, now));
}

/** One statement that inserts only while the client exists, holding its row (LOCK_CLIENT) meanwhile. */
async function insertAccessTokenOfLiveClient(target: Queryable, issuance: Issuance, now: Date): Promise<void> {
  const inserted = await target.query(
    `INSERT INTO oauth_access_tokens (${ACCESS_TOKEN_COLUMNS})
     SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::timestamptz, $8::timestamptz
     WHERE EXISTS (SELECT 1 FROM api_clients WHERE id = $2::text FOR KEY SHARE)`,
    accessTokenRow(issuance, now),
  );
  if (inserted.rowCount === 0) throw new ClientGone();
}

/**
 * Deletes every token of a client (the client is being deleted, in the caller's transaction);
 * returns the access token hashes. Refresh tokens first: a refresh grant in flight holds its row,
 * so this waits for it and then also finds the access token it issued.
 */
export async function deleteTokensOfClient(tx: Queryable, clientId: string): Promise<string[]> {
  await deleteRefreshTokens(tx, 'client_id = $1', [clientId]);
  const access = await tx.query<{ token_hash: string }>('DELETE FROM oauth_access_tokens WHERE client_id = $1 RETURNING token_hash', [clientId]);
  return access.rows.map((row) => row.token_hash);
}

/** The same for a customer being deleted (their ids are project-unique UUIDs). */
export async function deleteTokensOfCustomer(tx: Queryable, customerId: string): Promise<string[]> {
  await deleteRefreshTokens(tx, 'customer_id = $1', [customerId]);
  const access = await tx.query<{ token_hash: string }>('DELETE FROM oauth_access_tokens WHERE customer_id = $1 RETURNING token_hash', [customerId]);
  return access.rows.map((row) => row.token_hash);
}

/** Access tokens, refresh tokens and anonymous sessions, stored by hash only (secrets.ts). */
export class TokenStore {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly refreshTokenCap: number,
    private readonly log?: TokenStoreLog,
  ) {}

  async save(issuance: Issuance): Promise<void> {
    const now = this.clock.now();
    if (issuance.refreshTokenHash === undefined && issuance.anonymousSession === undefined && issuance.customer === undefined) {
      // One row (client credentials): one statement, no transaction round trips.
      await insertAccessTokenOfLiveClient(this.db, issuance, now);
    } else {
      await this.db.transaction((tx) => this.saveWithSession(tx, issuance, now));
    }
    await this.sweepExpired(now);
  }

  private async saveWithSession(tx: Queryable, issuance: Issuance, now: Date): Promise<void> {
    const { grant } = issuance;
    // The client's row before anything else: its deletion takes it first too (one lock order).
    const client = await tx.query(LOCK_CLIENT, [grant.clientId]);
    if (client.rows.length === 0) throw new ClientGone();
    if (issuance.customer !== undefined) {
      // The password was checked against a row read before scrypt ran. Deleting the customer
      // deletes this row and then their tokens, in one transaction (customers/service.ts): holding
      // the row until commit, the deletion waits and then deletes these tokens too; finding it gone,
      // no tokens are issued. KEY SHARE does not block a password change.
      const { projectKey, customerId } = issuance.customer;
      const found = await tx.query('SELECT 1 FROM customer_passwords WHERE project_key = $1 AND customer_id = $2 FOR KEY SHARE', [projectKey, customerId]);
      if (found.rows.length === 0) throw new CustomerGone();
    }
    if (issuance.anonymousSession !== undefined) {
      const { projectKey, anonymousId } = issuance.anonymousSession;
      const inserted = await tx.query(
        `INSERT INTO anonymous_sessions (project_key, anonymous_id, client_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [projectKey, anonymousId, grant.clientId, now.toISOString()],
      );
      if (inserted.rowCount === 0) throw new AnonymousIdTaken();
    }
    if (issuance.refreshTokenHash !== undefined) {
      const excess = await this.countNewRefreshToken(tx);
      await tx.query(
        `INSERT INTO oauth_refresh_tokens (token_hash, client_id, scope, customer_id, anonymous_id, created_at, last_used_at, last_use_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $6, nextval('oauth_refresh_token_use_seq'))`,
        [issuance.refreshTokenHash, grant.clientId, grant.scopes.join(' '), grant.customerId ?? null, grant.anonymousId ?? null, now.toISOString()],
      );
      // §8: beyond the cap the least recently used go, and creating new ones keeps working. The
      // new token has the highest use sequence, so it is never its own victim.
      if (excess > 0) {
        await deleteCountedRefreshTokens(tx, 'token_hash IN (SELECT token_hash FROM oauth_refresh_tokens ORDER BY last_use_seq LIMIT $1)', [excess]);
      }
    }
    await insertAccessToken(tx, issuance, now);
  }

  /**
   * Counts a refresh token about to be inserted (locking the counter first, see LOCK_COUNTER);
   * returns how many are beyond the cap. The counter row serialises refresh token inserts; that is
   * the price of not counting millions of rows per issuance.
   */
  private async countNewRefreshToken(tx: Queryable): Promise<number> {
    const counted = await tx.query<{ count: number }>('UPDATE oauth_refresh_token_count SET count = count + 1 RETURNING count');
    return (counted.rows[0]?.count ?? 0) - this.refreshTokenCap;
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

  /**
   * The refresh grant: uses a refresh token of `clientId` (checks its age, §5.4, and marks it used
   * now) and issues `access` from it, in one transaction. The access token is inserted while the
   * refresh token's row is locked: a revocation deletes that row first and the access tokens
   * issued from it next, so it either comes first (and this finds no row) or after this commit
   * (and deletes this access token with the others).
   */
  async useRefreshToken(hash: string, clientId: string, access: RefreshedAccessToken): Promise<RefreshOutcome> {
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx): Promise<RefreshOutcome> => {
      const result = await tx.query<GrantRow & { last_used_at: Date | string }>(
        `SELECT client_id, scope, customer_id, anonymous_id, last_used_at FROM oauth_refresh_tokens
         WHERE token_hash = $1 FOR UPDATE`,
        [hash],
      );
      const row = result.rows[0];
      // A refresh token of another client is "unknown" to this one (RFC 6749 §6).
      if (row === undefined || row.client_id !== clientId) return { ok: false, reason: 'unknown' };
      // An expired one is left to the sweep: deleting it here would take the counter lock after
      // the row lock, against the one lock order (LOCK_COUNTER).
      if (new Date(row.last_used_at) <= refreshTokenCutoff(now)) return { ok: false, reason: 'expired' };
      await tx.query(
        `UPDATE oauth_refresh_tokens SET last_used_at = $2, last_use_seq = nextval('oauth_refresh_token_use_seq')
         WHERE token_hash = $1`,
        [hash, now.toISOString()],
      );
      const grant = toGrant(row);
      await insertAccessToken(tx, { grant, ...access, refreshTokenHash: hash }, now);
      return { ok: true, grant };
    });
    if (outcome.ok) await this.sweepExpired(now);
    return outcome;
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
      const access = await tx.query<{ token_hash: string }>('DELETE FROM oauth_access_tokens WHERE refresh_token_hash = $1 RETURNING token_hash', [hash]);
      return access.rows.map((row) => row.token_hash);
    });
  }

  async anonymousSessionExists(projectKey: string, anonymousId: string): Promise<boolean> {
    const result = await this.db.query('SELECT 1 FROM anonymous_sessions WHERE project_key = $1 AND anonymous_id = $2', [projectKey, anonymousId]);
    return result.rows.length > 0;
  }

  async refreshTokenCount(): Promise<number> {
    const result = await this.db.query<{ count: number }>('SELECT count FROM oauth_refresh_token_count');
    return result.rows[0]?.count ?? 0;
  }

  /**
   * Removes expired access tokens and refresh tokens unused for 6 months, in bounded batches. Best
   * effort: the issuance that triggers it has committed, so a failure here (a lock timeout, a
   * lost connection) is logged, never answered as a failed issuance; a later sweep catches up.
   */
  private async sweepExpired(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    try {
      await this.db.query(
        `DELETE FROM oauth_access_tokens WHERE token_hash IN
           (SELECT token_hash FROM oauth_access_tokens WHERE expires_at <= $1 LIMIT ${SWEEP_BATCH})`,
        [now.toISOString()],
      );
      await this.db.transaction((tx) =>
        deleteRefreshTokens(tx, `token_hash IN (SELECT token_hash FROM oauth_refresh_tokens WHERE last_used_at <= $1 LIMIT ${SWEEP_BATCH})`, [
          refreshTokenCutoff(now).toISOString(),
        ]),
      );
    } catch (error) {
      this.log?.error({ err: error }, 'Sweeping expired OAuth tokens failed; the next sweep tries again.');
    }
  }
}
