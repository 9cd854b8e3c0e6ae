import type { Database } from '../database/types.js';
import { initialSchema } from './001-initial.js';
import { ginFastUpdateOff } from './004-gin-fastupdate.js';
import { oauthSchema } from './002-oauth.js';
import { deliverySchema } from './003-delivery.js';
import { lookupIndexes } from './005-lookup-indexes.js';
import { keyQueryIndex } from './006-key-query-index.js';
import { messageStored } from './007-message-stored.js';
import { subscriptionRoutes } from './008-subscription-routes.js';
import { fairClaims } from './009-fair-claims.js';
import { deliveryQueues } from './010-delivery-queues.js';
import { routingEpochs } from './011-routing-epochs.js';
import { uniqueValues } from './012-unique-values.js';
import { discountCodeClaims } from './013-discount-code-claims.js';
import { gatewayUniqueClaims } from './014-gateway-unique-claims.js';
import { searchTerms } from './015-search-terms.js';
import { lz4Documents } from './016-lz4-documents.js';
import { ginPendingList } from './017-gin-pending-list.js';
import { outboxNotifyAfterCommit } from './018-outbox-notify-after-commit.js';
import { itemsLeftOutOfDocIndex } from './019-items-left-out-of-doc-index.js';

interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** Append-only: a migration, once released, is never edited; a change is a new entry. */
export const MIGRATIONS: readonly Migration[] = [
  { id: 1, name: 'initial', sql: initialSchema },
  { id: 2, name: 'oauth', sql: oauthSchema },
  { id: 3, name: 'delivery', sql: deliverySchema },
  { id: 4, name: 'gin-fastupdate-off', sql: ginFastUpdateOff },
  { id: 5, name: 'lookup-indexes', sql: lookupIndexes },
  { id: 6, name: 'key-query-index', sql: keyQueryIndex },
  { id: 7, name: 'message-stored', sql: messageStored },
  { id: 8, name: 'subscription-routes', sql: subscriptionRoutes },
  { id: 9, name: 'fair-claims', sql: fairClaims },
  { id: 10, name: 'delivery-queues', sql: deliveryQueues },
  { id: 11, name: 'routing-epochs', sql: routingEpochs },
  { id: 12, name: 'unique-values', sql: uniqueValues },
  { id: 13, name: 'discount-code-claims', sql: discountCodeClaims },
  { id: 14, name: 'gateway-unique-claims', sql: gatewayUniqueClaims },
  { id: 15, name: 'search-terms', sql: searchTerms },
  { id: 16, name: 'lz4-documents', sql: lz4Documents },
  { id: 17, name: 'gin-pending-list', sql: ginPendingList },
  { id: 18, name: 'outbox-notify-after-commit', sql: outboxNotifyAfterCommit },
  { id: 19, name: 'items-left-out-of-doc-index', sql: itemsLeftOutOfDocIndex },
];

/** Arbitrary constant: serialises concurrent starters (several workers) on one PostgreSQL. */
const MIGRATION_LOCK_ID = 7_042_001;

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS herald_migrations (
  id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;

/** Every migration as one script without parameters, for a database that has none yet (one transaction). */
export function newDatabaseScript(): string {
  const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const steps = MIGRATIONS.map(
    (migration) => `${migration.sql};\nINSERT INTO herald_migrations (id, name) VALUES (${migration.id}, ${quoted(migration.name)});`,
  );
  return ['BEGIN;', `${MIGRATIONS_TABLE};`, ...steps, 'COMMIT;'].join('\n');
}

/** Applies the migrations `db` lacks; answers how many it applied. */
export async function runMigrations(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    // Waits for another starter's migrations, however long they take (not the pool's statement bound).
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID], { timeoutMs: Number.POSITIVE_INFINITY });
    await tx.query(MIGRATIONS_TABLE);
    const applied = await tx.query<{ id: number }>('SELECT id FROM herald_migrations');
    const done = new Set(applied.rows.map((row) => row.id));
    const missing = MIGRATIONS.filter((migration) => !done.has(migration.id));
    for (const migration of missing) {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO herald_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
    }
    return missing.length;
  });
}
