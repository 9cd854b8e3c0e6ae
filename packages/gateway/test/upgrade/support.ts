/**
 * Upgrade test support: a database as release candidate 5a70bf2 left it, then opened by this code.
 *
 * `fixture-5a70bf2.sql` is the data (pg_dump --data-only --column-inserts, herald_migrations rows
 * left out) of a PostgreSQL database that 5a70bf2's own code wrote through its public API with
 * delivery off (`make-fixture.mjs`, run from a `git worktree` of 5a70bf2): a project `shop`, an API
 * client, four subscriptions, stores and carts (some 100 and 120 days old, by the old code's injected
 * clock) and 15 outbox rows nobody routed. `fixture-5a70bf2.json` names them.
 *
 * The old schema is made by this code's migrations 1–7, which are byte for byte 5a70bf2's
 * (`git diff 5a70bf2 -- packages/store/src/migrations/00[1-7]*` is empty), recorded in
 * herald_migrations as runMigrations does; then the fixture rows; then `openDatabase` applies the rest.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS } from '@herald/store';
import { createIsolatedDatabase } from '@herald/testkit';

export const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, 'fixture-5a70bf2.json'), 'utf8')) as {
  project: string;
  cartOld120: string;
  cartOld100: string;
  cartTouched: string;
  cartRecent: string;
  apiClient: { id: string; secret: string };
  subStoreCreated: string;
  subStoreChanges: string;
  subToWiden: string;
  subCartChanges: string;
  storeBerlin: string;
  storeParis: string;
  outboxRows: number;
};

/** The old code's clock when it wrote the last row (the fixture's "now"). */
export const FIXTURE_TIME = '2026-11-22T13:03:20.591Z';

const OLD_MIGRATIONS = MIGRATIONS.filter((migration) => migration.id <= 7);
const FIXTURE_SQL = readFileSync(join(import.meta.dirname, 'fixture-5a70bf2.sql'), 'utf8');

/**
 * The statements 5a70bf2's runMigrations ran, then its rows. The old code's fauxqs listened on port
 * 44591, which is part of the queue URLs it stored: `sqsEndpoint` (this test's fauxqs) takes its place.
 */
function oldDatabaseScript(sqsEndpoint: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS herald_migrations (
      id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    ...OLD_MIGRATIONS.flatMap((migration) => [migration.sql, `INSERT INTO herald_migrations (id, name) VALUES (${migration.id}, '${migration.name}')`]),
    FIXTURE_SQL.replaceAll('sqs.us-east-1.localhost:44591', `sqs.us-east-1.localhost:${new URL(sqsEndpoint).port}`),
  ];
}

export interface OldDatabase {
  /** A DATABASE_URL: `pglite://<dir>` or `postgres://…`. */
  url: string;
  drop(): Promise<void>;
}

/** A PGlite data directory as 5a70bf2's `npm start` left it. */
export async function oldPgliteDirectory(sqsEndpoint: string): Promise<OldDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-upgrade-'));
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = new PGlite(dir);
  await pg.waitReady;
  try {
    for (const sql of oldDatabaseScript(sqsEndpoint)) await pg.exec(sql);
  } finally {
    await pg.close();
  }
  return { url: `pglite://${dir}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh database on the PostgreSQL server of `serverUrl`, as 5a70bf2 left it. */
export async function oldPostgresDatabase(serverUrl: string, sqsEndpoint: string): Promise<OldDatabase> {
  const isolated = await createIsolatedDatabase(serverUrl);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: isolated.url });
  await client.connect();
  try {
    for (const sql of oldDatabaseScript(sqsEndpoint)) await client.query(sql);
  } finally {
    await client.end();
  }
  return { url: isolated.url, drop: () => isolated.drop() };
}

/** The databases to upgrade: a PGlite data directory always, PostgreSQL when DATABASE_URL names one. */
export function upgradeTargets(): { name: string; make: (sqsEndpoint: string) => Promise<OldDatabase> }[] {
  const targets = [{ name: 'PGlite data directory', make: oldPgliteDirectory }];
  const server = process.env.DATABASE_URL;
  if (server?.startsWith('postgres') === true) targets.push({ name: 'PostgreSQL', make: (sqsEndpoint: string) => oldPostgresDatabase(server, sqsEndpoint) });
  return targets;
}
