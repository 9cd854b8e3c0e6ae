import type { Database, Queryable } from '@herald/store';
import { CUSTOMER_TYPE_ID } from './customer.js';

/** Customer.stores: a global customer has none; an in-store customer belongs to each store listed. */
const IS_GLOBAL = "coalesce(jsonb_array_length(r.doc->'stores'), 0) = 0";
const IN_STORE = (param: string) => `r.doc->'stores' @> jsonb_build_array(jsonb_build_object('key', ${param}::text))`;

/**
 * Customer passwords (scrypt hashes, never in the document) and the e-mail lookups that the
 * document store does not offer: case-insensitive, per project or per store. The unique index
 * `resources_customer_email_idx` of migration 002 closes the race for the customer's first store;
 * these checks cover every store of a customer in several.
 */
export class CustomerCredentials {
  constructor(private readonly db: Database) {}

  /** In `tx` when given: setAuthenticationMode to `Password` saves it in the update's transaction. */
  async savePassword(projectKey: string, customerId: string, passwordHash: string, createdAt: string, tx: Queryable = this.db): Promise<void> {
    // Upsert: a password row an ExternalAuth customer kept (written before the mode existed) is replaced, never a 500.
    await tx.query(
      `INSERT INTO customer_passwords (project_key, customer_id, password_hash, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_key, customer_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, created_at = EXCLUDED.created_at`,
      [projectKey, customerId, passwordHash, createdAt],
    );
  }

  /** In `tx` when given: deleting a customer removes the password and the tokens in one transaction. */
  async deletePassword(projectKey: string, customerId: string, tx: Queryable = this.db): Promise<void> {
    await tx.query('DELETE FROM customer_passwords WHERE project_key = $1 AND customer_id = $2', [projectKey, customerId]);
  }

  /**
   * A password reset (customer-tokens) or change: the new hash, in the caller's transaction.
   * Whether the customer had a password to replace (an `ExternalAuth` customer has none).
   */
  async replacePassword(tx: Queryable, projectKey: string, customerId: string, passwordHash: string): Promise<boolean> {
    const replaced = await tx.query('UPDATE customer_passwords SET password_hash = $3 WHERE project_key = $1 AND customer_id = $2 RETURNING 1', [
      projectKey,
      customerId,
      passwordHash,
    ]);
    return replaced.rows.length > 0;
  }

  /** The customer's stored hash (a password change verifies the current password against it). */
  async passwordHashOf(projectKey: string, customerId: string): Promise<string | undefined> {
    const result = await this.db.query<{ password_hash: string }>('SELECT password_hash FROM customer_passwords WHERE project_key = $1 AND customer_id = $2', [
      projectKey,
      customerId,
    ]);
    return result.rows[0]?.password_hash;
  }

  /** Whether another customer of the same scope (project-global, or the store) has this e-mail. */
  async emailTaken(tx: Queryable, projectKey: string, email: string, storeKey: string | undefined, exceptCustomerId?: string): Promise<boolean> {
    const scope = storeKey === undefined ? IS_GLOBAL : IN_STORE('$5');
    const result = await tx.query(
      `SELECT 1 FROM resources r
       WHERE r.project_key = $1 AND r.type_id = $2 AND lower(r.doc->>'email') = lower($3) AND r.id <> $4 AND ${scope}
       LIMIT 1`,
      [projectKey, CUSTOMER_TYPE_ID, email, exceptCustomerId ?? '', ...(storeKey === undefined ? [] : [storeKey])],
    );
    return result.rows.length > 0;
  }

  /**
   * §5.3 password flow (and the login endpoints): in a store, a customer of that store is
   * preferred and global customers may sign in too; without a store, only global customers
   * (Customer.stores: "If any Stores are specified, the Customer can only log in using the
   * Password Flow for Customers in a Store").
   */
  async findForLogin(projectKey: string, email: string, storeKey: string | undefined): Promise<{ customerId: string; passwordHash: string } | undefined> {
    const scope = storeKey === undefined ? IS_GLOBAL : `(${IS_GLOBAL} OR ${IN_STORE('$4')})`;
    const result = await this.db.query<{ id: string; password_hash: string }>(
      `SELECT r.id, p.password_hash FROM resources r
       JOIN customer_passwords p ON p.project_key = r.project_key AND p.customer_id = r.id
       WHERE r.project_key = $1 AND r.type_id = $2 AND lower(r.doc->>'email') = lower($3) AND ${scope}
       ORDER BY ${IS_GLOBAL} ASC
       LIMIT 1`,
      [projectKey, CUSTOMER_TYPE_ID, email, ...(storeKey === undefined ? [] : [storeKey])],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : { customerId: row.id, passwordHash: row.password_hash };
  }
}
