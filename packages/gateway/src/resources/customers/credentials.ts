import type { Database, Queryable } from '@herald/store';
import { CUSTOMER_TYPE_ID } from './customer.js';

/** Global customers have no store; the e-mail index uses '' for them (migration 002). */
const STORE_OF_ROW = "coalesce(r.doc->'stores'->0->>'key', '')";

/**
 * Customer passwords (scrypt hashes, never in the document) and the e-mail lookups that the
 * document store does not offer: case-insensitive, per project or per store, served by the
 * `resources_customer_email_idx` expression index of migration 002.
 */
export class CustomerCredentials {
  constructor(private readonly db: Database) {}

  async savePassword(projectKey: string, customerId: string, passwordHash: string, createdAt: string): Promise<void> {
    await this.db.query(
      'INSERT INTO customer_passwords (project_key, customer_id, password_hash, created_at) VALUES ($1, $2, $3, $4)',
      [projectKey, customerId, passwordHash, createdAt],
    );
  }

  /** In `tx` when given: deleting a customer removes the password and the tokens in one transaction. */
  async deletePassword(projectKey: string, customerId: string, tx: Queryable = this.db): Promise<void> {
    await tx.query('DELETE FROM customer_passwords WHERE project_key = $1 AND customer_id = $2', [projectKey, customerId]);
  }

  /** Whether another customer of the same scope (project-global, or the store) has this e-mail. */
  async emailTaken(
    tx: Queryable,
    projectKey: string,
    email: string,
    storeKey: string | undefined,
    exceptCustomerId?: string,
  ): Promise<boolean> {
    const result = await tx.query(
      `SELECT 1 FROM resources r
       WHERE r.project_key = $1 AND r.type_id = $2 AND ${STORE_OF_ROW} = $3 AND lower(r.doc->>'email') = lower($4)
         AND r.id <> $5
       LIMIT 1`,
      [projectKey, CUSTOMER_TYPE_ID, storeKey ?? '', email, exceptCustomerId ?? ''],
    );
    return result.rows.length > 0;
  }

  /** §5.3 password flow: a customer of the store is preferred; global customers may sign in anywhere. */
  async findForLogin(
    projectKey: string,
    email: string,
    storeKey: string | undefined,
  ): Promise<{ customerId: string; passwordHash: string } | undefined> {
    const result = await this.db.query<{ id: string; password_hash: string }>(
      `SELECT r.id, p.password_hash FROM resources r
       JOIN customer_passwords p ON p.project_key = r.project_key AND p.customer_id = r.id
       WHERE r.project_key = $1 AND r.type_id = $2 AND lower(r.doc->>'email') = lower($3) AND ${STORE_OF_ROW} IN ('', $4)
       ORDER BY ${STORE_OF_ROW} DESC
       LIMIT 1`,
      [projectKey, CUSTOMER_TYPE_ID, email, storeKey ?? ''],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : { customerId: row.id, passwordHash: row.password_hash };
  }
}
