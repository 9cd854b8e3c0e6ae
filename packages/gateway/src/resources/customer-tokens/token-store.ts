import type { Clock } from '@herald/model';
import type { DocumentStore, Queryable, WriteContext } from '@herald/store';
import { newSecret, tokenHash } from '../../oauth/secrets.js';
import { createdMessage, TOKEN_TYPE_IDS, type CustomerTokenKind, type StoredCustomerToken } from './token.js';

const MINUTE_MS = 60_000;

/** Where a token of `kind` lives: the versioned document store, so each write notifies through the outbox. */
export class CustomerTokenStore {
  constructor(
    private readonly documents: DocumentStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Issues a token for the customer: a fresh 256-bit value, of which only the hash is written.
   * With `invalidateOlderTokens` the customer's earlier tokens of the kind are deleted in the same
   * transaction (CustomerCreateEmailToken.invalidateOlderTokens).
   */
  async issue(
    write: WriteContext,
    kind: CustomerTokenKind,
    customerId: string,
    request: { ttlMinutes: number; invalidateOlderTokens: boolean },
  ): Promise<{ stored: StoredCustomerToken; value: string }> {
    const value = newSecret();
    const expiresAt = new Date(this.clock.now().getTime() + request.ttlMinutes * MINUTE_MS).toISOString();
    const fields = { customerId, valueHash: tokenHash(value), expiresAt, invalidateOlderTokens: request.invalidateOlderTokens };
    const stored = await this.documents.db.transaction(async (tx) => {
      if (request.invalidateOlderTokens) await this.invalidate(tx, write, kind, customerId);
      return this.documents
        .within(tx)
        .create<StoredCustomerToken>(write, TOKEN_TYPE_IDS[kind], fields, (doc) => [createdMessage(kind, doc, value, request.ttlMinutes)]);
    });
    return { stored, value };
  }

  /** The token whose value this is, whatever its state; undefined for a value never issued (or used). */
  async find(projectKey: string, kind: CustomerTokenKind, value: string): Promise<StoredCustomerToken | undefined> {
    const found = await this.documents.db.query<{ doc: StoredCustomerToken }>(
      'SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb LIMIT 1',
      [projectKey, TOKEN_TYPE_IDS[kind], JSON.stringify({ valueHash: tokenHash(value) })],
    );
    return found.rows[0]?.doc;
  }

  isExpired(token: StoredCustomerToken): boolean {
    return Date.parse(token.expiresAt) <= this.clock.now().getTime();
  }

  /**
   * Uses the token up, in the caller's transaction: it is deleted under its row lock, so of two
   * requests redeeming it at once one finds it gone (404). Every other token of the kind of that
   * customer goes with it: "all tokens issued previously are invalidated" after a verification or
   * a reset (resources/customers.raml).
   */
  async redeem(tx: Queryable, write: WriteContext, kind: CustomerTokenKind, token: StoredCustomerToken): Promise<void> {
    await this.documents.within(tx).delete(write, TOKEN_TYPE_IDS[kind], { id: token.id }, token.version);
    await this.invalidate(tx, write, kind, token.customerId);
  }

  /** Deletes the customer's tokens of `kind` (each with its ResourceDeleted). */
  private async invalidate(tx: Queryable, write: WriteContext, kind: CustomerTokenKind, customerId: string): Promise<void> {
    const older = await tx.query<{ id: string; version: number }>(
      'SELECT id, version FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb ORDER BY created_at, id FOR UPDATE',
      [write.projectKey, TOKEN_TYPE_IDS[kind], JSON.stringify({ customerId })],
    );
    for (const token of older.rows) await this.documents.within(tx).delete(write, TOKEN_TYPE_IDS[kind], { id: token.id }, token.version);
  }
}
